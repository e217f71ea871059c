'use strict';
// The failure paths, for real: an unreachable server, the server killed mid-run, Ctrl-C.
// Each writes partial results marked complete:false with the reason, and exits non-zero.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const { startServer } = require('./support/server');
const { runLoader, startLoader, tmpResults, latestRun } = require('./support/loader');
const { checkSummary } = require('./support/summary-schema');

let results;
test.before(() => { results = tmpResults(); });
test.after(() => fs.rmSync(results, { recursive: true, force: true }));

// A port with nothing listening on it: bind to 0, note the port, close.
async function deadPort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

test('unreachable server: clear error within the server-selection timeout, exit 1', async () => {
  const port = await deadPort();
  const r = await runLoader(['experiment3', '--uri', `mongodb://127.0.0.1:${port}/`, '--server-selection-timeout', '2s',
    '--results-dir', results, '--metrics-port', '0', '--engine', 'nowhere']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`cannot reach the server at mongodb://127\\.0\\.0\\.1:${port}/ within 2s`));
  assert.ok(r.ms < 2000 + 6000, `took ${r.ms} ms`);
  const { summary } = latestRun(results, 'experiment3', 'nowhere');
  checkSummary(summary);
  assert.equal(summary.complete, false);
  assert.match(summary.reason, /cannot reach the server/);
  assert.equal(summary.server, null, 'nothing invented about a server we never reached');
});

test('server killed mid-run: loader stops within 30 s, keeps partial results, exits non-zero', async () => {
  const server = await startServer();
  try {
    const l = startLoader(['experiment3', '--uri', server.uri, '--preload-docs', '500', '--clients', '2', '--duration', '120s',
      '--server-selection-timeout', '5s', '--results-dir', results, '--metrics-port', '0', '--engine', 'killed', '--progress-interval', '1s']);
    await l.waitFor(/step 1\/1 \(2 clients\): \d+\/120 s/); // at least one progress line: ops are flowing
    const t0 = Date.now();
    server.kill();
    const r = await l.done;
    const stopMs = Date.now() - t0;
    assert.notEqual(r.code, 0);
    assert.equal(r.code, 1, r.stderr);
    assert.ok(stopMs < 30000, `stopped ${stopMs} ms after the kill`);
    const { summary } = latestRun(results, 'experiment3', 'killed');
    checkSummary(summary);
    assert.equal(summary.complete, false);
    assert.match(summary.reason, /lost the server|no operation completed/);
    assert.equal(summary.steps.length, 1);
    assert.equal(summary.steps[0].complete, false);
    assert.ok(summary.steps[0].ops.find.count > 0, 'what was measured before the kill is kept');
    assert.match(r.stderr, /incomplete run/);
  } finally {
    await server.stop();
  }
});

test('SIGINT: stops, writes partial results, exits 130', async () => {
  const server = await startServer();
  try {
    const l = startLoader(['experiment2', '--uri', server.uri, '--preload-docs', '500', '--clients', '1', '--duration', '120s',
      '--results-dir', results, '--metrics-port', '0', '--engine', 'interrupted', '--progress-interval', '1s']);
    await l.waitFor(/step 1\/1 \(1 clients\): \d+\/120 s/);
    const t0 = Date.now();
    l.proc.kill('SIGINT');
    const r = await l.done;
    assert.equal(r.code, 130, r.stderr);
    assert.ok(Date.now() - t0 < 10000);
    const { summary } = latestRun(results, 'experiment2', 'interrupted');
    checkSummary(summary);
    assert.equal(summary.complete, false);
    assert.match(summary.reason, /SIGINT/);
    assert.equal(summary.exit_code, 130);
    assert.ok(summary.steps[0].ops.find.count > 0);
  } finally {
    await server.stop();
  }
});

test('server hung (SIGSTOP): no op completes for --stall-timeout, loader stops well within 30 s, exit 1', async () => {
  const server = await startServer();
  try {
    const l = startLoader(['experiment3', '--uri', server.uri, '--preload-docs', '500', '--clients', '2', '--duration', '120s',
      '--stall-timeout', '3s', '--results-dir', results, '--metrics-port', '0', '--engine', 'hung', '--progress-interval', '1s']);
    await l.waitFor(/step 1\/1 \(2 clients\): \d+\/120 s/);
    const t0 = Date.now();
    server.proc.kill('SIGSTOP');
    const r = await l.done;
    const stopMs = Date.now() - t0;
    assert.equal(r.code, 1, r.stderr);
    assert.ok(stopMs < 30000, `stopped ${stopMs} ms after the server hung`);
    const { summary } = latestRun(results, 'experiment3', 'hung');
    checkSummary(summary);
    assert.equal(summary.complete, false);
    assert.match(summary.reason, /no operation completed for \d+s/);
    assert.ok(summary.steps[0].ops.find.count > 0);
  } finally {
    server.proc.kill('SIGCONT');
    await server.stop();
  }
});
