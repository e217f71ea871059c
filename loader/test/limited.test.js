'use strict';
// Is the loader the limit? Both ways, with real CPU pressure:
//  - the loader pinned to one core (taskset) driving many clients against a server on the other
//    core: its own work fills the core, so the step is flagged;
//  - a paced run far below capacity while other processes load the same core (busy loops, the
//    loader at nice 19 behind them): its event loop is delayed by the host, not by its own work,
//    so the step is not flagged and the contention is recorded beside it.
// runs alone: each test needs the other processes off the loader's core before it starts (its
// measured premise); beside other test files they never were.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const { spawn, spawnSync } = require('node:child_process');
const { startServer } = require('./support/server');
const { runLoader, startLoader, tmpResults, latestRun } = require('./support/loader');
const { coreBusy } = require('./support/premise');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const { checkSummary } = require('./support/summary-schema');

const twoCores = os.availableParallelism() >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const opts = { skip: twoCores ? false : 'needs taskset and two cores', timeout: 120000 };
let results;
test.before(() => { results = tmpResults(); });
test.after(() => fs.rmSync(results, { recursive: true, force: true }));

// The loader runs without V8's JIT (--jitless, every thread): several times the CPU per op, so
// its own work is the limit for certain. With the JIT, its cost per op came close enough to
// mongo-java-server's on the other core that the server was sometimes the limit and the loader
// idled at 0.9 of its core (seen in CI after loader/bench's savings).
// The premise of this test is also that the loader has its core to itself; on a shared machine another
// process may take part of it, and then "the host, not the loader" is the right answer. So the
// step is measured again (up to 3 times) while other processes held more than a quarter of the
// core (measured by the loader itself: summary steps[].loader.host.other_cores_mean), and the
// test is skipped, with the measured figures, if the premise never held (counted as skipped by
// test/run-all.sh, never as passed). Before each try, core 0's load is measured for a second: a
// core already busier than that is the premise failing, said at once (three tries of a busy core
// took 21 s of a CI run to reach the same skip).
const PREMISE_OTHER_CORES = 0.25;
test('one core, 48 clients: flagged as loader-limited, with the reason', opts, async (t) => {
  const before = await coreBusy(0, 1000);
  if (before > PREMISE_OTHER_CORES) {
    t.skip(`premise not met: other processes kept core 0 ${before} busy before the run `
      + `(needs at most ${PREMISE_OTHER_CORES}: a busy machine)`);
    return;
  }
  const server = await startServer({ cpus: '1' });
  try {
    let summary; let r; const seen = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      if (attempt > 1) {
        const busy = await coreBusy(0, 1000);
        if (busy > PREMISE_OTHER_CORES) {
          t.skip(`premise not met: other processes held ${seen.join(', ')} of the loader's core, then kept it `
            + `${busy} busy (needs at most ${PREMISE_OTHER_CORES}: a busy machine)`);
          return;
        }
      }
      const label = `onecore${attempt}`;
      r = await runLoader(['experiment3', '--uri', server.uri, '--preload-docs', '500', '--clients', '48', '--duration', '4s',
        '--results-dir', results, '--metrics-port', '0', '--engine', label], { prefix: ['taskset', '-c', '0'], env: { NODE_OPTIONS: '--jitless' } });
      assert.equal(r.code, 0, r.stderr);
      ({ summary } = latestRun(results, 'experiment3', label));
      const other = summary.steps[0].loader.host.other_cores_mean;
      seen.push(other);
      if (other <= PREMISE_OTHER_CORES) break;
    }
    if (seen.at(-1) > PREMISE_OTHER_CORES) {
      t.skip(`premise not met: other processes held ${seen.join(', ')} of the loader's core in 3 tries (needs at most ${PREMISE_OTHER_CORES}: a busy machine)`);
      return;
    }
    checkSummary(summary);
    const st = summary.steps[0];
    assert.equal(st.loader.cores, 1, 'the loader knows it has one core');
    assert.equal(st.loader.limited, true, JSON.stringify(st.loader));
    assert.ok(st.loader.reasons.length > 0, 'with the reason');
    assert.ok(st.loader.cpu_cores_mean >= 0.5, `its own CPU explains it: ${st.loader.cpu_cores_mean} cores`);
    assert.equal(summary.loader_limited, true);
    assert.match(r.stdout, /WARNING: step 1 was limited by the loader/);
  } finally {
    await server.stop();
  }
});

// Premise of the next test: the busy loops it starts are the only load on core 0, so that the
// loader at nice 19 starts up and shuts down unhindered (behind a third process at normal
// priority it gets ~1.5 % of the core: weights 15 against 1024, sched(7)). Core 0's load from
// other processes is measured before the run (and again if the loader does not reach its step),
// and the test is skipped with that figure where it is above PREMISE_CORE_BUSY.
const PREMISE_CORE_BUSY = 0.25;
test('paced run far below capacity, other processes loading its core: not flagged, contention recorded', opts, async (t) => {
  const busy = await coreBusy(0, 1000);
  if (busy > PREMISE_CORE_BUSY) {
    t.skip(`premise not met: other processes kept core 0 ${busy} busy before the run (needs at most ${PREMISE_CORE_BUSY}: a busy machine)`);
    return;
  }
  const server = await startServer({ cpus: '1' });
  let hogs = [];
  try {
    // The loader at nice 19 on core 0; once its step runs, two busy loops at normal priority
    // take that core, for the step's length only (start-up and shutdown run unhindered).
    const l = startLoader(['experiment3', '--uri', server.uri, '--preload-docs', '500', '--clients', '2', '--rate', '20', '--duration', '5s',
      '--results-dir', results, '--metrics-port', '0', '--engine', 'paced', '--progress-interval', '1s'], { prefix: ['taskset', '-c', '0', 'nice', '-n', '19'] });
    try {
      await l.waitFor(/step 1\/1 \(2 clients\): started/);
    } catch (e) {
      const now = await coreBusy(0, 1000);
      l.proc.kill('SIGKILL');
      if (now > PREMISE_CORE_BUSY) {
        t.skip(`premise not met: other processes took core 0 (${now} busy) while the loader at nice 19 started (${busy} before the run)`);
        return;
      }
      throw e;
    }
    hogs = [0, 1].map(() => spawn('taskset', ['-c', '0', process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore' }));
    await sleep(5500);
    for (const h of hogs) h.kill('SIGKILL');
    const r = await l.done;
    assert.equal(r.code, 0, r.stderr);
    const { summary } = latestRun(results, 'experiment3', 'paced');
    checkSummary(summary);
    const st = summary.steps[0];
    assert.ok(st.ops.find.count >= 20, `paced at 20/s for 5 s: ${st.ops.find.count} finds`);
    assert.equal(st.loader.limited, false, JSON.stringify(st.loader));
    assert.ok(st.loader.host.other_cores_mean > 0.5, `other processes' load recorded: ${JSON.stringify(st.loader.host)}`);
    assert.ok(st.loader.cpu_cores_mean < 0.5, `the loader's own share is small: ${st.loader.cpu_cores_mean}`);
    assert.doesNotMatch(r.stdout, /WARNING: step 1 was limited by the loader/);
  } finally {
    for (const h of hogs) h.kill('SIGKILL');
    await server.stop();
  }
});
