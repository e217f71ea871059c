'use strict';
// The fault tool's writers on an engine whose shard refuses retryable writes:
// its member and mongos clients take retryWrites from the engine's row (compose/engines.tsv
// retryable_writes, passed by src/faults/process.js), so their writes reach MMAPv1 without the
// txnNumber the 4.0 line refuses (support/server-lines.js retryable-writes-refused-mmapv1).
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer } = require('../support/server');
const { Members, mongosClient } = require('../../src/faults/cluster');
const tables = require('../../../common/tables');

test('mmapv1 row: member and mongos clients write without txnNumber; with retryable writes on, the line refuses them', async () => {
  const server = await startServer({ line: 'mongod-4.0-mmapv1-replset' });
  const row = tables.engine('mmapv1');
  const opts = { driverLine: row.driver_line, retryWrites: row.retryable_writes };
  const host = server.shim.hosts[0]; // the primary's port
  const members = new Members([host], opts);
  const viaRouter = mongosClient({ mongos: host, ...opts });
  const retrying = mongosClient({ mongos: host, driverLine: row.driver_line });
  try {
    await members.client(host).db('faults').collection('rw').insertOne({ a: 1 });
    await viaRouter.db('faults').collection('rw').insertOne({ a: 2 });
    assert.equal(server.shim.stats.refused['retryable-writes-refused-mmapv1'], undefined);
    await assert.rejects(retrying.db('faults').collection('rw').insertOne({ a: 3 }), /does not support retryable writes/);
    assert.equal(server.shim.stats.refused['retryable-writes-refused-mmapv1'], 1, 'the premise: the driver sends txnNumber there by default');
  } finally {
    await members.close();
    await viaRouter.close();
    await retrying.close();
    await server.stop();
  }
});
