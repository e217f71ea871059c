'use strict';
// The shared-host rule (common/host-slowed.js) on real runs with a CPU hog: the loader on one core,
// two busy loops taking that core while its step runs, the server on the other. The same hog, two
// servers: mongo-java-server straight (operations of about a millisecond: the loader's delay is
// most of what it measured, the step is left out) and behind a proxy that holds every operation
// 2 s (the same delay is a sliver of it: the step is kept). Both steps record other load; only the
// latency they measured differs. Measured premises, skipped with the figures where they do not
// hold: a core quiet before the run, and the hog recorded as other load in both steps.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const { spawn, spawnSync } = require('node:child_process');
const { startServer } = require('./support/server');
const { startLoader, tmpResults, latestRun } = require('./support/loader');
const { coreBusy } = require('./support/premise');
const { rateProxy } = require('./support/rate-proxy');
const { exclusionFacts, stepExclusion } = require('../../common/step-exclusion');
const { loaderDelayMs, MATERIAL } = require('../../common/host-slowed');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const twoCores = os.availableParallelism() >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
// The quiet core, measured before the run's 25 s: busier than this, other processes add to the
// hog and make the loader late against 2 s operations too (the premise the run checks after).
const PREMISE_CORE_BUSY = 0.25;

// hogged(uri, label, clients): one closed-loop step of 6 s, the hog on core 0 for the step only;
// -> the step of its summary.json.
async function hogged(results, uri, label, clients, core) {
  const l = startLoader(['experiment3', '--uri', uri, '--preload-docs', '200', '--clients', String(clients), '--duration', '6s',
    '--results-dir', results, '--metrics-port', '0', '--engine', label, '--progress-interval', '1s'], { prefix: ['taskset', '-c', String(core)] });
  const hogs = [];
  try {
    await l.waitFor(/step 1\/1 \([0-9]+ clients\): started/, 60000);
    for (let i = 0; i < 2; i++) hogs.push(spawn('taskset', ['-c', String(core), process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore' }));
    const r = await l.done;
    assert.equal(r.code, 0, r.stderr);
  } finally {
    for (const h of hogs) h.kill('SIGKILL');
  }
  return latestRun(results, 'experiment3', label).summary.steps[0];
}

test('one CPU hog: the step it made late against 1 ms operations is left out, the one against 2 s operations kept',
  { skip: twoCores ? false : 'needs taskset and two cores', timeout: 240000 }, async (t) => {
    // the quieter core for the loader and the hog, the other for the server (other processes on
    // the loader's core only add to the hog)
    const busy = await Promise.all([0, 1].map((c) => coreBusy(c, 1000)));
    const core = busy[0] <= busy[1] ? 0 : 1;
    if (busy[core] > PREMISE_CORE_BUSY) {
      t.skip(`premise not met: no quiet core before the run (cores busy ${busy.join(', ')}; needs one at most ${PREMISE_CORE_BUSY})`);
      return;
    }
    const results = tmpResults();
    const server = await startServer({ cpus: String(1 - core) });
    const proxy = await rateProxy(Number(new URL(server.uri).port), { delayMs: 2000 });
    try {
      const fast = await hogged(results, server.uri, 'fast', 4, core);
      const slow = await hogged(results, proxy.uri, 'slow', 64, core);
      const seen = (s) => `other load ${JSON.stringify(s.loader.contention)}, workers ${JSON.stringify(s.loader.workers)}, find p50 ${s.ops.find?.latency_us?.p50} us`;
      t.diagnostic(`fast: ${seen(fast)}`);
      t.diagnostic(`slow: ${seen(slow)}`);
      for (const [name, s] of [['fast', fast], ['slow', slow]]) {
        if (!s.loader.contention.length) {
          t.skip(`premise not met: the hog was not recorded as other load in the ${name} step (${seen(s)})`);
          return;
        }
      }
      // the hog and whatever else ran may make the loader late even against 2 s operations
      const late = loaderDelayMs(slow);
      if (late > MATERIAL * 2000) {
        t.skip(`premise not met: the loader ran ${late} ms late in the 2 s step, over ${MATERIAL * 100}% of it (busy cores ${busy.join(', ')} before the run)`);
        return;
      }
      assert.equal(stepExclusion(exclusionFacts(fast, [])), 'shared_host', seen(fast));
      assert.match(exclusionFacts(fast, []).shared_host[0], /^the loader ran late by [\d.]+ ms \(event-loop delay p99\)/);
      assert.ok(slow.ops.find.latency_us.p50 >= 2000000, `every operation held 2 s: ${slow.ops.find.latency_us.p50} us`);
      // the host rule's own answer (operations held 2 s each complete in bursts, which the pause
      // rule may read as the server's silences: a separate question)
      assert.equal(exclusionFacts(slow, []).shared_host, null, seen(slow));
    } finally {
      await proxy.close();
      await server.stop();
      fs.rmSync(results, { recursive: true, force: true });
    }
  });
