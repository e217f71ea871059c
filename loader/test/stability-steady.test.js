'use strict';
// Stability through the real loader CLI, driver and wire shim: a steady server
// makes no dip that the server caused. The '+steady' line's serverStatus reports no event at all
// (support/server-lines.js VARIANTS), so a dip the loader explains by the server would be one it
// made up; a dip of the loader's own host is said as that. Paced (support/loader.js pacedArgs).
// runs alone: a dip while the host's CPUs are busy is no test of the server (the test skips,
// naming the dip); beside other test files the host was busy in every run.
// The rig itself can stall without a busy host: the loader's worker loop, the test process that
// hosts the wire shim, the test server's JVM (a collection, or a thread waiting for a CPU).
// Measured on this 2-core VM with nothing else running: the test's own processes held 1.2-2 of the
// 2 cores, and a dip came in most runs, each with one JVM thread waiting for a CPU 150-360 ms longer
// than in the step's usual 2 s window (or the loader's loop and the shim's process 15-40 ms late).
// Such a dip is a real stall of what the loader measured, and the server reported no event of it:
// the test then asks only that no server cause was made up (support/premise.js rigStall); a dip
// with no measured stall and no busy host fails it.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { startServer } = require('./support/server');
const { runLoader, pacedArgs, tmpResults, latestRun, readTimeline } = require('./support/loader');
const { busiestShare, loopStalls, runQueueWaits, jvmPauses, rigStall } = require('./support/premise');
const path = require('node:path');

let results;
test.before(() => { results = tmpResults(); });
test.after(() => fs.rmSync(results, { recursive: true, force: true }));

const args = (server, extra) => pacedArgs(server.uri, results, extra);

test('a steady server: no dip that the server caused over 20 s', async (t) => {
  const pauseLog = path.join(results, 'jvm-pauses.log');
  const server = await startServer({ line: 'mongod-8.0-wiredtiger-replset+steady', pauseLog });
  const shim = loopStalls();
  const jvmWaits = runQueueWaits(server.backend.proc.pid);
  try {
    const r = await runLoader(args(server, ['--duration', '21s', '--warmup', '1s']));
    shim.stop();
    jvmWaits.stop();
    assert.equal(r.code, 0, r.stderr);
    const { dir, summary } = latestRun(results, 'experiment2', 'wiredtiger');
    const st = summary.steps[0].stability;
    assert.ok(st.seconds >= 19, JSON.stringify(st));
    assert.ok(Array.isArray(st.dips), JSON.stringify(st));
    const lines = readTimeline(dir);
    const rig = { lines, shim: shim.stalls, jvm: jvmPauses(pauseLog), jvmWaits: jvmWaits.waits };
    const busy = (d) => busiestShare(lines, Date.parse(d.start) - 1000, Date.parse(d.end));
    const unexplained = [];
    for (const d of st.dips) {
      assert.deepEqual(d.causes.filter((c) => c.id !== 'loader_host'), [], JSON.stringify(d));
      if (d.causes.some((c) => c.id === 'loader_host')) continue;
      const { stalled, figures } = rigStall(d, st.p99_us.median, rig);
      if (stalled) t.diagnostic(`the dip at ${d.start} (p99 ${d.p99_ratio}x its median) is the rig's: ${stalled}`);
      else unexplained.push({ ...d, rig: figures, host_busy: busy(d) });
    }
    const starved = unexplained.find((d) => d.host_busy >= 0.75);
    if (starved) {
      t.skip(`premise: a free core for the test server; the host's CPUs were ${Math.round(starved.host_busy * 100)} % busy in the dip at ${starved.start} (p99 ${starved.p99_ratio}x its median; ${starved.rig})`);
      return;
    }
    assert.deepEqual(unexplained, [], `a dip with neither the loader's host busy nor the rig stalled (thresholds ${JSON.stringify(st.thresholds)}, CV ${st.cv})`);
    if (!st.dips.length) assert.match(r.stdout, /STABILITY: step 1: no dips; worst second \d+ % of the median, CV [\d.]+/);
  } finally {
    shim.stop();
    jvmWaits.stop();
    await server.stop();
  }
});
