'use strict';
// While a step runs: once a second, the step's stability so far, for /metrics,
// and each dip as soon as it has ended (a second back above the thresholds), explained from the
// server record and posted as a Grafana annotation spanning its seconds. Judged against the
// median of the seconds so far, so a live dip early in a step can differ from the step's final
// list in summary.json (judged against the whole step's median), which is the record.
const { stepStability } = require('./stability');
const { explainDips } = require('./explain');

// A dip is explained once the server record (series: null when there is none) has a row at or
// after its end: the sampler runs once a second, a second late on a busy host, and a dip posted
// before its row arrived said "no server event recorded" for the checkpoint the record then
// showed (stability-run.test.js with both cores busy). A record that stopped (a frozen server)
// holds the post back at most RECORD_WAIT_MS.
const RECORD_WAIT_MS = 3000;

class LiveDips {
  constructor() {
    this.posted = new Set(); // dip starts already posted
  }

  // update(seconds, series, from) -> { st, ended: [dips that ended and can be explained] }.
  update(seconds, series, from) {
    const st = stepStability(seconds);
    if (!st.dips || !seconds.length) return { st, ended: [] };
    const last = seconds[seconds.length - 1].end;
    const recorded = series && series.length ? series[series.length - 1].at : -Infinity;
    const explainable = (end) => !series || recorded >= end || last - end >= RECORD_WAIT_MS;
    const ended = st.dips.filter((d) => Date.parse(d.end) < last && !this.posted.has(d.start)
      && explainable(Date.parse(d.end)));
    for (const d of ended) this.posted.add(d.start);
    return { st, ended: explainDips(ended, { series: series || [], loader: seconds, from, to: last }) };
  }
}

// annotationText(experiment, step, dip): one line, within 120 columns where the causes allow.
const annotationText = (experiment, step, d) => `${experiment}: step ${step}: dip of ${d.length_s} s to ${Math.round(d.depth * 100)} % of the median: ${d.cause_text}`;

module.exports = { LiveDips, annotationText, RECORD_WAIT_MS };
