'use strict';
// Per-step facts from the server record, pure functions of its rows
// ({ at, member, role, interval_s, values, repl } per member per second, and the primary's view
// { at, view: [{ name, state }] }), so they are tested on synthetic rows as well as on runs.
//
// write_cost: bytes written to files per document written, on the members that took the writes
//   (each second's PRIMARY, or a standalone), from the counters common/meanings.js names for the
//   member's storage engine (write_bytes: WiredTiger block manager + log; inMemory's block
//   manager; MMAPv1 dur journal + the copies into the mapped view, which are no disk writes;
//   MongoRocks WAL + flush + compaction, never its logical bytes-written), with `quantity` (the
//   same id on two engines = the same quantity) and `means`.
//   Documents written = the same members' opcounters insert + update + delete over the step
//   (operations as the server counted them: an insert counts documents, an update statements).
//   cpu_ms_per_1000_ops: their extra_info user + system CPU over insert + query + update + delete
//   + getmore (commands left out: the record's own serverStatus calls are commands).
//   A figure a line does not report is null with the reason, never 0.
// replication: per secondary lag p50 / p99 / max over the step's seconds with its source
//   (lastAppliedWallTime, or optimeDate with its 2 s heartbeat floor), the smallest oplog window
//   and whether the oplog was full, every state change the primary saw (and a member's own), each
//   from the state last seen before the step, and `flagged` when a secondary left SECONDARY or
//   lagged past half the oplog window of a full oplog (seeds/004: secondaries lost heartbeats and
//   fell too stale to catch up during a 20M insert); with an oplog not yet full the window is the
//   set's age and nothing is judged on it.
const { round } = require('../../../common/stats');
const { meaningOf } = require('../../../common/meanings');

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : null;
}

// total(rows, group, name): sum of a per-second rate x the row's interval; null when no row has it.
function total(rows, group, name) {
  const have = rows.filter((r) => r.values[group] && typeof r.values[group][name] === 'number' && r.interval_s);
  return have.length ? sum(have.map((r) => r.values[group][name] * r.interval_s)) : null;
}

const isWriter = (r) => (r.repl ? r.repl.state === 'PRIMARY' : r.role === 'standalone' || r.role === 'shard');

// The engine of the writing members (the first that names one), else guessed from the sections
// they reported (a server that names none: a standalone test server).
function engineOf(w) {
  const named = w.find((r) => r.engine);
  if (named) return named.engine;
  const has = (g, n) => w.some((r) => r.values[g] && typeof r.values[g][n] === 'number');
  if (has('wt', 'log_written_bytes')) return 'wiredTiger';
  if (has('wt', 'block_written_bytes')) return 'inMemory';
  if (has('mmapv1', 'journaled_bytes')) return 'mmapv1';
  if (has('rocks', 'wal_bytes')) return 'rocksdb';
  return null;
}

function writeCost(rows) {
  const w = rows.filter((r) => r.member && isWriter(r));
  if (!w.length) return { docs_written: null, bytes_per_doc: null, reason: 'no member that took the writes answered during the step' };
  const docs = ['insert', 'update', 'delete'].map((k) => total(w, 'ops', k));
  const docsWritten = docs.every((d) => d === null) ? null : Math.round(sum(docs.filter((d) => d !== null)));
  const out = { members: [...new Set(w.map((r) => r.member))], docs_written: docsWritten, bytes_written: null,
    bytes_per_doc: null, parts: {} };
  const engine = engineOf(w);
  const meaning = meaningOf('write_bytes', engine);
  if (meaning.parts) {
    const parts = meaning.parts.map((k) => [k, total(w, ...k.split('.'))]).filter(([, v]) => v !== null);
    if (parts.length) {
      out.source = engine.toLowerCase();
      for (const [k, v] of parts) out.parts[k] = Math.round(v);
      out.bytes_written = Math.round(sum(parts.map(([, v]) => v)));
      out.quantity = meaning.quantity;
      out.means = meaning.measures;
    }
  }
  if (out.bytes_written === null) out.reason = 'the server reports no bytes written by its engine (no block-manager, log, dur or rocksdb counters: summary.json server_record.absent)';
  else if (!docsWritten) out.reason = docsWritten === 0 ? 'no document written in the step' : 'the server reports no opcounters';
  else {
    out.bytes_per_doc = round(out.bytes_written / docsWritten, 1);
    if (out.bytes_per_doc === 0) out.zero_note = `no bytes reached the files for the ${docsWritten} documents written (${out.means})`;
  }
  const cpu = [total(w, 'proc', 'cpu_user_us'), total(w, 'proc', 'cpu_system_us')];
  const ops = ['insert', 'query', 'update', 'delete', 'getmore'].map((k) => total(w, 'ops', k)).filter((v) => v !== null);
  if (cpu.some((c) => c === null)) out.cpu_ms_per_1000_ops = { value: null, reason: 'the server reports no CPU time (extra_info user_time_us / system_time_us)' };
  else if (!sum(ops)) out.cpu_ms_per_1000_ops = { value: null, reason: 'no operations counted by the server in the step' };
  else out.cpu_ms_per_1000_ops = { value: round((sum(cpu) / 1000) / (sum(ops) / 1000), 3),
    cpu_s: round(sum(cpu) / 1e6, 3), ops: Math.round(sum(ops)) };
  return out;
}

// eachSighting(rows, fn): fn(by, member, state, at) for each member's state as the primary saw
// it, second by second, then as each member said itself.
function eachSighting(rows, fn) {
  for (const r of rows) if (r.view) for (const m of r.view) fn('primary', m.name, m.state, r.at);
  for (const r of rows) if (r.member && r.repl) fn('itself', r.member, r.repl.state, r.at);
}

// replication(rows, before): rows, the step's; before, the record's rows up to its start.
function replication(rows, before = []) {
  const lines = rows.filter((r) => r.member && r.repl);
  if (!lines.length) return null; // not a replica set (or replSetGetStatus not recorded)
  const secondaries = {};
  for (const r of lines.filter((x) => x.repl.state === 'SECONDARY' && typeof x.repl.lag_s === 'number')) {
    const s = (secondaries[r.member] ||= { xs: [], sources: new Set(), floor: null });
    s.xs.push(r.repl.lag_s);
    if (r.repl.lag_source) s.sources.add(r.repl.lag_source);
    if (r.repl.lag_floor_s) s.floor = r.repl.lag_floor_s;
  }
  const lag = Object.fromEntries(Object.entries(secondaries).map(([m, { xs, sources, floor }]) => {
    // One source over the step, or 'mixed' (a line that changed: never compared).
    const source = sources.size === 1 ? [...sources][0] : sources.size ? 'mixed' : null;
    return [m, { p50: quantile(xs, 0.5), p99: quantile(xs, 0.99), max: Math.max(...xs), seconds: xs.length,
      ...(source ? { source } : {}), ...(floor ? { floor_s: floor } : {}) }];
  }));
  const sources = [...new Set(Object.values(lag).map((l) => l.source))];
  const lagMeaning = sources.length === 1 && sources[0] && sources[0] !== 'mixed' ? meaningOf('lag', sources[0]) : null;
  const windows = lines.filter((r) => typeof r.repl.oplog_window_s === 'number');
  const minWindow = windows.length ? Math.min(...windows.map((r) => r.repl.oplog_window_s)) : null;
  // The window is a staleness bound only once the oplog is full on every member that reported it.
  const fullness = windows.map((r) => r.repl.oplog_full).filter((x) => typeof x === 'boolean');
  const oplogFull = fullness.length ? fullness.every(Boolean) : null;
  // State changes: as the primary saw each member, second by second; and each member's own,
  // from the state each was last seen in before the step (a change seen at the step's first
  // second happened in the second that spans its start: counted from the start alone, a member
  // lost there, or between two steps' samples, was flagged in no step).
  const changes = [];
  const last = {};
  eachSighting(before, (by, member, state) => { last[`${by} ${member}`] = state; });
  eachSighting(rows, (by, member, state, at) => {
    const k = `${by} ${member}`;
    if (last[k] !== undefined && last[k] !== state) {
      changes.push({ t: new Date(at).toISOString(), member, from: last[k], to: state, seen_by: by });
    }
    last[k] = state;
  });
  const flagged = [];
  for (const c of changes.filter((x) => x.from === 'SECONDARY')) flagged.push(`${c.member} left SECONDARY (${c.to}, seen by ${c.seen_by === 'primary' ? 'the primary' : 'itself'}) at ${c.t}`);
  if (minWindow !== null && oplogFull === true) {
    for (const [m, l] of Object.entries(lag)) {
      if (l.max > minWindow / 2) flagged.push(`${m} lagged ${l.max} s, past half the oplog window (${minWindow} s): a secondary that falls a whole window behind is too stale to catch up`);
    }
  }
  const windowNote = minWindow === null ? null : oplogFull === true ? null
    : oplogFull === false ? `oplog not yet full: its first entry is the set's initiate, so the ${minWindow} s span is the set's age, not a staleness window; no secondary judged against it`
      : 'oplog size against maxSize not reported: the window is not judged';
  return {
    lag_s: lag,
    ...(lagMeaning ? { lag_source: sources[0], lag_quantity: lagMeaning.quantity, ...(lagMeaning.floor_s ? { lag_floor_s: lagMeaning.floor_s, lag_note: `lag from the heartbeat optime, whole seconds: a healthy secondary reads up to ${lagMeaning.floor_s} s` } : {}) } : {}),
    oplog_window_s_min: minWindow,
    oplog_full: oplogFull,
    ...(windowNote ? { oplog_window_note: windowNote } : {}),
    state_changes: changes,
    flagged: flagged.length ? flagged : null,
  };
}

// stepFacts(series, from, to) -> { replication, write_cost } for the rows sampled in (from, to].
function stepFacts(series, from, to) {
  const before = [];
  const rows = [];
  for (const r of series) {
    if (r.at <= from) before.push(r);
    else if (r.at <= to) rows.push(r);
  }
  return { replication: replication(rows, before), write_cost: writeCost(rows) };
}

module.exports = { stepFacts, replication };
