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
//   its p-value by permuting each side's values among that side's positions (4 runs a side:
//   24 x 24 = 576 orders, every one; more: seeded draws, and from tens of runs the normal
//   approximation: drift-stats.js says where and why). Power, from test/drift.test.js's
//   simulation: a 10% drift from the first to the last of 8 interleaved positions, runs scattered
//   2% (log-normal), is found in at least POWER of comparisons at ALPHA; with no drift at most
//   ALPHA are flagged.
// Why, and the sentences: report/README.md, "Drift and run order".
const { fmt } = require('./verdict');
const { median } = require('./stats');
const { theilSen, ranks, permutationP, factorial } = require('./drift-stats');

const ALPHA = 0.05;
// What the simulation in test/drift.test.js shows (and asserts), said in the sentences' README.
const POWER = { drift: 0.1, positions: 8, noise: 0.02, power: 0.8 };
const SEQUENTIAL_NOTE = 'not interleaved: one side ran after the other, so drift and difference cannot be told apart';
const UNKNOWN_NOTE = 'run order not recorded: drift can look like a difference';

// driftTest(groups) -> { n, slope, pct_per_position, p, orders, exact, method, sides: [pct per position] }
// or null (orders: how many were counted, null for the normal approximation). groups: one list of {position, value} per
// side; a side with fewer than 2 runs carries no trend of its own and is left out; fewer than 3 runs in all: null.
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
  const flat = res.flat();
  const slope = theilSen(xs, flat);
  // The test statistic: Spearman's correlation of the residuals with the positions (as the sum of
  // centred position ranks times residual ranks; ties share their mean rank). Rank-based as the
  // slope is, and with more power than the slope itself (83% against 78% in the simulation).
  // How its p is computed (every order, seeded draws or the normal approximation, by size):
  // drift-stats.js.
  const rx = ranks(xs);
  const mx = rx.reduce((a, b) => a + b, 0) / rx.length;
  const cx = rx.map((r) => r - mx);
  const orders = used.reduce((a, g) => a * factorial(g.length), 1);
  const tested = permutationP(cx, ranks(flat), used.map((g) => g.length), orders, ALPHA);
  const pct = (s) => (s === null ? null : (Math.exp(s) - 1) * 100);
  return {
    n, slope, pct_per_position: pct(slope),
    p: tested.p, orders: tested.orders, exact: tested.exact, method: tested.method,
    sides: used.map((g) => pct(theilSen(g.map((p) => p.position), g.map((p) => Math.log(p.value))))),
  };
}

// keyOf(runs) -> each run's place in time: the comparison's position when every run is of one
// comparison, else its start time; null when any is unknown.
function keysOf(runs) {
  const oneComparison = runs.length > 0 && runs.every((r) => r.id !== null && r.id === runs[0].id
    && Number.isInteger(r.position));
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

// place(run) -> {id, position, started_at}: where the run stands in time, as the order reads it.
const place = (r) => ({ id: r.comparison?.id ?? null, position: r.comparison?.position ?? null,
  started_at: r.started_at ?? null });

// placed(runs, point, usable) -> [{id, position, started_at, value, usable}], one per run; value
// null where the run has no such point.
function placed(runs, point, usable) {
  return runs.map((r) => {
    const p = r.points?.find((x) => x.name === point);
    const ok = Boolean(p) && r.complete !== false && usable(p) && typeof p.ops_per_s === 'number' && p.ops_per_s > 0;
    return { ...place(r), value: p ? p.ops_per_s : null, usable: ok };
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
    sentence: `${subject}: no verdict: ${a} ran before ${b} (ratio ${v.faster ?? v.lower}/${v.slower ?? v.higher} ${fmt(v.ratio)}, not interleaved: drift and difference cannot be told apart; interleave them with ./run.sh compare)`,
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

// sidesOrder(sides) -> runOrder's { order, first } of two sides' runs (every run of each, the
// complete ones usable).
function sidesOrder(sides) {
  const [a, b] = sides.map((rs) => rs.map(place));
  const [ua, ub] = sides.map((rs) => rs.filter((r) => r.complete !== false).map(place));
  return runOrder(a, b, ua, ub);
}

// orderGuarded(v, names, sides, subject) -> v, or v as no verdict where the two sides ran one after the
// other: the guard of a figure that is no step's ops/s (a run's footprint, its steadiness, the
// server's cost per operation), which has no drift test of its own; sides: every run of each side,
// incomplete ones too (their order is how they were made), the complete ones usable.
function orderGuarded(v, names, sides, subject = v.point) {
  const { order, first } = sidesOrder(sides);
  const rated = ['verdict', 'no-difference'].includes(v.status);
  return order === 'sequential' && rated ? notInterleaved(v, subject, names, first) : v;
}

module.exports = { guardVerdict, orderGuarded, sidesOrder, driftTest, theilSen, orderOf, runOrder, notInterleaved,
  place, ALPHA, POWER, SEQUENTIAL_NOTE };
