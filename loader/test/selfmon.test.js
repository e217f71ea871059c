'use strict';
// src/results/selfmon.js judge: was the loader the limit in a step? The CPU rule is a share of the cores
// the loader may use (LIMITS.cpuShare x cores): the same CPU use is the limit on one core and not
// on four. A judge that ignored the core count once passed every test.
const test = require('node:test');
const assert = require('node:assert/strict');
const { judge, LIMITS } = require('../src/results/selfmon');

// n full seconds at cpuCores, each worker's event loop at elu and delay p99 eldP99Ms
const seconds = (n, cpuCores, { elu = 0.1, eldP99Ms = 1 } = {}) => Array.from({ length: n }, () => ({
  cpuCores, intervalS: 1, selfs: [{ worker: 0, elu, eldP99Ms }], host: null,
}));

test('the CPU rule scales with the core count: the same use is the limit on fewer cores only', () => {
  for (const [cpu, cores, limited] of [
    [0.95, 1, true], [0.95, 2, false], [1.85, 2, true], [1.85, 4, false], [3.7, 4, true],
  ]) {
    const v = judge(seconds(3, cpu), cores);
    assert.equal(v.cores, cores);
    assert.equal(v.limited, limited, `${cpu} cores used of ${cores}: limited ${limited} (> ${LIMITS.cpuShare * 100}% of the cores)`);
    if (limited) assert.deepEqual(v.reasons, [`loader process used ${cpu} of ${cores} cores (> ${LIMITS.cpuShare * 100}%)`]);
    else assert.deepEqual(v.reasons, []);
  }
});

test('a busy event loop counts against the loader when its own CPU explains it, else it is the host\'s', () => {
  const busy = { elu: 0.95 };
  const own = judge(seconds(3, 0.8, busy), 2);
  assert.equal(own.limited, true);
  assert.deepEqual(own.reasons, ['worker 0 event loop busy 95% of the time (> 90%)']);
  const host = judge(seconds(3, 0.1, busy), 2);
  assert.equal(host.limited, false);
  assert.deepEqual(host.contention, ['worker 0 event loop busy 95% of the time (> 90%) while the loader used 0.1 of 2 cores: the host, not the loader']);
});

test('no full second measured: the verdict is unknown (null), not "no"', () => {
  assert.equal(judge([{ cpuCores: 2, intervalS: 0.3, selfs: [], host: null }], 1).limited, null);
});

test('the delay a contention line states is rounded as the readings are', () => {
  // two seconds whose delays average to a float that prints with noise (87.7 + 87.71)
  const secs = [87.7, 87.71].map((eldP99Ms) => ({ cpuCores: 0.1, intervalS: 1,
    selfs: [{ worker: 0, elu: 0.5, eldP99Ms }], host: null }));
  const v = judge(secs, 2);
  assert.equal(v.workers[0].eld_p99_ms_median, 87.71);
  assert.deepEqual(v.contention, ['worker 0 event-loop delay p99 87.71 ms (> 20 ms) while the loader used 0.1 of 2 cores: the host, not the loader']);
});
