'use strict';
// Capacity under a latency SLA (issue 33): runs made with the loader's --sla carry summary.json
// `capacity` (loader/src/sla.js): the highest offered rate whose intended percentile stayed under
// the target, and every step tried. Here, per experiment and set of alike runs (compare.js
// setKey: same parameters, the SLA among them, loader, hosts, labels), one side per value of the
// dimension compared: the capacities over repetitions, each side's latency-throughput curve, and
// per pair of sides a verdict by the throughput verdict's rules (ratio of geometric means, Welch
// t interval at 95%, at least 2 usable repetitions per side; a CI spanning 1.0 shows no
// difference): "wiredtiger sustains 1.8x inmemory's rate at p99 <= 10 ms (95% CI ...)".
const { setKey } = require('./compare');
const { fingerprint } = require('./params');
const { dimensionValue } = require('./identity');
const { median, ratioCI } = require('./stats');

const LEVEL = 0.95;
const fmt = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
const slaText = (sla) => `${sla.percentile} <= ${sla.target_ms} ms`;

// why a run's capacity is not a sample (null: it is one). multiHost: the run is one host's part of
// a run of several loaders (same group and repetition): each searched on its own, offering its
// own rates, so no part is the capacity and their sum is no search either.
function unusable(r, multiHost) {
  if (multiHost) return 'several loaders searched apart';
  if (!r.complete) return 'incomplete run';
  if (!r.capacity.complete) return 'search interrupted';
  if (r.capacity.capacity_ops_per_s === null) return 'no rate passed';
  return null;
}

function side(engine, runs) {
  const partsOf = (r) => (r.group ? runs.filter((x) => x.group === r.group && x.repetition === r.repetition).length : 1);
  const why = runs.map((r) => unusable(r, partsOf(r) > 1));
  const samples = runs.filter((_, i) => why[i] === null).map((r) => r.capacity.capacity_ops_per_s);
  const excluded = {};
  for (const w of why) if (w) excluded[w] = (excluded[w] || 0) + 1;
  return {
    engine,
    runs: runs.length,
    samples,
    median: samples.length ? median(samples) : null,
    excluded,
    clients: [...new Set(runs.map((r) => r.capacity.clients))],
    // The curve: every step of every run, intended latency at the SLA's percentile against the
    // rate achieved (what a capacity planner reads the knee from).
    curve: runs.flatMap((r) => r.capacity.steps.map((s) => ({
      run: r.dir, repetition: r.repetition, offered: s.offered_ops_per_s, achieved: s.achieved_ops_per_s,
      intended_us: s.intended_us, service_us: s.service_us, passed: s.passed, why: s.why,
    }))),
  };
}

function capacityVerdict(sla, A, B) {
  const base = { engines: [A.engine, B.engine], runs: [A.runs, B.runs], usable: [A.samples.length, B.samples.length] };
  const exText = [A, B].filter((x) => Object.keys(x.excluded).length).map((x) => `${x.engine}: ${Object.entries(x.excluded).map(([k, n]) => `${k} in ${n} of ${x.runs} run(s)`).join(', ')}`).join('; ');
  if (A.samples.length < 2 || B.samples.length < 2) {
    const why = `${A.engine} has ${A.samples.length} usable run(s), ${B.engine} ${B.samples.length}; a confidence interval needs at least 2 repetitions of each (--repeat)${exText ? `; ${exText}` : ''}`;
    return { ...base, status: 'no-verdict', ratio: null, ci: null, sentence: `capacity at ${slaText(sla)}: no verdict possible between ${A.engine} and ${B.engine} (${why})` };
  }
  let [hi, lo] = [A, B];
  if (ratioCI(B.samples, A.samples, LEVEL).ratio > 1) [hi, lo] = [B, A];
  const ci = ratioCI(hi.samples, lo.samples, LEVEL);
  const spans = ci.low <= 1 && ci.high >= 1;
  const runs = hi.samples.length === lo.samples.length ? `${hi.samples.length} runs each` : `${hi.samples.length} and ${lo.samples.length} runs`;
  const ciText = `95% CI ${fmt(ci.low)}-${fmt(ci.high)}`;
  const sentence = spans
    ? `capacity at ${slaText(sla)}: no difference shown between ${hi.engine} and ${lo.engine} (ratio ${fmt(ci.ratio)}, ${ciText} spans 1.0; ${runs})`
    : `${hi.engine} sustains ${fmt(ci.ratio)}x ${lo.engine}'s rate at ${slaText(sla)} (${ciText}, ${runs})`;
  return { ...base, status: spans ? 'no-difference' : 'verdict', faster: hi.engine, slower: lo.engine, ratio: ci.ratio, ci: [ci.low, ci.high], df: ci.df, sentence: exText ? `${sentence}; ${exText}, those runs excluded` : sentence };
}

// capacityReport(runs, by) -> [{ experiment, set, sla, sides, verdicts }] for the runs with a
// capacity (normalised runs: normalise.js keeps summary.json capacity).
function capacityReport(runs, by = 'engine') {
  const withCap = runs.filter((r) => r.capacity && r.capacity.sla);
  const groups = new Map();
  for (const r of withCap) {
    const k = `${r.experiment}\u0000${fingerprint(setKey(r, by))}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  const out = [];
  const perExperiment = {};
  for (const rs of groups.values()) {
    const experiment = rs[0].experiment;
    perExperiment[experiment] = (perExperiment[experiment] || 0) + 1;
    const sla = rs[0].capacity.sla;
    const values = [...new Set(rs.map((r) => dimensionValue(r, by)))].sort();
    const sides = values.map((v) => side(v, rs.filter((r) => dimensionValue(r, by) === v)));
    const verdicts = [];
    for (let i = 0; i < sides.length; i++) for (let j = i + 1; j < sides.length; j++) verdicts.push(capacityVerdict(sla, sides[i], sides[j]));
    out.push({ experiment, set: perExperiment[experiment], sla, by, sides, verdicts });
  }
  return out;
}

// capacityText(sections): the lines the terminal opens with (before the throughput summary).
function capacityText(sections) {
  if (!sections.length) return '';
  const out = ['== capacity under a latency SLA: the highest offered rate whose intended latency stayed under the target (--sla)'];
  for (const c of sections) {
    // issue 41: the geometric mean where src/capacity-limits.js gave one (the verdict's statistic)
    const fig = (s) => (s.geomean !== undefined ? [s.geomean, 'geometric mean'] : [s.median, 'median']);
    out.push(`${c.experiment}${c.set > 1 ? ` set ${c.set}` : ''}: ${slaText(c.sla)}, ${c.sides.map((s) => `${s.engine} ${fig(s)[0] === null ? 'no capacity' : `${Math.round(fig(s)[0])} ops/s`} (${fig(s)[1]} of ${s.samples.length}/${s.runs} run(s), clients ${s.clients.join(',')})`).join('; ')}`);
    for (const v of c.verdicts) out.push(`  ${v.sentence}`);
    if (!c.verdicts.length) out.push('  one side only: nothing to compare');
  }
  return `${out.join('\n')}\n\n`;
}

module.exports = { capacityReport, capacityText, capacityVerdict };
