'use strict';
// read_update (experiment2): the seed's readAndUpdate(): findOne({x: rand}, {y: 1}), then
// updateOne({x: rand}, {$set: {y: y + rand}}). The pair is paced as one unit, so with --rate any
// backlog shows in the find's latency from its intended start; the update follows at once.
// The find is findOne's command through db.command (kinds/ops.js findOneCommand); the update
// stays updateOne, which the driver makes a retryable write (txnNumber) as before.
const { timed, findOneCommand } = require('./ops');

const PROJECTION = { y: 1 };
const update = (col, pair) => col.updateOne(pair.filter, pair.change);

module.exports = {
  name: 'read_update',
  ops: ['find', 'update'],
  opsPerIteration: 2,
  bound: 'duration',
  needsPreload: true,
  shape: 'steps',
  next(config, col, rng, id, step, env) {
    const keys = config.preload.docs;
    const findOne = findOneCommand(env.db, col);
    return async (record, intended, now) => {
      const x = rng.int(keys);
      const filter = { x };
      const doc = await timed(record, 'find', intended, now, findOne, filter, PROJECTION);
      if (doc === null) return true; // the seed: if (doc == null) continue;
      // The update's own start is its intended time: it is issued at once after the find.
      const t = now();
      await timed(record, 'update', intended ? t : 0, now, update, col, { filter, change: { $set: { y: doc.y + x } } });
      return true;
    };
  },
};
