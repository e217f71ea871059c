'use strict';
// The shared-host rule (common/host-slowed.js) on real runs whose loader the host holds back. The
// same hold, two servers: mongo-java-server straight (operations of about a millisecond: the
// loader's delay is most of what it measured, the step is left out) and behind a proxy that holds
// every operation 2 s (the same delay is a sliver of it: the step is kept). Both steps record other
// load (the loader's own CPU does not explain its late event loop); only the latency they measured
// differs.
// The hold: the loader stopped (SIGSTOP) for 80 ms of every 100 ms and let go (SIGCONT), as a host
// holds a process it gives no core: a container whose CPU quota is spent (Docker's --cpus, the CFS
// bandwidth throttle), a VM whose core another guest took (steal). Two busy loops pinned to the
// loader's core were the hold before, and never made the loader late on this kernel: the
// scheduler wakes a mostly idle process ahead of busy ones (it lags them in CFS's virtual time), so
// its event-loop delay p99 stayed under the 20 ms that counts and the test skipped in every run
// (2026-12-01). Measured premise, skipped with the figure where it does not hold: the loader late
// by less than a material share of the 2 s operations (other load on a busy host adds to the hold).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const { startServer } = require('./support/server');
const { startLoader, tmpResults, latestRun } = require('./support/loader');
const { rateProxy } = require('./support/rate-proxy');
const { exclusionFacts, stepExclusion } = require('../../common/step-exclusion');
const { loaderDelayMs, MATERIAL } = require('../../common/host-slowed');

const HOLD_MS = 80;
const EVERY_MS = 100;
// The loader on one core where taskset can pin it: held 80 % of the time, it can use at most 0.2 of
// a core, under the 0.5 that would make its late loop its own doing (src/results/selfmon.js
// LIMITS.ownCpuCores) however many cores the host has.
const PIN = spawnSync('taskset', ['-c', '0', 'true']).status === 0 ? ['taskset', '-c', '0'] : [];

// holdBack(proc): proc stopped HOLD_MS of every EVERY_MS until it exits or the returned function
// is called (which lets it go).
function holdBack(proc) {
  let timer = null;
  let over = false;
  const signal = (sig) => { try { process.kill(proc.pid, sig); } catch { over = true; } };
  const release = () => { over = true; clearTimeout(timer); signal('SIGCONT'); };
  const stop = () => {
    if (over) return;
    signal('SIGSTOP');
    timer = setTimeout(() => { signal('SIGCONT'); if (!over) timer = setTimeout(stop, EVERY_MS - HOLD_MS); }, HOLD_MS);
  };
  proc.once('exit', () => { over = true; clearTimeout(timer); });
  stop();
  return release;
}

// held(results, uri, label, clients): one closed-loop step of 6 s, the loader held back from the
// step's start to its exit; -> the step of its summary.json.
async function held(results, uri, label, clients) {
  const l = startLoader(['experiment3', '--uri', uri, '--preload-docs', '200', '--clients', String(clients), '--duration', '6s',
    '--results-dir', results, '--metrics-port', '0', '--engine', label, '--progress-interval', '1s'], { prefix: PIN });
  let release = () => {};
  try {
    await l.waitFor(/step 1\/1 \([0-9]+ clients\): started/, 60000);
    release = holdBack(l.proc);
    const r = await l.done;
    assert.equal(r.code, 0, r.stderr);
  } finally {
    release();
  }
  return latestRun(results, 'experiment3', label).summary.steps[0];
}

test('the loader held back by its host: the step made late against 1 ms operations is left out, the one against 2 s operations kept',
  { skip: process.platform === 'win32' ? 'SIGSTOP is POSIX' : false, timeout: 240000 }, async (t) => {
    const results = tmpResults();
    const server = await startServer();
    const proxy = await rateProxy(Number(new URL(server.uri).port), { delayMs: 2000 });
    try {
      const fast = await held(results, server.uri, 'fast', 4);
      const slow = await held(results, proxy.uri, 'slow', 64);
      const seen = (s) => `other load ${JSON.stringify(s.loader.contention)}, workers ${JSON.stringify(s.loader.workers)}, loader CPU ${s.loader.cpu_cores_mean} cores, find p50 ${s.ops.find?.latency_us?.p50} us`;
      t.diagnostic(`fast: ${seen(fast)}`);
      t.diagnostic(`slow: ${seen(slow)}`);
      // the hold shows in both steps as other load: the loader late, its own CPU no reason for it
      for (const [name, s] of [['fast', fast], ['slow', slow]]) {
        assert.ok(s.loader.contention.length > 0, `the hold recorded as other load in the ${name} step (${seen(s)})`);
        assert.ok(loaderDelayMs(s) >= HOLD_MS / 2, `the loader ran late in the ${name} step (${seen(s)})`);
      }
      // other load on a busy host adds to the hold and may make the loader late even against 2 s
      const late = loaderDelayMs(slow);
      if (late > MATERIAL * 2000) {
        t.skip(`premise not met: the loader ran ${late} ms late in the 2 s step, over ${MATERIAL * 100}% of it (a busy host added to the ${HOLD_MS} ms hold)`);
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
