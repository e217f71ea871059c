#!/usr/bin/env node
'use strict';
// lab-loader: runs experiments/NAME.yaml against MongoDB (check: validate only; list). See --help.
// Exit codes: 0 complete, 1 runtime error or incomplete run, 2 usage error (one line on stderr),
// 130 SIGINT, 143 SIGTERM, 129 SIGHUP or the terminal gone (common/closed-output.js).
const { parse, UsageError, usage } = require('../src/cli/args');
const { redactText } = require('../src/text/redact-uri');

// A usage error is one line naming the flag and the fix; --help has the full listing. Both error
// paths pass through redactText: a message or a driver's stack may quote the URI typed.
// One line: a value's control characters (a newline typed in a flag) are written as \n, \t, ...;
// a newline cut the error before its reason (./run.sh reads its first line).
const oneLine = (text) => text.replace(/[\u0000-\u001f\u007f]/g, (c) => ({ '\n': '\\n', '\r': '\\r', '\t': '\\t' }[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
const usageError = (e) => process.stderr.write(`error: ${oneLine(redactText(e.message))}\n`);

// A closed stdout or stderr: `lab-loader list | head` exits 0 (the reader has what it wanted); a
// run stops cleanly and marks its summary (common/closed-output.js).
require('../../common/closed-output').watchOutput();

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
    const own = opts.experiment ? require('../src/cli/catalog').flagsHelp(opts.experiment, opts.experimentsDir) : '';
    process.stdout.write(usage(opts.experimentsDir) + '\n' + own);
    return 0;
  }
  try {
    if (opts.command === 'merge-summary') {
      require('../src/results/merge-summary').mergeCommand(opts.dirs, require('node:fs').readFileSync(0, 'utf8'));
      return 0;
    }
    if (opts.command === 'summary-facts') {
      require('../src/results/summary-facts').factsCommand(opts.dirs, process.stdout);
      return 0;
    }
    if (opts.command === 'list') return require('../src/cli/catalog').print(opts.experimentsDir, process.stdout);
    // flags [NAME]: ./run.sh help's experiment flags (or NAME --help's), defaults from the files
    if (opts.command === 'flags') {
      const catalog = require('../src/cli/catalog');
      process.stdout.write(require('../src/cli/flag-help').runshFlags(opts.experimentsDir, opts.experiment));
      if (opts.experiment) process.stdout.write(catalog.flagsHelp(opts.experiment, opts.experimentsDir));
      else {
        process.stdout.write(' Each workload\'s own flags, as its kind declares them (loader/src/kinds):\n');
        catalog.printKindFlags(opts.experimentsDir, process.stdout);
      }
      return 0;
    }
    // check: the same parser and experiment-file validation as a run, and nothing else, so that
    // ./run.sh refuses bad flags with the loader's own words before it starts anything.
    // estimate: what one run's measured steps will take (src/experiment/estimate.js), for ./run.sh compare.
    if (opts.command === 'estimate') {
      const { estimateRun, estimateLine } = require('../src/experiment/estimate');
      process.stdout.write(`${estimateLine(estimateRun(require('../src/experiment/config').load(opts).config))}\n`);
      return 0;
    }
    if (opts.command === 'check') {
      const loaded = require('../src/experiment/config').load(opts);
      // what ./run.sh needs of the experiment: its facts and the kind's stack hooks (or, for a
      // --tool that cannot run it, the refusal, before anything is printed)
      const requests = require('../src/cli/stack-requests').requestLines(loaded, opts);
      const lines = require('../src/cli/catalog').settingsLines(loaded.config.workload.type, loaded.settings);
      if (lines) process.stdout.write(`${lines}\n`); // the kind's own settings and their sources
      process.stdout.write(`${requests.join('\n')}\n`);
      return 0;
    }
    return await require('../src/run/repeat').runRepeated(opts);
  } catch (e) {
    if (e instanceof UsageError) {
      usageError(e);
      return 2;
    }
    process.stderr.write(`error: ${redactText(e.stack || e)}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => {
  // Explicit exit: a driver timer or a stuck socket must not keep a finished run alive.
  process.exit(code);
});
