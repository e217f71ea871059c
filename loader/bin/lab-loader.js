#!/usr/bin/env node
'use strict';
// lab-loader: runs experiments/experiment1..3.yaml against MongoDB. See --help.
// Exit codes: 0 complete, 1 runtime error or incomplete run, 2 usage error (one line on stderr),
// 130 SIGINT, 143 SIGTERM.
const { parse, UsageError, USAGE } = require('../src/args');

// A usage error is one line naming the flag and the fix; --help has the full listing.
const usageError = (e) => process.stderr.write(`error: ${e.message}\n`);

async function main(argv) {
  let opts;
  try {
    opts = parse(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    usageError(e);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const { Run } = require('../src/runner');
  try {
    return await new Run(opts).main();
  } catch (e) {
    if (e instanceof UsageError) {
      usageError(e);
      return 2;
    }
    process.stderr.write(`error: ${e.stack || e}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => {
  // Explicit exit: a driver timer or a stuck socket must not keep a finished run alive.
  process.exit(code);
});
