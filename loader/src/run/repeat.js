'use strict';
// --repeat N: the same parameters N times back to back, each repetition a whole run of its own
// (setup drops and re-creates the collection, its own results folder), all under one group id
// so the report can put repetitions, and the hosts of a multi-host run (--group ID), together.
const crypto = require('node:crypto');
const { groupTable } = require('../results/table');

// A group id nobody else will take: the start time and a few random bytes.
function newGroupId(experiment, date = new Date()) {
  const stamp = date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  return `${experiment.replace(/\.ya?ml$/, '').replace(/.*\//, '')}-${stamp}-${crypto.randomBytes(3).toString('hex')}`;
}

// runRepeated(opts, makeRun): exit code of the first repetition that did not complete (an
// interrupted or failed repetition stops the sequence: the next would measure a broken state),
// else 0.
// After the last of several repetitions, the group table (table.js groupTable): per step or case
// and op, the fastest, median and slowest repetition.
async function runRepeated(opts, makeRun = (o) => new (require('./runner').Run)(o), stdout = process.stdout) {
  const group = opts.group ?? newGroupId(opts.experiment);
  const n = opts.repeat ?? fileRepeat(opts);
  const done = [];
  for (let r = 1; r <= n; r++) {
    // On stdout, with the tables it heads: ./run.sh shows stdout through a pipe (tee, a filter)
    // and stderr straight, so a header on stderr overtook the previous repetition's table.
    if (n > 1) stdout.write(`repetition ${r}/${n} (group ${group})\n`);
    const run = makeRun({ ...opts, group, repetition: r });
    const code = await run.main();
    if (code !== 0) return code;
    done.push(run);
  }
  // A capacity search (--sla): each repetition's capacity, not its steps pooled by number.
  if (n > 1 && done.every((run) => run.capacity)) {
    stdout.write(require('../results/capacity-table').capacityGroup({ name: done[0].config.name, engine: done[0].engine, group, results: done.map((run) => run.capacity) }));
    return 0;
  }
  if (n > 1 && done.every((run) => Array.isArray(run.steps) && run.config)) {
    stdout.write(groupTable({ name: done[0].config.name, engine: done[0].engine, group,
      runs: done.map((run) => run.steps),
      concurrent: done.map((run) => (run.registration ? run.registration.overlaps() : [])),
      published: done[0].config.published, wide: opts.wide }));
  }
  return 0;
}

// fileRepeat(opts): the experiment file's `repeat:` when --repeat is not given (a file that does
// not load is reported by the run itself, with its own message).
function fileRepeat(opts) {
  try {
    return require('../experiment/config').load(opts).config.repeat;
  } catch {
    return 1;
  }
}

module.exports = { runRepeated };
