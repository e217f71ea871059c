'use strict';
// The drift test's two computations, made cheap enough for thousands of runs (drift.js states the
// test; this file only computes it):
// - theilSen: the median of the pairwise slopes, by selection (not a sort) and, past DIRECT_PAIRS
//   pairs, without holding every slope: a seeded sample of pairs brackets the median and one pass
//   keeps only the slopes inside the bracket. The answer is the exact median either way.
// - permutationP: the p of Spearman's statistic |sum cx[i] * rank[i]| when each side's values are
//   permuted among that side's positions. The values are ranked once (a permutation of values is
//   the same permutation of their pooled ranks), then:
//   * up to EXACT_LIMIT orders: every order, the same count as before, so the same p to the bit;
//   * under NORMAL_FROM runs: seeded Monte Carlo, the same seed and the same draws as before, so
//     a p that runs to SAMPLED draws is the same p to the bit; it stops early only once p is
//     decided to be above ALPHA (its lower bound, STOP_Z standard errors below, clears ALPHA) and
//     known to about 5% of itself (STOP_HITS orders at least as extreme: Besag and Clifford's
//     sequential p, 1991, with the fixed seed).
//     Found drift (p < ALPHA, the only p the text prints) always runs the whole SAMPLED draws.
//   * from NORMAL_FROM runs: the normal approximation to the permutation distribution. S is a
//     linear rank statistic summed over independent sides; each side's term is a sampling without
//     replacement sum, asymptotically normal (Hajek's combinatorial central limit theorem), with
//     mean m * mean(cx) * mean(r) and variance SS(cx) * SS(r) / (m - 1) per side of m runs. At
//     NORMAL_FROM runs its p is within the Monte Carlo's own scatter of 20,000 draws
//     (test/drift-same.test.js checks both over seeded random sets), and 20,000 draws of that
//     many runs would cost more than the 10 ms a point this file is held to (bench/drift.js).
const { Rng } = require('../../common/rng');

const EXACT_LIMIT = 40320; // 8!: enumerate every order up to this many
const SAMPLED = 20000;
const NORMAL_FROM = 40;
const STOP_Z = 5;
const STOP_HITS = 400; // p to within about 5% of itself (1 / sqrt(400)) where the draws stop early
const DIRECT_PAIRS = 4096; // more pairs than this are bracketed first (less memory, less time)
const SEED = 20261127;

// select(a, len, k) -> the k-th smallest (0-based) of a[0..len), a Float64Array partly reordered:
// afterwards a[0..k) <= a[k] <= a[k+1..len). Hoare partition around the median of three.
function select(a, len, k) {
  let lo = 0;
  let hi = len - 1;
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < a[lo]) swap(a, mid, lo);
    if (a[hi] < a[lo]) swap(a, hi, lo);
    if (a[hi] < a[mid]) swap(a, hi, mid);
    const pivot = a[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}
function swap(a, i, j) {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

// theilSen(xs, ys) -> the median of (y_j - y_i) / (x_j - x_i) over pairs at different x; null
// when there is none. Each slope is (y_j - y_i) * (1 / (x_j - x_i)), as it always was: the same
// floats, so the same median. Up to DIRECT_PAIRS pairs every slope is kept and the middle selected;
// beyond, a seeded sample of slopes brackets the middle and one pass keeps only the slopes inside
// the bracket (about 4 / sqrt(sample) of them), so memory stays small and the answer exact.
function theilSen(xs, ys) {
  const n = xs.length;
  const x = Float64Array.from(xs);
  const y = Float64Array.from(ys);
  const same = new Map();
  for (const v of xs) same.set(v, (same.get(v) ?? 0) + 1);
  let pairs = (n * (n - 1)) / 2;
  for (const c of same.values()) pairs -= (c * (c - 1)) / 2;
  if (!pairs) return null;
  if (pairs <= DIRECT_PAIRS) {
    const s = new Float64Array(pairs);
    let k = 0;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) if (x[i] !== x[j]) s[k++] = (y[j] - y[i]) * (1 / (x[j] - x[i]));
    }
    return middleOf(s, 0, pairs);
  }
  return bracketedMedian(x, y, pairs);
}

// middleOf(a, before, pairs) -> the median of pairs slopes of which a holds the ones from rank
// `before` on (all of them: before = 0), a reordered.
function middleOf(a, before, pairs) {
  const m = pairs >> 1;
  const upper = select(a, a.length, m - before);
  if (pairs % 2) return upper;
  let lower = -Infinity;
  for (let i = 0; i < m - before; i++) if (a[i] > lower) lower = a[i];
  return (lower + upper) / 2;
}

// bracketedMedian: the sample's ranks 4 standard errors either side of the middle bound a range
// that holds the middle ranks but for a chance of about 1e-4; then the range widens to that side
// and the pass is made again (slower, never wrong).
function bracketedMedian(x, y, pairs) {
  const n = x.length;
  const rng = new Rng(SEED, 1);
  const size = Math.min(1 << 16, Math.max(1024, Math.round(16 * Math.sqrt(pairs))));
  const sample = new Float64Array(size);
  for (let k = 0; k < size;) {
    const i = rng.int(n);
    const j = rng.int(n);
    if (x[i] !== x[j]) sample[k++] = (y[j] - y[i]) * (1 / (x[j] - x[i]));
  }
  const m = pairs >> 1;
  const first = pairs % 2 ? m : m - 1;
  const spread = Math.ceil(4 * Math.sqrt(size / 4)) + 1;
  const at = Math.floor((m / pairs) * size);
  let [lo, hi] = ranksOfSample(sample, Math.max(0, at - spread), Math.min(size - 1, at + spread));
  // The pass over the pairs in the order of x: the pairs at one x are then side by side and
  // skipped at once, not tested in the inner loop. A pair's slope is the same float either way
  // round ((-a) * (1 / -d) is a * (1 / d) to the bit), so the order changes no slope.
  const order = Array.from(x, (_, i) => i).sort((a, b) => x[a] - x[b]);
  const xs = Float64Array.from(order, (i) => x[i]);
  const ys = Float64Array.from(order, (i) => y[i]);
  for (;;) {
    let below = 0;
    const inside = [];
    for (let i = 0; i < n; i++) {
      const xi = xs[i];
      const yi = ys[i];
      let j = i + 1;
      while (j < n && xs[j] === xi) j++;
      for (; j < n; j++) {
        const s = (ys[j] - yi) * (1 / (xs[j] - xi));
        if (s < lo) below++;
        else if (s <= hi) inside.push(s);
      }
    }
    if (first < below) lo = -Infinity;
    else if (m >= below + inside.length) hi = Infinity;
    else return middleOf(Float64Array.from(inside), below, pairs);
  }
}

// ranksOfSample(sample, a, b) -> the sample's a-th and b-th smallest (a <= b), by two selections
// rather than a sort of the whole sample (a sort was a fifth of the pooled slope's time at 1,000
// runs). The same values a sort gives, but for the sign of a zero, which no comparison with them
// tells apart; a NaN (a run's value 0 or not finite) has no place in a selection: sorted, as before.
function ranksOfSample(sample, a, b) {
  if (sample.some(Number.isNaN)) {
    sample.sort();
    return [sample[a], sample[b]];
  }
  const hi = select(sample, sample.length, b);
  return [a === b ? hi : select(sample, b, a), hi];
}

// ranks(v) -> each value's rank (0-based), tied values sharing their mean rank.
function ranks(v) {
  const order = Array.from(v, (_, i) => i).sort((a, b) => v[a] - v[b]);
  const r = new Float64Array(v.length);
  for (let k = 0; k < order.length;) {
    let e = k;
    while (e + 1 < order.length && v[order[e + 1]] === v[order[k]]) e++;
    for (let j = k; j <= e; j++) r[order[j]] = (k + e) / 2;
    k = e + 1;
  }
  return r;
}

const factorial = (n) => (n <= 1 ? 1 : n * factorial(n - 1));

// permutationsOf(r) -> every order of r (Heap's algorithm), one after the other in a Float64Array.
function permutationsOf(r) {
  const c = Float64Array.from(r);
  const len = c.length;
  const count = factorial(len);
  const out = new Float64Array(count * len);
  out.set(c, 0);
  let filled = 1;
  const k = new Array(len).fill(0);
  for (let i = 1; i < len;) {
    if (k[i] < i) {
      swap(c, i % 2 ? k[i] : 0, i);
      out.set(c, filled++ * len);
      k[i]++;
      i = 1;
    } else {
      k[i] = 0;
      i++;
    }
  }
  return out;
}

// Standard normal upper tail, from erfc (Numerical Recipes' erfcc, fractional error < 1.2e-7:
// p is printed to 3 decimals).
function erfc(x) {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806
    + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? r : 2 - r;
}
const upperTail = (z) => 0.5 * erfc(z / Math.SQRT2);

// permutationP(cx, rank, sizes, orders) -> { p, orders, exact, method }: cx the centred position
// ranks, rank the pooled value ranks (both in side order), sizes each side's count, orders the
// number of distinct orders (product of the sides' factorials).
function permutationP(cx, rank, sizes, orders, alpha) {
  const n = cx.length;
  let observed = 0;
  for (let i = 0; i < n; i++) observed += cx[i] * rank[i];
  observed = Math.abs(observed);
  const offsets = [];
  sizes.reduce((o, m) => (offsets.push(o), o + m), 0);
  if (orders <= EXACT_LIMIT) return exactP(cx, rank, sizes, offsets, observed, orders);
  if (n >= NORMAL_FROM) return normalP(cx, rank, sizes, offsets, observed);
  return sampledP(cx, rank, sizes, offsets, observed, alpha);
}

// Every order: the sum runs over the sides in turn, each side's part added onto the sides before
// it (the same additions in the same order as summing the whole, so the same float).
function exactP(cx, rank, sizes, offsets, observed, orders) {
  const each = sizes.map((m, g) => permutationsOf(rank.subarray(offsets[g], offsets[g] + m)));
  let hits = 0;
  const walk = (g, acc) => {
    if (g === sizes.length) {
      if (Math.abs(acc) >= observed - 1e-12) hits++;
      return;
    }
    const m = sizes[g];
    const perms = each[g];
    const off = offsets[g];
    for (let p = 0; p < perms.length; p += m) {
      let s = acc;
      for (let i = 0; i < m; i++) s += cx[off + i] * perms[p + i];
      walk(g + 1, s);
    }
  };
  walk(0, 0);
  return { p: hits / orders, orders, exact: true, method: 'exact' };
}

// Seeded draws, each side shuffled from its own order (Fisher-Yates, the generator's draws in the
// order the test has always made them), stopping once p is decided to be above alpha.
function sampledP(cx, rank, sizes, offsets, observed, alpha) {
  const n = cx.length;
  const rng = new Rng(SEED, 0);
  const work = new Float64Array(n);
  let hits = 0;
  let total = 0;
  while (total < SAMPLED) {
    work.set(rank);
    for (let g = 0; g < sizes.length; g++) {
      const off = offsets[g];
      for (let i = sizes[g] - 1; i > 0; i--) {
        swap(work, off + i, off + Math.floor((rng.u32() / 2 ** 32) * (i + 1)));
      }
    }
    let s = 0;
    for (let i = 0; i < n; i++) s += cx[i] * work[i];
    if (Math.abs(s) >= observed - 1e-12) hits++;
    total++;
    if (hits >= STOP_HITS && total % 16 === 0) {
      const q = hits / total;
      if (q - STOP_Z * Math.sqrt((q * (1 - q)) / total) > alpha) break;
    }
  }
  // the runs' own order counts as one of the orders (keeps p above 0)
  const method = total < SAMPLED ? 'sampled, stopped once above alpha' : 'sampled';
  return { p: (hits + 1) / (total + 1), orders: total + 1, exact: false, method };
}

function normalP(cx, rank, sizes, offsets, observed) {
  let mean = 0;
  let variance = 0;
  sizes.forEach((m, g) => {
    const off = offsets[g];
    let ca = 0;
    let ra = 0;
    for (let i = off; i < off + m; i++) {
      ca += cx[i];
      ra += rank[i];
    }
    ca /= m;
    ra /= m;
    let ssc = 0;
    let ssr = 0;
    for (let i = off; i < off + m; i++) {
      ssc += (cx[i] - ca) ** 2;
      ssr += (rank[i] - ra) ** 2;
    }
    mean += m * ca * ra;
    variance += (ssc * ssr) / (m - 1);
  });
  const sd = Math.sqrt(variance);
  // P(|S| >= observed): both tails, S centred on its mean (not on 0)
  const p = sd === 0
    ? (Math.abs(mean) >= observed - 1e-12 ? 1 : 0)
    : upperTail((observed - mean) / sd) + upperTail((observed + mean) / sd);
  return { p: Math.min(1, p), orders: null, exact: false, method: 'normal approximation' };
}

module.exports = { theilSen, ranks, permutationP, factorial, EXACT_LIMIT, SAMPLED, NORMAL_FROM };
