'use strict';
// inMemory keeps all its data, the oplog included, inside --inMemorySizeGB, and a
// write that would pass it fails with WT_CACHE_FULL (the shim's inmemory-store-full behaviour on
// the Percona 8.0 inMemory line). The lab used to give every engine's members a 1024 MB oplog,
// larger than inmemory's whole store (0.5 GB laptop, 1 GB seed2013); its oplog is now the engines
// table's oplog_share of the profile's store (tables.js oplogMbFor, lib/stack.sh stack_oplog_mb).
// The store is played at 1/1024 scale (a profile's MB as KB) with 1 KB documents through the
// real driver: the data a store holds before the first refusal, with the lab's oplog and with
// the old 1024 MB one.
const test = require('node:test');
const assert = require('node:assert/strict');
const { MongoClient } = require('mongodb');
const { startServer } = require('./support/server');
const { BEHAVIOURS } = require('./support/server-lines');
const tables = require('../../common/tables');

const ROW = tables.engine('inmemory');
const PROFILES = tables.readTable('profiles');

// dataRoom(server, storeMb, oplogMb) -> { data, error }: bytes of data written before the store
// refused a write (scaled: MB as KB), and that refusal.
async function dataRoom(server, storeMb, oplogMb) {
  server.shim.state.store = { bytes: storeMb * 1024, oplogBytes: oplogMb * 1024, data: 0, oplog: 0 };
  const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 10000, retryWrites: false });
  try {
    const col = client.db('lab').collection(`store${storeMb}x${oplogMb}`);
    for (let i = 0; i < 100000; i += 1) {
      try {
        await col.insertOne({ _id: i, pad: 'x'.repeat(900) });
      } catch (error) {
        return { data: server.shim.state.store.data, error };
      }
    }
    throw new Error('the store never filled');
  } finally {
    await client.close();
  }
}

test('inMemory: the lab\'s oplog leaves 3/4 of every profile\'s store to the data; the old 1024 MB oplog left it half at most', async () => {
  const server = await startServer({ line: 'psmdb-8.0-inmemory-replset' });
  try {
    const want = BEHAVIOURS['inmemory-store-full'].answer.refuse;
    for (const p of PROFILES) {
      const { oplog_mb: oplogMb, store_mb: storeMb } = tables.oplogMbFor(ROW, p);
      const lab = await dataRoom(server, storeMb, oplogMb);
      assert.equal(lab.error.code, want.code, lab.error.message);
      assert.equal(lab.error.message, want.errmsg);
      const labShare = lab.data / (storeMb * 1024);
      assert.ok(labShare >= 0.73, `${p.profile}: the lab's ${oplogMb} MB oplog leaves the data ${(labShare * 100).toFixed(1)}% of ${storeMb} MB`);
      const old = await dataRoom(server, storeMb, ROW.oplog_mb);
      const oldShare = old.data / (storeMb * 1024);
      assert.equal(old.error.code, want.code);
      assert.ok(oldShare <= 0.5, `${p.profile}: a ${ROW.oplog_mb} MB oplog left the data ${(oldShare * 100).toFixed(1)}%`);
    }
  } finally {
    await server.stop();
  }
});
