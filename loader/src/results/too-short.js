'use strict';
// A step too short to measure: its rate would rest on a handful of operations or on a fraction of
// a second (`--duration 1ms` printed 389 finds/s from 2-3 operations). Marked on the step
// (summary.json steps[].too_short, the reason), said under the table, and never in a verdict
// (common/step-exclusion.js). The bounds are the stability thresholds' own: a step under them has no
// median second either (src/stability/thresholds.js).
const { THRESHOLDS } = require('../stability/thresholds');

// tooShort(entry, { durationS }) -> the reason, or null (a measurement). entry: a steps[] / cases[]
// entry as stepSummary builds it (ops, measured_s); durationS: the step's asked --duration in
// seconds, or null for a step bounded by its work. A case not run has its own mark; a step that
// measured no operation at all is failed (src/step-failure.js), not short.
function tooShort(entry, { durationS }) {
  if (typeof entry.unsupported === 'string' || typeof entry.not_applicable === 'string' || entry.skipped) return null;
  const done = Object.values(entry.ops || {}).reduce((a, o) => a + (Number(o.count) || 0), 0);
  if (done === 0) return null;
  const what = `${done} operation${done === 1 ? '' : 's'} in ${entry.measured_s} s`;
  // A step bounded by its work measured all of it, whatever its size: its rate is that work over
  // its time, no sample of a process. A duration-bound step samples one: asked for under a second
  // (a paced step may end before its duration, when no op is due any more: the asked one counts),
  // or with fewer operations than a median second needs, it counts too few to give a rate (one
  // operation more or less moves it by more than 5%).
  if (durationS === null || durationS === undefined) return null;
  if (durationS < THRESHOLDS.fullSecond) return `${what}: shorter than one second, too short to measure (give a longer --duration)`;
  if (done < THRESHOLDS.minMedianOps) return `${what}: fewer than ${THRESHOLDS.minMedianOps} operations, too short to measure (give a longer --duration)`;
  return null;
}

// everyStepTooShort(steps) -> the run's reason when every step that measured something was too
// short and at least one was duration-bound (the user's --duration, not the work, made it so),
// else null.
function everyStepTooShort(steps) {
  const measured = (steps || []).filter((s) => Object.values(s.ops || {}).some((o) => o.count > 0));
  if (!measured.length || !measured.every((s) => s.too_short)) return null;
  const timed = measured.find((s) => /shorter than one second/.test(s.too_short));
  return timed ? `no step measured: step ${timed.index} ran ${timed.too_short.replace(/ \(give .*\)$/, '')}` : null;
}

module.exports = { tooShort, everyStepTooShort };
