'use strict';
// Words that say what the interval says, and Holm's correction over a report's comparisons
// (src/words.js): "inconclusive" when the interval reaches beyond ±10%,
// "no difference shown within ±10%" only inside that band, the number of comparisons and the
// correction stated; a report of capacity searches alone opens with the capacities. And the
// seeded synthetic A/A test: log-normal runs, n = 3..8, the false-verdict rate per comparison
// (verdict() as is) and per report (after Holm) at or under the stated 5%.
const test = require('node:test');
const assert = require('node:assert/strict');
const { tmpDir, makeRun } = require('./support/fixtures');
const { verdict } = require('../src/compare');
const { applyWords, pValue, holmAdjusted } = require('../src/words');
const { ratioCI } = require('../src/stats');
const { main } = require('../src/cli');
const { rng, normal } = require('./support/seeded');

// A report holding just these verdicts (one set, one experiment), the shape applyWords reads.
const reportOf = (verdicts, capacity = []) => ({ experiments: [{ name: 'e', sets: [{ id: 1, parameters: {}, verdicts }] }], summary: [], capacity });
const agg = (side, xs) => ({ side, runs: xs.length, verdict_samples: xs, excluded: {} });

const logNormalRuns = (r, n, sigma = 0.15) => Array.from({ length: n }, () => 1000 * Math.exp(sigma * normal(r)));

test('p from the interval matches Welch\'s t on the samples; Holm-adjusted p-values step down', () => {
  const a = [1000, 1100, 950, 1020];
  const b = [900, 980, 930, 940];
  const ci = ratioCI(a, b);
  const p = pValue({ ratio: ci.ratio, ci: [ci.low, ci.high], df: ci.df });
  // 95% interval just excluding 1 <=> p just under 0.05, and the other way round
  assert.equal(ci.low > 1, p < 0.05);
  assert.deepEqual(holmAdjusted([0.01, 0.04, 0.03]).map((x) => Number(x.toFixed(4))), [0.03, 0.06, 0.06]);
});

test('inconclusive, within ±10%, and a verdict that does not survive the correction', () => {
  const wide = verdict('clients-1', agg('a', [1000, 1500, 700]), agg('b', [900, 1300, 800]));
  const tight = verdict('clients-2', agg('a', [1000, 1010, 995, 1005]), agg('b', [1002, 1008, 998, 1001]));
  const clear = verdict('clients-3', agg('a', [2000, 2020, 1990]), agg('b', [1000, 1010, 995]));
  const rep = applyWords(reportOf([wide, tight, clear]));
  const [w, t, c] = rep.experiments[0].sets[0].verdicts;
  assert.equal(w.status, 'inconclusive', w.sentence);
  assert.match(w.sentence, /^clients-1: inconclusive: between a and b \(ratio 1\.\d\d, 95% CI 0\.\d\d-\d\.\d\d spans 1\.0 and reaches beyond ±10%: a 10% gain and a 10% loss are both possible\); 3 runs each$/);
  assert.equal(t.status, 'equivalent', t.sentence);
  assert.match(t.sentence, /^clients-2: no difference shown within ±10% between [ab] and [ab] \(ratio 1\.00, 95% CI 0\.9\d-1\.0\d inside 0\.90-1\.10; 4 runs each\)$/);
  assert.equal(c.status, 'verdict');
  assert.match(c.sentence, /\[Holm-adjusted p < 0\.001, 3 comparisons\]$/);
  assert.equal(rep.family.comparisons, 3);
  assert.match(rep.family.text, /^3 comparison\(s\), Holm-corrected \(5% family-wise\)/);
  // alone, p ~ 0.03 is a verdict at 5%; among 6 comparisons Holm asks p <= 0.05/6 of the smallest
  const marginal = { point: 'm', status: 'verdict', faster: 'a', slower: 'b', ratio: 1.2, ci: [1.02, 1.41], df: 4, sentence: 'm: a is 1.20x b (95% CI 1.02-1.41, 3 runs each)' };
  const nulls = Array.from({ length: 5 }, (_, i) => ({ point: `n${i}`, status: 'no-difference', faster: 'a', slower: 'b', ratio: 1.01, ci: [0.7, 1.45], df: 4, sentence: `n${i}: no difference shown between a and b (ratio 1.01, 95% CI 0.70-1.45 spans 1.0; 3 runs each)` }));
  const alone = applyWords(reportOf([{ ...marginal }])).experiments[0].sets[0].verdicts[0];
  assert.equal(alone.status, 'verdict', alone.sentence);
  const six = applyWords(reportOf([{ ...marginal }, ...nulls])).experiments[0].sets[0].verdicts[0];
  assert.equal(six.status, 'inconclusive');
  assert.match(six.sentence, /^m: inconclusive: a 1\.20x b \(95% CI 1\.02-1\.41\) does not hold after correcting for 6 comparisons \(Holm-adjusted p = 0\.\d+\); 3 runs each$/);
});

test('the terminal states the comparisons and the margin; a report of capacity searches alone opens with the capacities', () => {
  const root = tmpDir();
  const ops = (rate) => ({ find: { rate: rate / 2 }, update: { rate: rate / 2 } });
  [1000, 1500, 700].forEach((r, i) => makeRun(root, { engine: 'a', stamp: `a${i}`, steps: [{ name: 'clients-1', ops: ops(r) }] }));
  [900, 1300, 800].forEach((r, i) => makeRun(root, { engine: 'b', stamp: `b${i}`, steps: [{ name: 'clients-1', ops: ops(r) }] }));
  let out = '';
  assert.equal(main(['--results-dir', root], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  assert.match(out, /^1 comparison\(s\), Holm-corrected \(5% family-wise\); "no difference" only within ±10% \(0\.90-1\.10\), else "inconclusive"$/m);
  assert.match(out, /clients-1 +inconclusive \(1\.\d\d\)/);
  for (const l of out.split('\n')) assert.ok(l.length <= 120, `over 120 columns: ${l}`);

  const caps = tmpDir();
  const capacity = (c) => ({ sla: { percentile: 'p99', target_ms: 10, text: 'p99=10ms' }, capacity_ops_per_s: c, lowest_failing_ops_per_s: c + 2, clients: 32, complete: true,
    steps: [{ offered_ops_per_s: c, achieved_ops_per_s: c, intended_us: 2000, service_us: 1500, passed: true,
      why: null }] });
  [100, 104, 98].forEach((c, i) => makeRun(caps, { engine: 'a', stamp: `a${i}`, parameters: { sla: 'p99=10ms' }, steps: [{ name: `rate-${c}`, ops: ops(c) }], extra: { capacity: capacity(c) } }));
  [200, 205, 196].forEach((c, i) => makeRun(caps, { engine: 'b', stamp: `b${i}`, parameters: { sla: 'p99=10ms' }, steps: [{ name: `rate-${c}`, ops: ops(c) }], extra: { capacity: capacity(c) } }));
  out = '';
  assert.equal(main(['--results-dir', caps], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  assert.match(out, /^== capacity under a latency SLA/);
  // the verdict wrapped at 120 columns (capacity.js capacityText) read as one line
  assert.match(out.replace(/\n {4}/g, ' '), /b sustains [12]\.\d\dx a's rate at p99 <= 10 ms .*\[Holm-adjusted p (< 0\.001|= 0\.0\d+), 1 comparison\]/);
  assert.doesNotMatch(out, /no experiment runs/);
  assert.doesNotMatch(out, /== summary: who is faster/);
});

// Item 5: the verdict code over many seeded synthetic A/A comparisons. Both sides draw from one
// log-normal distribution (sigma 0.15 in log ops/s), so every verdict is false.
const TRIALS = 3000; // per n: the rate's standard error is ~0.4 percentage points at 5%
const REPORTS = 2000;
const STEPS = 6; // a 6-step client sweep
const slack = (n) => 3 * Math.sqrt((0.05 * 0.95) / n); // three standard errors over the stated 5%

test('A/A, per comparison: false verdicts at or under 5% for n = 3..8 runs a side', (t) => {
  const r = rng(41);
  for (let n = 3; n <= 8; n++) {
    let wrong = 0;
    for (let k = 0; k < TRIALS; k++) if (verdict('s', agg('a', logNormalRuns(r, n)), agg('b', logNormalRuns(r, n))).status === 'verdict') wrong++;
    const rate = wrong / TRIALS;
    t.diagnostic(`n = ${n}: ${(rate * 100).toFixed(2)}% false verdicts of ${TRIALS}`);
    assert.ok(rate <= 0.05 + slack(TRIALS), `n = ${n}: ${(rate * 100).toFixed(2)}% false verdicts`);
  }
});

test('A/A, per report of 6 comparisons: at least one false verdict in at most 5% of reports after Holm (26% without)', (t) => {
  const r = rng(4141);
  let uncorrected = 0;
  let corrected = 0;
  for (let k = 0; k < REPORTS; k++) {
    const n = 3 + Math.floor(r() * 6);
    const vs = Array.from({ length: STEPS }, (_, i) => verdict(`clients-${i + 1}`, agg('a', logNormalRuns(r, n)), agg('b', logNormalRuns(r, n))));
    if (vs.some((v) => v.status === 'verdict')) uncorrected++;
    if (applyWords(reportOf(vs)).experiments[0].sets[0].verdicts.some((v) => v.status === 'verdict')) corrected++;
  }
  t.diagnostic(`${REPORTS} reports of ${STEPS} A/A comparisons (n = 3..8): ${(100 * uncorrected / REPORTS).toFixed(1)}% hold a false verdict uncorrected, ${(100 * corrected / REPORTS).toFixed(2)}% after Holm`);
  assert.ok(corrected / REPORTS <= 0.05 + slack(REPORTS), `after Holm: ${(100 * corrected / REPORTS).toFixed(2)}%`);
  // the correction is what holds it: uncorrected, a 6-step sweep carries ~1 - 0.95^6 = 26%
  assert.ok(uncorrected / REPORTS > 0.15, `uncorrected: ${(100 * uncorrected / REPORTS).toFixed(1)}%`);
});
