'use strict';
// 1,000 clients in one loader process (src/text/usage.js CLIENTS.max), the timeline exact: every insert
// the server holds is in the per-second timeline and in summary.json, no more, no fewer. Against
// the test server, experiment1 bounded by --docs. Before, --clients stopped at 256, and 1,000
// clients connecting all at once timed out on a busy host (src/run/worker.js CONNECT_AT_ONCE).
const test = require('node:test');
const assert = require('node:assert/strict');
const { withServerAndResults, runLoader, latestRun, readTimeline } = require('./support/loader');
const { MongoClient } = require('mongodb');

let server;
let results;
withServerAndResults(test, (s, r) => { server = s; results = r; });

test('1,000 clients: server-side document count = the timeline\'s inserts = summary.json\'s', { timeout: 300000 }, async () => {
  const docs = 5000; // 5 a client: each client inserts over several of the timeline's seconds
  const r = await runLoader(['experiment1', '--uri', server.uri, '--clients', '1000', '--docs', String(docs), '--results-dir', results,
    '--metrics-port', '0', '--engine', 'thousand', '--progress-interval', '1s']);
  assert.equal(r.code, 0, r.stderr);
  const run = latestRun(results, 'experiment1', 'thousand');
  const step = run.summary.steps[0];
  assert.equal(step.clients, 1000);
  const timeline = readTimeline(run.dir).reduce((n, l) => n + (l.ops?.insert?.ok ?? 0), 0);
  const client = new MongoClient(server.uri);
  try {
    const held = await client.db('lab').collection('seed004').countDocuments();
    assert.equal(held, docs, 'the server holds every document');
    assert.equal(timeline, held, 'the timeline counts what the server holds');
    assert.equal(step.ops.insert.count, held, 'summary.json too');
  } finally {
    await client.close();
  }
});
