'use strict';
// A step too short to measure is marked so, not passed off as a measurement: `--duration 1ms`
// printed 389 finds/s from 2-3 operations as a complete run, its progress an ETA of
// 0.001000000000000334s, and a median second of 19.96 operations read "20 operations (fewer than
// 20)". Real loader CLI against mongo-java-server, and the rules themselves.
const test = require('node:test');
const assert = require('node:assert/strict');
const { runLoader, latestRun, withServerAndResults } = require('./support/loader');
const { checkSummary } = require('./support/summary-schema');
const { tooShort, everyStepTooShort } = require('../src/results/too-short');
const { exclusionFacts, stepExclusion } = require('../../common/step-exclusion');
const { Progress } = require('../src/run/progress');
const { stepStability } = require('../src/stability/stability');

let server;
let results;
withServerAndResults(test, (s, r) => { server = s; results = r; });

test('--duration 300ms: the step is too short to measure, the run is not complete (exit 1) and says why', async () => {
  const r = await runLoader(['experiment2', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--engine', 'blink',
    '--preload-docs', '200', '--clients', '1', '--duration', '300ms']);
  assert.equal(r.code, 1, r.stderr);
  const { summary } = latestRun(results, 'experiment2', 'blink');
  checkSummary(summary);
  assert.equal(summary.complete, false);
  assert.match(summary.reason, /^no step measured: step 1 ran \d+ operations? in 0\.\d+ s: shorter than one second, too short to measure$/);
  assert.match(summary.steps[0].too_short, /shorter than one second/);
  assert.equal(stepExclusion(exclusionFacts(summary.steps[0], [])), 'too_short', 'never in a verdict');
  assert.match(r.stdout, /^note: step 1 is too short to measure, left out of verdicts: /m);
  assert.equal(r.stderr.split('\n').filter((l) => /^error: /.test(l)).length, 1);
});

test('--duration 1ms after a warm-up: not complete (exit 1); its total and ETA print to the millisecond', async () => {
  const r = await runLoader(['experiment2', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--engine', 'blink1',
    '--preload-docs', '200', '--clients', '1', '--duration', '1ms', '--warmup', '1s', '--progress-interval', '1s']);
  assert.equal(r.code, 1, r.stderr);
  const { summary } = latestRun(results, 'experiment2', 'blink1');
  assert.equal(summary.complete, false);
  assert.match(summary.reason, /^no step measured: step 1 (ran \d+ operations? in|measured no operation)/);
  assert.match(r.stderr, /started \(1\.001 s\)/);
  assert.doesNotMatch(r.stderr, /\d\.\d{6,}/, 'no floating-point tail in a duration or ETA');
});

test('tooShort: a duration-bound step under one second, or fewer operations than a median second needs; not a case not run', () => {
  const step = (count, measured_s, extra = {}) => ({ index: 1, ops: { find: { count } }, measured_s, ...extra });
  assert.match(tooShort(step(3, 0.001), { durationS: 0.001 }), /^3 operations in 0\.001 s: shorter than one second/);
  assert.equal(tooShort(step(500, 0.3), { durationS: null }), null, 'a step bounded by its work is measured whole');
  assert.equal(tooShort(step(5, 0.02), { durationS: null }), null, 'five documents asked for are measured whole');
  assert.match(tooShort(step(8, 1), { durationS: 1 }), /^8 operations in 1 s: fewer than 20 operations/);
  assert.equal(tooShort(step(20, 2), { durationS: 2 }), null);
  assert.match(tooShort(step(8, 0.872), { durationS: 1 }), /fewer than 20/, 'a paced 1 s step that ended with its last due op is not under a second');
  assert.equal(tooShort(step(0, 2), { durationS: 2 }), null, 'nothing measured is a failed step, not a short one');
  assert.equal(tooShort(step(3, 0.01, { not_applicable: 'w:2 on a standalone' }), { durationS: 0.01 }), null);
  // The run fails only where every step was shorter than a second; a slow second is still a run.
  assert.equal(everyStepTooShort([{ index: 1, ops: { find: { count: 8 } },
    too_short: tooShort(step(8, 1), { durationS: 1 }) }]), null);
  assert.match(everyStepTooShort([{ index: 1, ops: { find: { count: 3 } }, too_short: tooShort(step(3, 0.001), { durationS: 0.001 }) }]), /^no step measured: step 1 ran 3/);
});

test('progress of warm-up + --duration 1ms: total and ETA to the millisecond', () => {
  let text = '';
  const p = new Progress({ stream: { isTTY: false, write: (s) => { text += s; } }, intervalMs: 0 });
  p.start('step 1/1 (1 client)', 5 + 0.001, 's');
  p.lastLine = 0;
  p.update(5, 10);
  p.stop();
  assert.match(text, /started \(5\.001 s\)/);
  assert.match(text, /: 5\/5\.001 s .*ETA 0\.001s$/m);
  assert.doesNotMatch(text, /\d\.\d{6,}/);
});

test('a median second just under the minimum never reads as the minimum itself', () => {
  const seconds = Array.from({ length: 6 }, (_, i) => ({ end: 1000 * (i + 1), interval_s: 1, ops: i % 2 ? 19.9 : 20,
    p99_us: 100 }));
  const st = stepStability(seconds.map((s, i) => ({ ...s, ops: [19.96, 19.96, 19.96, 19.96, 19.96, 19.96][i] })));
  assert.equal(st.dips, null);
  assert.doesNotMatch(st.not_judged, /of 20 operations \(fewer than 20\)/);
  assert.match(st.not_judged, /^median second of 19\.9 operations \(fewer than 20\)/);
});
