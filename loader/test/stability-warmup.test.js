'use strict';
// Stability through the real loader CLI, driver and wire shim: a hold of the primary's writes in a
// step's warm-up shows in the timeline (warmup: true) and not in the step's stability. The held
// writes of a whole step: stability-run.test.js.
// runs alone: beside other test files the loader's paced clients fell seconds behind their schedule
// (a CI run: the step's median per-second p99 4.9 s against a 1.5 s hold), and the hold could not
// show; alone, the test measures that premise still and skips with the figure when it fails.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { startServer } = require('./support/server');
const { startLoader, pacedArgs, tmpResults, latestRun, readTimeline } = require('./support/loader');
const { holdUnseen } = require('./support/premise');

// A hold in the warm-up: the timeline shows it (warmup: true), the step's stability does not.
// The warm-up is 6 s and the hold starts in its first second, so that the paced clients' catch-up
// after it is over too before the measurement starts (seen here: a hold ending under 1 s before
// the measurement left its late operations' latency in the first measured second).
test('a dip in the warm-up is not counted in the step', async (t) => {
  const server = await startServer({ line: 'mongod-8.0-wiredtiger-replset' });
  const own = tmpResults();
  try {
    const run = startLoader(pacedArgs(server.uri, own, ['--duration', '8s', '--warmup', '6s']));
    // The warm-up's first second is in the timeline: hold the writes 1.5 s from then.
    const root = path.join(own, 'experiment2', 'wiredtiger');
    let held = null;
    for (let i = 0; i < 600 && !held; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const dirs = fs.existsSync(root) ? fs.readdirSync(root).filter((d) => d !== 'latest') : [];
      const tl = dirs.length ? path.join(root, dirs[0], 'timeline.ndjson') : null;
      if (tl && fs.existsSync(tl) && fs.readFileSync(tl, 'utf8').includes('"warmup":true')) {
        server.shim.holdWrites(1500, { checkpoint: true });
        held = Date.now();
      }
    }
    const r = await run.done;
    assert.equal(r.code, 0, r.stderr);
    assert.ok(held, 'the warm-up was seen in the timeline');
    const { dir, summary } = latestRun(own, 'experiment2', 'wiredtiger');
    const step = summary.steps[0];
    const st = step.stability;
    // Premise: operations that end within their second; a CI run with both cores busy had a
    // median per-second p99 of 3.7 s, the step's seconds ran 3 s past its 8, and the hold's
    // neighbours were as slow as the hold. The step's latency only: the warm-up's seconds are
    // busy with the loader's own start on any host.
    const why = holdUnseen(st, [], { from: held, to: held + 1500 });
    if (why) { t.skip(`premise: a hold that can show as a dip here; ${why}`); return; }
    // Premise: the hold ended within the warm-up, and the warm-up's seconds show it.
    assert.ok(held + 1500 + 2000 <= Date.parse(step.measured_from), `hold ${new Date(held).toISOString()} + 1.5 s, measured from ${step.measured_from}`);
    const warm = readTimeline(dir).filter((l) => l.warmup && !l.partial && l.ops.find);
    assert.ok(warm.some((l) => l.ops.find.ops_per_s < 100), `a warm-up second shows the hold: ${warm.map((l) => l.ops.find.ops_per_s)}`);
    assert.ok(st.seconds >= 7 && st.seconds <= 8, JSON.stringify(st));
    assert.ok(Array.isArray(st.dips), JSON.stringify(st));
    assert.ok(!st.dips.some((d) => Date.parse(d.start) < held + 1500), `a dip from the warm-up counted: ${JSON.stringify(st.dips)}`);
    assert.ok(!st.dips.some((d) => d.causes.some((c) => c.id === 'checkpoint')), JSON.stringify(st.dips));
  } finally {
    await server.stop();
    fs.rmSync(own, { recursive: true, force: true });
  }
});
