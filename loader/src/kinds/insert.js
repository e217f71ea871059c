'use strict';
// insert (experiment1): insertOne({x: i, y: ...}) until workload.docs documents are in.
// Client j of n inserts x = j, j + n, j + 2n, ...: with the seed's one client that is 0, 1, 2, ...
const { makeDoc } = require('./ops');

module.exports = {
  name: 'insert',
  ops: ['insert'],
  opsPerIteration: 1,
  bound: 'documents',
  needsPreload: false,
  shape: 'steps',
  next(config, col, rng, id, step) {
    const n = step.clientIds.length;
    let x = step.clientIds.indexOf(id);
    const end = config.workload.docs;
    return async (record, intended, now) => {
      if (x >= end) return false;
      const doc = makeDoc(config, rng, x);
      x += n;
      const t = now();
      try {
        await col.insertOne(doc);
      } catch (e) {
        record('insert', t, now(), intended, false);
        throw e;
      }
      record('insert', t, now(), intended, true);
      return x < end;
    };
  },
};
