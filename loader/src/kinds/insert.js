'use strict';
// insert (experiment1): insertOne({x: i, y: ...}) until workload.docs documents are in.
// Client j of n inserts x = j, j + n, j + 2n, ...: with the seed's one client that is 0, 1, 2, ...
const { timed, makeDoc } = require('./ops');

const insert = (col, doc) => col.insertOne(doc);

module.exports = {
  name: 'insert',
  ops: ['insert'],
  opsPerIteration: 1,
  bound: 'documents',
  needsPreload: false,
  shape: 'steps',
  next(config, col, rng, id, step) {
    const n = step.clients.length;
    let x = step.clients.indexOf(id);
    const end = config.workload.docs;
    return async (record, intended, now) => {
      if (x >= end) return false;
      const doc = makeDoc(config, rng, x);
      x += n;
      await timed(record, 'insert', intended, now, insert, col, doc);
      return x < end;
    };
  },
};
