'use strict';
// A server frozen inside a measured step for less than --stall-timeout (issue 38 item 5: SIGSTOP
// for 5 s, SIGCONT; the step was recorded whole and the terminal said nothing): the pause is said
// once when operations resume and listed in the step's summary.json entry (steps[].pauses).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { startServer } = require('./support/server');
const { startLoader, tmpResults, latestRun } = require('./support/loader');
const { pauseWatch, pauseThresholdMs } = require('../src/pauses');

test('pauseWatch: a silence seen by the checks is a pause when operations resume; a check that ran late is not', () => {
  const w = pauseWatch(0, 1000);
  assert.equal(w.check(25, 20), null);
  for (let t = 50; t <= 2000; t += 25) assert.equal(w.check(t, 20), null, 'no completion: the pause is not over');
  assert.deepEqual(w.check(2025, 2010), { from_s: 0.02, idle_ms: 1990 });
  assert.equal(w.check(2050, 2040), null, 'operations flow again');
  // The checking thread was not scheduled for 3 s while operations kept completing.
  assert.equal(w.check(5050, 5049), null);
  assert.deepEqual(w.list, [{ from_s: 0.02, idle_ms: 1990 }]);
});

test('pauseThresholdMs: 1 s, 3 intended intervals of a slow --rate, at most half the stall timeout', () => {
  assert.equal(pauseThresholdMs({ stallTimeoutMs: 15000 }), 1000);
  assert.equal(pauseThresholdMs({ stallTimeoutMs: 15000, rate: 1 }), 3000);
  assert.equal(pauseThresholdMs({ stallTimeoutMs: 15000, rate: 1000 }), 1000);
  assert.equal(pauseThresholdMs({ stallTimeoutMs: 1000 }), 500);
});

test('a server frozen (SIGSTOP) for 2.5 s inside a step: one warning line when it resumes, steps[0].pauses, no stop', async () => {
  const server = await startServer();
  const results = tmpResults();
  try {
    const l = startLoader(['experiment2', '--uri', server.uri, '--preload-docs', '300', '--clients', '1', '--duration', '6s',
      '--results-dir', results, '--metrics-port', '0', '--engine', 'frozen']);
    await l.waitFor(/step 1\/1 \(1 client[^)]*\): started/);
    await new Promise((r) => setTimeout(r, 1000));
    process.kill(server.proc.pid, 'SIGSTOP');
    await new Promise((r) => setTimeout(r, 2500));
    process.kill(server.proc.pid, 'SIGCONT');
    const r = await l.done;
    assert.equal(r.code, 0, `a pause under the stall timeout does not stop the run\n${r.stderr}`);
    const said = r.stderr.split('\n').filter((x) => /nothing completed for/.test(x));
    assert.equal(said.length, 1, `said once\n${r.stderr}`);
    assert.match(said[0], /^warning: step 1: nothing completed for 2\.\d s, \d+\.\d s into it: the server paused, then resumed \(summary\.json pauses\)$/);
    const { summary } = latestRun(results, 'experiment2', 'frozen');
    const pauses = summary.steps[0].pauses;
    assert.equal(pauses.length, 1, JSON.stringify(pauses));
    assert.ok(pauses[0].idle_ms >= 2400 && pauses[0].idle_ms < 4000, `idle ${pauses[0].idle_ms} ms`);
    assert.ok(pauses[0].from_s >= 0.5 && pauses[0].from_s < 4, `from ${pauses[0].from_s} s`);
  } finally {
    process.kill(server.proc.pid, 'SIGCONT');
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});
