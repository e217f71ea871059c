'use strict';
// The server record's arithmetic on synthetic readings: counters to per-second rates,
// nothing written for what was not reported, a restart's second left out, MMAPv1's dur window;
// per-step write cost and replication from record rows. The same code runs on the shim's lines
// in test/server-record.test.js; here each rule is checked alone.
const test = require('node:test');
const assert = require('node:assert/strict');
const { readStatus, lineValues } = require('../src/server-record/delta');
const { stepFacts } = require('../src/server-record/step-facts');
const { initialMembers, configMembers, memberUri } = require('../src/server-record/members');

const wt = (written, insert) => ({ opcounters: { insert }, wiredTiger: { cache: { 'bytes currently in the cache': 5 }, 'block-manager': { 'bytes written': written } } });

test('counters become rates over the interval; gauges as read; the first reading has no rates', () => {
  const a = { at: 0, ...readStatus(wt(1000, 10)) };
  const b = { at: 2000, ...readStatus(wt(5000, 30)) };
  const first = lineValues(null, a);
  assert.deepEqual(first.fields, { wt: { cache_bytes: 5 } });
  assert.deepEqual(first.gaps, ['first reading: counters start at the next second']);
  const next = lineValues(a, b);
  assert.deepEqual(next.fields, { ops: { insert: 10 }, wt: { cache_bytes: 5, block_written_bytes: 2000 } });
  assert.deepEqual(next.gaps, []);
});

test('a counter that went down (a restart) leaves its rate out that second; an unreported field is never 0', () => {
  const a = { at: 0, ...readStatus(wt(5000, 30)) };
  const b = { at: 1000, ...readStatus(wt(100, 31)) };
  const v = lineValues(a, b);
  assert.equal(v.fields.wt.block_written_bytes, undefined);
  assert.equal(v.fields.ops.insert, 1);
  assert.match(v.gaps[0], /went down/);
  assert.equal(v.fields.mmapv1, undefined);
  assert.equal(v.fields.proc, undefined);
});

test("MMAPv1's dur totals are its last window's: a rate over timeMs.dt, not a difference", () => {
  const s = { dur: { journaledMB: 3, writeToDataFilesMB: 1.5, commits: 30, timeMs: { dt: 3000 } } };
  const v = lineValues(null, { at: 0, ...readStatus(s) });
  assert.deepEqual(v.fields.mmapv1, { dur_commits: 10, journaled_bytes: 1e6, data_file_bytes: 5e5 });
});

test("MongoRocks' string properties: a number in a string is read, an error string is not reported", () => {
  const r = readStatus({ rocksdb: { 'compaction-pending': '1', 'mem-table-flush-pending': '<error> unable to retrieve statistics' } });
  assert.equal(r.values['rocks.compaction_pending'], 1);
  assert.equal(r.values['rocks.mem_table_flush_pending'], undefined);
});

const row = (at, member, state, values, repl = {}) => ({ at, member, role: 'shard', interval_s: 1, values, repl: { state, ...repl } });

test('write cost: engine bytes over documents written on the primary; null with the reason where the line has none', () => {
  const rows = [1, 2, 3].map((s) => row(s * 1000, 'a:1', 'PRIMARY', { ops: { insert: 100, query: 50 }, wt: { block_written_bytes: 30000, log_written_bytes: 10000 }, proc: { cpu_user_us: 90000, cpu_system_us: 10000 } }));
  rows.push(row(2000, 'b:1', 'SECONDARY', { ops: { insert: 0 }, wt: { block_written_bytes: 99999 } }, { lag_s: 0 }));
  const { write_cost: w } = stepFacts(rows, 0, 3000);
  assert.equal(w.docs_written, 300);
  assert.equal(w.bytes_written, 120000);
  assert.equal(w.bytes_per_doc, 400);
  assert.deepEqual(w.members, ['a:1']);
  assert.equal(w.cpu_ms_per_1000_ops.value, 666.667); // 0.3 s CPU over 450 ops
  const none = stepFacts([row(1000, 'a:1', 'PRIMARY', { ops: { insert: 5 } })], 0, 1000).write_cost;
  assert.equal(none.bytes_per_doc, null);
  assert.match(none.reason, /no bytes written by its engine/);
  assert.match(none.cpu_ms_per_1000_ops.reason, /no CPU time/);
});

test('replication: lag percentiles per secondary, smallest window, state changes, flags', () => {
  const rows = [];
  for (let s = 1; s <= 100; s++) {
    rows.push(row(s * 1000, 'a:1', 'PRIMARY', {}, { oplog_window_s: 100, oplog_full: true }));
    rows.push(row(s * 1000, 'b:1', 'SECONDARY', {}, { lag_s: s === 100 ? 60 : 1, oplog_window_s: 100, oplog_full: true }));
    rows.push({ at: s * 1000, view: [{ name: 'a:1', state: 'PRIMARY' }, { name: 'c:1', state: s > 50 ? '(not reachable/healthy)' : 'SECONDARY' }] });
  }
  const r = stepFacts(rows, 0, 100000).replication;
  assert.deepEqual(r.lag_s['b:1'], { p50: 1, p99: 1, max: 60, seconds: 100 });
  assert.equal(r.oplog_window_s_min, 100);
  assert.deepEqual(r.state_changes, [{ t: new Date(51000).toISOString(), member: 'c:1', from: 'SECONDARY', to: '(not reachable/healthy)', seen_by: 'primary' }]);
  assert.equal(r.flagged.length, 2);
  assert.match(r.flagged[0], /^c:1 left SECONDARY/);
  assert.match(r.flagged[1], /^b:1 lagged 60 s, past half the oplog window \(100 s\)/);
  assert.equal(stepFacts(rows.filter((x) => x.member !== 'b:1' && !x.view), 0, 100000).replication.flagged, null);
});

test('a member lost between two steps\' samples: its change is the later step\'s, counted from its state before the step', () => {
  const view = (at, state) => ({ at, view: [{ name: 'a:1', state: 'PRIMARY' }, { name: 'c:1', state }] });
  const rows = [];
  for (let s = 1; s <= 10; s++) {
    rows.push(row(s * 1000, 'a:1', 'PRIMARY', {}));
    rows.push(view(s * 1000, s <= 5 ? 'SECONDARY' : '(not reachable/healthy)'));
    if (s <= 5) rows.push(row(s * 1000, 'c:1', 'SECONDARY', {}));
  }
  const first = stepFacts(rows, 0, 5000).replication;
  const second = stepFacts(rows, 5000, 10000).replication;
  assert.deepEqual(first.state_changes, []);
  assert.deepEqual(second.state_changes, [{ t: new Date(6000).toISOString(), member: 'c:1', from: 'SECONDARY',
    to: '(not reachable/healthy)', seen_by: 'primary' }]);
  assert.match(second.flagged[0], /^c:1 left SECONDARY \(\(not reachable\/healthy\), seen by the primary\)/);
  // a member already gone before the step starts the step gone: no change in it
  assert.deepEqual(stepFacts(rows, 6000, 10000).replication.state_changes, []);
});

test("an oplog not yet full: its span is the set's age, no secondary is judged stale against it, and that is said", () => {
  const rows = [];
  for (let s = 1; s <= 10; s++) {
    rows.push(row(s * 1000, 'a:1', 'PRIMARY', {}, { oplog_window_s: 100, oplog_full: false }));
    rows.push(row(s * 1000, 'b:1', 'SECONDARY', {}, { lag_s: 80, lag_source: 'optimeDate', lag_floor_s: 2, oplog_window_s: 100, oplog_full: false }));
  }
  const r = stepFacts(rows, 0, 10000).replication;
  assert.equal(r.flagged, null);
  assert.equal(r.oplog_full, false);
  assert.match(r.oplog_window_note, /^oplog not yet full/);
  assert.equal(r.lag_source, 'optimeDate');
  assert.equal(r.lag_floor_s, 2);
  assert.match(r.lag_note, /up to 2 s/);
});

test('members: a set from hello, mongos + shards + config set, direct URIs keep credentials and drop the set', () => {
  assert.deepEqual(initialMembers({ topology: { kind: 'replica_set_member', set_name: 'rs', hosts: ['h1:1', 'h2:1'], passives: ['h3:1'] } }, ['h1:1']).map((m) => m.host), ['h1:1', 'h2:1', 'h3:1']);
  const s = initialMembers({ topology: { kind: 'mongos', shards: [{ id: 'shard01', host: 'shard01/a:27017,b:27017' }] } }, ['mongos:27017']);
  assert.deepEqual(s, [{ host: 'mongos:27017', role: 'router', set: null }, { host: 'a:27017', role: 'shard', set: 'shard01' }, { host: 'b:27017', role: 'shard', set: 'shard01' }]);
  assert.deepEqual(configMembers({ sharding: { configsvrConnectionString: 'cfgrs/cfg1:27019,cfg2:27019' } }).map((m) => m.host), ['cfg1:27019', 'cfg2:27019']);
  assert.equal(memberUri('mongodb://u:p@x:1,y:2/db?replicaSet=rs&authSource=admin', 'y:2'), 'mongodb://u:p@y:2/db?authSource=admin&directConnection=true');
  assert.equal(memberUri('mongodb+srv://u:p@c.example.net/', 'h:27017'), 'mongodb://u:p@h:27017/?tls=true&directConnection=true');
});

test("footprint: experiment1's sits beside seeds/004's published sizes for its 10M documents", () => {
  const { footprintSummary } = require('../src/server/footprint');
  const f = footprintSummary({ name: 'experiment1' }, { end: { documents: 10 } });
  assert.equal(f.seed_reference.documents, 10000000);
  assert.equal(f.seed_reference.bytes_per_doc['MongoDB 2.4 (MMAPv1)'], 1030.8); // 9.6 GiB / 10M
  assert.equal(f.seed_reference.bytes_per_doc['TokuMX (default compression)'], 504.7);
  assert.equal(footprintSummary({ name: 'experiment2' }, {}).seed_reference, null);
});
