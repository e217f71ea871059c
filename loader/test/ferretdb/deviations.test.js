'use strict';
// Each row of FERRETDB_DEVIATIONS (support/server-lines.js) checked on the FerretDB behind
// MONGODB_URI (suite 45-ferretdb): a deviation that went away fails here, so the table, and
// what the lab does about it, cannot go stale silently. Every row has a check.
const test = require('node:test');
const assert = require('node:assert/strict');
const { MongoClient } = require('mongodb');
const { FERRETDB_DEVIATIONS } = require('../support/server-lines');

const CHECKS = {
  // ignored: a w the server cannot satisfy (w:5 on one server) is acknowledged without an error
  'write-concern-ignored': async (db) => { await db.collection('dev').insertOne({ a: 1 }, { writeConcern: { w: 5, wtimeoutMS: 1000 } }); return true; },
  'no-expr-comparison': async (db) => db.collection('dev').countDocuments({ $expr: { $gt: ['$a', 0] } }).then(() => false, (e) => e.code === 238),
  'no-journal-commit-interval': async (db) => db.admin().command({ getParameter: 1, journalCommitInterval: 1 }).then(() => false, (e) => e.code === 72),
  'no-storage-engine': async (db) => (await db.admin().command({ serverStatus: 1 })).storageEngine === undefined,
  'standalone-only-hello': async (db) => (await db.admin().command({ hello: 1 })).setName === undefined,
};

test('every listed FerretDB deviation still holds on FerretDB v1.24.2, and each has a check', async () => {
  assert.ok(process.env.MONGODB_URI, 'MONGODB_URI names the FerretDB server (test/suites/45-ferretdb.sh)');
  assert.deepEqual(Object.keys(CHECKS).sort(), Object.keys(FERRETDB_DEVIATIONS).sort());
  const client = new MongoClient(process.env.MONGODB_URI, { serverSelectionTimeoutMS: 10000 });
  try {
    await client.connect();
    assert.equal((await client.db('admin').command({ buildInfo: 1 })).ferretdbVersion, 'v1.24.2');
    const db = client.db('deviations');
    for (const id of Object.keys(FERRETDB_DEVIATIONS)) {
      assert.equal(await CHECKS[id](db), true, `FerretDB no longer deviates: '${id}' (${FERRETDB_DEVIATIONS[id].ferretdb})`);
    }
  } finally {
    await client.close();
  }
});
