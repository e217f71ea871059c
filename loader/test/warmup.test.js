'use strict';
// Warm-up: each step's first seconds are run and shown (timeline warmup: true), and
// left out of the step's throughput, percentiles and loader verdict; a duration-bound step runs
// its warm-up and then its full --duration. Real loader CLI, real driver, mongo-java-server over TCP.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { runLoader, latestRun, readTimeline, withServerAndResults } = require('./support/loader');
const { checkSummary } = require('./support/summary-schema');
const { parse } = require('../src/cli/args');
const { load, DEFAULT_WARMUP_MS } = require('../src/experiment/config');
const { Metrics } = require('../src/run/metrics');

let server;
let results;
withServerAndResults(test, (s, r) => { server = s; results = r; });

const sumOk = (lines) => {
  const out = {};
  for (const l of lines) for (const [op, o] of Object.entries(l.ops)) out[op] = (out[op] || 0) + o.ok;
  return out;
};

test('--warmup: the warm-up seconds are shown as warm-up and left out of the step; the measured part is the full --duration', async () => {
  const r = await runLoader(['experiment2', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--engine', 'warm',
    '--preload-docs', '500', '--clients', '2', '--duration', '2s', '--warmup', '1.5s', '--progress-interval', '1s']);
  assert.equal(r.code, 0, r.stderr);
  const { dir, summary } = latestRun(results, 'experiment2', 'warm');
  checkSummary(summary);
  assert.equal(summary.parameters.warmup_s, 1.5);
  const [st] = summary.steps;
  const lines = readTimeline(dir);
  const warm = lines.filter((l) => l.warmup === true);
  const measured = lines.filter((l) => !l.warmup);
  assert.ok(warm.length >= 2 && measured.length >= 2, `${warm.length} warm-up and ${measured.length} measured lines`);
  // Warm-up lines come first, then measured ones: never mixed.
  assert.deepEqual(lines.map((l) => Boolean(l.warmup)), [...warm.map(() => true), ...measured.map(() => false)]);
  // The warm-up lines cover the warm-up (the tick at its end is scheduled for that moment; on a
  // busy host a timer or a flush may come late, never early).
  const warmS = warm.reduce((a, l) => a + l.interval_s, 0);
  assert.ok(warmS >= 1.49 && warmS < 2, `warm-up lines cover ${warmS} s of 1.5`);
  assert.ok(st.warmup.seconds >= 1.49 && st.warmup.seconds < 2, `warmup.seconds ${st.warmup.seconds}`);
  // The step's counts are exactly its measured lines'; the warm-up's are its own.
  const w = sumOk(warm);
  const m = sumOk(measured);
  assert.ok(w.find > 0 && m.find > 0);
  assert.equal(st.ops.find.count, m.find, 'the step counts only what its measured seconds did');
  assert.equal(st.ops.update.count, m.update);
  assert.equal(st.ops.find.latency_us.count, m.find, 'the percentiles are over the measured operations only');
  assert.equal(st.warmup.ops, w.find + w.update, 'the warm-up\'s operations are counted apart');
  // Throughput over the measured part: --duration, after the warm-up.
  // The step ran warm-up + --duration; the measured part starts where the warm-up's last flush
  // was asked for (late by the host's timer delay, never early), and ends with the step.
  assert.ok(st.duration_s > 1 && Math.abs(st.duration_s + st.warmup.seconds - 3.5) < 0.3, `duration_s ${st.duration_s} after ${st.warmup.seconds} s of warm-up`);
  const fromStart = (Date.parse(st.measured_from) - Date.parse(st.started_at)) / 1000;
  assert.ok(Math.abs(fromStart - st.warmup.seconds) <= 0.002, `measured_from is ${fromStart} s after started_at, warm-up ${st.warmup.seconds} s`);
  assert.ok(Math.abs(st.ops.find.ops_per_s - st.ops.find.count / st.duration_s) <= 1);
  // The loader's verdict is over measured seconds only (selfmon.js judges seconds over 0.5 s).
  assert.equal(st.loader.samples, measured.filter((l) => l.interval_s > 0.5).length);
  assert.ok(st.loader.samples < lines.filter((l) => l.interval_s > 0.5).length, 'the warm-up seconds are not judged');
  assert.match(r.stderr, /step 1\/1 \(2 clients, 1\.5s warm-up\): started \(3\.5 s\)/);
  assert.match(r.stdout, /^warm-up: each step's first 1\.5s \(\d+ operations\) ran and is not in these figures$/m);
});

test('warm-up defaults: the file\'s warmup:, else by what bounds the steps; 0 is none; bad values exit 2', async () => {
  const dir = fs.mkdtempSync(path.join(results, 'exp-'));
  const text = fs.readFileSync(path.resolve(__dirname, '..', '..', 'experiments', 'experiment2.yaml'), 'utf8');
  const file = path.join(dir, 'w.yaml');
  fs.writeFileSync(file, text.replace(/^name: .*$/m, 'name: w').replace(/^warmup: .*\n/m, '') + '\nwarmup: 700ms\n');
  assert.equal(load(parse([file])).config.warmupMs, 700);
  assert.equal(load(parse([file, '--warmup', '2s'])).config.warmupMs, 2000, '--warmup over the file');
  assert.equal(load(parse([file, '--warmup', '0'])).config.warmupMs, 0);
  const none = path.join(dir, 'n.yaml');
  fs.writeFileSync(none, text.replace(/^name: .*$/m, 'name: n').replace(/^warmup: .*\n/m, ''));
  assert.equal(load(parse([none])).config.warmupMs, DEFAULT_WARMUP_MS.duration);
  assert.ok(DEFAULT_WARMUP_MS.duration > 0);
  assert.equal(load(parse(['writeconcern'])).config.warmupMs, 0, 'a step bounded by its work is measured whole by default');
  // ycsb-a's steps are duration-bound (warmup: 5s in its file) unless --operations bounds them by work.
  assert.equal(load(parse(['ycsb-a'])).config.warmupMs, 5000);
  assert.equal(load(parse(['ycsb-a', '--operations', '400'])).config.warmupMs, 0, '--operations: measured whole, as YCSB\'s operationcount');
  assert.equal(load(parse(['ycsb-a', '--operations', '400', '--warmup', '1s'])).config.warmupMs, 1000);
  const bad = path.join(dir, 'b.yaml');
  fs.writeFileSync(bad, `${text.replace(/^name: .*$/m, 'name: b').replace(/^warmup: .*\n/m, '')}\nwarmup: soon\n`);
  for (const [args, re] of [
    [['check', bad], /warmup: 'soon' is not a duration/],
    [['check', 'experiment2', '--warmup', '5'], /^error: --warmup '5' is not a duration/],
  ]) {
    const r = await runLoader([...args, '--uri', 'mongodb://127.0.0.1:1/'], { warmup: true });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr.trim(), re);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  }
});

test('a step that ends within its warm-up measured nothing, and says so', async () => {
  const r = await runLoader(['experiment1', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--engine', 'short',
    '--docs', '50', '--warmup', '30s']);
  // A step with no measured operation is no measurement (src/step-failure.js): the run says so.
  assert.equal(r.code, 1, r.stderr);
  const { summary } = latestRun(results, 'experiment1', 'short');
  const [st] = summary.steps;
  assert.deepEqual(st.ops, {}, 'no measured operation');
  assert.equal(st.warmup.ops, 50);
  assert.equal(st.warmup.measured, false);
  assert.equal(st.measured_from, null);
  assert.equal(st.duration_s, 0);
  assert.match(r.stdout, /^warm-up: step 1 ended within its warm-up: nothing was measured$/m);
});

test('lab_loader_warmup: 1 during a warm-up, 0 after', async () => {
  const m = new Metrics('x');
  const value = async () => Number(/^lab_loader_warmup\{experiment="x"\} (\S+)$/m.exec(await m.register.metrics())[1]);
  m.setWarmup(true);
  assert.equal(await value(), 1);
  m.setWarmup(false);
  assert.equal(await value(), 0);
});
