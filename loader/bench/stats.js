'use strict';
// The bench's arithmetic (bench/bench.js): the loader's steady window out of its timeline, medians,
// and comparisons paired by round. Pure functions, tested in test/bench.test.js.

const common = require('../../common/stats');

const r1 = (x) => Math.round(x * 10) / 10;
// the lab's one median (common/stats.js) over the numbers given, to 0.1
const median = (xs) => {
  const m = common.median(xs.filter((x) => typeof x === 'number'));
  return m === null ? null : r1(m);
};

// steadyWindow(timeline lines) -> { cpuUs, ops }: the loader's CPU (process CPU of each second,
// every thread: loader.cpu_cores x interval_s) and operations (ok + errors) over its measured
// steps, leaving out each step's first WARMUP_S seconds: the worker thread is a fresh V8 isolate
// whose first seconds compile the driver's code (measured: 3-5x the CPU per op of the steady
// seconds), which a lab step of minutes amortises and a bench step of seconds would not. The floor
// warms up as long (bench/floor.js) and YCSB's window starts at 5 s (bench/ycsb.js).
// Also per phase (a case's name, e.g. gridfs's upload and download): phases[name] = { cpuUs, ops }.
// A kind's entry may set its own warm-up (bench/kinds.json warmup_s: gridfs's cases are measured
// whole, see there).
const WARMUP_S = 5;
const warmupOf = (entry) => entry.warmup_s ?? WARMUP_S;
function steadyWindow(lines, warmupS = WARMUP_S) {
  const into = new Map(); // step -> seconds seen
  let cpuUs = 0;
  let ops = 0;
  let seconds = 0;
  const phases = {};
  for (const l of lines) {
    const x = loaderSecond(l);
    if (!x) continue;
    const seen = into.get(l.step) || 0;
    into.set(l.step, seen + x.seconds);
    if (seen < warmupS) continue;
    cpuUs += x.cpuUs;
    ops += x.ops;
    seconds += x.seconds;
    const p = (phases[l.phase] ||= { cpuUs: 0, ops: 0, seconds: 0 });
    p.cpuUs += x.cpuUs;
    p.ops += x.ops;
    p.seconds += x.seconds;
  }
  return { cpuUs, ops, seconds, phases };
}

// loaderSecond(line) -> { end, seconds, cpuUs, ops } of a timeline line of a measured step (its
// second ends at t and began interval_s before), or null for any other line.
function loaderSecond(l) {
  if (typeof l.step !== 'number' || !l.loader || typeof l.loader.cpu_cores !== 'number') return null;
  let ops = 0;
  for (const o of Object.values(l.ops || {})) ops += (o.ok || 0) + (o.err || 0);
  return { end: Date.parse(l.t), seconds: l.interval_s, cpuUs: l.loader.cpu_cores * l.interval_s * 1e6, ops };
}

// windowOf(lines, from, to) -> { cpuUs, ops, seconds }: CPU and operations over the loader's
// timeline seconds (loaderSecond) that lie wholly inside [from, to] (epoch ms), for a loader
// measured beside its floor's window (or over a whole case: -Infinity, Infinity).
function windowOf(lines, from, to) {
  let cpuUs = 0;
  let ops = 0;
  let seconds = 0;
  for (const l of lines) {
    const x = loaderSecond(l);
    if (!x || x.end - x.seconds * 1000 < from || x.end > to) continue;
    cpuUs += x.cpuUs;
    ops += x.ops;
    seconds += x.seconds;
  }
  return { cpuUs, ops, seconds };
}

// coresOf(cpuUs, seconds): the cores a process used on average (1.0 = its whole pinned core); under
// ~0.9 the server, not the client, set the pace, and each reply cost the client a wake-up of its own.
const coresOf = (cpuUs, seconds) => (seconds > 0 ? Math.round((cpuUs / seconds / 1e6) * 100) / 100 : null);

// pairedPct(as, bs, field) / pairedRatio(as, bs): per round i, as[i][field] / bs[i].cpu_us_per_op
// (rounds where both measured), as { median, min, max, rounds } in % over / as a ratio; or null.
function pairs(as, bs, field) {
  const out = [];
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const a = as[i][field];
    const b = bs[i].cpu_us_per_op;
    if (typeof a === 'number' && typeof b === 'number' && b > 0) out.push(a / b);
  }
  return out;
}
// medianInterval(xs, level) -> { low, high, coverage } or null: a distribution-free confidence
// interval for the median of the rounds (the sign test's: order statistics x(k) .. x(n-k+1),
// with the largest k whose coverage 1 - 2 P(Binomial(n, 1/2) < k) is still >= level). It assumes
// nothing about how a shared machine's noise is distributed, only that rounds are independent.
// Too few rounds for the level (under 6 for 95 %): null, and the bench says so.
function medianInterval(xs, level = 0.95) {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  const n = s.length;
  let below = 0; // P(Binomial(n, 1/2) < k), summed as k grows
  let best = null;
  for (let k = 1; 2 * k <= n + 1; k++) {
    below += binomialHalf(n, k - 1);
    const coverage = 1 - 2 * below;
    if (coverage < level) break;
    best = { low: s[k - 1], high: s[n - k], coverage: Math.round(coverage * 1000) / 1000 };
  }
  return best;
}
// P(Binomial(n, 1/2) = j)
function binomialHalf(n, j) {
  let c = 1;
  for (let i = 0; i < j; i++) c = (c * (n - i)) / (i + 1);
  return c / 2 ** n;
}

function spread(xs, f) {
  if (!xs.length) return null;
  const v = xs.map(f);
  const ci = medianInterval(v);
  return { median: median(v), min: Math.min(...v), max: Math.max(...v), rounds: v.length,
    ci95: ci ? [ci.low, ci.high] : null, ci_coverage: ci ? ci.coverage : null };
}

// against(p, bound) -> 'within' | 'over' | 'undecided' | null: a paired comparison against a goal
// (over the floor by at most 10 %, at most 2.5x YCSB). 'within' only when the whole 95 %
// interval is at or under the bound, 'over' when all of it is above; a median alone decides
// nothing on a machine whose consecutive runs differ by 20-45 %.
function against(p, bound) {
  if (!p) return null;
  if (!p.ci95) return 'undecided';
  if (p.ci95[1] <= bound) return 'within';
  if (p.ci95[0] > bound) return 'over';
  return 'undecided';
}
const pairedPct = (as, bs, field) => spread(pairs(as, bs, field), (x) => r1((x - 1) * 100));
const pairedRatio = (as, bs) => spread(pairs(as, bs, 'cpu_us_per_op'), (x) => Math.round(x * 100) / 100);
const fmtPaired = (p, unit) => `median ${p.median}${unit}, `
  + (p.ci95 ? `95% CI ${p.ci95[0]}..${p.ci95[1]}${unit}` : 'too few rounds for a 95% CI (6+)')
  + `, range ${p.min}..${p.max}${unit} over ${p.rounds}`;

// unmeasured({status, stderr}, ops) -> why a loader run is no measurement, or null. An incomplete
// run is none: a GridFS download stopped by the stall timeout counted one failed op against
// seconds of CPU (4,940,035 us "per chunk" in a bench round, 2026-11-23 09:35).
function unmeasured(r, ops) {
  const last = String(r.stderr || '').trim().split('\n').slice(-2).join(' ');
  if (!ops) return `no operations measured (exit ${r.status}): ${last}`;
  if (r.status !== 0) return `loader exit ${r.status} (incomplete run): ${last}`;
  return null;
}

module.exports = { r1, median, medianInterval, against, WARMUP_S, warmupOf, steadyWindow, windowOf, coresOf, unmeasured,
  pairedPct, pairedRatio, fmtPaired };
