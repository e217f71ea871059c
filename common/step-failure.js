'use strict';
// When a step (or a case) is not a measurement because its operations failed: the one place
// that says so, for the loader (summary.json steps[].failed) and the report (never compared).
// A step whose failed share of operations is above FAILED_STEP_ERROR_FRACTION measured errors,
// not the engine: 100% refused writes would otherwise print as a step with a throughput.

// 1%: a stray duplicate key or a retried failover write stays a measurement; a server that
// refuses the workload (MMAPv1 and a txnNumber, an unsatisfiable write concern) does not.
const FAILED_STEP_ERROR_FRACTION = 0.01;

// stepFailure(step) -> null when the step measured, else
// { error_fraction, errors, operations, threshold }. step: a summary.json steps[]/cases[] entry
// (ops: { <op>: { count, errors } }). A step with no operation at all is failed too: it
// examined nothing.
function stepFailure(step) {
  let count = 0;
  let errors = 0;
  for (const o of Object.values((step && step.ops) || {})) {
    count += Number(o.count) || 0;
    errors += Number(o.errors) || 0;
  }
  const operations = count + errors;
  const fraction = operations ? errors / operations : 1;
  if (operations && fraction <= FAILED_STEP_ERROR_FRACTION) return null;
  return { error_fraction: Math.round(fraction * 1e4) / 1e4, errors, operations,
    threshold: FAILED_STEP_ERROR_FRACTION };
}

// firstError(step) -> { code, codeName, message } of the step's earliest failed operation (the
// workers keep each op's first: recorder.js Recorder.error), or null.
function firstError(step) {
  let first = null;
  for (const o of Object.values((step && step.ops) || {})) {
    if (o && o.first_error && (!first || String(o.first_error.at ?? '') < String(first.at ?? ''))) first = o.first_error;
  }
  if (!first) return null;
  return { code: first.code ?? null, codeName: first.codeName ?? null, message: first.message ?? null };
}

// A case the kind did not run or that does not apply (a durability case the server refuses, said
// in its own field) is neither a measurement nor a failed one.
const notRun = (step) => typeof step.unsupported === 'string' || typeof step.not_applicable === 'string' || Boolean(step.skipped);

// withFailure(step) -> the step as summary.json writes it: with `failed` ({ error_fraction,
// errors, operations, threshold, first_error }) when its operations failed above the threshold,
// without it otherwise.
function withFailure(step) {
  const { failed: _old, ...rest } = step;
  if (notRun(step)) return rest;
  const f = stepFailure(step);
  return f ? { ...rest, failed: { ...f, first_error: firstError(step) } } : rest;
}

// noStepMeasured(steps) -> null when some step measured, else the run's one-line reason: every
// step failed (the first failed step's first error named) or none ran.
function noStepMeasured(steps) {
  const marked = (steps || []).map(withFailure);
  if (marked.some((s) => !s.failed && !notRun(s))) return null;
  const failed = marked.find((s) => s.failed);
  if (!failed) {
    const skipped = marked.find(notRun);
    if (!skipped) return 'no step measured: no step ran';
    // The reason's first clause only: the whole of it was said when the case was skipped and is
    // in the table and summary.json; this line is repeated by stopping:, incomplete run and error:.
    const why = String(skipped.unsupported || skipped.not_applicable || 'not run').split(/: |; | \(/)[0].trim();
    return `no step measured: no case ran (${skipped.name || `step ${skipped.index}`}: ${why})`;
  }
  const f = failed.failed;
  if (f.operations === 0) {
    const warm = failed.warmup && failed.warmup.measured === false
      ? ` (it ended within its warm-up: ${failed.warmup.ops ?? 'its'} operations ran unmeasured; use --warmup 0 or a larger size)` : '';
    return `no step measured: step ${failed.index} measured no operation${warm}`;
  }
  const err = f.first_error;
  const what = err ? `, first error: ${err.codeName || err.code !== null ? `${err.codeName || ''}${err.code !== null ? ` (${err.code})` : ''}: ` : ''}${err.message}` : '';
  return `no step measured: every step had more than ${f.threshold * 100}% of its operations fail (step ${failed.index}: ${f.errors} of ${f.operations}${what})`;
}

module.exports = { FAILED_STEP_ERROR_FRACTION, stepFailure, firstError, notRun, withFailure, noStepMeasured };
