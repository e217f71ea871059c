'use strict';
// summary.json documents_written (src/results/documents-written.js): every document the run wrote, the
// divisor of the block writes ./run.sh measures over the loader's whole invocation. Checked
// against the server's own count of the collection after an insert run whose warm-up wrote too,
// and against the timeline's seconds for a run of updates after a preload. Real loader CLI, real
// driver, mongo-java-server over TCP.
const test = require('node:test');
const assert = require('node:assert/strict');
const { runLoader, latestRun, readTimeline, withServerAndResults } = require('./support/loader');

let server;
let results;
withServerAndResults(test, (s, r) => { server = s; results = r; });

test('inserts with a warm-up: documents_written is what the server holds at the end', async () => {
  const r = await runLoader(['experiment1', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--engine', 'dw',
    '--docs', '400', '--clients', '2', '--warmup', '0.3s']);
  assert.equal(r.code, 0, r.stderr);
  const { summary } = latestRun(results, 'experiment1', 'dw');
  assert.equal(summary.footprint.end.documents, 400);
  assert.equal(summary.documents_written, summary.footprint.end.documents);
  assert.equal(summary.steps.reduce((a, s) => a + s.documents_written, 0), 400);
});

test('updates after a preload: the preload and every second of each step, warm-up included', async () => {
  const r = await runLoader(['experiment2', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--engine', 'dw2',
    '--preload-docs', '300', '--clients', '1', '--duration', '1s', '--warmup', '1s']);
  assert.equal(r.code, 0, r.stderr);
  const { dir, summary } = latestRun(results, 'experiment2', 'dw2');
  const updates = readTimeline(dir).reduce((a, l) => a + (l.ops.update ? l.ops.update.ok : 0), 0);
  assert.ok(updates > 0);
  assert.equal(summary.steps[0].documents_written, updates);
  assert.equal(summary.documents_written, 300 + updates);
});
