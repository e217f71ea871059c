'use strict';
// Replication as a member reports it: its own state and optime (replSetGetStatus members[] entry
// with self: true, manual "replSetGetStatus"; stateStr, optimeDate on every line the lab runs),
// each member's lag seen by this member, and the oplog's first and last entry (local.oplog.rs in
// natural order, as rs.printReplicationInfo reads them) with its size against maxSize.
//
// Lag as the server defines it (common/meanings.js `lag`): where the line reports each member's
// lastAppliedWallTime (4.4+: 8.0 topology_coordinator.cpp prepareStatusResponse), the primary's
// less the member's, to the millisecond (lag_source lastAppliedWallTime); else the primary's
// optimeDate less the member's (src/faults/decisions.js memberLag), whole seconds of the optime
// as of the last heartbeat (every 2 s), so a healthy secondary reads 0-2 s: lag_source
// optimeDate, with that floor stated (lag_floor_s).
const { memberLag, toTs } = require('../faults/decisions');
const { oplogRange } = require('../server/oplog-range');
const { meaningOf } = require('../../../common/meanings');

const iso = (d) => (d instanceof Date ? d.toISOString() : d ? new Date(d).toISOString() : null);
const ms = (d) => (d instanceof Date ? d.getTime() : d ? Date.parse(d) : NaN);

// lagOf(status, name) -> { lagSeconds, source, floor_s? } (lagSeconds null when unknown).
function lagOf(status, name) {
  const base = memberLag(status, name);
  if (!base.known) return { lagSeconds: null, source: null, reason: base.reason };
  const members = status.members || [];
  const primary = members.find((x) => x.stateStr === 'PRIMARY');
  const member = members.find((x) => x.name === name) || members.find((x) => x.name.split(':')[0] === name.split(':')[0] && x.name.endsWith(name.split(':')[1]));
  const a = primary && ms(primary.lastAppliedWallTime);
  const b = member && ms(member.lastAppliedWallTime);
  if (Number.isFinite(a) && Number.isFinite(b) && a > 0 && b > 0) return { lagSeconds: Math.max(0, Math.round(a - b) / 1000), source: 'lastAppliedWallTime' };
  return { lagSeconds: base.lagSeconds, source: 'optimeDate', floor_s: meaningOf('lag', 'optimeDate').floor_s };
}

function replOf(status, host) {
  const members = status.members || [];
  const self = members.find((x) => x.self) || members.find((x) => x.name === host) || null;
  return {
    raw: status,
    self_state: self ? self.stateStr : null,
    self_optime: self ? iso(self.optimeDate) : null,
    lagOf: (name) => lagOf(status, name),
  };
}

// oplogEnds(client) -> { oplog_first, oplog_last, oplog_window_s, oplog_size, oplog_max_size,
// oplog_full }: the window (seconds of the oplog's Timestamps) is the time a secondary may fall
// behind and still catch up only once the oplog has reached its maxSize (a capped collection:
// collStats size against maxSize); before that its first entry is the set's initiate and the
// window is the set's age (oplog_full false). Full: within 5 % of maxSize (a capped oplog
// truncates whole entries, so it sits just under it).
const FULL_AT = 0.95;
async function oplogEnds(client) {
  const { first, last, stats: st } = await oplogRange(client);
  const size = st && Number(st.size);
  const max = st && Number(st.maxSize);
  const fill = Number.isFinite(size) && max > 0
    ? { oplog_size: size, oplog_max_size: max, oplog_full: size >= FULL_AT * max } : { oplog_size: null,
    oplog_max_size: null, oplog_full: null };
  if (!first || !last) return { oplog_first: null, oplog_last: null, oplog_window_s: null, ...fill };
  const a = toTs(first).t;
  const b = toTs(last).t;
  return { oplog_first: new Date(a * 1000).toISOString(), oplog_last: new Date(b * 1000).toISOString(),
    oplog_window_s: b - a, ...fill };
}

module.exports = { replOf, oplogEnds, FULL_AT };
