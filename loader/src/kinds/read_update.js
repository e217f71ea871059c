'use strict';
// read_update (experiment2): the seed's readAndUpdate(): findOne({x: rand}, {y: 1}), then
// updateOne({x: rand}, {$set: {y: y + rand}}). The pair is paced as one unit, so with --rate any
// backlog shows in the find's latency from its intended start; the update follows at once.
// The find is findOne's command through db.command (kinds/ops.js findOneCommand); the update
// stays updateOne, which the driver makes a retryable write (txnNumber) as before.
const { findOneCommand } = require('./ops');

const PROJECTION = { y: 1 };

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
    // Timed inline rather than through a shared timing wrapper: one async layer (a promise and its
    // microtasks) less per op on the hot path.
    return async (record, intended, now) => {
      const x = rng.int(keys);
      const filter = { x };
      let t = now();
      let doc;
      try {
        doc = await findOne(filter, PROJECTION);
      } catch (e) {
        record('find', t, now(), intended, false);
        throw e;
      }
      const found = now();
      record('find', t, found, intended, true);
      if (doc === null) return true; // the seed: if (doc == null) continue;
      // The update's own start is its intended time: it is issued at once after the find.
      t = found;
      try {
        await col.updateOne(filter, { $set: { y: doc.y + x } });
      } catch (e) {
        record('update', t, now(), intended ? t : 0, false);
        throw e;
      }
      record('update', t, now(), intended ? t : 0, true);
      return true;
    };
  },
};
