'use strict';
// The bench's arithmetic (bench/bench.js): the loader's steady window out of its timeline, medians,
// and comparisons paired by round. Pure functions, tested in test/bench.test.js.

const r1 = (x) => Math.round(x * 10) / 10;
const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (!s.length) return null;
  return r1(s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2);
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
  const phases = {};
  for (const l of lines) {
    if (typeof l.step !== 'number' || !l.loader || typeof l.loader.cpu_cores !== 'number') continue;
    const seen = into.get(l.step) || 0;
    into.set(l.step, seen + l.interval_s);
    if (seen < warmupS) continue;
    const us = l.loader.cpu_cores * l.interval_s * 1e6;
    let n = 0;
    for (const o of Object.values(l.ops || {})) n += (o.ok || 0) + (o.err || 0);
    cpuUs += us;
    ops += n;
    const p = (phases[l.phase] ||= { cpuUs: 0, ops: 0 });
    p.cpuUs += us;
    p.ops += n;
  }
  return { cpuUs, ops, phases };
}

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
function spread(xs, f) {
  if (!xs.length) return null;
  const v = xs.map(f);
  return { median: median(v), min: Math.min(...v), max: Math.max(...v), rounds: v.length };
}
const pairedPct = (as, bs, field) => spread(pairs(as, bs, field), (x) => r1((x - 1) * 100));
const pairedRatio = (as, bs) => spread(pairs(as, bs, 'cpu_us_per_op'), (x) => Math.round(x * 100) / 100);
const fmtPaired = (p, unit) => `median ${p.median}${unit}, ${p.min}..${p.max}${unit} over ${p.rounds}`;

// unmeasured({status, stderr}, ops) -> why a loader run is no measurement, or null. An incomplete
// run is none: a GridFS download stopped by the stall timeout counted one failed op against
// seconds of CPU (4,940,035 us "per chunk" in a bench round, 2026-11-23 09:35).
function unmeasured(r, ops) {
  const last = String(r.stderr || '').trim().split('\n').slice(-2).join(' ');
  if (!ops) return `no operations measured (exit ${r.status}): ${last}`;
  if (r.status !== 0) return `loader exit ${r.status} (incomplete run): ${last}`;
  return null;
}

module.exports = { r1, median, WARMUP_S, warmupOf, steadyWindow, unmeasured, pairedPct, pairedRatio, fmtPaired };
