'use strict';
// Floor of insert: insertOne of the seed's document (a retryable write, as the loader sends it).
const { makeDoc } = require('../../src/kinds/ops');

module.exports = {
  ops: 1,
  make({ config, col, rng, id, clients }) {
    let x = 1e9 + id; // above the loader's keys: the floor runs after it on the same collection
    return () => {
      const doc = makeDoc(config, rng, x);
      x += clients;
      return col.insertOne(doc);
    };
  },
};
