'use strict';
// A known ratio: many seeded pairs of capacity comparisons between a server that
// takes R ops/s and one that takes 2R, each side searched 3 times by the loader's own search
// (loader/src/experiment/sla.js CapacitySearch and judgeStep, the code a run uses), its results read by the
// report's capacity verdict (src/capacity.js) and its limits (src/capacity-limits.js). Synthetic
// servers, not a pacing proxy: each step's true capacity varies by a seeded 3% (log-normal) around
// R, a step above it falls behind its schedule, one at or under it passes at 2 ms. The intervals
// with the searches' brackets must contain the true 2.0 in the large majority of repetitions.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { CapacitySearch, judgeStep, parseSla } = require(path.join(__dirname, '..', '..', 'loader', 'src', 'experiment', 'sla'));
const { capacityReport } = require('../src/capacity');
const { applyCapacityLimits } = require('../src/capacity-limits');
const { rng, normal } = require('./support/seeded');


const sla = parseSla('p99=10ms');
const identity = { server: { version: '7.0.0', storage_engine: 'x' }, loader: { version: '1.0.0', node: 'v20', driver_line: '7' } };
let n = 0;
// one search against a server of capacity R: the step summary judgeStep reads, per offered rate
function searchRun(r, engine, R) {
  const s = new CapacitySearch({ sla });
  for (let rate = s.next(); rate !== null; rate = s.next()) {
    const eff = R * Math.exp(0.03 * normal(r));
    const achieved = Math.min(rate, eff);
    const p99 = rate <= eff ? 2000 : 50000;
    s.record(judgeStep(sla, rate, { complete: true, measured_s: 10, loader: { limited: false },
      ops: { find: { count: Math.round(achieved * 10), errors: 0,
      latency_us: { p50: 500, p99: 1500, p999: 3000, mean: 600 },
      intended_latency_us: { p50: 600, p99, p999: p99 } } } }));
  }
  n += 1;
  return { dir: `/r/${engine}/${n}`, experiment: 'experiment2', engine, engine_source: 'flag', labels: {}, profile: null, identity, repetition: n, complete: true, parameters: { sla: 'p99=10ms' }, points: [], capacity: s.result(32) };
}

test('R against 2R, 3 searches a side: the interval with the searches\' brackets contains 2.0 in the large majority of 200 seeded repetitions', (t) => {
  const r = rng(2041);
  let covered = 0;
  let coveredT = 0;
  let zeroWidth = 0;
  const REPS = 200;
  for (let k = 0; k < REPS; k++) {
    const R = 120 + Math.floor(r() * 200); // R between 120 and 320 ops/s
    const runs = [0, 1, 2].flatMap(() => [searchRun(r, 'slow', R), searchRun(r, 'fast', 2 * R)]);
    const [c] = applyCapacityLimits(capacityReport(runs), runs);
    const v = c.verdicts[0];
    assert.ok(Array.isArray(v.ci), v.sentence);
    const ratio = v.faster === 'fast' ? 2 : 0.5;
    if (v.ci[0] <= ratio && ratio <= v.ci[1]) covered++;
    if (v.ci_statistical[0] <= ratio && ratio <= v.ci_statistical[1]) coveredT++;
    if (v.ci_statistical[0] === v.ci_statistical[1]) zeroWidth++;
  }
  t.diagnostic(`${REPS} repetitions: 2.0 inside the interval with brackets ${(100 * covered / REPS).toFixed(1)}%, inside the t interval alone ${(100 * coveredT / REPS).toFixed(1)}% (${zeroWidth} of zero width)`);
  assert.ok(covered / REPS >= 0.9, `covered ${covered}/${REPS}`);
  // what the brackets add: the t interval alone misses the true ratio far more often
  assert.ok(coveredT < covered, `t alone ${coveredT}, with brackets ${covered}`);
});
