'use strict';
// A server frozen inside a measured step for less than --stall-timeout (SIGSTOP
// for 5 s, SIGCONT; the step was recorded whole and the terminal said nothing): the pause is said
// once when operations resume and listed in the step's summary.json entry (steps[].pauses).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { startServer } = require('./support/server');
const { startLoader, tmpResults, latestRun } = require('./support/loader');
const { pauseWatch, pauseThresholdMs } = require('../src/run/pauses');

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

test("pauseWatch: a silence within the server's own operation times is no pause; far beyond them it is, with the times said", () => {
  // A slow server: p99 500 ms per operation; 2 s without a completion is 4x that, its own pace.
  const slow = pauseWatch(0, 1000, () => 500);
  for (let t = 25; t <= 2000; t += 25) slow.check(t, 0);
  assert.equal(slow.check(2025, 2010), null);
  assert.deepEqual(slow.list, []);
  // A fast one: p99 5 ms; the same 2 s is a pause, judged against 5 ms.
  const fast = pauseWatch(0, 1000, () => 5);
  for (let t = 25; t <= 2000; t += 25) fast.check(t, 0);
  assert.deepEqual(fast.check(2025, 2010), { from_s: 0, idle_ms: 2010, op_p99_ms: 5 });
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
      '--rate', '100', '--results-dir', results, '--metrics-port', '0', '--engine', 'frozen']);
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
    assert.ok(pauses[0].op_p99_ms > 0 && pauses[0].op_p99_ms * 10 < pauses[0].idle_ms, `judged against the step's own operation times: ${JSON.stringify(pauses[0])}`);
    // The pause reaches the report: the step is no measurement of the engine, and says why.
    const { main: report } = require('../../report/src/cli');
    let out = '';
    assert.equal(report(['--results-dir', results], { stdout: { write: (x) => { out += x; } }, stderr: { write: () => {} } }), 0);
    const rep = JSON.parse(fs.readFileSync(path.join(fs.realpathSync(path.join(results, 'report', 'latest')), 'report.json'), 'utf8'));
    const agg = rep.experiments[0].sets[0].aggregates[0];
    assert.deepEqual(agg.excluded, { paused: 1 }, JSON.stringify(agg.excluded));
    assert.equal(agg.paused.length, 1);
    assert.match(out, /excluded: frozen: paused 1\/1/);
  } finally {
    process.kill(server.proc.pid, 'SIGCONT');
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});
