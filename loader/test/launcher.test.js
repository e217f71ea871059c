'use strict';
// bin/lab-loader, the launcher run.sh and the loader image start: on one CPU it starts node with
// --single-threaded-gc (V8's GC helper threads would only take turns with the clients' thread on
// that core), with several CPUs with V8's default; LAB_LOADER_GC=parallel keeps the default; it
// execs node, so the loader keeps the launcher's PID (signals reach it) and its exit code; the
// flags are recorded in summary.json loader.node_flags.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const { spawnSync } = require('node:child_process');
const { startServer } = require('./support/server');
const { runLoader, startLoader, tmpResults, latestRun } = require('./support/loader');
const { checkSummary } = require('./support/summary-schema');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TASKSET_HINT = "taskset missing: run 'bash test/install-tools.sh'";

test('bin/lab-loader picks the GC by the CPUs it may use, and summary.json records the flags', async () => {
  assert.equal(spawnSync('taskset', ['-V']).status, 0, TASKSET_HINT);
  assert.ok(os.availableParallelism() >= 2, 'this test needs a machine of 2 or more CPUs (the several-CPU case)');
  const server = await startServer();
  try {
    const root = tmpResults();
    const base = ['experiment1', '--uri', server.uri, '--docs', '20', '--results-dir', root, '--metrics-port', '0'];
    const flagsOf = async (engine, o) => {
      const r = await runLoader([...base, '--engine', engine], { launcher: true, ...o });
      assert.equal(r.code, 0, r.stderr);
      const { summary } = latestRun(root, 'experiment1', engine);
      checkSummary(summary);
      return summary.loader.node_flags;
    };
    assert.deepEqual(await flagsOf('one-cpu', { prefix: ['taskset', '-c', '0'] }), ['--single-threaded-gc']);
    assert.deepEqual(await flagsOf('all-cpus', {}), []);
    assert.deepEqual(await flagsOf('kept', { prefix: ['taskset', '-c', '0'], env: { LAB_LOADER_GC: 'parallel' } }), []);
    // Bad input: one line, exit 2, before node starts (no results folder).
    const bad = await runLoader([...base, '--engine', 'bad'], { launcher: true, env: { LAB_LOADER_GC: 'serial' } });
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /^error: LAB_LOADER_GC: 'serial' is not a GC choice \(auto: by the CPUs, parallel: V8's default\)\n$/);
    assert.ok(!fs.existsSync(`${root}/experiment1/bad`), 'nothing started');
    // The bench's way of adding a flag NODE_OPTIONS refuses.
    assert.deepEqual(await flagsOf('extra', { env: { LAB_LOADER_NODE_FLAGS: '--stack-size=2000' } }), ['--stack-size=2000']);
  } finally {
    await server.stop();
  }
});

test('bin/lab-loader execs node: a SIGTERM to its PID stops the loader as it stops it directly (143, partial results kept)', async () => {
  assert.equal(spawnSync('taskset', ['-V']).status, 0, TASKSET_HINT);
  const server = await startServer();
  try {
    const root = tmpResults();
    const run = startLoader(['experiment2', '--uri', server.uri, '--preload-docs', '500', '--clients', '1', '--duration', '60s', '--rate', '100',
      '--results-dir', root, '--metrics-port', '0', '--engine', 'sig', '--progress-interval', '1s'], { launcher: true, prefix: ['taskset', '-c', '0'] });
    await run.waitFor(/step 1\/1 \(1 client\): started/);
    // The launcher's PID is node's now (exec), not a shell waiting for it.
    assert.match(fs.readFileSync(`/proc/${run.proc.pid}/cmdline`, 'utf8'), /^node\0--single-threaded-gc\0\S+lab-loader\.js\0(--warmup\x000\0)?experiment2/);
    await sleep(1200);
    run.proc.kill('SIGTERM'); // the process only, as `docker stop` signals the container's PID 1
    const r = await run.done;
    assert.equal(r.code, 143, r.stderr);
    const { summary } = latestRun(root, 'experiment2', 'sig');
    assert.equal(summary.complete, false);
    assert.match(summary.reason, /interrupted \(SIGTERM\)/);
    assert.ok(summary.steps[0].ops.find.count > 0);
    assert.deepEqual(summary.loader.node_flags, ['--single-threaded-gc']);
  } finally {
    await server.stop();
  }
});
