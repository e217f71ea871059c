'use strict';
// The wire shim plays each server line's cited behaviours through the real drivers, and every
// deviation of the test server it lists still holds (a table that went stale fails here).
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer } = require('./support/server');
const { startShim } = require('./support/wire-shim');
const { BEHAVIOURS, LINES, DEVIATIONS } = require('./support/server-lines');
const { driver } = require('../src/server/driver-line');

// The driver line the lab pairs with each server line (compose/engines.tsv driver_line).
const driverFor = (line) => (line.wire <= 6 ? 'mongodb-6.9' : line.wire <= 7 ? 'mongodb-6.16' : 'mongodb');

let backend;
test.before(async () => { backend = await startServer(); });
test.after(async () => { await backend.stop(); });

async function withLine(name, fn, clientOptions = {}) {
  const shim = await startShim({ backendPort: backend.port, line: name });
  const { MongoClient } = driver(driverFor(shim.line));
  const client = new MongoClient(shim.uri, { serverSelectionTimeoutMS: 10000, maxPoolSize: 1, ...clientOptions });
  try {
    await client.connect();
    return await fn(client, shim);
  } finally {
    await client.close();
    await shim.close();
  }
}

const coll = (client, name) => client.db('lines').collection(`${name}-${process.hrtime.bigint()}`);

test('every line announces itself as its row says: hello, buildInfo, serverStatus', async () => {
  for (const name of Object.keys(LINES)) {
    await withLine(name, async (client, shim) => {
      const admin = client.db('admin');
      const hello = await admin.command({ isMaster: 1 });
      assert.equal(hello.maxWireVersion, shim.line.wire, name);
      assert.equal(hello.setName, shim.line.replSet ? shim.line.replSet.name : undefined, name);
      if (shim.line.replSet) assert.equal(hello.hosts.length, shim.line.replSet.members, name);
      const sessions = shim.line.sessions === true || (shim.line.sessions === 'fcv36' && shim.line.fcv === '3.6');
      assert.equal(hello.logicalSessionTimeoutMinutes, sessions ? 30 : undefined, name);
      const build = await admin.command({ buildInfo: 1 });
      assert.equal(build.version, shim.line.version, name);
      for (const [k, v] of Object.entries(shim.line.buildInfo || {})) assert.equal(build[k], v, `${name} buildInfo.${k}`);
      const status = await admin.command({ serverStatus: 1 });
      assert.deepEqual(status.storageEngine, shim.line.storageEngine, name);
      if (shim.line.hello) assert.equal((await admin.command({ hello: 1 })).isWritablePrimary, true, name);
      else await assert.rejects(admin.command({ hello: 1 }), /no such command/, `${name} predates hello`);
      assert.ok(shim.stats.hellos > 0, `${name}: the shim saw the driver's handshake`);
    });
  }
});

test('MMAPv1 (4.0): the driver attaches txnNumber to retryable writes and the line refuses it', async () => {
  await withLine('mongod-4.0-mmapv1-replset', async (client, shim) => {
    const refusal = BEHAVIOURS['retryable-writes-refused-mmapv1'].answer.refuse;
    await assert.rejects(coll(client, 'mmap').insertOne({ a: 1 }), (e) => {
      // mongodb 6.16 lib/operations/execute_operation.js rewrites code 20 with this message
      // into MMAPv1_RETRY_WRITES_ERROR_MESSAGE.
      assert.match(e.message, /does not support retryable writes\. Please add retryWrites=false/);
      return true;
    });
    assert.equal(shim.stats.refused['retryable-writes-refused-mmapv1'], 1);
    assert.equal(refusal.code, 20);
  });
  await withLine('mongod-4.0-mmapv1-replset', async (client, shim) => {
    await coll(client, 'mmap').insertOne({ a: 1 });
    assert.equal(shim.stats.refused['retryable-writes-refused-mmapv1'], undefined, 'retryWrites=false sends no txnNumber');
  }, { retryWrites: false });
});

test('MongoRocks (3.6): at FCV 3.4 no sessions are advertised, a txnNumber is refused, the upgrade to 3.6 too; 3.4 is accepted', async () => {
  await withLine('psmdb-3.6-rocksdb-replset', async (client, shim) => {
    const admin = client.db('admin');
    // The driver sees no logicalSessionTimeoutMinutes at FCV 3.4, so it sends no txnNumber...
    await coll(client, 'rocks').insertOne({ a: 1 });
    // ...and one that comes all the same (through a mongos that still advertises sessions) is refused.
    await assert.rejects(admin.command({ insert: 'rocks-txn', documents: [{ a: 1 }], lsid: { id: new (driver('mongodb-6.9').BSON.UUID)() }, txnNumber: 1 }),
      (e) => e.code === 72 && e.message === BEHAVIOURS['retryable-writes-refused-fcv34'].answer.refuse.errmsg);
    await assert.rejects(admin.command({ setFeatureCompatibilityVersion: '3.6' }), (e) => e.code === 20 && /does not support upgrading featureCompatibilityVersion to 3\.6/.test(e.message));
    await admin.command({ setFeatureCompatibilityVersion: '3.4' });
    assert.equal((await admin.command({ getParameter: 1, featureCompatibilityVersion: 1 })).featureCompatibilityVersion.version, '3.4');
    assert.equal(shim.state.fcv, '3.4');
  });
});

test('write concerns: w > 1 refused on a standalone, w above the members a writeConcernError, j refused without a journal', async () => {
  await withLine('mongod-8.0-standalone', async (client) => {
    const c = coll(client, 'wc');
    await assert.rejects(c.insertOne({ a: 1 }, { writeConcern: { w: 2 } }), (e) => e.code === 2 && /'w' > 1 when a host is not replicated/.test(e.message));
    assert.equal(await c.countDocuments({}), 0, 'refused before it was executed');
    await c.insertOne({ a: 1 }, { writeConcern: { w: 'majority' } });
  });
  await withLine('mongod-8.0-wiredtiger-replset', async (client) => {
    const c = coll(client, 'wc');
    await c.insertOne({ a: 1 }, { writeConcern: { w: 3 } });
    await assert.rejects(c.insertOne({ a: 2 }, { writeConcern: { w: 4 } }), (e) => e.code === 100);
    assert.equal(await c.countDocuments({}), 2, 'the unsatisfiable write was executed all the same');
  }, { retryWrites: false });
  await withLine('mongod-8.0-wiredtiger-replset', async (client, shim) => {
    const { config } = await client.db('admin').command({ replSetGetConfig: 1 });
    assert.equal(config.members.filter((m) => !m.arbiterOnly).length, shim.line.replSet.members);
  });
  await withLine('mongod-8.0-standalone', async (client) => {
    await assert.rejects(client.db('admin').command({ replSetGetConfig: 1 }), (e) => e.code === 76);
  });
  await withLine('psmdb-8.0-inmemory-replset', async (client) => {
    await assert.rejects(coll(client, 'wc').insertOne({ a: 1 }, { writeConcern: { w: 1, j: true } }), /journaling enabled/);
  }, { retryWrites: false });
});

test('w:0 is executed with no reply and the connection stays open, as MongoDB does', async () => {
  await withLine('mongod-8.0-standalone', async (client, shim) => {
    const c = coll(client, 'w0');
    for (let i = 0; i < 20; i += 1) await c.insertOne({ i }, { writeConcern: { w: 0 } });
    // The count goes after them on the same single connection, so it also orders the shim's tally.
    assert.equal(await c.countDocuments({}), 20, 'every one arrived, on the same single connection');
    assert.equal(shim.stats.unacknowledged, 20, 'the driver sent them as moreToCome writes');
  });
});

test('journalCommitInterval: set and read back within 1..500 on every line, inMemory included', async () => {
  await withLine('mongod-8.0-wiredtiger-replset', async (client) => {
    const admin = client.db('admin');
    assert.equal((await admin.command({ setParameter: 1, journalCommitInterval: 7 })).was, 100);
    assert.equal((await admin.command({ getParameter: 1, journalCommitInterval: 1 })).journalCommitInterval, 7);
    await assert.rejects(admin.command({ setParameter: 1, journalCommitInterval: 501 }), (e) => e.code === 2);
  });
  await withLine('psmdb-8.0-inmemory-replset', async (client) => {
    // A global parameter: accepted where there is no journal for it to pace.
    assert.equal((await client.db('admin').command({ setParameter: 1, journalCommitInterval: 7 })).was, 100);
    await assert.rejects(client.db('admin').command({ setParameter: 1, noSuchParameter: 7 }), (e) => e.code !== undefined);
  });
});

test('journalCommitInterval on 4.0 and 3.6: reads 0 (the engine default) until set, and 0 cannot be set back', async () => {
  for (const name of ['mongod-4.0-mmapv1-replset', 'psmdb-3.6-rocksdb-replset']) {
    await withLine(name, async (client) => {
      const admin = client.db('admin');
      assert.equal((await admin.command({ getParameter: 1, journalCommitInterval: 1 })).journalCommitInterval, 0, name);
      assert.equal((await admin.command({ setParameter: 1, journalCommitInterval: 500 })).was, 0, name);
      await assert.rejects(admin.command({ setParameter: 1, journalCommitInterval: 0 }), (e) => e.code === 2 && e.codeName === 'BadValue', name);
      assert.equal((await admin.command({ getParameter: 1, journalCommitInterval: 1 })).journalCommitInterval, 500, `${name}: the refused 0 left it at 500`);
    });
  }
});

// Each deviation the shim corrects is checked on the bare test server: if mongo-java-server
// stops deviating, the table (and the shim's row for it) must go.
const DEVIATION_CHECKS = {
  'w-above-1-on-standalone': async (db) => { await db.collection('dev').insertOne({ a: 1 }, { writeConcern: { w: 2 } }); return true; },
  'journal-commit-interval-unknown': async (db) => db.admin().command({ setParameter: 1, journalCommitInterval: 7 }).then(() => false, () => true),
  'no-storage-engine': async (db) => (await db.admin().command({ serverStatus: 1 })).storageEngine === undefined,
  'standalone-only-hello': async (db) => (await db.admin().command({ isMaster: 1 })).setName === undefined,
  'no-sharding-or-replication-commands': async (db) => db.admin().command({ listShards: 1 }).then(() => false, () => true),
  'error-codes': async (db) => db.admin().command({ setParameter: 1, journalCommitInterval: 7 }).then(() => false, (e) => e.code === 59),
};
// Not checked on the bare server, with the reason (the shim's own test above covers its side).
const NOT_CHECKED = { 'unacknowledged-write-connection': 'whether the test server answers or drops a w:0 connection depends on timing' };

test('every listed deviation of the test server still holds on it', async () => {
  const { MongoClient } = driver('mongodb');
  const client = new MongoClient(backend.uri, { serverSelectionTimeoutMS: 10000 });
  try {
    await client.connect();
    const db = client.db('deviations');
    let checked = 0;
    for (const id of Object.keys(DEVIATIONS)) {
      if (NOT_CHECKED[id]) continue;
      assert.ok(DEVIATION_CHECKS[id], `deviation '${id}' has no check (add one, or say why in NOT_CHECKED)`);
      assert.equal(await DEVIATION_CHECKS[id](db), true, `mongo-java-server no longer deviates: '${id}' (${DEVIATIONS[id].test_server})`);
      checked += 1;
    }
    assert.ok(checked >= 5, `checked ${checked} deviations`);
  } finally {
    await client.close();
  }
});
