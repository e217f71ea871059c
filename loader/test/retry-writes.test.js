'use strict';
// Retryable writes decided per server line: the real loader CLI runs experiment2 against
// a server that answers as MongoDB 4.0 with MMAPv1 and as Percona 3.6 with MongoRocks at FCV 3.4
// (support/server-lines.js: the wire shim in front of mongo-java-server, from the cited table).
// With the driver's default retryWrites every write carries a txnNumber and both lines refuse it;
// the loader connects with retryWrites=false where the engines table's row (--engine) or what the
// server reports (storage engine, featureCompatibilityVersion) says the line cannot have them, and
// the summary says which and why.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { startServer } = require('./support/server');
const { runLoader, tmpResults, runsOf } = require('./support/loader');

let results;
test.before(() => { results = tmpResults(); });
test.after(() => fs.rmSync(results, { recursive: true, force: true }));

async function onLine(line, fn) {
  const server = await startServer({ line });
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

// paced: the subject is what the summary records, not the throughput (unpaced, the step kept the
// loader and the server busy on both cores of the suite's host)
const experiment2 = (server, extra) => runLoader(['experiment2', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0',
  '--preload-docs', '300', '--clients', '1', '--duration', '1s', '--rate', '200', '--progress-interval', '1s', ...extra]);

function measuredWrites(summary) {
  assert.equal(summary.steps.length, 1);
  const update = summary.steps[0].ops.update;
  assert.ok(update && update.count > 0, `updates were measured: ${JSON.stringify(summary.steps[0].ops)}`);
  assert.equal(update.errors, 0);
}

test('MMAPv1 on 4.0: retryWrites=false from the row (--engine mmapv1) and from the reported engine; writes measured', async () => {
  await onLine('mongod-4.0-mmapv1-replset', async (server) => {
    for (const [label, extra] of [['mmapv1', ['--engine', 'mmapv1']], ['mmapv1', []]]) {
      const r = await experiment2(server, extra);
      assert.equal(r.code, 0, r.stderr);
      const s = runsOf(results, 'experiment2', label).at(-1);
      assert.equal(s.complete, true, s.reason);
      assert.equal(s.retry_writes.enabled, false);
      assert.equal(s.retry_writes.source, extra.length ? 'engines table row mmapv1' : 'server: storage engine mmapv1 (engines table row mmapv1)');
      assert.match(s.retry_writes.reason, /txnNumber|document-level locking/);
      assert.equal(s.preload.docs, 300);
      measuredWrites(s);
    }
    assert.equal(server.shim.stats.refused['retryable-writes-refused-mmapv1'], undefined, 'no write carried a txnNumber');
  });
});

test('MongoRocks on Percona 3.6 at FCV 3.4: retryWrites=false from the row and from the reported FCV; writes measured', async () => {
  await onLine('psmdb-3.6-rocksdb-replset', async (server) => {
    let r = await experiment2(server, ['--engine', 'rocksdb']);
    assert.equal(r.code, 0, r.stderr);
    let s = runsOf(results, 'experiment2', 'rocksdb').at(-1);
    assert.equal(s.retry_writes.enabled, false);
    assert.equal(s.retry_writes.source, 'engines table row rocksdb');
    measuredWrites(s);
    // A label the table does not know: the server's report decides (FCV 3.4).
    r = await experiment2(server, ['--engine', 'my-rocks']);
    assert.equal(r.code, 0, r.stderr);
    s = runsOf(results, 'experiment2', 'my-rocks').at(-1);
    assert.equal(s.retry_writes.enabled, false);
    assert.equal(s.retry_writes.source, 'server: featureCompatibilityVersion 3.4');
    assert.equal(s.server.feature_compatibility_version, '3.4');
    measuredWrites(s);
    assert.equal(server.shim.stats.refused['retryable-writes-refused-fcv34'], undefined, 'no write carried a txnNumber');
  });
});

test('WiredTiger on 8.0 keeps retryable writes on, and the summary says so', async () => {
  await onLine('mongod-8.0-wiredtiger-replset', async (server) => {
    const r = await experiment2(server, ['--engine', 'wiredtiger']);
    assert.equal(r.code, 0, r.stderr);
    const s = runsOf(results, 'experiment2', 'wiredtiger').at(-1);
    assert.equal(s.retry_writes.enabled, true);
    assert.equal(s.retry_writes.source, 'engines table row wiredtiger');
    measuredWrites(s);
  });
});

// A standalone takes no retryable writes (manual "Retryable Writes", Prerequisites: a replica set
// or a sharded cluster), so the driver sends none whatever retryWrites says: the summary must not
// record them as on, even with --engine naming a row that has them.
test('a standalone (shim line mongod-8.0-standalone): retryable writes recorded off, the driver sends none', async () => {
  await onLine('mongod-8.0-standalone', async (server) => {
    const r = await experiment2(server, ['--engine', 'wiredtiger-standalone']);
    assert.equal(r.code, 0, r.stderr);
    const s = runsOf(results, 'experiment2', 'wiredtiger-standalone').at(-1);
    assert.equal(s.topology.kind, 'standalone');
    assert.equal(s.retry_writes.enabled, false);
    assert.equal(s.retry_writes.source, 'server: standalone');
    assert.equal(server.shim.stats.txnNumbers, 0, 'no txnNumber reached the server');
    measuredWrites(s);
  });
});
