'use strict';
// Words that say what the interval says, with the report's margin for "no difference" (MARGIN,
// kept here only; a seed's claim of a size, such as 004's "about equal", is that claim's band in
// report/claims.json, the seed's wording, not this margin), and Holm's correction for the number
// of comparisons a report makes (holmAdjusted: the report's verdicts and the claims are each one
// family); the words, and why Holm: report/README.md, "Words, the margin and the number of
// comparisons". verdict() and
// capacityVerdict() (the shared statistics) are not changed: this reads their ratio, 95% interval
// and degrees of freedom and rewrites the answer.
// Each comparison's p-value comes back from its own interval: Welch's t on log ops/s, so
// t = log(ratio) / se with se = log(high / low) / (2 t_{0.975, df}).
const tQuantile = require('@stdlib/stats-base-dists-t-quantile');
const { setIndex } = require('./set-index');
const { twoSidedP } = require('./tdist');
const { fmt } = require('./verdict');
const { slaText } = require('../../common/sla-text');

const MARGIN = 0.1;
const BAND = [1 - MARGIN, 1 + MARGIN];
const ALPHA = 0.05;
const pct = () => `${Math.round(MARGIN * 100)}%`;

// pValue(v) -> the two-sided p of "ratio = 1" from the verdict's interval and df.
function pValue(v) {
  const [lo, hi] = v.ci;
  if (v.df === null || v.df === undefined || hi <= lo) return v.ratio === 1 ? 1 : 0; // zero width: no spread seen
  const se = Math.log(hi / lo) / (2 * tQuantile(1 - ALPHA / 2, v.df));
  return twoSidedP(Math.log(v.ratio) / se, v.df);
}

// holmAdjusted(ps) -> Holm-adjusted p-values (max over the step-down of (m - k) p_(k), capped at 1).
function holmAdjusted(ps) {
  const order = ps.map((p, i) => [p, i]).sort((a, b) => a[0] - b[0]);
  const out = new Array(ps.length);
  let run = 0;
  order.forEach(([p, i], k) => {
    run = Math.max(run, Math.min(1, (ps.length - k) * p));
    out[i] = run;
  });
  return out;
}

const rated = (v) => v && (v.status === 'verdict' || v.status === 'no-difference') && Array.isArray(v.ci);

// reword(v, family) -> v with status verdict | equivalent | inconclusive and the sentence for it.
function reword(v, { adjusted, m, subject }) {
  const [lo, hi] = v.ci;
  const ci = `95% CI ${fmt(lo)}-${fmt(hi)}`;
  const holds = adjusted <= ALPHA && (lo > 1 || hi < 1);
  const words = { p: v.p, p_holm: adjusted, comparisons: m, margin: MARGIN };
  // what verdict() put after its parenthesis (excluded runs, the order note) stays
  const tail = v.sentence.slice(v.sentence.indexOf(')') + 1);
  const runs = /(\d+ runs each|\d+ and \d+ runs)/.exec(v.sentence)?.[1] ?? '';
  if (holds) return { ...v, status: 'verdict', words, sentence: `${v.sentence} [Holm-adjusted p ${adjusted < 0.001 ? '< 0.001' : `= ${adjusted.toFixed(3)}`}, ${m} comparison${m === 1 ? '' : 's'}]` };
  if (lo >= BAND[0] && hi <= BAND[1]) {
    return { ...v, status: 'equivalent', words, sentence: `${subject}: no difference shown within ±${pct()} between ${v.faster} and ${v.slower} (ratio ${fmt(v.ratio)}, ${ci} inside ${fmt(BAND[0])}-${fmt(BAND[1])}${runs ? `; ${runs}` : ''})${tail}` };
  }
  const why = lo > 1 || hi < 1
    ? `${v.faster} ${fmt(v.ratio)}x ${v.slower} (${ci}) does not hold after correcting for ${m} comparisons (Holm-adjusted p = ${adjusted.toFixed(3)})`
    : `between ${v.faster} and ${v.slower} (ratio ${fmt(v.ratio)}, ${ci} spans 1.0 and reaches beyond ±${pct()}: ${lo < BAND[0] && hi > BAND[1] ? `a ${pct()} gain and a ${pct()} loss are both possible` : 'more runs would tell'})`;
  return { ...v, status: 'inconclusive', words, sentence: `${subject}: inconclusive: ${why}${runs ? `; ${runs}` : ''}${tail}` };
}

// applyWords(report): every rated throughput verdict (sets without --sla) and capacity verdict of
// the report reworded as one Holm family; the summary rows follow their verdicts; report.family
// says how many comparisons were made, the correction and the margin.
function applyWords(report) {
  // each rated verdict's list and place in it, and its subject (a throughput verdict's: its point)
  const slots = [];
  const add = (list, subject) => list.forEach((v, i) => {
    if (rated(v)) slots.push({ list, i, subject: subject ?? v.point });
  });
  for (const ex of report.experiments) for (const set of ex.sets) if (!set.parameters?.sla) add(set.verdicts);
  for (const c of report.capacity || []) add(c.verdicts, `capacity at ${slaText(c.sla)}`);
  const ps = slots.map((s) => pValue(s.list[s.i]));
  const adjusted = holmAdjusted(ps);
  slots.forEach((s, k) => {
    s.list[s.i] = reword({ ...s.list[s.i], p: ps[k] }, { adjusted: adjusted[k], m: slots.length, subject: s.subject });
  });
  // the summary rows are copies of their verdicts' answer
  const setOf = setIndex(report);
  for (const row of report.summary) {
    const set = setOf(row.experiment, row.set);
    const v = set?.verdicts.find((x) => x.point === row.point && x.sides?.join('\u0000') === row.sides.join('\u0000'));
    if (v && v.words) Object.assign(row, { status: v.status, sentence: v.sentence, words: v.words });
  }
  report.family = {
    comparisons: slots.length,
    alpha: ALPHA,
    correction: 'Holm',
    margin: MARGIN,
    text: `${slots.length} comparison(s), Holm-corrected (5% family-wise); "no difference" only within ±${pct()} (${fmt(BAND[0])}-${fmt(BAND[1])}), else "inconclusive"`,
  };
  return report;
}

module.exports = { applyWords, pValue, holmAdjusted };
