'use strict';
// The one ratio-and-interval rule, for every verdict the report gives: throughput per point
// (compare.js verdict), capacity under an SLA (capacity.js capacityVerdict) and the server's side
// (server-side.js compare): what counts as a verdict, and its sentence, are decided here only.
const { ratioCI } = require('./stats');

const LEVEL = 0.95;
// A confidence interval needs at least 2 repetitions a side (a t interval over 1 has no spread).
const MIN_SAMPLES = 2;
const fmt = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
const runsText = (na, nb) => (na === nb ? `${na} runs each` : `${na} and ${nb} runs`);
// An interval as every verdict prints it, and the one rule for "it covers 1.0: no difference shown".
const ciText = (low, high) => `${LEVEL * 100}% CI ${fmt(low)}-${fmt(high)}`;
const spansOne = (low, high) => low <= 1 && high >= 1;

// judge(a, b, { lowerIsBetter }) -> null when either side has fewer than MIN_SAMPLES samples; else
// { first: 0 | 1 (the better side, by the geometric mean: the statistic shown; the higher one, or
// the lower with lowerIsBetter, as the server's costs), ratio (first / other), ci, df, spans (the
// interval covers 1.0: no difference shown), ciText, runs }.
function judge(a, b, { lowerIsBetter = false } = {}) {
  if (a.length < MIN_SAMPLES || b.length < MIN_SAMPLES) return null;
  const first = (lowerIsBetter ? ratioCI(a, b, LEVEL) : ratioCI(b, a, LEVEL)).ratio > 1 ? 1 : 0;
  const [hi, lo] = first ? [b, a] : [a, b];
  const ci = ratioCI(hi, lo, LEVEL);
  return {
    first,
    ratio: ci.ratio,
    ci: [ci.low, ci.high],
    df: ci.df,
    spans: spansOne(ci.low, ci.high),
    ciText: ciText(ci.low, ci.high),
    runs: runsText(hi.length, lo.length),
  };
}

// verdictSentence(what, j, better, other, says): a verdict's one sentence, for every kind of
// verdict (throughput, capacity, the server's side): "WHAT: no difference shown between BETTER
// and OTHER (ratio R, CI spans 1.0; runs)" where the interval covers 1.0, else says(R) (by default
// "WHAT: BETTER is Rx OTHER") with the interval and the runs.
function verdictSentence(what, j, better, other, says = (r) => `${what}: ${better} is ${r}x ${other}`) {
  return j.spans
    ? `${what}: no difference shown between ${better} and ${other} (ratio ${fmt(j.ratio)}, ${j.ciText} spans 1.0; ${j.runs})`
    : `${says(fmt(j.ratio))} (${j.ciText}, ${j.runs})`;
}

module.exports = { judge, fmt, LEVEL, MIN_SAMPLES, verdictSentence, ciText, spansOne };
