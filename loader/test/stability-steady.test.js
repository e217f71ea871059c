'use strict';
// Stability through the real loader CLI, driver and wire shim: a steady server
// makes no dip that the server caused. The '+steady' line's serverStatus reports no event at all
// (support/server-lines.js VARIANTS), so a dip the loader explains by the server would be one it
// made up; a dip of the loader's own host is said as that. Paced (support/loader.js pacedArgs).
// runs alone: a dip while the host's CPUs are busy is no test of the server (the test skips,
// naming the dip); beside other test files the host was busy in every run.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { startServer } = require('./support/server');
const { runLoader, pacedArgs, tmpResults, latestRun, readTimeline } = require('./support/loader');
const { busiestShare } = require('./support/premise');

let results;
test.before(() => { results = tmpResults(); });
test.after(() => fs.rmSync(results, { recursive: true, force: true }));

const args = (server, extra) => pacedArgs(server.uri, results, extra);

test('a steady server: no dip that the server caused over 20 s', async (t) => {
  const server = await startServer({ line: 'mongod-8.0-wiredtiger-replset+steady' });
  try {
    const r = await runLoader(args(server, ['--duration', '21s', '--warmup', '1s']));
    assert.equal(r.code, 0, r.stderr);
    const { dir, summary } = latestRun(results, 'experiment2', 'wiredtiger');
    const st = summary.steps[0].stability;
    assert.ok(st.seconds >= 19, JSON.stringify(st));
    assert.ok(Array.isArray(st.dips), JSON.stringify(st));
    const lines = readTimeline(dir);
    const busy = (d) => busiestShare(lines, Date.parse(d.start) - 1000, Date.parse(d.end));
    const starved = st.dips.filter((d) => !d.causes.some((c) => c.id === 'loader_host') && busy(d) >= 0.75);
    if (starved.length) {
      t.skip(`premise: a free core for the test server; the host's CPUs were ${Math.round(busy(starved[0]) * 100)} % busy in the dip at ${starved[0].start} (p99 ${starved[0].p99_ratio}x its median)`);
      return;
    }
    for (const d of st.dips) {
      assert.ok(d.causes.some((c) => c.id === 'loader_host'), `a dip without the loader's host busy: ${JSON.stringify(d)} (thresholds ${JSON.stringify(st.thresholds)}, CV ${st.cv})`);
      assert.deepEqual(d.causes.filter((c) => c.id !== 'loader_host'), [], JSON.stringify(d));
    }
    if (!st.dips.length) assert.match(r.stdout, /STABILITY: step 1: no dips; worst second \d+ % of the median, CV [\d.]+/);
  } finally {
    await server.stop();
  }
});
