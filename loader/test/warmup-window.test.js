'use strict';
// The measured window counts exactly the operations that complete in it. A paced client that has
// fallen behind in its warm-up (more offered than the server serves) works off ops due in the
// warm-up for the rest of the step: counted in the warm-up wherever they completed, they left the
// window's seconds at 0 operations while the server served 100 a second (a false dip at the first
// measured second, "achieved 40.2" where the server served 60). Real loader, real driver,
// mongo-java-server behind a proxy that serves at most 100 commands a second (support/rate-proxy.js).
const test = require('node:test');
const assert = require('node:assert/strict');
const { MongoClient } = require('mongodb');
const { startServer } = require('./support/server');
const { rateProxy } = require('./support/rate-proxy');
const { runLoader, tmpResults, latestRun, readTimeline } = require('./support/loader');
const { inWarmup, dueInWarmup } = require('../src/run/recorder');
const { hostSlowed } = require('../../common/host-slowed');
const fs = require('node:fs');

test('inWarmup places an op by when it completed; dueInWarmup counts the backlog', () => {
  const step = { startAt: 1000, measureAt: 3000 };
  assert.equal(inWarmup(step, 2999), true);
  assert.equal(inWarmup(step, 3000), false, 'completed as the window opened: the window\'s');
  assert.equal(inWarmup({ startAt: 1000, measureAt: 1000 }, 900), false, 'no warm-up: everything is measured');
  assert.equal(dueInWarmup(step, 2500), true);
  assert.equal(dueInWarmup(step, 3000), false);
  assert.equal(dueInWarmup(step, 0), false, 'unpaced: no due time');
});

test('a paced step behind its server: every measured second counts what the server served, and the totals are the server\'s', { timeout: 120000 }, async (t) => {
  const server = await startServer();
  const proxy = await rateProxy(server.port, { rate: 100, burst: 1 });
  const results = tmpResults();
  const client = new MongoClient(server.uri);
  try {
    // 600 inserts offered at 300/s: all due within the 2 s warm-up; the server takes 6 s for them.
    const r = await runLoader(['experiment1', '--uri', proxy.uri, '--results-dir', results, '--metrics-port', '0', '--engine', 'behind',
      '--docs', '600', '--clients', '1', '--rate', '300', '--warmup', '2s', '--progress-interval', '1s']);
    assert.equal(r.code, 0, r.stderr);
    const { dir, summary } = latestRun(results, 'experiment1', 'behind');
    const [st] = summary.steps;
    const measured = readTimeline(dir).filter((l) => !l.warmup && l.step === 1);
    const perLine = measured.map((l) => l.ops.insert?.ok ?? 0);
    t.diagnostic(`measured lines: ${perLine.join(', ')}; warm-up ${st.warmup.ops}, backlog ${st.warmup.backlog_ops}, measured ${st.ops.insert?.count}`);
    // No false dip: each full measured second holds what the server served (100/s), the first too.
    const full = measured.filter((l) => l.interval_s >= 0.9);
    assert.ok(full.length >= 3, `${full.length} full measured seconds`);
    // (bounds loose for a busy shared host: the old rule gave these seconds 0)
    for (const l of full) assert.ok(l.ops.insert && l.ops.insert.ops_per_s >= 30, `a measured second of ${l.ops.insert?.ops_per_s ?? 0} ops/s while the server served 100: ${perLine}`);
    // The lower bound is the loader keeping up with the server: where other load on this host made
    // the loader late (the product's own rule, common/host-slowed.js, which leaves such a step out
    // of every comparison), it is not this test's to check (a CI beside another lane: 59).
    const slowed = hostSlowed(st);
    if (slowed) t.diagnostic(`achieved ${st.ops.insert.ops_per_s}: its lower bound not checked: ${slowed.join('; ')}`);
    assert.ok((slowed || st.ops.insert.ops_per_s >= 60) && st.ops.insert.ops_per_s <= 110, `achieved ${st.ops.insert.ops_per_s} where the server served 100`);
    // Exact counts: the window is its lines, and warm-up + window is what the server holds.
    assert.equal(st.ops.insert.count, perLine.reduce((a, b) => a + b, 0));
    await client.connect();
    const held = await client.db(summary.parameters.database).collection(summary.parameters.collection)
      .countDocuments({});
    assert.equal(st.warmup.ops + st.ops.insert.count, held, 'every insert the server took is counted once');
    assert.equal(held, 600);
    assert.ok(st.warmup.backlog_ops > 0, 'the window worked off ops due in the warm-up, and says how many');
  } finally {
    await client.close();
    await proxy.close();
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});
