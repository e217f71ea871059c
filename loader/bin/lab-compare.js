#!/usr/bin/env node
'use strict';
// lab-compare: the decisions of ./run.sh compare (lib/compare.sh performs them: it runs Docker,
// the loader, the traps and the lock). Node builtins only: it needs no npm install.
//   plan REPEAT SIDE...            plan.tsv (position<TAB>side) in the interleaved order
//   positions PLAN_FILE RUNS_FILE  position<TAB>side<TAB>done|todo, in plan order
//   folders RUNS_FILE              the results folders the runs wrote, one a line
//   resumable COMPARISONS_DIR      the ids there that a --resume would still run something of
//   check-id VERB ID               nothing when ID names a comparison, else refused for VERB
//   resume-args ID --comparisons DIR --secrets DIR --shown TEXT [--hint-results-dir] < URIS
//                                  the resumed comparison's arguments, NUL-separated; URIS: the
//                                  NAME=URI given with --resume, NUL-separated on stdin (a password
//                                  in one stays off this process's command line)
// A refusal is its message alone on stderr (lib/compare.sh says it as its own error) and exit 2
// (bad input) or 1 (the environment).
const { parseArgs } = require('node:util');
const { planOrder, planTsv } = require('../src/compare/plan');
const { positions, runFolders, resumable } = require('../src/compare/state');
const { resumeArgs, checkId, CompareRefusal, readArgs } = require('../src/compare/resume');

const usage = (why) => new CompareRefusal(`lab-compare: ${why}`, 2);

function main(argv) {
  const [command, ...rest] = argv;
  if (command === 'plan') {
    const [repeat, ...sides] = rest;
    if (!/^[1-9][0-9]*$/.test(repeat ?? '') || sides.length < 1) throw usage('plan REPEAT SIDE...');
    return planTsv(planOrder(Number(repeat), sides));
  }
  if (command === 'positions') {
    if (rest.length !== 2) throw usage('positions PLAN_FILE RUNS_FILE');
    return positions(...rest).map((p) => `${p.position}\t${p.side}\t${p.done ? 'done' : 'todo'}\n`).join('');
  }
  if (command === 'folders') {
    if (rest.length !== 1) throw usage('folders RUNS_FILE');
    return runFolders(rest[0]).map((dir) => `${dir}\n`).join('');
  }
  if (command === 'resumable') {
    if (rest.length !== 1) throw usage('resumable COMPARISONS_DIR');
    return resumable(rest[0]).map((id) => `${id}\n`).join('');
  }
  if (command === 'check-id') {
    if (rest.length !== 2) throw usage('check-id VERB ID');
    checkId(...rest);
    return '';
  }
  if (command === 'resume-args') {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        comparisons: { type: 'string' }, secrets: { type: 'string' }, shown: { type: 'string' },
        'hint-results-dir': { type: 'boolean' },
      },
    });
    if (positionals.length !== 1 || !values.comparisons || !values.secrets || values.shown === undefined) {
      throw usage('resume-args ID --comparisons DIR --secrets DIR --shown TEXT [--hint-results-dir] < URIS');
    }
    const args = resumeArgs({
      id: positionals[0], comparisonsDir: values.comparisons, secretsDir: values.secrets, shownDir: values.shown,
      hintResultsDir: values['hint-results-dir'] ?? false, uris: readArgs(0),
    });
    return args.map((a) => `${a}\0`).join('');
  }
  throw usage('plan | positions | folders | resumable | check-id | resume-args (see bin/lab-compare.js)');
}

try {
  process.stdout.write(main(process.argv.slice(2)));
} catch (e) {
  if (!(e instanceof CompareRefusal) && !String(e.code).startsWith('ERR_PARSE_ARGS')) throw e;
  process.stderr.write(`${e.message}\n`);
  process.exitCode = e.exitCode ?? 2;
}
