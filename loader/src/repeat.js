'use strict';
// --repeat N: the same parameters N times back to back, each repetition a whole run of its own
// (setup drops and re-creates the collection, its own results folder), all under one group id
// so the report can put repetitions, and the hosts of a multi-host run (--group ID), together.
const crypto = require('node:crypto');

// A group id nobody else will take: the start time and a few random bytes.
function newGroupId(experiment, date = new Date()) {
  const stamp = date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  return `${experiment.replace(/\.ya?ml$/, '').replace(/.*\//, '')}-${stamp}-${crypto.randomBytes(3).toString('hex')}`;
}

// runRepeated(opts, makeRun): exit code of the first repetition that did not complete (an
// interrupted or failed repetition stops the sequence: the next would measure a broken state),
// else 0.
async function runRepeated(opts, makeRun = (o) => new (require('./runner').Run)(o)) {
  const group = opts.group ?? newGroupId(opts.experiment);
  const n = opts.repeat ?? fileRepeat(opts);
  for (let r = 1; r <= n; r++) {
    if (n > 1) process.stderr.write(`repetition ${r}/${n} (group ${group})\n`);
    const code = await makeRun({ ...opts, group, repetition: r }).main();
    if (code !== 0) return code;
  }
  return 0;
}

// fileRepeat(opts): the experiment file's `repeat:` when --repeat is not given (a file that does
// not load is reported by the run itself, with its own message).
function fileRepeat(opts) {
  try {
    return require('./config').load(opts).config.repeat;
  } catch {
    return 1;
  }
}

module.exports = { runRepeated, newGroupId };
