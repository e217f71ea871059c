'use strict';
// The one ratio-and-interval rule, and the one verdict object, for every verdict the report gives:
// throughput per point (compare.js), capacity under an SLA (capacity.js), the server's side
// (server-side.js) and steadiness (steadiness.js): what counts as a verdict, its fields and its
// sentence are decided here only (verdictOf).
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

// verdictOf(what, A, B, { lowerIsBetter, says, excluded }) -> the verdict between two sides, A and
// B = { side, samples }: { sides, status, ratio, ci, df, sentence } and, where there is a ratio, the
// better side first: faster/slower (higher is better), or lower/higher with lowerIsBetter (the
// server's costs). status: 'verdict'; 'no-difference' (the interval covers 1.0); 'no-verdict'
// (fewer than MIN_SAMPLES a side, or a value not above 0: a ratio of logs needs them); 'excluded'
// (no verdict, and runs were left out). excluded: which runs were left out, as text, said in the
// sentence either way. says(r, better, other): the sentence where a difference is shown.
function verdictOf(what, A, B, { lowerIsBetter = false, says, excluded = '' } = {}) {
  const [a, b] = [A.samples, B.samples];
  const none = (status, why) => ({ sides: [A.side, B.side], status, ratio: null, ci: null, sentence: `${what}: no verdict possible between ${A.side} and ${B.side} (${why})` });
  if (a.length < MIN_SAMPLES || b.length < MIN_SAMPLES) {
    const counts = `${A.side} has ${a.length} usable run(s), ${B.side} ${b.length}; a confidence interval needs at least ${MIN_SAMPLES} repetitions of each (--repeat)`;
    return excluded ? none('excluded', `${counts}; ${excluded}, excluded`) : none('no-verdict', counts);
  }
  if ([...a, ...b].some((x) => !(x > 0))) return none('no-verdict', 'a ratio needs values above 0');
  const j = judge(a, b, { lowerIsBetter });
  const [better, other] = j.first ? [B, A] : [A, B];
  const sentence = verdictSentence(what, j, better.side, other.side, says && ((r) => says(r, better.side, other.side)));
  const [betterKey, otherKey] = lowerIsBetter ? ['lower', 'higher'] : ['faster', 'slower'];
  return {
    sides: [A.side, B.side],
    status: j.spans ? 'no-difference' : 'verdict',
    [betterKey]: better.side,
    [otherKey]: other.side,
    ratio: j.ratio,
    ci: j.ci,
    df: j.df,
    sentence: excluded ? `${sentence}; ${excluded}, those runs excluded` : sentence,
  };
}

module.exports = { judge, fmt, LEVEL, MIN_SAMPLES, verdictOf, ciText, spansOne };
