#!/usr/bin/env node
'use strict';
// lab-ycsb: the Node half of `./run.sh ycsb-a --tool ycsb` (lib/ycsb.sh runs YCSB between them).
//   lab-ycsb prepare NAME [lab-loader flags]  checks the flags as a run does, makes the results
//                                             folder, writes ycsb/workload.properties and the plan;
//                                             prints "dir: DIR" and "threads: 1 2 4"
//   lab-ycsb summarize DIR [--grafana-url URL --grafana-password-file FILE]
//                                             YCSB's outputs in DIR/ycsb/ -> DIR/summary.json and
//                                             timeline.ndjson, one Grafana annotation per step;
//                                             prints "results: DIR"
// Exit codes: 0, 1 (error), 2 (usage: one line on stderr).
const { parse, UsageError } = require('../src/cli/args');
const { prepare, summarize, annotate } = require('../src/ycsb-tool');

async function main(argv) {
  const [command, ...rest] = argv;
  try {
    if (command === 'prepare') {
      const opts = parse(rest);
      const { REPO_ROOT } = require('../src/experiment/config');
      if (!opts.resultsDir) opts.resultsDir = require('node:path').join(REPO_ROOT, 'results');
      const { dir, threads } = prepare(opts);
      process.stdout.write(`dir: ${dir}\nthreads: ${threads.join(' ')}\n`);
      return 0;
    }
    if (command === 'summarize' && rest.length >= 1) {
      const { parseArgs } = require('node:util');
      const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, strict: true,
        options: { 'grafana-url': { type: 'string' }, 'grafana-password-file': { type: 'string' } } });
      if (positionals.length !== 1) throw new UsageError('summarize takes one results folder');
      const s = summarize(positionals[0]);
      const password = values['grafana-password-file'] ? require('node:fs').readFileSync(values['grafana-password-file'], 'utf8').trim() : undefined;
      await annotate(s, { url: values['grafana-url'], password, log: (m) => process.stderr.write(`${m}\n`) });
      process.stdout.write(`results: ${positionals[0]}\n`);
      if (!s.complete) process.stderr.write(`incomplete: ${s.reason}\n`);
      return s.complete ? 0 : 1;
    }
    throw new UsageError('usage: lab-ycsb prepare NAME [flags] | lab-ycsb summarize DIR');
  } catch (e) {
    process.stderr.write(`error: ${e instanceof UsageError ? e.message : e.stack || e}\n`);
    return e instanceof UsageError ? 2 : 1;
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
