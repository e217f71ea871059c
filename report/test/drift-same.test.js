'use strict';
// The drift test gives the answers it gave before it ranked once, stopped early and used the
// normal approximation for many runs (src/drift-stats.js): over seeded random sets, today's
// driftTest against the implementation it replaced (support/drift-before.js), in each of its three
// regimes. Its speed is a benchmark's business (bench/drift.js), not this test's.
const test = require('node:test');
const assert = require('node:assert/strict');
const { driftTest, ALPHA } = require('../src/drift');
const { EXACT_LIMIT, SAMPLED, NORMAL_FROM, theilSen } = require('../src/drift-stats');
const before = require('./support/drift-before');
const { Rng } = require('../../common/rng');

const factorial = (n) => (n <= 1 ? 1 : n * factorial(n - 1));

// sets(count, sizes(u), seed) -> count pairs of sides: positions shuffled over both sides, side a
// 1.5x side b, a drift of 0 to 5% over the runs (so that p spreads from 0 to 1), 2% scatter.
function sets(count, sizes, seed) {
  const rng = new Rng(seed, 5);
  const u = () => (rng.u32() + 0.5) / 2 ** 32;
  const gauss = () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
  const out = [];
  for (let t = 0; t < count; t++) {
    const [na, nb] = sizes(u);
    const n = na + nb;
    const pos = Array.from({ length: n }, (_, i) => i + 1);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(u() * (i + 1));
      [pos[i], pos[j]] = [pos[j], pos[i]];
    }
    const drift = [0, 0.01, 0.02, 0.03, 0.05][t % 5];
    const value = (base, p) => base * Math.exp((drift * p) / n + 0.02 * gauss());
    const side = (ps, base) => ps.map((p) => ({ position: p, value: value(base, p) }));
    out.push([side(pos.slice(0, na), 1500), side(pos.slice(na), 1000)]);
  }
  return out;
}
const between = (lo, hi) => (u) => [lo + Math.floor(u() * (hi - lo + 1)), lo + Math.floor(u() * (hi - lo + 1))];
// the Monte Carlo's standard error of p after `draws` orders
const se = (p, draws) => Math.sqrt((p * (1 - p)) / draws);

const sameTrend = (now, was) => {
  for (const k of ['n', 'slope', 'pct_per_position']) assert.equal(now[k], was[k], k);
  assert.deepEqual(now.sides, was.sides);
};

test('every order (up to 8! of them): the same p, slope and counts to the bit', () => {
  const all = sets(300, between(2, 8), 1).filter((g) => factorial(g[0].length) * factorial(g[1].length) <= EXACT_LIMIT);
  assert.ok(all.length >= 120, `${all.length} exact sets`);
  let found = 0;
  for (const g of all) {
    const now = driftTest(g);
    const was = before.driftTest(g);
    sameTrend(now, was);
    assert.equal(now.p, was.p);
    assert.equal(now.orders, was.orders);
    assert.equal(now.exact, true);
    if (now.p < ALPHA) found++;
  }
  assert.ok(found > 10 && found < all.length - 10, `drift found in ${found} of ${all.length}: both kinds tested`);
});

test('seeded draws: found drift the same p to the bit, the rest stopped early within the draws\' scatter', () => {
  const all = sets(16, between(6, (NORMAL_FROM >> 1) - 1), 2);
  const kinds = new Set();
  for (const g of all) {
    const now = driftTest(g);
    const was = before.driftTest(g);
    sameTrend(now, was);
    assert.equal(now.exact, false);
    kinds.add(now.method);
    if (now.method === 'sampled') {
      assert.equal(now.p, was.p);
      assert.equal(now.orders, SAMPLED + 1);
    } else {
      assert.ok(was.p >= ALPHA && now.p >= ALPHA, `stopped early: p ${now.p}, before ${was.p}`);
      const tolerance = 5 * (se(was.p, now.orders) + se(was.p, SAMPLED));
      assert.ok(Math.abs(now.p - was.p) <= tolerance, `p ${now.p} against ${was.p} (within ${tolerance})`);
    }
  }
  assert.equal(kinds.size, 2, `both endings seen: ${[...kinds]}`);
});

test(`from ${NORMAL_FROM} runs, the normal approximation: the same finding, p within 0.015`, () => {
  const all = sets(6, between(NORMAL_FROM >> 1, 50), 3);
  let found = 0;
  for (const g of all) {
    const now = driftTest(g);
    const was = before.driftTest(g);
    sameTrend(now, was);
    assert.equal(now.method, 'normal approximation');
    assert.ok(Math.abs(now.p - was.p) <= 0.015, `p ${now.p} against ${was.p}`);
    // the finding agrees unless the old p itself was within its draws' scatter of alpha
    const clear = Math.abs(was.p - ALPHA) > 4 * se(ALPHA, SAMPLED);
    if (clear) assert.equal(now.p < ALPHA, was.p < ALPHA, `p ${now.p} against ${was.p}`);
    if (now.p < ALPHA) found++;
  }
  assert.ok(found > 0 && found < all.length, `drift found in ${found} of ${all.length}: both kinds tested`);
});

// Runs ordered by their start times (runs of several comparisons) may share a time, so positions
// tie; the slope leaves those pairs out. Checked against the definition itself: every slope at
// different positions, sorted, the middle one (or the mean of the two), over sets large enough
// for the bracketed pass (more than 4,096 pairs) and small ones, ties in the values too.
test('Theil-Sen: the median of every pairwise slope at different positions, tied positions left out', () => {
  const rng = new Rng(11, 7);
  let tied = 0;
  for (let t = 0; t < 40; t++) {
    const n = t < 30 ? 100 + rng.int(200) : 3 + rng.int(60);
    const xs = Array.from({ length: n }, (_, i) => (t % 2 ? rng.int(Math.max(2, n >> 2)) : i + 1));
    const ys = Array.from({ length: n }, () => (rng.int(5) ? rng.u32() / 2 ** 32 : rng.int(3)));
    const slopes = [];
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) if (xs[i] !== xs[j]) slopes.push((ys[j] - ys[i]) * (1 / (xs[j] - xs[i])));
    }
    if (slopes.length < (n * (n - 1)) / 2) tied++;
    slopes.sort((a, b) => a - b);
    const m = slopes.length >> 1;
    const want = slopes.length % 2 ? slopes[m] : (slopes[m - 1] + slopes[m]) / 2;
    const got = theilSen(xs, ys);
    assert.ok(got === want, `set ${t}: ${n} runs, ${got} against ${want}`);
  }
  assert.ok(tied >= 15, `${tied} sets with tied positions`);
});
