'use strict';
// oplogRange(client) -> { first, last, stats }: the ts of a member's oldest and newest oplog entry
// (null when it has none) and the oplog's collStats (null when refused), the three asked at once.
// One reading for both callers: the fault scenarios' member windows (src/faults/cluster.js
// Members.window) and the server record's oplog window (src/server-record/repl.js oplogEnds).
async function oplogRange(client) {
  const local = client.db('local');
  const one = async (dir) => (await local.collection('oplog.rs').find({}, { sort: { $natural: dir }, limit: 1,
    projection: { ts: 1 } }).toArray())[0]?.ts ?? null;
  const stats = local.command({ collStats: 'oplog.rs' }).catch(() => null);
  const [first, last, st] = await Promise.all([one(1), one(-1), stats]);
  return { first, last, stats: st };
}

module.exports = { oplogRange };
