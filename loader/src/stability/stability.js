'use strict';
// A step's stability (summary.json steps[].stability) from its measured seconds,
// as a pure function: an engine that stalls 1 s in every 10 and one that never stalls can print
// the same mean ops/s; these figures tell them apart. Warm-up seconds never reach here (step-loop.js
// collects only measured seconds), and the step's partial last second is left out.
//
// seconds: [{ end (epoch ms), interval_s, ops (operations completed), p99_us (the second's
//   highest p99 over its ops, null when none completed) }]
const { median, mean, round } = require('../../../common/stats');
const { THRESHOLDS } = require('./thresholds');
const { plural } = require('../text/plural'); // "1 measured second", never "1 measured seconds"

// sd: the population standard deviation (the spread of the seconds the step had, not an
// estimate for other steps).
function sd(xs) {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
}

function stepStability(seconds, T = THRESHOLDS) {
  const full = seconds.filter((s) => s.interval_s >= T.fullSecond);
  const rates = full.map((s) => s.ops / s.interval_s);
  const p99s = full.map((s) => s.p99_us).filter((x) => typeof x === 'number');
  const med = median(rates);
  const medP99 = median(p99s);
  const out = {
    seconds: full.length,
    median_ops_per_s: round(med, 1),
    cv: med ? round(sd(rates) / mean(rates), 3) : null,
    worst_second_fraction: med ? round(Math.min(...rates) / med, 3) : null,
    p99_us: { median: medP99, worst: p99s.length ? Math.max(...p99s) : null },
    thresholds: { dip_below_median: T.dipBelowMedian, p99_above_median: T.p99AboveMedian },
    dips: [],
    dip_seconds: 0,
  };
  if (full.length < T.minSeconds) return { ...out, dips: null, not_judged: `${plural(full.length, 'measured second')} (fewer than ${T.minSeconds}): no median to judge dips by` };
  // The median shown rounded down: 19.96 rounded to 20 read "20 operations (fewer than 20)".
  if (!(med >= T.minMedianOps)) return { ...out, dips: null, not_judged: `median second of ${Math.floor(med * 10) / 10} operations (fewer than ${T.minMedianOps}): a dip would be counting noise` };
  // A dip: a run of consecutive seconds each below half the median, or whose p99 passed 4x the
  // median per-second p99.
  let cur = null;
  full.forEach((s, i) => {
    const low = rates[i] < T.dipBelowMedian * med;
    const slow = medP99 > 0 && typeof s.p99_us === 'number' && s.p99_us > T.p99AboveMedian * medP99;
    if (!low && !slow) { cur = null; return; }
    const start = s.end - s.interval_s * 1000;
    if (!cur || start - cur.endMs > 250) {
      cur = { startMs: start, endMs: s.end, seconds: 0, minRate: Infinity, maxP99: 0, by: new Set() };
      out.dips.push(cur);
    }
    cur.endMs = s.end;
    cur.seconds += s.interval_s;
    cur.minRate = Math.min(cur.minRate, rates[i]);
    if (typeof s.p99_us === 'number') cur.maxP99 = Math.max(cur.maxP99, s.p99_us);
    if (low) cur.by.add('throughput');
    if (slow) cur.by.add('p99');
  });
  out.dips = out.dips.map((d) => ({
    start: new Date(d.startMs).toISOString(),
    end: new Date(d.endMs).toISOString(),
    length_s: round(d.seconds, 1),
    // depth: the dip's lowest second as a fraction of the step's median second (0 = nothing done).
    depth: round(d.minRate / med, 3),
    p99_ratio: medP99 ? round(d.maxP99 / medP99, 1) : null,
    by: [...d.by],
  }));
  out.dip_seconds = round(out.dips.reduce((a, d) => a + d.length_s, 0), 1);
  return out;
}

module.exports = { stepStability };
