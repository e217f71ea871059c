'use strict';
// node report/bench/drift.js [--before] -> the drift test's CPU time per compared point at 10 to
// 10,000 runs (two interleaved sides, half the runs each), with no drift and with a 5% drift over
// the runs, each the median of a few seeded sets. --before: the implementation the test replaced
// (test/support/drift-before.js), for the before-and-after figures in report/README.md; it takes
// minutes past 1,000 runs, so it stops there.
const { driftTest } = require('../src/drift');
const before = require('../test/support/drift-before');
const { Rng } = require('../../common/rng');

const useBefore = process.argv.includes('--before');
const test = useBefore ? before.driftTest : driftTest;
const sizes = useBefore ? [10, 20, 40, 100, 500, 1000] : [10, 20, 39, 40, 100, 500, 1000, 2500, 10000];

function sides(n, drift, rng) {
  const u = () => (rng.u32() + 0.5) / 2 ** 32;
  const gauss = () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
  const g = [[], []];
  for (let p = 1; p <= n; p++) {
    g[p % 2].push({ position: p, value: (p % 2 ? 1500 : 1000) * Math.exp((drift * p) / n + 0.02 * gauss()) });
  }
  return g;
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
console.log(`drift test, ms of CPU per point (${useBefore ? 'before' : 'now'}; median of the seeded sets)`);
console.log('runs     no drift   5% drift   p (5% drift)');
for (const n of sizes) {
  const reps = n >= 2500 ? 1 : 3;
  const row = [];
  let p = null;
  for (const drift of [0, 0.05]) {
    const times = [];
    for (let r = 0; r < reps; r++) {
      const g = sides(n, drift, new Rng(n, r));
      const t0 = process.cpuUsage();
      const out = test(g);
      const t = process.cpuUsage(t0);
      times.push((t.user + t.system) / 1000);
      if (drift) p = out.p;
    }
    row.push(median(times));
  }
  const cell = (ms) => ms.toFixed(2).padStart(8);
  console.log(`${String(n).padEnd(8)} ${cell(row[0])}   ${cell(row[1])}   ${p.toPrecision(3)}`);
}
