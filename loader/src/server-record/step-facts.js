'use strict';
// Per-step facts from the server record (issue 39 items 3 and 4), pure functions of its rows
// ({ at, member, role, interval_s, values, repl } per member per second, and the primary's view
// { at, view: [{ name, state }] }), so they are tested on synthetic rows as well as on runs.
//
// write_cost: bytes the engine wrote per document written, on the members that took the writes
//   (each second's PRIMARY, or a standalone): WiredTiger block manager + log, MMAPv1 dur journal
//   + data files, MongoRocks bytes-written (its WAL and memtable writes) + flush + compaction.
//   Documents written = the same members' opcounters insert + update + delete over the step
//   (operations as the server counted them: an insert counts documents, an update statements).
//   cpu_ms_per_1000_ops: their extra_info user + system CPU over insert + query + update + delete
//   + getmore (commands left out: the record's own serverStatus calls are commands).
//   A figure a line does not report is null with the reason, never 0.
// replication: per secondary lag p50 / p99 / max over the step's seconds, the smallest oplog
//   window, every state change the primary saw (and a member's own), and `flagged` when a
//   secondary left SECONDARY or lagged past half the oplog window (seeds/004: secondaries lost
//   heartbeats and fell too stale to catch up during a 20M insert).
const { round } = require('../../../common/stats');

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

const SOURCES = [
  { name: 'wiredtiger', parts: [['wt', 'block_written_bytes'], ['wt', 'log_written_bytes']] },
  { name: 'mmapv1', parts: [['mmapv1', 'journaled_bytes'], ['mmapv1', 'data_file_bytes']] },
  { name: 'rocksdb', parts: [['rocks', 'bytes_written'], ['rocks', 'flush_bytes_written'], ['rocks', 'compaction_bytes_written']] },
];

function writeCost(rows) {
  const w = rows.filter((r) => r.member && isWriter(r));
  if (!w.length) return { docs_written: null, bytes_per_doc: null, reason: 'no member that took the writes answered during the step' };
  const docs = ['insert', 'update', 'delete'].map((k) => total(w, 'ops', k));
  const docsWritten = docs.every((d) => d === null) ? null : Math.round(sum(docs.filter((d) => d !== null)));
  const out = { members: [...new Set(w.map((r) => r.member))], docs_written: docsWritten, bytes_written: null, bytes_per_doc: null, parts: {} };
  for (const src of SOURCES) {
    const parts = src.parts.map(([g, n]) => [`${g}.${n}`, total(w, g, n)]).filter(([, v]) => v !== null);
    if (!parts.length) continue;
    out.source = src.name;
    for (const [k, v] of parts) out.parts[k] = Math.round(v);
    out.bytes_written = Math.round(sum(parts.map(([, v]) => v)));
    break;
  }
  if (out.bytes_written === null) out.reason = 'the server reports no bytes written by its engine (no block-manager, log, dur or rocksdb counters: summary.json server_record.absent)';
  else if (!docsWritten) out.reason = docsWritten === 0 ? 'no document written in the step' : 'the server reports no opcounters';
  else out.bytes_per_doc = round(out.bytes_written / docsWritten, 1);
  const cpu = [total(w, 'proc', 'cpu_user_us'), total(w, 'proc', 'cpu_system_us')];
  const ops = ['insert', 'query', 'update', 'delete', 'getmore'].map((k) => total(w, 'ops', k)).filter((v) => v !== null);
  if (cpu.some((c) => c === null)) out.cpu_ms_per_1000_ops = { value: null, reason: 'the server reports no CPU time (extra_info user_time_us / system_time_us)' };
  else if (!sum(ops)) out.cpu_ms_per_1000_ops = { value: null, reason: 'no operations counted by the server in the step' };
  else out.cpu_ms_per_1000_ops = { value: round((sum(cpu) / 1000) / (sum(ops) / 1000), 3), cpu_s: round(sum(cpu) / 1e6, 3), ops: Math.round(sum(ops)) };
  return out;
}

function replication(rows) {
  const views = rows.filter((r) => r.view);
  const lines = rows.filter((r) => r.member && r.repl);
  if (!lines.length) return null; // not a replica set (or replSetGetStatus not recorded)
  const secondaries = {};
  for (const r of lines.filter((x) => x.repl.state === 'SECONDARY' && typeof x.repl.lag_s === 'number')) {
    (secondaries[r.member] ||= []).push(r.repl.lag_s);
  }
  const lag = Object.fromEntries(Object.entries(secondaries).map(([m, xs]) => [m, { p50: quantile(xs, 0.5), p99: quantile(xs, 0.99), max: Math.max(...xs), seconds: xs.length }]));
  const windows = lines.map((r) => r.repl.oplog_window_s).filter((x) => typeof x === 'number');
  const minWindow = windows.length ? Math.min(...windows) : null;
  // State changes: as the primary saw each member, second by second; and each member's own.
  const changes = [];
  const last = {};
  for (const v of views) {
    for (const m of v.view) {
      if (last[m.name] !== undefined && last[m.name] !== m.state) changes.push({ t: new Date(v.at).toISOString(), member: m.name, from: last[m.name], to: m.state, seen_by: 'primary' });
      last[m.name] = m.state;
    }
  }
  const own = {};
  for (const r of lines) {
    if (own[r.member] !== undefined && own[r.member] !== r.repl.state) changes.push({ t: new Date(r.at).toISOString(), member: r.member, from: own[r.member], to: r.repl.state, seen_by: 'itself' });
    own[r.member] = r.repl.state;
  }
  const flagged = [];
  for (const c of changes.filter((x) => x.from === 'SECONDARY')) flagged.push(`${c.member} left SECONDARY (${c.to}, seen by ${c.seen_by === 'primary' ? 'the primary' : 'itself'}) at ${c.t}`);
  if (minWindow !== null) {
    for (const [m, l] of Object.entries(lag)) {
      if (l.max > minWindow / 2) flagged.push(`${m} lagged ${l.max} s, past half the oplog window (${minWindow} s): a secondary that falls a whole window behind is too stale to catch up`);
    }
  }
  return { lag_s: lag, oplog_window_s_min: minWindow, state_changes: changes, flagged: flagged.length ? flagged : null };
}

// stepFacts(series, from, to) -> { replication, write_cost } for the rows sampled in (from, to].
function stepFacts(series, from, to) {
  const rows = series.filter((r) => r.at > from && r.at <= to);
  return { replication: replication(rows), write_cost: writeCost(rows) };
}

module.exports = { stepFacts, replication, quantile };
