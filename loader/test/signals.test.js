'use strict';
// Signals as a terminal sends them: to the whole process group (the loader is started in a group
// of its own, as `kill -INT -- -PGID` reaches it). Two Ctrl-C 50 ms apart still leave the steps
// measured so far and a "forced exit" line; SIGTERM is a first Ctrl-C with exit code 143.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { startServer } = require('./support/server');
const { startLoader, tmpResults, latestRun } = require('./support/loader');
const { checkSummary } = require('./support/summary-schema');

let server;
let results;
test.before(async () => { server = await startServer(); results = tmpResults(); });
test.after(async () => { await server.stop(); fs.rmSync(results, { recursive: true, force: true }); });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const run = (engine) => startLoader(['experiment2', '--uri', server.uri, '--preload-docs', '500', '--clients', '1,2', '--duration', '2s',
  '--results-dir', results, '--metrics-port', '0', '--engine', engine, '--progress-interval', '1s'], { spawnOptions: { detached: true } });

test('two Ctrl-C 50 ms apart: summary with the steps so far, a "forced exit" line, exit 130', async () => {
  // A second Ctrl-C comes when the first seems stuck: here the server hangs (SIGSTOP), so the
  // first one's clean stop waits for in-flight operations and the second lands while it does.
  const hung = await startServer();
  try {
    const l = startLoader(['experiment2', '--uri', hung.uri, '--preload-docs', '500', '--clients', '1,2', '--duration', '2s',
      '--results-dir', results, '--metrics-port', '0', '--engine', 'twice', '--progress-interval', '1s'], { spawnOptions: { detached: true } });
    await l.waitFor(/step 2\/2 \(2 clients\): started/); // step 1 done, step 2 running
    await sleep(300);
    hung.proc.kill('SIGSTOP');
    await sleep(200);
    process.kill(-l.proc.pid, 'SIGINT');
    await sleep(50);
    process.kill(-l.proc.pid, 'SIGINT');
    const r = await l.done;
    assert.equal(r.signal, null, `killed by ${r.signal}, no summary written:\n${r.stderr}`);
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /^error: interrupted \(SIGINT\); forced exit \(2 step\(s\) measured so far in \S+summary\.json\)$/m);
    const { dir, summary } = latestRun(results, 'experiment2', 'twice');
    checkSummary(summary);
    assert.equal(summary.complete, false);
    assert.equal(summary.exit_code, 130);
    assert.match(summary.reason, /interrupted \(SIGINT\); then forced to exit by a second signal/);
    assert.equal(summary.steps.length, 2, 'step 1 and step 2 as far as it was merged');
    assert.equal(summary.steps[0].complete, true);
    assert.ok(summary.steps[0].ops.find.count > 0);
    assert.equal(summary.steps[1].complete, false);
    assert.ok(!fs.existsSync(path.join(dir, 'summary.json.tmp')));
  } finally {
    hung.proc.kill('SIGCONT');
    await hung.stop();
  }
});

test('a second Ctrl-C while the run is finishing: still the summary and "forced exit", not a kill', async () => {
  // Finishing made slow the way a real one is: the server hangs (the first Ctrl-C's stop waits
  // 3 s for in-flight operations) and Grafana accepts the end annotation but never answers (the
  // loader waits up to 2 s for it). 4 s after the first Ctrl-C the loader is in that wait; had it
  // dropped its signal handlers before finishing, this second Ctrl-C would kill it outright.
  const hung = await startServer();
  const sockets = [];
  const grafana = net.createServer((sock) => sockets.push(sock));
  await new Promise((r) => grafana.listen(0, '127.0.0.1', r));
  const pw = path.join(results, 'grafana-pw');
  fs.writeFileSync(pw, 'x\n');
  try {
    const l = startLoader(['experiment2', '--uri', hung.uri, '--preload-docs', '500', '--clients', '1,2', '--duration', '2s',
      '--results-dir', results, '--metrics-port', '0', '--engine', 'closing', '--progress-interval', '1s',
      '--grafana-url', `http://127.0.0.1:${grafana.address().port}`, '--grafana-password-file', pw], { spawnOptions: { detached: true } });
    await l.waitFor(/step 2\/2 \(2 clients\): started/);
    await sleep(300);
    hung.proc.kill('SIGSTOP');
    await sleep(200);
    process.kill(-l.proc.pid, 'SIGINT');
    await sleep(4000);
    process.kill(-l.proc.pid, 'SIGINT');
    const r = await l.done;
    assert.equal(r.signal, null, `killed by ${r.signal}:\n${r.stderr}`);
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /forced exit \(2 step\(s\) measured so far/);
    const { summary } = latestRun(results, 'experiment2', 'closing');
    checkSummary(summary);
    assert.equal(summary.steps.length, 2);
    assert.match(summary.reason, /forced to exit by a second signal/);
  } finally {
    hung.proc.kill('SIGCONT');
    for (const sock of sockets) sock.destroy();
    grafana.close();
    await hung.stop();
  }
});

test('SIGTERM: like the first Ctrl-C (clean stop, partial results), exit 143', async () => {
  const l = run('terminated');
  await l.waitFor(/step 1\/2 \(1 client\): started/);
  await sleep(1200);
  process.kill(-l.proc.pid, 'SIGTERM');
  const r = await l.done;
  assert.equal(r.code, 143, r.stderr);
  assert.doesNotMatch(r.stderr, /forced exit/);
  const { summary } = latestRun(results, 'experiment2', 'terminated');
  checkSummary(summary);
  assert.equal(summary.complete, false);
  assert.equal(summary.exit_code, 143);
  assert.match(summary.reason, /interrupted \(SIGTERM\)/);
  assert.ok(summary.steps[0].ops.find.count > 0);
  assert.match(r.stdout, /experiment2 on terminated \(INCOMPLETE\)/, 'the usual table');
});

test('after "stopping:" no progress line follows, even while in-flight operations are waited for', async () => {
  // A hung server: the stop waits up to 3 s for operations in flight, and the step's last tick
  // used to print a progress line after "stopping:".
  const hung = await startServer();
  try {
    const l = startLoader(['experiment2', '--uri', hung.uri, '--preload-docs', '300', '--clients', '1', '--duration', '20s',
      '--results-dir', results, '--metrics-port', '0', '--engine', 'quiet-stop', '--progress-interval', '100ms'], { spawnOptions: { detached: true } });
    await l.waitFor(/step 1\/1 \(1 client\): \d+\/20 s/);
    hung.proc.kill('SIGSTOP');
    await sleep(200);
    process.kill(-l.proc.pid, 'SIGINT');
    const r = await l.done;
    assert.equal(r.code, 130, r.stderr);
    const after = r.stderr.split(/^stopping: .*$/m)[1];
    assert.ok(after !== undefined, r.stderr);
    assert.doesNotMatch(after, /\d+\/20 s \(/, `a progress line after stopping:\n${r.stderr}`);
  } finally {
    hung.proc.kill('SIGCONT');
    await hung.stop();
  }
});
