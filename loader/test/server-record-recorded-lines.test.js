'use strict';
// Recorded servers of the older lines, each read through the loader's own readers and set beside
// the test server's line that plays that engine or version (support/recorded/, each file names its
// repository, path and commit):
//  - MMAPv1: a 3.0.2 standalone's serverStatus (the lab runs MMAPv1 on 4.0; the sections it reads,
//    backgroundFlushing, dur, extra_info, are built by the same mmap_v1 code, frozen after 3.x);
//  - 3.6: a 3.6.20 WiredTiger primary's serverStatus, replSetGetStatus and oplog collStats: the
//    version the MongoRocks line runs, for everything that is not the storage engine's own section;
//  - 8.0: no public recording; the 4.2.8 WiredTiger primary (read field by field in
//    server-record-readings.test.js) against the 8.0 lines' shape, the version differences named.
// No public recorded output of a MongoRocks serverStatus, collStats or dbStats was found (see the
// comment above LINES in support/server-lines.js), so the `rocksdb` section itself is
// checked only against the engine's source (server-record-meanings.test.js).
const test = require('node:test');
const assert = require('node:assert/strict');
const { FIELDS } = require('../src/server-record/fields');
const { readStatus, lineValues } = require('../src/server-record/delta');
const { replOf, FULL_AT } = require('../src/server-record/repl');
const { meaningOf } = require('../../common/meanings');
const shim = require('./support/server-status-lines');
const { lineOf } = require('./support/server-lines');

const { recorded } = require('./support/recorded');
const MMAP = 'mongod-3.0.2-mmapv1-standalone.json';
const V36 = 'mongod-3.6.20-wiredtiger-primary.json';

// The test server's reply for a line, after one insert through its primary.
function played(lineName) {
  const state = {};
  shim.count(state, 0, { name: 'insert', body: { documents: [{}] } }, 500, 3);
  return { state, line: lineOf(lineName), status: shim.sections(lineOf(lineName), state, 0) };
}
const reported = (status) => new Set(Object.keys(readStatus(status).values));
const groupOf = (key) => key.split('.')[0];

test('a recorded 3.0.2 MMAPv1 server: backgroundFlushing and the dur window read as recorded, no CPU time', () => {
  const s = recorded(MMAP).serverStatus;
  const cur = { at: 0, ...readStatus(s) };
  assert.equal(cur.durWindowMs, 3067, 'dur.timeMs.dt: the window the totals cover');
  const v = lineValues(null, cur).fields;
  assert.deepEqual(v.mmapv1, {
    last_flush_ms: 5, // a gauge, read as reported
    dur_commits: Math.round((10 / 3.067) * 10) / 10, // 10 commits in a 3067 ms window, per second
    journaled_bytes: 0, data_file_bytes: 0, // journaledMB, writeToDataFilesMB: that window's, x 1e6
  });
  assert.equal(cur.values['mmapv1.flushes'], 1883);
  assert.equal(cur.values['mmapv1.flush_ms'], 7810);
  assert.equal(cur.values['proc.page_faults'], 175428);
  assert.equal(cur.values['ops.command'], 115);
  assert.equal(cur.values['net.bytes_in'], 8422);
  // The write-cost parts the table of meanings names for MMAPv1 are fields this server reports.
  for (const p of meaningOf('write_bytes', 'mmapv1').parts) assert.ok(p in cur.values, `${p} reported by a real MMAPv1`);
  // Nothing of another engine or of a later version: no CPU time (extra_info has page_faults only),
  // no tickets, no flow control, no WiredTiger.
  for (const k of Object.keys(cur.values)) assert.ok(!/^(wt|rocks|tickets|flow)\./.test(k) && !/^proc\.cpu/.test(k), k);
});

test('a recorded 3.6.20 primary: old WiredTiger names, tickets, no CPU or flow control; lag from whole-second optimes', () => {
  const rec = recorded(V36);
  const s = rec.serverStatus;
  const { values } = readStatus(s);
  const wt = s.wiredTiger;
  const expect = {
    'ops.insert': 3, 'ops.query': 16, 'ops.command': 235, 'ops.getmore': 81,
    'latency.reads_us': 28371, 'latency.reads_ops': 101, 'latency.writes_us': 53844,
    'wt.cache_bytes': wt.cache['bytes currently in the cache'], 'wt.cache_max_bytes': 3109027840,
    'wt.checkpoint_running': 0, 'wt.checkpoint_last_ms': 22, 'wt.checkpoints': 1, // 3.6's "transaction checkpoint ..." names
    'wt.block_written_bytes': 176128, 'wt.log_written_bytes': 59648,
    'tickets.read_available': 128, 'tickets.write_out': 0, // wiredTiger.concurrentTransactions
    'queue.readers': 0, 'net.bytes_out': 327969, 'proc.page_faults': 0,
  };
  for (const [k, v] of Object.entries(expect)) assert.equal(values[k], v, `${k}: read ${values[k]}, recorded ${v}`);
  for (const k of Object.keys(values)) assert.ok(!/^(flow|mmapv1|rocks)\./.test(k) && !/^proc\.cpu/.test(k), k);
  // replSetGetStatus: optimeDate in whole seconds, heartbeat every 2 s, no member wall times, so
  // the lag is the heartbeat optime's. The set was 36 s old and idle between writes: the primary
  // wrote at 12:33:10, the secondaries' last applied op was from 12:32:55, so the optimes differ by
  // 15 s though the last heartbeat was 2 s before: what optimeDate measures (time between ops).
  const st = rec.replSetGetStatus;
  assert.equal(st.heartbeatIntervalMillis, 2000);
  for (const m of st.members) {
    assert.equal(m.optimeDate.getTime() % 1000, 0, m.name);
    assert.equal('lastAppliedWallTime' in m, false, m.name);
  }
  const view = replOf(st, '172.18.0.9:27017');
  assert.equal(view.self_state, 'PRIMARY');
  assert.deepEqual(view.lagOf('172.18.0.3:27017'), { lagSeconds: 15, source: 'optimeDate', floor_s: 2 });
  // Its oplog (3681 bytes of 16 MB) is not full: no staleness window yet.
  assert.ok(rec.oplogStats.size < FULL_AT * rec.oplogStats.maxSize);
});

// The groups of the field map that do not belong to a storage engine: what each line's common
// sections must report alike, whatever its engine.
const COMMON = new Set(['ops', 'repl_ops', 'latency', 'queue', 'flow', 'proc', 'net']);
// Sections that exist only on some engines or versions (manual serverStatus: backgroundFlushing
// and dur MMAPv1 only, queues 7.0+, flowControl 4.2+).
const ENGINE_SECTIONS = ['wiredTiger', 'inMemory', 'rocksdb', 'backgroundFlushing', 'dur', 'queues', 'flowControl'];

test("the test server's MMAPv1 line reports the recorded MMAPv1 server's shape", () => {
  const rec = recorded(MMAP).serverStatus;
  const { status } = played('mongod-4.0-mmapv1-replset');
  // opLatencies is 3.2+ (manual serverStatus "opLatencies": new in 3.2); the line runs 4.0, the
  // recording is 3.0.2: the one difference the versions explain.
  const since32 = (k) => groupOf(k) === 'latency';
  const a = [...reported(status)].filter((k) => (COMMON.has(groupOf(k)) || groupOf(k) === 'mmapv1') && !since32(k)).sort();
  const b = [...reported(rec)].filter((k) => COMMON.has(groupOf(k)) || groupOf(k) === 'mmapv1').sort();
  assert.deepEqual(a, b);
  for (const sec of ENGINE_SECTIONS) assert.equal(sec in status, sec in rec, `section ${sec}`);
  assert.deepEqual(Object.keys(status.dur).sort(), Object.keys(rec.dur).sort());
  assert.deepEqual(Object.keys(status.backgroundFlushing).sort(), Object.keys(rec.backgroundFlushing).sort());
  assert.deepEqual(Object.keys(status.extra_info).sort(), Object.keys(rec.extra_info).sort());
});

test("the test server's 3.6 line (MongoRocks) reports the recorded 3.6 server's common sections and replication shape", () => {
  const rec = recorded(V36);
  const { state, line, status } = played('psmdb-3.6-rocksdb-replset');
  const a = [...reported(status)].filter((k) => COMMON.has(groupOf(k))).sort();
  const b = [...reported(rec.serverStatus)].filter((k) => COMMON.has(groupOf(k))).sort();
  assert.deepEqual(a, b);
  for (const sec of ['queues', 'flowControl']) assert.equal(sec in status, sec in rec.serverStatus, `section ${sec}`);
  assert.deepEqual(Object.keys(status.extra_info).sort(), Object.keys(rec.serverStatus.extra_info).sort());
  // replSetGetStatus as the primary answers it: the fields the loader reads, present alike for
  // itself and for the others.
  const READ = ['name', 'health', 'state', 'stateStr', 'optime', 'optimeDate', 'self', 'lastHeartbeat', 'lastAppliedWallTime', 'lastDurableWallTime'];
  const keys = (m) => READ.filter((k) => k in m).join(',');
  const st = shim.replSetGetStatus(line, state, 0, ['a:1', 'b:1', 'c:1']);
  assert.equal(st.heartbeatIntervalMillis, rec.replSetGetStatus.heartbeatIntervalMillis);
  const self = (s) => s.members.find((m) => m.self);
  const other = (s) => s.members.find((m) => !m.self);
  assert.equal(keys(self(st)), keys(self(rec.replSetGetStatus)));
  assert.equal(keys(other(st)), keys(other(rec.replSetGetStatus)));
  for (const m of st.members) assert.equal(m.optimeDate.getTime() % 1000, 0);
  // The oplog's collStats: the same fields as a recorded capped oplog.
  assert.deepEqual(Object.keys(shim.oplogStats(state)).sort(), Object.keys(rec.oplogStats).sort());
});

test('the field map reads every recorded field the lab needs from these servers (no path a real server lacks)', () => {
  // Each field either reads on a recorded line or belongs to an engine or version with no recording here.
  const seen = new Set([...reported(recorded(MMAP).serverStatus), ...reported(recorded(V36).serverStatus)]);
  const unrecorded = /^proc\.cpu/; // CPU time: only 4.2+ reports it (the recorded 4.2.8 does)
  for (const f of FIELDS.filter((x) => /^(mmapv1|ops|repl_ops|queue|net|proc)\./.test(x.key))) {
    if (unrecorded.test(f.key)) continue;
    assert.ok(seen.has(f.key), `${f.key}: read from no recorded 3.x server`);
  }
});

// The 8.0 lines have no public recording (support/server-lines.js, above LINES); the nearest is
// the 4.2.8 WiredTiger primary (support/recorded/). Between the two versions the fields the lab
// reads keep their keys; two sections moved and one was added, each said here: tickets went from
// wiredTiger.concurrentTransactions to queues.execution (7.0+), the checkpoint statistics from
// wiredTiger.transaction to wiredTiger.checkpoint (WiredTiger WT-11171), and replSetGetStatus
// members carry lastAppliedWallTime and lastDurableWallTime from 4.4.
test("the test server's 8.0 lines read as the nearest recorded WiredTiger server does (4.2.8), inMemory less what it never does", () => {
  const rec = recorded('mongod-4.2.8-wiredtiger-primary.json');
  const expect = [...reported(rec.serverStatus)].sort();
  for (const name of ['mongod-8.0-standalone', 'mongod-8.0-wiredtiger-replset']) {
    const { status } = played(name);
    assert.deepEqual([...reported(status)].sort(), expect, name);
    assert.ok(status.queues && !(status.wiredTiger && status.wiredTiger.concurrentTransactions), `${name}: tickets in queues.execution`);
    assert.ok(status.wiredTiger.checkpoint && !status.wiredTiger.transaction, `${name}: checkpoints in wiredTiger.checkpoint`);
    for (const sec of ['flowControl', 'opLatencies', 'backgroundFlushing', 'dur', 'rocksdb']) assert.equal(sec in status, sec in rec.serverStatus, `${name}: section ${sec}`);
  }
  // inMemory: no checkpoints, no application-thread eviction for dirty pages, no journal log
  // (Percona inmemory_init.cpp, WiredTiger cache_inline.h: server-status-lines.js).
  const never = ['wt.app_evicted_pages', 'wt.checkpoint_last_ms', 'wt.checkpoint_running', 'wt.checkpoints', 'wt.log_written_bytes'];
  assert.deepEqual([...reported(played('psmdb-8.0-inmemory-replset').status)].sort(), expect.filter((k) => !never.includes(k)));
  // replSetGetStatus: the same member fields as the recording, plus the 4.4+ wall times.
  const { state, line } = played('mongod-8.0-wiredtiger-replset');
  const st = shim.replSetGetStatus(line, state, 0, ['a:1', 'b:1', 'c:1']);
  const READ = ['name', 'health', 'state', 'stateStr', 'optime', 'optimeDate', 'self', 'lastHeartbeat'];
  const keys = (m) => READ.filter((k) => k in m).join(',');
  for (const pick of [(s) => s.members.find((m) => m.self), (s) => s.members.find((m) => !m.self)]) {
    assert.equal(keys(pick(st)), keys(pick(rec.replSetGetStatus)));
    assert.ok(pick(st).lastAppliedWallTime instanceof Date && !('lastAppliedWallTime' in pick(rec.replSetGetStatus)));
  }
  assert.equal(st.heartbeatIntervalMillis, rec.replSetGetStatus.heartbeatIntervalMillis);
});

// dbStats has no public recording for these lines; MongoDB's own jstests/core/dbstats.js says
// which fields each has (mongodb/mongo @b6a71bf1, the 3.6/4.0 era; @05a0f8e9, a 5.0+ tree).
test("the test server's dbStats per line has the fields MongoDB's dbstats jstest asserts", () => {
  // mongo-java-server's own reply (its field names), sized by the shim as each line.
  const raw = { db: 'lab', collections: 1, objects: 2, avgObjSize: 29, dataSize: 58, storageSize: 0, numExtents: 0, indexes: 1, indexSize: 2, fileSize: 0, nsSizeMB: 0, ok: 1 };
  const dbStats = (name) => shim.sized({ name: 'dbStats' }, { ...raw }, lineOf(name));
  for (const name of ['mongod-8.0-standalone', 'mongod-8.0-wiredtiger-replset', 'psmdb-8.0-inmemory-replset', 'mongod-4.0-mmapv1-replset', 'psmdb-3.6-rocksdb-replset']) {
    const d = dbStats(name);
    const line = lineOf(name);
    for (const f of ['db', 'objects', 'dataSize', 'avgObjSize', 'storageSize', 'indexes', 'indexSize']) assert.ok(f in d, `${name}: ${f}`);
    assert.equal('totalIndexSize' in d, false, `${name}: dbStats says indexSize, never totalIndexSize`);
    assert.equal(d.indexSize, shim.SIZES[line.storageEngine.name](58, 2).totalIndexSize, `${name}: the engine's index bytes`);
    if (line.wire < 8) { // 3.6 / 4.0 (@b6a71bf1)
      assert.ok('numExtents' in d, `${name}: numExtents on every engine`);
      assert.equal('extentFreeList' in d, line.storageEngine.name === 'mmapv1', `${name}: extentFreeList on MMAPv1 only`);
      assert.deepEqual(Object.keys(d.extentFreeList || { num: 0, totalSize: 0 }).sort(), ['num', 'totalSize']);
    } else { // 8.0 (@05a0f8e9)
      assert.equal(d.totalSize, d.storageSize + d.indexSize, name);
      const persistent = line.storageEngine.persistent;
      for (const f of ['freeStorageSize', 'indexFreeStorageSize', 'totalFreeStorageSize', 'fsUsedSize', 'fsTotalSize']) assert.equal(f in d, persistent, `${name}: ${f} ${persistent ? 'on' : 'not on'} persistent storage`);
      if (persistent) assert.equal(d.freeStorageSize + d.indexFreeStorageSize, d.totalFreeStorageSize);
      assert.equal('fileSize' in d, false, `${name}: only MMAPv1 reports fileSize`);
    }
  }
});

test("the test server's collStats has a recorded collection's common fields on every line, numExtents on MMAPv1 only", () => {
  const recordedKeys = ['ns', 'count', 'size', 'avgObjSize', 'storageSize', 'capped', 'nindexes', 'totalIndexSize', 'indexSizes', 'ok'];
  for (const k of recordedKeys) assert.ok(k in recorded(V36).oplogStats, `recorded 3.6.20 collStats has ${k}`);
  const raw = { ns: 'lab.c', count: 2, size: 58, avgObjSize: 29, storageSize: 0, numExtents: 1, nindexes: 1, indexSize: 2, ok: 1 };
  for (const name of ['mongod-8.0-standalone', 'psmdb-8.0-inmemory-replset', 'mongod-4.0-mmapv1-replset', 'psmdb-3.6-rocksdb-replset']) {
    const line = lineOf(name);
    const cs = shim.sized({ name: 'collStats' }, { ...raw }, line);
    const mmap = line.storageEngine.name === 'mmapv1';
    assert.deepEqual(Object.keys(cs).sort(), [...recordedKeys, ...(mmap ? ['numExtents'] : [])].sort(), name);
    assert.deepEqual(Object.values(cs.indexSizes).reduce((a, b) => a + b, 0), cs.totalIndexSize, `${name}: indexSizes add up to totalIndexSize`);
  }
});

// MongoDB's own jstests/noPassthrough/server_status.js (mongodb/mongo @b6a71bf1, the 3.6/4.0 era):
// backgroundFlushing is MMAPv1's only, and dur is MMAPv1's only and only with a journal.
test("every line's serverStatus has backgroundFlushing and dur where MongoDB's server_status jstest says", () => {
  for (const name of ['mongod-8.0-standalone', 'mongod-8.0-wiredtiger-replset', 'psmdb-8.0-inmemory-replset', 'mongod-4.0-mmapv1-replset', 'psmdb-3.6-rocksdb-replset']) {
    const { line, status } = played(name);
    const mmap = line.storageEngine.name === 'mmapv1';
    assert.equal('backgroundFlushing' in status, mmap, `${name}: backgroundFlushing`);
    assert.equal('dur' in status, mmap && line.journal, `${name}: dur`);
  }
});
