'use strict';
// Capacity under a latency SLA: runs made with the loader's --sla carry summary.json
// `capacity` (loader/src/experiment/sla.js): the highest offered rate whose intended percentile stayed under
// the target, and every step tried. Here, per experiment and set of alike runs (compare.js
// setKey: same parameters, the SLA among them, loader, hosts, labels), one side per value of the
// dimension compared and server identity (compare.js nameSides: the throughput verdicts' sides,
// so runs on 7.0 and 8.0 under one label are two sides, never one): the capacities over
// repetitions, each side's latency-throughput curve, and per pair of sides a verdict by the
// throughput verdict's own rule (verdict.js verdictOf: ratio of geometric means, Welch t interval at
// 95%, at least 2 usable repetitions per side; a CI spanning 1.0 shows no difference):
// "wiredtiger sustains 1.8x inmemory's rate at p99 <= 10 ms (95% CI ...)".
const { setKey, nameSides } = require('./compare');
const { fingerprint } = require('./params');
const { groupBy } = require('./group-by');
const { median, round } = require('../../common/stats');
const { LEVEL, verdictOf } = require('./verdict');
const { geomeanCI, sig } = require('./stats');
const { runOrder, notInterleaved, place, SEQUENTIAL_NOTE } = require('./drift');
const { wrap } = require('../../common/text');
const { slaText } = require('../../common/sla-text'); // "p99 <= 10 ms", as the loader says it
const { searchExclusion, HOST_LIMITED } = require('../../common/capacity-sample');

// why a run's capacity is not a sample (null: it is one). multiHost: the run is one host's part of
// a run of several loaders (same group and repetition): each searched on its own, offering its
// own rates, so no part is the capacity and their sum is no search either.
function unusable(r, multiHost) {
  if (multiHost) return 'several loaders searched apart';
  if (!r.complete) return 'incomplete run';
  return searchExclusion(r.capacity); // the loader's --repeat line applies the same rule
}

function side(name, runs) {
  const partsOf = (r) => (r.group ? runs.filter((x) => x.group === r.group
    && x.repetition === r.repetition).length : 1);
  const why = runs.map((r) => unusable(r, partsOf(r) > 1));
  const usable = runs.filter((_, i) => why[i] === null);
  const samples = usable.map((r) => r.capacity.capacity_ops_per_s);
  const excluded = {};
  for (const w of why) if (w) excluded[w] = (excluded[w] || 0) + 1;
  return {
    side: name,
    runs: runs.length,
    samples,
    sample_runs: usable.map((r) => r.dir), // each sample's run, in the same order
    median: samples.length ? median(samples) : null,
    // The side's own interval: the geometric mean's Student t interval over its searches (the
    // verdicts' statistic and method, src/stats.js geomeanCI), widened by the searches' brackets in
    // src/capacity-limits.js; one search has none, and says why.
    interval: intervalOf(samples),
    excluded,
    clients: [...new Set(runs.map((r) => r.capacity.clients))],
    // the host-limited searches' capacities and caveats: shown beside the side's figure, never in it
    host_limited: runs.filter((_, i) => why[i] === HOST_LIMITED)
      .map((r) => ({ run: r.dir, capacity_ops_per_s: r.capacity.capacity_ops_per_s,
      text: r.capacity.host_caveat.text })),
    // The curve: every step of every run, intended latency at the SLA's percentile against the
    // rate achieved (what a capacity planner reads the knee from).
    curve: runs.flatMap((r) => r.capacity.steps.map((s) => ({
      run: r.dir, repetition: r.repetition, offered: s.offered_ops_per_s, achieved: s.achieved_ops_per_s,
      intended_us: s.intended_us, service_us: s.service_us, passed: s.passed, why: s.why,
    }))),
  };
}

function intervalOf(samples) {
  const ci = geomeanCI(samples, LEVEL);
  if (!ci) return { level: LEVEL, low: null, high: null, why: `${samples.length} usable run(s): an interval needs at least 2 (--repeat)` };
  return { level: LEVEL, low: sig(ci.low), high: sig(ci.high), df: ci.df, method: 'Student t on log(capacity), exponentiated' };
}

// capacityVerdict(sla, A, B): two sides' searches judged (verdict.js verdictOf), the ratio and
// interval stored to 6 significant digits.
function capacityVerdict(sla, A, B) {
  const excluded = [A, B].filter((x) => Object.keys(x.excluded).length).map((x) => `${x.side}: ${Object.entries(x.excluded).map(([k, n]) => `${k} in ${n} of ${x.runs} run(s)`).join(', ')}`).join('; ');
  const says = (r, better, other) => `${better} sustains ${r}x ${other}'s rate at ${slaText(sla)}`;
  const v = verdictOf(`capacity at ${slaText(sla)}`, A, B, { says, excluded });
  const rounded = v.ratio === null ? {} : { ratio: sig(v.ratio), ci: v.ci.map(sig) };
  return { runs: [A.runs, B.runs], usable: [A.samples.length, B.samples.length], ...v, ...rounded };
}

// orderGuard(v, sla, A, B, runsA, runsB): the throughput verdicts' order rule (src/drift.js
// runOrder): two sides whose searches ran one after the other, on every run or on the usable
// ones, give no verdict, only their ratio marked not interleaved.
function orderGuard(v, sla, A, B, runsA, runsB) {
  const usable = (S, runs) => runs.filter((r) => S.sample_runs.includes(r.dir)).map(place);
  const { order, first } = runOrder(runsA.map(place), runsB.map(place), usable(A, runsA), usable(B, runsB));
  const out = { ...v, order, order_note: order === 'sequential' ? SEQUENTIAL_NOTE : null };
  if (order !== 'sequential' || !['verdict', 'no-difference'].includes(v.status)) return out;
  return { ...out, ...notInterleaved(v, `capacity at ${slaText(sla)}`, [A.side, B.side], first) };
}

// capacityReport(runs, by) -> [{ experiment, set, sla, sides, verdicts }] for the runs with a
// capacity (normalised runs: normalise.js keeps summary.json capacity).
function capacityReport(runs, by = 'engine') {
  const withCap = runs.filter((r) => r.capacity && r.capacity.sla);
  const groups = groupBy(withCap, (r) => `${r.experiment}\u0000${fingerprint(setKey(r, by))}`);
  const perExperiment = {};
  return [...groups.values()].map((rs) => {
    const experiment = rs[0].experiment;
    perExperiment[experiment] = (perExperiment[experiment] || 0) + 1;
    const sla = rs[0].capacity.sla;
    nameSides(rs, by);
    const values = [...new Set(rs.map((r) => r.side))].sort();
    const sides = values.map((v) => side(v, rs.filter((r) => r.side === v)));
    const runsOf = (S) => rs.filter((r) => r.side === S.side);
    const verdicts = sides.flatMap((a, i) => sides.slice(i + 1)
      .map((b) => orderGuard(capacityVerdict(sla, a, b), sla, a, b, runsOf(a), runsOf(b))));
    return { experiment, set: perExperiment[experiment], sla, by, sides, verdicts };
  });
}

// capacityText(sections): the lines the terminal opens with (before the throughput summary). The
// median to 0.1 ops/s, as the loader prints it at the end of a --repeat group (capacity-table.js).
function capacityText(sections) {
  if (!sections.length) return '';
  const out = ['== capacity under a latency SLA: the highest offered rate whose intended latency stayed under the target (--sla)'];
  for (const c of sections) {
    // the verdict's statistic first (the geometric mean, src/capacity-limits.js), then the
    // median the loader prints for the same searches (both print it, to 0.1 ops/s).
    const lead = (s) => (s.geomean !== undefined && s.geomean !== null ? `${Math.round(s.geomean)} ops/s (geometric mean of ${s.samples.length}/${s.runs} run(s); median ${round(s.median, 1)}` : `${round(s.median, 1)} ops/s (median of ${s.samples.length}/${s.runs} run(s)`);
    // One line per side and the verdicts wrapped: within the lab's 120 columns (common/text.js),
    // where two sides on one line reached 178.
    out.push(`${c.experiment}${c.set > 1 ? ` set ${c.set}` : ''}: ${slaText(c.sla)}`);
    // each side's figure, then its own interval on the line below it
    for (const s of c.sides) {
      out.push(...wrap(`${s.side} ${s.median === null ? hostLimitedFigure(s) || 'no capacity' : `${lead(s)}${hostLimitedCount(s)}`}, clients ${s.clients.join(',')})`, { indent: '      ', first: '  ' }));
      if (s.median !== null && s.interval) out.push(...wrap(intervalText(s), { indent: '      ', first: '    ' }));
    }
    for (const s of c.sides) for (const h of s.host_limited || []) out.push(...wrap(`${s.side} host-limited: ${h.text}`, { indent: '      ', first: '    ' }));
    for (const v of c.verdicts) out.push(...wrap(v.sentence, { indent: '    ', first: '  ' }));
    if (!c.verdicts.length) out.push('  one side only: nothing to compare');
  }
  return `${out.join('\n')}\n\n`;
}

// intervalText(side) -> "95% CI 1180-1290 of the geometric mean (Student t over 3 run(s), widened
// by the searches' brackets)", or why there is none.
function intervalText(s) {
  const iv = s.interval;
  if (iv.low === null) return `no interval: ${iv.why}`;
  const n = (x) => (x >= 100 ? String(Math.round(x)) : String(round(x, 1)));
  return `${iv.level * 100}% CI ${n(iv.low)}-${n(iv.high)} of the geometric mean (Student t over ${s.samples.length} run(s)${iv.low_statistical !== undefined ? ', widened by the searches\' brackets' : ''})`;
}

// hostLimitedFigure(side): a side whose every search was host-limited still shows what they
// found, with the caveat: "7 ops/s (host-limited: median of 1 run(s)"; '' when it has none.
function hostLimitedFigure(s) {
  const xs = (s.host_limited || []).map((h) => h.capacity_ops_per_s);
  return xs.length ? `${round(median(xs), 1)} ops/s (host-limited: median of ${xs.length}/${s.runs} run(s), caveat below` : '';
}
const hostLimitedCount = (s) => ((s.host_limited || []).length ? `; ${s.host_limited.length} host-limited run(s) left out, caveat below` : '');

module.exports = { capacityReport, capacityText };
