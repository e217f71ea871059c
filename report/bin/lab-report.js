#!/usr/bin/env node
'use strict';
// The comparison report (issue 11): see report/README.md. ./run.sh report calls exactly this.
let cli;
try {
  cli = require('../src/cli');
} catch (e) {
  // The chart library and the histogram reader are npm packages: say how to get them.
  if (e.code !== 'MODULE_NOT_FOUND') throw e;
  process.stderr.write(`lab-report: report/node_modules is missing (${e.message.split('\n')[0]}): run 'cd report && npm ci' once\n`);
  process.exit(1);
}
process.exitCode = cli.main(process.argv.slice(2));
