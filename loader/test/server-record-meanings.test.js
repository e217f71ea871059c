'use strict';
// The table of meanings (common/meanings.js) against the two things that must agree with it: the
// loader's field map (every counter a figure names is one the record reads) and the test server
// (each line plays its engine's collStats and counters as the table says the engine reports
// them, so a run on the shim gives each figure the quantity the table names).
const test = require('node:test');
const assert = require('node:assert/strict');
const { FIELDS } = require('../src/server-record/fields');
const { readStatus } = require('../src/server-record/delta');
const { FIGURES, ENGINES, meaningOf, comparable } = require('../../common/meanings');
const shim = require('./support/server-status-lines');
const { lineOf } = require('./support/server-lines');

const LINE_OF = { wiredTiger: 'mongod-8.0-wiredtiger-replset', inMemory: 'psmdb-8.0-inmemory-replset', mmapv1: 'mongod-4.0-mmapv1-replset', rocksdb: 'psmdb-3.6-rocksdb-replset' };

// Figures keyed by something other than the engine: lag by its source, block writes by the
// cgroup version (the kernel's count is one quantity on every engine).
const KEYS = { lag: ['optimeDate', 'lastAppliedWallTime'], block_writes: ['v1', 'v2'] };

test('every figure has a row for every engine (or a default, or its own keys), each with what it measures and its source', () => {
  for (const [name, f] of Object.entries(FIGURES)) {
    assert.ok(f.what, name);
    for (const k of KEYS[name] || ENGINES) {
      const m = f[k] || f.default;
      assert.ok(m && m.measures && m.source, `${name} on ${k}`);
    }
  }
});

test('block writes: one quantity whatever the engine, a cgroup v1 figure (a lower bound) never the same quantity as a v2 one', () => {
  const v1 = meaningOf('block_writes', 'v1');
  const v2 = meaningOf('block_writes', 'v2');
  assert.equal(v1.lower_bound, true);
  assert.ok(comparable('block_writes', { wiredtiger: [v2.quantity], inmemory: [v2.quantity] }).same);
  const c = comparable('block_writes', { wiredtiger: [v1.quantity], rocksdb: [v2.quantity] });
  assert.equal(c.same, false);
  assert.match(c.why, /no verdict: wiredtiger counts .*a lower bound.*; rocksdb counts .*io\.stat wbytes/);
});

test('write bytes: each engine\'s parts are fields the record reads, and the line the shim plays reports them', () => {
  const keys = new Set(FIELDS.map((f) => f.key));
  for (const e of ENGINES) {
    const m = meaningOf('write_bytes', e);
    for (const p of m.parts) assert.ok(keys.has(p), `${e}: ${p} is a server.ndjson field`);
    const line = lineOf(LINE_OF[e]);
    const state = {};
    shim.count(state, 0, { name: 'insert', body: { documents: [{}] } }, 500, 3);
    const { values } = readStatus(shim.sections(line, state, 0));
    for (const p of m.parts) assert.equal(typeof values[p], 'number', `${e}: the shim's line reports ${p}`);
  }
  // One quantity where all parts are file writes; MMAPv1's is its own.
  assert.ok(comparable('write_bytes', { a: ['file_write_bytes'], b: [meaningOf('write_bytes', 'rocksdb').quantity] }).same);
  assert.equal(comparable('write_bytes', { a: ['file_write_bytes'], b: [meaningOf('write_bytes', 'mmapv1').quantity] }).same, false);
});

test("collStats per engine as the table says: MongoRocks' storage is its logical size rounded to 256 B, MMAPv1's size is padded, inMemory's storage is its data", () => {
  const bson = 238 * 300; // the test server's size: the documents' BSON
  const cs = (e) => shim.sized({ name: 'collStats' }, { ok: 1, count: 300, size: bson, storageSize: 0, totalIndexSize: 0 }, lineOf(LINE_OF[e]));
  assert.equal(cs('rocksdb').storageSize, bson & ~255);
  assert.equal(meaningOf('engine_storage', 'rocksdb').quantity, 'rocks_logical_bytes');
  assert.equal(cs('mmapv1').size, 300 * 256, 'each 238 B record + 16 B header padded to 256');
  assert.equal(cs('inMemory').storageSize, bson);
  assert.ok(cs('wiredTiger').storageSize < bson, 'compressed files');
  // No two engines' collStats storage is one quantity.
  const qs = ENGINES.map((e) => meaningOf('engine_storage', e).quantity);
  assert.equal(new Set(qs).size, ENGINES.length);
});

test('lag: 4.4+ lines report lastAppliedWallTime (ms), older ones only the whole-second optimeDate', () => {
  for (const e of ENGINES) {
    const line = lineOf(LINE_OF[e]);
    const state = {};
    shim.count(state, 0, { name: 'insert', body: { documents: [{}] } }, 500, 3);
    const st = shim.replSetGetStatus(line, state, 0, ['a:1', 'b:1', 'c:1']);
    for (const m of st.members) assert.equal(m.optimeDate.getTime() % 1000, 0, `${e}: optimeDate in whole seconds`);
    assert.equal(st.members.every((m) => m.lastAppliedWallTime instanceof Date), line.wire >= 9, `${e}: lastAppliedWallTime only on 4.4+`);
  }
});

// inMemory is an ephemeral WiredTiger (Percona inmemory_init.cpp: ephemeral = true): 8.0's
// WiredTigerRecordStore::storageSize answers the data size there and the index size is an
// estimate from cursor statistics; nothing in it is a file or the memory held.
test("inMemory's collStats storage as 8.0's source has it: the data size and an index estimate, cited where the code is", () => {
  const m = meaningOf('engine_storage', 'inMemory');
  assert.match(m.measures, /data size/);
  assert.match(m.measures, /index's estimate/);
  assert.doesNotMatch(m.measures, /held in memory/);
  assert.match(m.source, /8\.0 src\/mongo\/db\/storage\/wiredtiger\/wiredtiger_record_store\.cpp WiredTigerRecordStore::storageSize/);
  assert.match(m.source, /getEphemeralIdentSize/);
  assert.match(m.source, /inmemory\/inmemory_init\.cpp/);
  // no such file in percona-server-mongodb: the engine is WiredTiger's record store
  assert.doesNotMatch(m.source, /inmemory_record_store/);
});

// MongoRocks: each index's size starts at open from its compressed SST files (mongo-rocks v3.6
// rocks_index.cpp:565 GetApproximateSizes), then moves by logical key bytes: the row says what it
// is after a restart and is flagged, so that a verdict between two MongoRocks sides says so.
test("MongoRocks' collStats storage says what it is after a restart (the index part starts from the compressed files)", () => {
  const m = meaningOf('engine_storage', 'rocksdb');
  assert.equal(m.moves_on_restart, true);
  assert.match(m.measures, /after a restart it starts again from the compressed files/);
  assert.match(m.source, /rocks_index\.cpp:554-565 RocksIndexBase::RocksIndexBase: _indexStorageSize = GetApproximateSizes/);
  for (const e of ENGINES.filter((x) => x !== 'rocksdb')) assert.ok(!meaningOf('engine_storage', e).moves_on_restart, e);
});
