'use strict';
// The order and drift guard over a verdict: the run order of the two sides (interleaved, one after
// the other, or not recorded) and a test for a trend of ops/s across the runs' order. verdict()
// itself (compare.js, the shared statistics) is not changed: this wraps its answer.
// - Two sides run one after the other give no verdict: their ratio is the engines' difference plus
//   whatever the host did between the two halves, and nothing in the runs tells the two apart. The
//   ratio stays, marked "not interleaved". The order is read on every run of the two sides
//   (complete or not, usable or not: how they were made) and again on the runs the verdict uses
//   (leaving runs out can make an interleaved set one-after-the-other); either one sequential is
//   enough.
// - Drift: one test pooled over both sides. Each side's log(ops/s) less its own median (the side
//   effect, robustly) against the runs' positions (the comparison's, else their start order); the
//   trend stated is the Theil-Sen slope (median of the pairwise slopes: one outlier moves at most
//   the pairs it is in, never the sign of a steady trend), the test Spearman's rank correlation,
//   its p-value exact by permuting each side's values among that side's positions (4 runs a
//   side: 24 x 24 = 576 orders; beyond EXACT_LIMIT a seeded sample of SAMPLED orders). Power, from test/drift.test.js's simulation: a 10% drift
//   from the first to the last of 8 interleaved positions, runs scattered 2% (log-normal), is found
//   in at least POWER of comparisons at ALPHA; with no drift at most ALPHA are flagged.
// Why, and the sentences: report/README.md, "Drift and run order".
const { fmt } = require('./verdict');
const { median } = require('./stats');
const { Rng } = require('../../common/rng');

const ALPHA = 0.05;
// What the simulation in test/drift.test.js shows (and asserts), said in the sentences' README.
const POWER = { drift: 0.1, positions: 8, noise: 0.02, power: 0.8 };
const EXACT_LIMIT = 40320; // 8!: enumerate every order up to this many
const SAMPLED = 20000;
const SEQUENTIAL_NOTE = 'not interleaved: one side ran after the other, so drift and difference cannot be told apart';
const UNKNOWN_NOTE = 'run order not recorded: drift can look like a difference';

// theilSen(xs, ys) -> the median of (y_j - y_i) / (x_j - x_i) over pairs at different x; null
// when there is none. slopesOf(xs) -> the same as a function of ys alone, its pairs worked out
// once (the permutation test calls it for every order).
function slopesOf(xs) {
  const is = [];
  const js = [];
  const inv = [];
  for (let i = 0; i < xs.length; i++) for (let j = i + 1; j < xs.length; j++) if (xs[i] !== xs[j]) { is.push(i); js.push(j); inv.push(1 / (xs[j] - xs[i])); }
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

// keyOf(runs) -> each run's place in time: the comparison's position when every run is of one
// comparison, else its start time; null when any is unknown.
function keysOf(runs) {
  const oneComparison = runs.length > 0 && runs.every((r) => r.id !== null && r.id === runs[0].id && Number.isInteger(r.position));
  const keys = runs.map(oneComparison ? (r) => r.position : (r) => (r.started_at ? Date.parse(r.started_at) : NaN));
  return keys.some((x) => Number.isNaN(x)) ? null : keys;
}

// orderOf(a, b) -> 'interleaved' | 'sequential' | 'unknown': a and b lists of {id, position,
// started_at}; sequential when every run of one side came before every run of the other.
function orderOf(a, b) {
  if (!a.length || !b.length) return 'unknown';
  const keys = keysOf([...a, ...b]);
  if (!keys) return 'unknown';
  const ka = keys.slice(0, a.length);
  const kb = keys.slice(a.length);
  if (Math.max(...ka) < Math.min(...kb) || Math.max(...kb) < Math.min(...ka)) return 'sequential';
  return 'interleaved';
}

// placed(runs, point, usable) -> [{id, position, started_at, value, usable}], one per run; value
// null where the run has no such point.
function placed(runs, point, usable) {
  return runs.map((r) => {
    const p = r.points?.find((x) => x.name === point);
    const ok = Boolean(p) && r.complete !== false && usable(p) && typeof p.ops_per_s === 'number' && p.ops_per_s > 0;
    return { position: r.comparison?.position ?? null, id: r.comparison?.id ?? null, started_at: r.started_at ?? null, value: p ? p.ops_per_s : null, usable: ok };
  });
}

// runOrder(allA, allB, usableA, usableB) -> { order, first }: every run of each side and the
// usable ones ({id, position, started_at}); sequential where either list is; first: 0 or 1, the
// side that ran first (null unless sequential).
function runOrder(allA, allB, a, b) {
  const orders = [orderOf(allA, allB), orderOf(a, b)];
  const order = orders.includes('sequential') ? 'sequential' : orders[0];
  if (order !== 'sequential') return { order, first: null };
  const [ka, kb] = orders[0] === 'sequential' ? [allA, allB] : [a, b];
  const k = keysOf([...ka, ...kb]);
  return { order, first: Math.min(...k.slice(0, ka.length)) < Math.min(...k.slice(ka.length)) ? 0 : 1 };
}

// notInterleaved(v, subject, names, first) -> v as no verdict: status 'not-interleaved', the
// ratio kept and marked, the interval it would have had in ci_not_interleaved.
function notInterleaved(v, subject, names, first) {
  const [a, b] = first === 0 ? names : [names[1], names[0]];
  return {
    ...v, status: 'not-interleaved', verdict_if_interleaved: v.status, ci_not_interleaved: v.ci, ci: null,
    sentence: `${subject}: no verdict: ${a} ran before ${b} (ratio ${v.faster}/${v.slower} ${fmt(v.ratio)}, not interleaved: drift and difference cannot be told apart; interleave them with ./run.sh compare)`,
  };
}

const pText = (p) => (p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`);
const signed = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;

// guardVerdict(v, {point, sides: [runsA, runsB], names: [A, B], usable}) -> v with `order`,
// `order_note` and `drift` ({test, found, text}). sides: every run of each side, incomplete ones
// too (the order is how they were made). A verdict or a tie between sides not interleaved becomes
// status 'not-interleaved' (ratio kept, interval in `ci_not_interleaved`); one whose runs drift
// becomes 'drift'.
function guardVerdict(v, { point, sides, names, usable }) {
  const [allA, allB] = sides.map((runs) => placed(runs, point, usable));
  const [a, b] = [allA, allB].map((runs) => runs.filter((r) => r.usable));
  const { order, first } = runOrder(allA, allB, a, b);
  const rated = ['verdict', 'no-difference'].includes(v.status);
  const out = { ...v, order, order_note: order === 'sequential' ? SEQUENTIAL_NOTE : order === 'unknown' && rated ? UNKNOWN_NOTE : null };
  // Positions: the comparison's, else the start order of every run of both sides.
  const every = [...allA, ...allB];
  const keys = keysOf(every);
  let tested = null;
  if (keys) {
    const rank = new Map([...new Set(keys)].sort((x, y) => x - y).map((k, i) => [k, i + 1]));
    const pos = every.map((r, i) => ({ ...r, position: rank.get(keys[i]) }));
    const groups = [pos.slice(0, allA.length), pos.slice(allA.length)].map((g) => g.filter((r) => r.usable));
    tested = driftTest(groups);
  }
  const found = Boolean(tested && tested.p < ALPHA);
  const text = found
    ? `ops/s moves with the runs' order (${signed(tested.pct_per_position)} per position, ${pText(tested.p)}, ${tested.n} runs of ${names.filter((_, i) => [a, b][i].length >= 2).join(' and ')})`
    : null;
  out.drift = { test: tested, found, alpha: ALPHA, method: 'log(ops/s) less each side\'s median against position: Theil-Sen slope, Spearman\'s rank correlation with p by permuting each side\'s runs among its positions', text };
  if (order === 'sequential' && rated) {
    Object.assign(out, notInterleaved(v, point, names, first));
    if (found) out.sentence += `; drift: ${text}`;
    return out;
  }
  if (found && rated) {
    out.status = 'drift';
    out.verdict_before_drift = v.status;
    out.sentence = `${point}: drift, not a verdict: ${text}, so the difference between ${names[0]} and ${names[1]} depends on when they ran (ratio ${fmt(v.ratio)}, 95% CI ${fmt(v.ci[0])}-${fmt(v.ci[1])})`;
  }
  if (out.order_note && rated) out.sentence = `${out.sentence}; ${out.order_note}`;
  return out;
}

module.exports = { guardVerdict, driftTest, theilSen, orderOf, runOrder, notInterleaved, ALPHA, POWER, SEQUENTIAL_NOTE };
