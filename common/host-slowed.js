'use strict';
// Whether other load on the loader's host changed what the loader measured in a step: the one
// rule behind the shared-host exclusion (common/step-exclusion.js, which the loader's --repeat
// table and the report both apply) and a capacity search's host caveat and retries
// (loader/src/experiment/sla.js). No dependencies (the loader image copies common/ beside loader/).
//
// Other load alone is no reason: on the Compose path the loader always shares its host with the
// cluster it loads, and leaving out every step that saw other load left out 81 of 96 A/A runs that
// measured their rate within 6% (while all 14 runs the host had slowed were among them). What
// matters is whether the loader itself ran late by an amount that shows in its figures:
// - its own delay (the worst worker's event-loop delay p99, median over the step's seconds:
//   src/results/selfmon.js workers[].eld_p99_ms_median; each completion and each next operation waits
//   that long) is a material share (MATERIAL) of the op latency it recorded (the fastest op
//   type's p50, the one a delay inflates most); or
// - a paced step fell short of its offered rate (under ACHIEVED_SHARE) while the loader ran late.
// A step with other load but neither sign measured the server, and is kept.
const MATERIAL = 0.1;
const ACHIEVED_SHARE = 0.95;

const r2 = (x) => Math.round(x * 100) / 100;

// loaderDelayMs(entry) -> the worst worker's event-loop delay p99 (median over the step's
// seconds), in ms; null when none was recorded.
function loaderDelayMs(e) {
  const ds = (e.loader?.workers || []).map((w) => w.eld_p99_ms_median).filter((x) => typeof x === 'number');
  return ds.length ? Math.max(...ds) : null;
}

// fastestP50Ms(entry) -> the lowest p50 of the step's op types with operations, in ms; null when
// none.
function fastestP50Ms(e) {
  const ps = Object.values(e.ops || {}).filter((o) => (o.count || 0) > 0).map((o) => o.latency_us?.p50).filter((x) => typeof x === 'number' && x > 0);
  return ps.length ? Math.min(...ps) / 1000 : null;
}

// hostSlowed(entry) -> null, or the lines why the host's load changed what the step measured.
// entry: a summary.json steps[]/cases[] entry.
function hostSlowed(e) {
  const contention = Array.isArray(e.loader?.contention) ? e.loader.contention : [];
  if (!contention.length) return null;
  const delay = loaderDelayMs(e);
  const p50 = fastestP50Ms(e);
  // A summary without the workers' delay or a latency: nothing to weigh the load against, so
  // the other load alone decides, as it did before the delay was weighed.
  if (delay === null || p50 === null) return contention;
  const out = [];
  if (delay > MATERIAL * p50) out.push(`the loader ran late by ${r2(delay)} ms (event-loop delay p99), ${Math.round((delay / p50) * 100)}% of the fastest op's p50 ${r2(p50)} ms (> ${MATERIAL * 100}%)`);
  // Paced: each client owes an operation every clients / target_rate seconds; a loader late by a
  // material share of that interval falls behind its own schedule.
  const seconds = e.measured_s || e.duration_s || 0;
  const done = Object.values(e.ops || {}).reduce((a, o) => a + (o.count || 0), 0);
  const intervalMs = typeof e.target_rate === 'number' && e.target_rate > 0 ? (1000 * (e.clients || 1)) / e.target_rate : null;
  if (intervalMs !== null && seconds > 0 && delay > MATERIAL * intervalMs
    && done / seconds < ACHIEVED_SHARE * e.target_rate) {
    out.push(`the loader ran late by ${r2(delay)} ms and achieved ${r2(done / seconds)} of the ${e.target_rate} ops/s offered`);
  }
  return out.length ? [...out, ...contention] : null;
}

module.exports = { hostSlowed, loaderDelayMs, MATERIAL };
