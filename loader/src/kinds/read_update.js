'use strict';
// read_update (experiment2): the seed's readAndUpdate(): findOne({x: rand}, {y: 1}), then
// updateOne({x: rand}, {$set: {y: y + rand}}). The pair is paced as one unit, so with --rate any
// backlog shows in the find's latency from its intended start; the update follows at once.
const { timed } = require('./ops');

module.exports = {
  name: 'read_update',
  ops: ['find', 'update'],
  opsPerIteration: 2,
  bound: 'duration',
  needsPreload: true,
  shape: 'steps',
  next(config, col, rng) {
    const keys = config.preload.docs;
    return async (record, intended, now) => {
      const x = rng.int(keys);
      const doc = await timed(record, 'find', intended, now, () => col.findOne({ x }, { projection: { y: 1 } }));
      if (doc === null) return true; // the seed: if (doc == null) continue;
      // The update's own start is its intended time: it is issued at once after the find.
      const t = now();
      await timed(record, 'update', intended ? t : 0, now, () => col.updateOne({ x }, { $set: { y: doc.y + x } }));
      return true;
    };
  },
};
