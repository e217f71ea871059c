'use strict';
// Replication as a member reports it: its own state and optime (replSetGetStatus members[] entry
// with self: true, manual "replSetGetStatus"; stateStr, optimeDate on every line the lab runs),
// each member's lag seen by this member (src/faults/decisions.js memberLag: primary optimeDate
// minus the member's, unknown when unreachable), and the oplog's first and last entry
// (local.oplog.rs in natural order, as rs.printReplicationInfo reads them).
const { memberLag, toTs } = require('../faults/decisions');

const iso = (d) => (d instanceof Date ? d.toISOString() : d ? new Date(d).toISOString() : null);

function replOf(status, host) {
  const members = status.members || [];
  const self = members.find((x) => x.self) || members.find((x) => x.name === host) || null;
  return {
    raw: status,
    self_state: self ? self.stateStr : null,
    self_optime: self ? iso(self.optimeDate) : null,
    lagOf: (name) => memberLag(status, name),
  };
}

// oplogEnds(client) -> { oplog_first, oplog_last, oplog_window_s } (seconds of the oplog's
// Timestamps: the window a secondary may fall behind before it is too stale to catch up).
async function oplogEnds(client) {
  const col = client.db('local').collection('oplog.rs');
  const one = async (dir) => (await col.find({}, { sort: { $natural: dir }, limit: 1, projection: { ts: 1 } }).toArray())[0];
  const [first, last] = await Promise.all([one(1), one(-1)]);
  if (!first || !last || !first.ts || !last.ts) return { oplog_first: null, oplog_last: null, oplog_window_s: null };
  const a = toTs(first.ts).t;
  const b = toTs(last.ts).t;
  return { oplog_first: new Date(a * 1000).toISOString(), oplog_last: new Date(b * 1000).toISOString(), oplog_window_s: b - a };
}

module.exports = { replOf, oplogEnds };
