'use strict';
// read (experiment3): findOne({x: rand}) over the preloaded keys, whole document.
const { timed } = require('./ops');

module.exports = {
  name: 'read',
  ops: ['find'],
  opsPerIteration: 1,
  bound: 'duration',
  needsPreload: true,
  shape: 'steps',
  next(config, col, rng) {
    const keys = config.preload.docs;
    return async (record, intended, now) => {
      const x = rng.int(keys);
      await timed(record, 'find', intended, now, () => col.findOne({ x }));
      return true;
    };
  },
};
