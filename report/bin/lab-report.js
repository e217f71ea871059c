#!/usr/bin/env node
'use strict';
// The comparison report: see report/README.md. ./run.sh report calls exactly this.
let cli;
try {
  cli = require('../src/cli');
} catch (e) {
  // The chart library and the histogram reader are npm packages: say how to get them.
  if (e.code !== 'MODULE_NOT_FOUND') throw e;
  process.stderr.write(`lab-report: report/node_modules is missing (${e.message.split('\n')[0]}): run 'cd report && npm ci' once\n`);
  process.exit(1);
}
// A reader that stops early (`./run.sh report | head -1`) ends the report quietly, never with an
// EPIPE stack trace: the files are written before the summary is printed, so the report is done;
// later output is dropped and the exit code stays the report's own (0 when it was written). Not
// 141 (death by SIGPIPE): under `set -o pipefail` that would fail a script whose report was made.
// The same watch as the loader's (common/closed-output.js).
require('../../common/closed-output').watchOutput(undefined, () => {});
process.exitCode = cli.main(process.argv.slice(2));
