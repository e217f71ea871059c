'use strict';
// The drift guard over a verdict (issue 41 item 2): the run order of the two sides (interleaved,
// one after the other, or not recorded) and, within one comparison, each side's trend of log(ops/s)
// across positions (least-squares slope, Student t, Holm over the sides); a trend found replaces
// the verdict by "drift, not a verdict". Why, and the sentences: report/README.md, "Drift and run
// order". verdict() itself (compare.js, the shared statistics) is not changed: this wraps its answer.
const { twoSidedP } = require('./tdist');
const { fmt } = require('./verdict');

const ALPHA = 0.05;
const MIN_RUNS = 3; // a slope and its spread need n - 2 >= 1 degrees of freedom
const SEQUENTIAL_NOTE = 'run one after the other: drift can look like a difference';
const UNKNOWN_NOTE = 'run order not recorded: drift can look like a difference';

// trend([{position, value}]) -> { n, slope, pct_per_position, t, df, p } of log(value) on
// position; null when fewer than MIN_RUNS points or every position is the same.
function trend(points) {
  const n = points.length;
  if (n < MIN_RUNS) return null;
  const xs = points.map((p) => p.position);
  const ys = points.map((p) => Math.log(p.value));
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  if (sxx === 0) return null;
  const slope = xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) / sxx;
  const sse = ys.reduce((a, y, i) => a + (y - my - slope * (xs[i] - mx)) ** 2, 0);
  const df = n - 2;
  const se = Math.sqrt(sse / df / sxx);
  const t = se === 0 ? (slope === 0 ? 0 : Infinity) : slope / se;
  return { n, slope, pct_per_position: (Math.exp(slope) - 1) * 100, t, df, p: twoSidedP(t, df) };
}

// holm(ps, alpha) -> [bool]: which hypotheses Holm's step-down procedure rejects.
function holm(ps, alpha = ALPHA) {
  const order = ps.map((p, i) => [p, i]).sort((a, b) => a[0] - b[0]);
  const out = ps.map(() => false);
  for (let k = 0; k < order.length; k++) {
    if (order[k][0] > alpha / (order.length - k)) break;
    out[order[k][1]] = true;
  }
  return out;
}

// positioned(runs, point, usable) -> [{position, value, id, started_at, usable}] of the side's runs
// with the point; usable: it entered the verdict (usable(p): the verdict's own exclusion rule). The
// order is read from every run (how they were made), the trend from the usable ones only.
function positioned(runs, point, usable) {
  const out = [];
  for (const r of runs) {
    const p = r.points.find((x) => x.name === point);
    if (!p) continue;
    const ok = usable(p) && typeof p.ops_per_s === 'number' && p.ops_per_s > 0;
    out.push({ position: r.comparison?.position ?? null, id: r.comparison?.id ?? null, started_at: r.started_at ?? null, value: p.ops_per_s, usable: ok });
  }
  return out;
}

// orderOf(a, b) -> 'interleaved' | 'sequential' | 'unknown': by the comparison's positions when
// every run of both sides is of one comparison, else by start times.
function orderOf(a, b) {
  const all = [...a, ...b];
  if (!a.length || !b.length) return 'unknown';
  const oneComparison = all.every((r) => r.id !== null && r.id === all[0].id && Number.isInteger(r.position));
  const key = oneComparison ? (r) => r.position : (r) => (r.started_at ? Date.parse(r.started_at) : NaN);
  const ka = a.map(key);
  const kb = b.map(key);
  if ([...ka, ...kb].some((x) => Number.isNaN(x))) return 'unknown';
  if (Math.max(...ka) < Math.min(...kb) || Math.max(...kb) < Math.min(...ka)) return 'sequential';
  return 'interleaved';
}

const pText = (p) => (p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`);

// guardVerdict(v, {point, sides: [runsA, runsB], names: [A, B], usable}) -> v with `order`,
// `order_note`, `drift` ({tests, found}); a verdict or no-difference whose sides drift becomes
// status 'drift' with its sentence saying so.
function guardVerdict(v, { point, sides, names, usable }) {
  const [allA, allB] = sides.map((runs) => positioned(runs, point, usable));
  const order = orderOf(allA, allB);
  // The note goes with an answer that has a ratio: a verdict, a tie or drift (not "no verdict").
  const rated = ['verdict', 'no-difference'].includes(v.status);
  const out = { ...v, order, order_note: !rated ? null : order === 'sequential' ? SEQUENTIAL_NOTE : order === 'unknown' ? UNKNOWN_NOTE : null };
  const [a, b] = [allA, allB].map((runs) => runs.filter((r) => r.usable));
  // Trend only within one comparison: positions of two comparisons are not one time axis.
  const tests = [];
  [a, b].forEach((runs, i) => {
    const ids = new Set(runs.map((r) => r.id));
    if (ids.size !== 1 || runs[0]?.id === null) return;
    const tr = trend(runs.filter((r) => Number.isInteger(r.position)));
    if (tr) tests.push({ side: names[i], ...tr });
  });
  const rejected = holm(tests.map((t) => t.p));
  tests.forEach((t, i) => { t.drifts = rejected[i]; });
  out.drift = { tests, found: rejected.some(Boolean), alpha: ALPHA, correction: 'Holm over the sides tested' };
  if (out.drift.found && (v.status === 'verdict' || v.status === 'no-difference')) {
    const moved = tests.filter((t) => t.drifts).map((t) => `${t.side} ${t.pct_per_position >= 0 ? '+' : ''}${t.pct_per_position.toFixed(1)}% per position (${pText(t.p)}, ${t.n} runs)`);
    out.status = 'drift';
    out.verdict_before_drift = v.status;
    out.sentence = `${point}: drift, not a verdict: ops/s moves with the runs' order (${moved.join('; ')}), so the difference between ${names[0]} and ${names[1]} depends on when they ran (ratio ${fmt(v.ratio)}, 95% CI ${fmt(v.ci[0])}-${fmt(v.ci[1])})`;
  }
  if (out.order_note) out.sentence = `${out.sentence}; ${out.order_note}`;
  return out;
}

module.exports = { guardVerdict, trend, holm, orderOf };
