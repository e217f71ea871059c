'use strict';
// read_update (experiment2): the seed's readAndUpdate(): findOne({x: rand}, {y: 1}), then
// updateOne({x: rand}, {$set: {y: y + rand}}). The pair is paced as one unit, so with --rate any
// backlog shows in the find's latency from its intended start; the update follows at once, and
// is due at the pair's intended start plus the find's service time (where it would have started
// had the pair started on time): a backlog shows in its intended latency too.
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
    return async (record, intended, now) => {
      const x = rng.int(keys);
      const filter = { x };
      const t0 = now();
      let t = t0;
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
      // Its intended start: the pair's plus the find's service time (was its actual start, which
      // made its intended latency the service latency whatever the backlog).
      t = found;
      const due = intended ? intended + (found - t0) : 0;
      try {
        await col.updateOne(filter, { $set: { y: doc.y + x } });
      } catch (e) {
        record('update', t, now(), due, false);
        throw e;
      }
      record('update', t, now(), due, true);
      return true;
    };
  },
};
