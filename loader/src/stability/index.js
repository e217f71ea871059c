'use strict';
// A step's stability: one file per job in this folder:
//   thresholds.js  every threshold, with its reason and the noise figure behind it
//   stability.js   CV, worst second, per-second p99, dips (summary.json steps[].stability)
//   causes.json    why a dip happened: rules as data, citing each field per server line
//   explain.js     the rules applied to the server record of the dip's seconds
//   line.js        the terminal's one line per step
//   live.js        the step's stability while it runs (/metrics, Grafana annotations of dips)
const { stepStability } = require('./stability');
const { explainDips } = require('./explain');

// secondOf({ end, intervalS, ops, okTotal, replies, host }): what run/step-loop.js keeps of a measured
// second (end: the second's end, ms since the epoch).
// p99: the second's highest over its ops; with --rate the latency from each op's intended start
// (a paced client's ops queue behind a stall and are then sent at once: their service time hides
// the stall, their corrected latency shows it), else the service time.
function secondOf({ end, intervalS, ops, okTotal, replies, host }) {
  const p99s = Object.values(ops).map((o) => (o.intended_latency_us || o.latency_us || {}).p99).filter((x) => typeof x === 'number');
  return { end, interval_s: intervalS, ops: okTotal, p99_us: p99s.length ? Math.max(...p99s) : null,
    selfs: replies.map((r) => r.self), host };
}

// stabilityOf(seconds, series, from, to) -> steps[].stability, dips explained.
function stabilityOf(seconds, series, from, to) {
  const st = stepStability(seconds);
  st.dips = explainDips(st.dips, { series: series || [], loader: seconds, from, to });
  if (!series) st.server_record = 'off: dips are not explained (--server-record off)';
  return st;
}

module.exports = { secondOf, stabilityOf };
