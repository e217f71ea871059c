'use strict';
// summary.json storage: the oplog size the lab starts shard members with,
// MMAPv1's preallocation said beside the numbers, and the image's platform against the host's.
// The real loader runs experiment2 against the shim's 4.0 MMAPv1 and 3.6 MongoRocks lines.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { startServer } = require('./support/server');
const { runLoader, tmpResults, runsOf } = require('./support/loader');
const { storageFacts, PREALLOCATION_NOTE } = require('../src/server/storage-facts');
const tables = require('../../common/tables');

let results;
test.before(() => { results = tmpResults(); });
test.after(() => fs.rmSync(results, { recursive: true, force: true }));

// paced: the subject is what the summary records, not the throughput (unpaced, the step kept the
// loader and the server busy on both cores of the suite's host)
async function runOn(line, extra) {
  const server = await startServer({ line });
  try {
    const r = await runLoader(['experiment2', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0',
      '--preload-docs', '100', '--clients', '1', '--duration', '1s', '--rate', '200', '--progress-interval', '1s', ...extra]);
    assert.equal(r.code, 0, r.stderr);
    return r;
  } finally {
    await server.stop();
  }
}

test('MMAPv1: the oplog size from the row and its preallocation are in the summary', async () => {
  await runOn('mongod-4.0-mmapv1-replset', ['--engine', 'mmapv1']);
  const s = runsOf(results, 'experiment2', 'mmapv1').at(-1);
  assert.equal(s.storage.engine_row, 'mmapv1');
  assert.equal(s.storage.oplog_mb, tables.engine('mmapv1').oplog_mb);
  // The shim's set reports its oplog's collStats as a replica set does (maxSize 16 MB).
  assert.equal(s.storage.oplog_mb_reported, require('./support/server-status-lines').OPLOG_MAX / 1048576, 'the oplog maxSize the set reports');
  assert.equal(s.storage.preallocates, true);
  assert.equal(s.storage.preallocation_note, PREALLOCATION_NOTE);
  assert.equal(s.storage.image_platform, null);
  assert.equal(s.storage.emulated, null, 'a --uri run does not know the members\' host');
});

test('MongoRocks in the stack (--profile): an amd64-only image, emulated or not by the host\'s architecture', async () => {
  const r = await runOn('psmdb-3.6-rocksdb-replset', ['--engine', 'rocksdb', '--profile', 'seed2013']);
  const s = runsOf(results, 'experiment2', 'rocksdb').at(-1);
  assert.equal(s.storage.image_platform, 'linux/amd64');
  assert.equal(s.storage.preallocates, false);
  assert.equal(s.storage.preallocation_note, undefined);
  const native = process.arch === 'x64';
  assert.equal(s.storage.emulated, !native);
  assert.equal(/run under emulation/.test(r.stderr), !native, r.stderr);
});

test('--journal-path (./run.sh passes it in the stack): summary.json storage.journal_path, null without it', async () => {
  await runOn('mongod-8.0-wiredtiger-replset', ['--engine', 'wiredtiger', '--profile', 'laptop', '--journal-path', '/mnt/disk2']);
  assert.equal(runsOf(results, 'experiment2', 'wiredtiger').at(-1).storage.journal_path, '/mnt/disk2');
  await runOn('mongod-8.0-wiredtiger-replset', ['--engine', 'wiredtiger', '--profile', 'laptop']);
  assert.equal(runsOf(results, 'experiment2', 'wiredtiger').at(-1).storage.journal_path, null);
});

test('--oplog-size (./run.sh passes its own): summary.json storage.oplog_mb in place of the table\'s; 0 refused', async () => {
  await runOn('mongod-4.0-mmapv1-replset', ['--engine', 'mmapv1', '--profile', 'seed2013', '--oplog-size', '3800']);
  const s = runsOf(results, 'experiment2', 'mmapv1').at(-1).storage;
  assert.equal(s.oplog_mb, 3800);
  assert.notEqual(s.oplog_mb, tables.engine('mmapv1').oplog_mb);
  // inMemory: the share of the store is the given size's
  const mem = storageFacts({ row: tables.engine('inmemory'), inStack: true, profile: 'laptop', oplogMb: 256 });
  assert.deepEqual([mem.oplog_mb, mem.store_mb, mem.oplog_share_of_store], [256, 512, 0.5]);
  const r = await runLoader(['experiment2', '--oplog-size', '0', '--results-dir', results]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--oplog-size/);
});

test('storageFacts: an amd64-only image on an arm64 host is emulated; a multi-arch one is not', () => {
  const rocks = storageFacts({ row: tables.engine('rocksdb'), inStack: true, arch: 'arm64', platform: 'linux' });
  assert.deepEqual([rocks.image_platform, rocks.host_platform, rocks.emulated], ['linux/amd64', 'linux/arm64', true]);
  assert.equal(storageFacts({ row: tables.engine('rocksdb'), inStack: true, arch: 'x64', platform: 'linux' }).emulated, false);
  // Docker Desktop on an Intel Mac runs linux/amd64 natively.
  assert.equal(storageFacts({ row: tables.engine('rocksdb'), inStack: true, arch: 'x64', platform: 'darwin' }).emulated, false);
  assert.equal(storageFacts({ row: tables.engine('wiredtiger'), inStack: true, arch: 'arm64', platform: 'linux' }).emulated, false);
  // No --engine: the reported storage engine's row (src/server/engine-label.js chooses it).
  const byServer = storageFacts({ row: tables.engine('mmapv1'), description: { server: { oplog_mb: 1024 } }, inStack: false });
  assert.deepEqual([byServer.engine_row, byServer.oplog_mb_reported, byServer.emulated], ['mmapv1', 1024, null]);
});

// inMemory keeps its oplog inside --inMemorySizeGB (engines.tsv oplog_share), so
// the summary records the oplog the profile's store gets and its share of that store.
test('inMemory: the oplog is the row\'s share of the profile\'s store, recorded with the store and the share', () => {
  const laptop = storageFacts({ row: tables.engine('inmemory'), inStack: true, profile: 'laptop' });
  assert.deepEqual([laptop.oplog_mb, laptop.store_mb, laptop.oplog_share_of_store], [128, 512, 0.25]);
  const seed = storageFacts({ row: tables.engine('inmemory'), inStack: true, profile: 'seed2013' });
  assert.deepEqual([seed.oplog_mb, seed.store_mb, seed.oplog_share_of_store], [256, 1024, 0.25]);
  for (const s of [laptop, seed]) assert.ok(s.oplog_mb < s.store_mb / 2, 'most of the store is left to the data');
  // a disk engine's oplog is the row's oplog_mb; no store to share
  const wt = storageFacts({ row: tables.engine('wiredtiger'), inStack: true, profile: 'laptop' });
  assert.deepEqual([wt.oplog_mb, wt.store_mb, wt.oplog_share_of_store], [tables.engine('wiredtiger').oplog_mb, null, null]);
  // a --uri run of inmemory knows no profile: no store, no share, no configured size claimed
  const uri = storageFacts({ row: tables.engine('inmemory'), inStack: false });
  assert.deepEqual([uri.oplog_mb, uri.store_mb, uri.oplog_share_of_store], [null, null, null]);
});
