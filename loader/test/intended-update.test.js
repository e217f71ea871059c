'use strict';
// A paced experiment2 (--rate) reported the update's intended (coordinated-omission corrected)
// latency identical to its service latency (p50 1.63 / p99 10.69 ms both), while the
// find's showed the backlog. Here the server is paused (SIGSTOP) for 600 ms in the middle of a
// paced step, so the pairs due in that time start late: both operations' intended latency must
// show it, while their service latency does not.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { startServer } = require('./support/server');
const { startLoader, tmpResults, latestRun } = require('./support/loader');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('paced experiment2 with a backlog: the update\'s intended latency shows it, as the find\'s does', async () => {
  const server = await startServer();
  const results = tmpResults();
  try {
    // 400 ops/s = 200 pairs/s, far below what one client gets from the test server.
    const l = startLoader(['experiment2', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--engine', 'paced',
      '--preload-docs', '500', '--clients', '1', '--duration', '4s', '--warmup', '0', '--rate', '400', '--progress-interval', '1s']);
    await l.waitFor(/step 1\/1 \(1 client\): started/);
    await sleep(1500);
    server.proc.kill('SIGSTOP');
    await sleep(600);
    server.proc.kill('SIGCONT');
    const r = await l.done;
    assert.equal(r.code, 0, r.stderr);
    const { summary } = latestRun(results, 'experiment2', 'paced');
    const { find, update } = summary.steps[0].ops;
    // The premise: ~120 of ~800 pairs were due during the pause (the find's corrected p99 shows it).
    assert.ok(find.intended_latency_us.p99 > 10 * find.latency_us.p99, `find p99 ${find.latency_us.p99} us, intended ${find.intended_latency_us.p99} us: no backlog`);
    assert.ok(update.intended_latency_us, 'the update has an intended latency');
    assert.ok(update.intended_latency_us.p99 > 10 * update.latency_us.p99,
      `update p99 ${update.latency_us.p99} us, intended ${update.intended_latency_us.p99} us: the backlog is missing from the update's`);
  } finally {
    server.proc.kill('SIGCONT');
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});
