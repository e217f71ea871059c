'use strict';
// Student t tail probabilities, from the quantile function the verdicts already use
// (@stdlib/stats-base-dists-t-quantile), by bisection: the report needs p-values (the drift check's
// trend test, Holm's correction over a report's comparisons) and the package has no CDF.
// 60 halvings of (0.5, 1) put p within 1e-17 of the quantile's own answer.
const tQuantile = require('@stdlib/stats-base-dists-t-quantile');

// twoSidedP(t, df) -> P(|T| >= |t|) for T ~ Student t with df degrees of freedom.
function twoSidedP(t, df) {
  const x = Math.abs(t);
  if (!Number.isFinite(x)) return 0;
  if (x === 0) return 1;
  let lo = 0.5;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (tQuantile(mid, df) < x) lo = mid;
    else hi = mid;
  }
  return Math.min(1, 2 * (1 - (lo + hi) / 2));
}

module.exports = { twoSidedP };
