'use strict';
// While a step runs (issue 40 item 4): once a second, the step's stability so far, for /metrics,
// and each dip as soon as it has ended (a second back above the thresholds), explained from the
// server record and posted as a Grafana annotation spanning its seconds. Judged against the
// median of the seconds so far, so a live dip early in a step can differ from the step's final
// list in summary.json (judged against the whole step's median), which is the record.
const { stepStability } = require('./stability');
const { explainDips } = require('./explain');

class LiveDips {
  constructor() {
    this.posted = new Set(); // dip starts already posted
  }

  // update(seconds, series, from) -> { st, ended: [dips that ended with the latest second] }.
  update(seconds, series, from) {
    const st = stepStability(seconds);
    if (!st.dips || !seconds.length) return { st, ended: [] };
    const last = seconds[seconds.length - 1].end;
    const ended = st.dips.filter((d) => Date.parse(d.end) < last && !this.posted.has(d.start));
    for (const d of ended) this.posted.add(d.start);
    return { st, ended: explainDips(ended, { series: series || [], loader: seconds, from, to: last }) };
  }
}

// annotationText(experiment, step, dip): one line, within 120 columns where the causes allow.
const annotationText = (experiment, step, d) => `${experiment}: step ${step}: dip of ${d.length_s} s to ${Math.round(d.depth * 100)} % of the median: ${d.cause_text}`;

module.exports = { LiveDips, annotationText };
