'use strict';
// read (experiment3): findOne({x: rand}) over the preloaded keys, whole document, sent as the
// same find command through db.command (kinds/ops.js findOneCommand).
const { timed, findOneCommand } = require('./ops');

module.exports = {
  name: 'read',
  ops: ['find'],
  opsPerIteration: 1,
  bound: 'duration',
  needsPreload: true,
  shape: 'steps',
  next(config, col, rng, id, step, env) {
    const keys = config.preload.docs;
    const findOne = findOneCommand(env.db, col);
    return async (record, intended, now) => {
      await timed(record, 'find', intended, now, findOne, { x: rng.int(keys) });
      return true;
    };
  },
};
