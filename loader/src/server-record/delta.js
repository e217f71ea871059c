'use strict';
// From two serverStatus readings of one member to one line's values: counters as per-second
// rates over the interval between the two readings, gauges as read, MMAPv1's windowed `dur`
// totals as the rate of their own window. Nothing that was not read is invented: a counter
// without a previous reading (the member's first second, or the first after a gap) or that went
// down (a restarted process) is left out of that line, with the reason in `gaps`.
const { FIELDS, read, valueAt } = require('./fields');
const { round } = require('../../../common/stats');

// readStatus(status) -> { values: {key: number}, reported: Set(key) }
function readStatus(status) {
  const values = {};
  for (const f of FIELDS) {
    const r = read(f, status);
    if (r) values[f.key] = r.value;
  }
  // dur's window length (ms): the divisor of its totals.
  const dt = valueAt(status, ['dur', 'timeMs', 'dt']);
  return { values, durWindowMs: typeof dt === 'number' && dt > 0 ? dt : null };
}

// setPath(obj, 'wt.cache_bytes', v): nested, so jq reads .wt.cache_bytes.
function setPath(obj, key, v) {
  const [group, name] = key.split('.');
  (obj[group] ||= {})[name] = v;
}

// On 3.6 and 4.0 all six opcounters (and opcountersRepl's) are set to 0 together when any of them
// passes 2^30 (src/mongo/db/stats/counters.cpp OpCounters::_checkWrap, r3.6/r4.0; gone in 8.0,
// whose counters are 64-bit): a fall of that section after a value above 2^30 is that wrap, not a
// restart.
const WRAP_AT = 2 ** 30;
function wrapped(prev, cur, group) {
  if (!prev) return false;
  const keys = FIELDS.filter((f) => f.key.startsWith(`${group}.`) && f.kind === 'counter').map((f) => f.key);
  const before = keys.map((k) => prev.values[k]).filter((v) => v !== undefined);
  return before.some((v) => v > WRAP_AT) && keys.some((k) => cur.values[k] !== undefined && prev.values[k] !== undefined
    && cur.values[k] < prev.values[k]);
}

// lineValues(prev, cur) -> { fields: nested object, gaps: [reason...] }
// prev, cur: { at (ms), values, durWindowMs } (prev null for a member's first reading).
function lineValues(prev, cur) {
  const out = {};
  const gaps = new Set();
  const intervalS = prev ? (cur.at - prev.at) / 1000 : null;
  const wraps = new Set(['ops', 'repl_ops'].filter((g) => wrapped(prev, cur, g)));
  for (const f of FIELDS) {
    const v = cur.values[f.key];
    if (v === undefined) continue; // not reported by this member: absent (summary lists it once)
    if (f.kind === 'gauge') setPath(out, f.key, v);
    else if (f.kind === 'window') {
      if (cur.durWindowMs) setPath(out, f.key, round((v * (f.scale || 1)) / (cur.durWindowMs / 1000), 1));
    } else {
      const p = prev ? prev.values[f.key] : undefined;
      if (p === undefined || !(intervalS > 0)) { gaps.add('first reading: counters start at the next second'); continue; }
      const group = f.key.split('.')[0];
      if (wraps.has(group)) { gaps.add(`${group === 'ops' ? 'opcounters' : 'opcountersRepl'} wrapped (3.6/4.0 set all six to 0 when one passes 2^30): their rates are left out this second`); continue; }
      if (v < p) { gaps.add('a counter went down (the process restarted?): its rate is left out this second'); continue; }
      setPath(out, f.key, round((v - p) / intervalS, 1));
    }
  }
  return { fields: out, gaps: [...gaps] };
}

module.exports = { readStatus, lineValues };
