'use strict';
// Achieved against offered when a paced step's server stalls across the end of its warm-up: the
// client catches up in the window on ops due in the warm-up. The window counts what completed in
// it (test/warmup-window.test.js), so any excess over the offered rate is that backlog, which the
// summary states (steps[].warmup.backlog_ops); nothing else may push achieved above offered.
// mongo-java-server is paused (SIGSTOP) from 1.0 s to 2.6 s of a step whose warm-up ends at 2 s.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { startServer } = require('./support/server');
const { startLoader, tmpResults, latestRun } = require('./support/loader');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('a stall across the end of the warm-up: achieved above offered only by the backlog the summary counts', { timeout: 120000 }, async (t) => {
  const server = await startServer();
  const results = tmpResults();
  try {
    // 200 ops/s = 100 find+update pairs/s, far below what one client gets from the test server.
    const l = startLoader(['experiment2', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--engine', 'paced',
      '--preload-docs', '200', '--clients', '1', '--duration', '3s', '--warmup', '2s', '--rate', '200', '--progress-interval', '1s']);
    await l.waitFor(/step 1\/1 \(1 client, 2s warm-up\): started/);
    await sleep(1000);
    server.proc.kill('SIGSTOP');
    await sleep(1600);
    server.proc.kill('SIGCONT');
    const r = await l.done;
    assert.equal(r.code, 0, r.stderr);
    const { summary } = latestRun(results, 'experiment2', 'paced');
    const s = summary.steps[0];
    const achieved = Object.values(s.ops).reduce((a, o) => a + o.ops_per_s, 0);
    t.diagnostic(`offered 200 ops/s, achieved ${achieved.toFixed(1)} in the window; warm-up ${s.warmup?.ops} operations`);
    // the premise: the stall built a backlog (the window's intended p99 shows the wait)
    assert.ok(s.ops.find.intended_latency_us.p99 > 100000, `no backlog: intended p99 ${s.ops.find.intended_latency_us.p99} us`);
    // What completed in the window: at most what was due in it (offered x duration) plus the
    // backlog from the warm-up, which the summary counts, give or take the iteration that
    // straddles each end of the window: an experiment2 iteration is a find+update pair, so 2 ops
    // a client at each end (the bound allowed one end only and failed once at 802 against 801.8).
    const count = Object.values(s.ops).reduce((a, o) => a + o.count, 0);
    const backlog = s.warmup.backlog_ops ?? 0;
    assert.ok(count <= 200 * s.duration_s + 2 * 2 + backlog, `${count} completed in ${s.duration_s} s at 200 offered, backlog ${backlog}`);
    assert.ok(achieved <= 200 * 1.05 || backlog > 0, `achieved ${achieved} > offered 200 with no backlog to explain it`);
  } finally {
    server.proc.kill('SIGCONT');
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});
