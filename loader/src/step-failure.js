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
  return { error_fraction: Math.round(fraction * 1e4) / 1e4, errors, operations, threshold: FAILED_STEP_ERROR_FRACTION };
}

module.exports = { FAILED_STEP_ERROR_FRACTION, stepFailure };
