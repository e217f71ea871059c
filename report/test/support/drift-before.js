'use strict';
// The drift test as it was before it ranked once and stopped early (report/src/drift.js, commit
// 027aca3): the reference drift-same.test.js compares today's driftTest with. Kept verbatim but for
// the requires; do not speed it up, it is the yardstick.
const { median } = require('../../../common/stats');
const { Rng } = require('../../../common/rng');

const EXACT_LIMIT = 40320;
const SAMPLED = 20000;

// theilSen(xs, ys) -> the median of (y_j - y_i) / (x_j - x_i) over pairs at different x; null
// when there is none. slopesOf(xs) -> the same as a function of ys alone, its pairs worked out
// once (the permutation test calls it for every order).
function slopesOf(xs) {
  const is = [];
  const js = [];
  const inv = [];
  for (let i = 0; i < xs.length; i++) {
    for (let j = i + 1; j < xs.length; j++) {
      if (xs[i] !== xs[j]) { is.push(i); js.push(j); inv.push(1 / (xs[j] - xs[i])); }
    }
  }
  const s = new Float64Array(is.length);
  const m = s.length >> 1;
  return (ys) => {
    if (!s.length) return null;
    for (let k = 0; k < s.length; k++) s[k] = (ys[js[k]] - ys[is[k]]) * inv[k];
    s.sort();
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
}
const theilSen = (xs, ys) => slopesOf(xs)(ys);

// permutations(a) -> every order of a (Heap's algorithm).
function permutations(a) {
  const c = a.slice();
  const out = [c.slice()];
  const k = new Array(c.length).fill(0);
  for (let i = 1; i < c.length;) {
    if (k[i] < i) {
      const j = i % 2 ? k[i] : 0;
      [c[j], c[i]] = [c[i], c[j]];
      out.push(c.slice());
      k[i]++;
      i = 1;
    } else {
      k[i] = 0;
      i++;
    }
  }
  return out;
}

// ranks(v) -> each value's rank (0-based), tied values sharing their mean rank.
function ranks(v) {
  const o = v.map((x, i) => [x, i]).sort((a, b) => a[0] - b[0]);
  const r = new Array(v.length);
  for (let k = 0; k < o.length;) {
    let e = k;
    while (e + 1 < o.length && o[e + 1][0] === o[k][0]) e++;
    for (let j = k; j <= e; j++) r[o[j][1]] = (k + e) / 2;
    k = e + 1;
  }
  return r;
}

const factorial = (n) => (n <= 1 ? 1 : n * factorial(n - 1));

// driftTest(groups) -> { n, slope, pct_per_position, p, orders, exact, sides: [pct per position] }
// or null. groups: one list of {position, value} per side; a side with fewer than 2 runs carries
// no trend of its own and is left out; fewer than 3 runs in all: null.
function driftTest(groups) {
  const used = groups.filter((g) => g.length >= 2);
  const n = used.reduce((a, g) => a + g.length, 0);
  if (n < 3) return null;
  const xs = used.flatMap((g) => g.map((p) => p.position));
  if (new Set(xs).size < 2) return null;
  const res = used.map((g) => {
    const ys = g.map((p) => Math.log(p.value));
    const m = median(ys);
    return ys.map((y) => y - m);
  });
  const slope = slopesOf(xs)(res.flat());
  // The test statistic: Spearman's correlation of the residuals with the positions (as the sum of
  // centred position ranks times residual ranks; ties share their mean rank). Rank-based as the
  // slope is, and with more power than the slope itself (83% against 78% in the simulation).
  const rx = ranks(xs);
  const mx = rx.reduce((a, b) => a + b, 0) / rx.length;
  const cx = rx.map((r) => r - mx);
  const stat = (ys) => {
    const ry = ranks(ys);
    let sum = 0;
    for (let i = 0; i < ry.length; i++) sum += cx[i] * ry[i];
    return Math.abs(sum);
  };
  const observed = stat(res.flat());
  const beyond = (ys) => stat(ys) >= observed - 1e-12;
  const orders = used.reduce((a, g) => a * factorial(g.length), 1);
  let hits = 0;
  let total = 0;
  if (orders <= EXACT_LIMIT) {
    const each = res.map(permutations);
    const walk = (i, acc) => {
      if (i === each.length) {
        total++;
        if (beyond(acc)) hits++;
        return;
      }
      for (const p of each[i]) walk(i + 1, acc.concat(p));
    };
    walk(0, []);
  } else {
    // A fixed seed: the same runs always give the same p.
    const rng = new Rng(20261127, 0);
    for (; total < SAMPLED; total++) {
      const acc = res.flatMap((r) => {
        const c = r.slice();
        for (let i = c.length - 1; i > 0; i--) {
          const j = Math.floor((rng.u32() / 2 ** 32) * (i + 1));
          [c[i], c[j]] = [c[j], c[i]];
        }
        return c;
      });
      if (beyond(acc)) hits++;
    }
    hits++; // the runs' own order counts as one of the orders (keeps p above 0)
    total++;
  }
  const pct = (s) => (s === null ? null : (Math.exp(s) - 1) * 100);
  return {
    n, slope, pct_per_position: pct(slope), p: hits / total, orders: total, exact: orders <= EXACT_LIMIT,
    sides: used.map((g) => pct(theilSen(g.map((p) => p.position), g.map((p) => Math.log(p.value))))),
  };
}

module.exports = { driftTest, theilSen };
