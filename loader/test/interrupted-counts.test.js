'use strict';
// Counts after an interruption: journal cut short by SIGTERM printed "j:false: 0 sent,
// 162000 arrived" (summary documents.sent 0): only a client that finished posted its count. The
// documents sent are the acknowledged batches', counted as they are sent; a real loader process,
// a real signal, the test server counting what arrived.
const test = require('node:test');
const assert = require('node:assert/strict');
const { startLoader, withServerAndResults, latestRun } = require('./support/loader');

let server;
let results;
withServerAndResults(test, (s, r) => { server = s; results = r; });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('journal stopped by one SIGTERM mid-case: documents.sent is what was acknowledged (was 0), exit 143', async () => {
  const l = startLoader(['journal', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--engine', 'term',
    '--docs', '2000000', '--batch', '1000', '--commit-intervals', 'none', '--repeat', '1', '--progress-interval', '1s'],
  { spawnOptions: { detached: true } });
  await l.waitFor(/j:false: started/);
  await sleep(1500); // batches acknowledged, far from 2M
  process.kill(-l.proc.pid, 'SIGTERM');
  const r = await l.done;
  assert.equal(r.code, 143, r.stderr);
  const { summary } = latestRun(results, 'journal', 'term');
  const c = summary.cases[0];
  assert.equal(c.name, 'j:false');
  assert.equal(c.complete, false);
  assert.ok(c.documents.arrived > 0 && c.documents.arrived < 2000000, `arrived ${c.documents.arrived}: the premise is a case cut short`);
  assert.ok(c.documents.sent > 0, `sent ${c.documents.sent} with ${c.documents.arrived} arrived`);
  // Every acknowledged batch arrived; a batch in flight at the signal may have arrived unacknowledged.
  assert.ok(c.documents.sent <= c.documents.arrived && c.documents.arrived - c.documents.sent <= 1000,
    `sent ${c.documents.sent}, arrived ${c.documents.arrived}`);
  assert.equal(c.documents.sent, c.ops.insert.docs, 'sent is the recorded batches\' documents');
  assert.match(c.documents.arrived_source, /cut short/);
  assert.equal(summary.cases.length, 1, 'no case after the signal');
});
