'use strict';
// report.json: normalised runs -> per experiment, sets of comparable runs (same parameters),
// per point and engine the aggregates over repetitions, and per pair of engines a verdict.
// No experiment name appears here: every experiment is a list of points with ops.
const { mergeGroups } = require('./merge');
const { fingerprint, diffParameters } = require('./params');
const { mergeEncoded, percentiles } = require('./hist');
const { median, ratioCI } = require('./stats');
const { publishedSeries } = require('./published');
const { safetyRows } = require('./safety');

const LEVEL = 0.95;
const fmt = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));

function runRef(r) {
  return {
    id: Array.isArray(r.dir) ? r.dir.join(' + ') : r.dir,
    engine: r.engine,
    group: r.group,
    repetition: r.repetition,
    hosts: r.hosts,
    complete: r.complete,
    reason: r.reason,
    started_at: r.started_at,
    description: r.description,
    loader_limited_points: r.points.filter((p) => p.loader_limited).map((p) => ({ point: p.name, reasons: p.loader_reasons })),
  };
}

// Latency of one op at one point over the repetitions: the pooled histogram when every run has
// one (exact), else the median of the runs' own percentiles (and it says so).
function latencyOver(parts) {
  const hists = parts.map((o) => o.histogram);
  if (hists.length && hists.every((h) => typeof h === 'string')) {
    return { latency_us: percentiles(mergeEncoded(hists)), latency_source: `histograms of ${parts.length} run(s) merged` };
  }
  const pick = (k) => median(parts.map((o) => o.latency_us?.[k]).filter((x) => typeof x === 'number'));
  return { latency_us: { p50: pick('p50'), p99: pick('p99'), p999: pick('p999') }, latency_source: `median of ${parts.length} run(s)' own percentiles (no histograms stored)` };
}

function aggregate(results, pointName, engine) {
  const pts = results.map((r) => r.points.find((p) => p.name === pointName)).filter(Boolean);
  if (!pts.length) return null;
  const usable = pts.filter((p) => p.complete && !p.loader_limited);
  const rates = pts.map((p) => p.ops_per_s).filter((x) => typeof x === 'number');
  const ops = {};
  for (const op of [...new Set(pts.flatMap((p) => Object.keys(p.ops)))]) {
    const parts = pts.map((p) => p.ops[op]).filter(Boolean);
    const r = spread(parts.map((o) => o.ops_per_s));
    ops[op] = {
      ops_per_s_median: r.median,
      ops_per_s_fastest: r.fastest,
      ops_per_s_slowest: r.slowest,
      ops_per_s_samples: parts.map((o) => o.ops_per_s),
      errors: parts.reduce((a, o) => a + (o.errors || 0), 0),
      ...latencyOver(parts),
    };
    // Documents and MB moved per second, where the kind records them (bulk import).
    for (const k of ['docs_per_s', 'mb_per_s']) {
      const d = spread(parts.map((o) => o[k]));
      if (d.median !== null) Object.assign(ops[op], { [`${k}_median`]: d.median, [`${k}_fastest`]: d.fastest, [`${k}_slowest`]: d.slowest });
    }
  }
  const unsupported = [...new Set(pts.map((p) => p.unsupported).filter(Boolean))];
  const docs = pts.map((p) => p.documents).filter((d) => d && typeof d.sent === 'number' && typeof d.arrived === 'number');
  const costs = pts.map((p) => p.relative_to_baseline?.change_percent).filter((x) => typeof x === 'number');
  return {
    point: pointName,
    engine,
    order: pts[0].order,
    clients: pts[0].clients,
    parameters: pts[0].parameters, // a case's own settings, if any
    runs: pts.length,
    loader_limited_runs: pts.filter((p) => p.loader_limited).length,
    loader_reasons: [...new Set(pts.flatMap((p) => p.loader_reasons))],
    // fastest (the seed's figure: seeds/000 kept the best of 3), median (what to expect), slowest
    ops_per_s: { ...spread(rates), min: rates.length ? Math.min(...rates) : null, max: rates.length ? Math.max(...rates) : null, samples: rates },
    // the samples verdicts use: complete points the loader did not limit
    verdict_samples: usable.map((p) => p.ops_per_s).filter((x) => typeof x === 'number' && x > 0),
    ops,
    // A case the server could not do in n of the runs, and why (the loader's line).
    unsupported: unsupported.length ? { runs: pts.filter((p) => p.unsupported).length, why: unsupported } : null,
    documents: docs.length ? { sent: docs.reduce((a, d) => a + d.sent, 0), arrived: docs.reduce((a, d) => a + d.arrived, 0), runs: docs.length } : null,
    relative_to_baseline: costs.length ? { baseline: pts.find((p) => p.relative_to_baseline)?.relative_to_baseline.baseline, change_percent_median: median(costs), samples: costs } : null,
    latency_meaning: pts.find((p) => p.latency_meaning)?.latency_meaning ?? null,
    journal: pts.find((p) => p.journal !== null)?.journal ?? null,
  };
}

// spread(xs): fastest, median and slowest of the numbers in xs (null when there are none).
function spread(xs) {
  const n = xs.filter((x) => typeof x === 'number');
  return { median: median(n), fastest: n.length ? Math.max(...n) : null, slowest: n.length ? Math.min(...n) : null };
}

function runsText(na, nb) {
  return na === nb ? `${na} runs each` : `${na} and ${nb} runs`;
}

function verdict(point, A, B) {
  const base = { point, engines: [A.engine, B.engine], runs: [A.runs, B.runs] };
  const lim = [A, B].filter((x) => x.loader_limited_runs > 0);
  const limText = lim.map((x) => `${x.engine}: the loader was the limit in ${x.loader_limited_runs} of ${x.runs} run(s)`).join('; ');
  const a = A.verdict_samples;
  const b = B.verdict_samples;
  if (a.length < 2 || b.length < 2) {
    let why;
    if (lim.length && (a.length < 2 || b.length < 2)) why = `${limText}, excluded`;
    else why = `${A.engine} has ${a.length} usable run(s), ${B.engine} ${b.length}; a confidence interval needs at least 2 repetitions of each (--repeat)`;
    return { ...base, status: lim.length ? 'excluded' : 'no-verdict', ratio: null, ci: null, sentence: `${point}: no verdict possible between ${A.engine} and ${B.engine} (${why})` };
  }
  // Put the faster engine first so the sentence reads "X is 1.8x Y".
  let [hi, lo, sh, sl] = [A, B, a, b];
  if (median(b) > median(a)) [hi, lo, sh, sl] = [B, A, b, a];
  const ci = ratioCI(sh, sl, LEVEL);
  const spans = ci.low <= 1 && ci.high >= 1;
  const runs = runsText(sh.length, sl.length);
  const ciText = `95% CI ${fmt(ci.low)}-${fmt(ci.high)}`;
  const sentence = spans
    ? `${point}: no difference shown between ${hi.engine} and ${lo.engine} (ratio ${fmt(ci.ratio)}, ${ciText} spans 1.0; ${runs})`
    : `${point}: ${hi.engine} is ${fmt(ci.ratio)}x ${lo.engine} (${ciText}, ${runs})`;
  return {
    ...base,
    status: spans ? 'no-difference' : 'verdict',
    faster: hi.engine,
    slower: lo.engine,
    ratio: ci.ratio,
    ci: [ci.low, ci.high],
    df: ci.df,
    samples: { [hi.engine]: sh, [lo.engine]: sl },
    sentence: lim.length ? `${sentence}; ${limText}, those runs excluded` : sentence,
  };
}

function timelineOf(r) {
  return { id: r.dir, engine: r.engine, host: r.host, group: r.group, repetition: r.repetition, complete: r.complete, seconds: r.timeline };
}

function buildSet(results, incomplete, key, idx) {
  const engines = [...new Set(results.map((r) => r.engine))].sort();
  const pointNames = [];
  for (const r of results) for (const p of [...r.points].sort((x, y) => x.order - y.order)) if (!pointNames.includes(p.name)) pointNames.push(p.name);
  const aggregates = [];
  for (const e of engines) {
    const rs = results.filter((r) => r.engine === e);
    for (const p of pointNames) {
      const a = aggregate(rs, p, e);
      if (a) aggregates.push(a);
    }
  }
  const verdicts = [];
  for (const p of pointNames) {
    for (let i = 0; i < engines.length; i++) {
      for (let j = i + 1; j < engines.length; j++) {
        const A = aggregates.find((x) => x.point === p && x.engine === engines[i]);
        const B = aggregates.find((x) => x.point === p && x.engine === engines[j]);
        if (A && B) verdicts.push(verdict(p, A, B));
      }
    }
  }
  const first = results[0] || incomplete[0];
  return {
    id: idx + 1,
    fingerprint: key,
    parameters: first.parameters,
    engines,
    points: pointNames,
    published: publishedSeries(first.published),
    runs: results.map(runRef),
    incomplete: incomplete.map(runRef),
    aggregates,
    verdicts,
    timelines: [...results, ...incomplete].flatMap((r) => r.parts.map(timelineOf)),
  };
}

function buildExperiment(name, results) {
  // Sets of comparable runs: same parameters (report/src/normalise.js says which are compared).
  const bySet = new Map();
  for (const r of results) {
    const key = fingerprint(r.parameters);
    if (!bySet.has(key)) bySet.set(key, { complete: [], incomplete: [] });
    bySet.get(key)[r.complete ? 'complete' : 'incomplete'].push(r);
  }
  const entries = [...bySet.entries()].sort((x, y) => y[1].complete.length - x[1].complete.length);
  const sets = entries.map(([key, v], i) => buildSet(v.complete, v.incomplete, key, i));
  // Why sets are apart: each set against the first (the one with the most complete runs).
  const differences = sets.slice(1).map((s) => ({
    sets: [sets[0].id, s.id],
    diffs: diffParameters(sets[0].parameters, [s.parameters]),
  }));
  for (const d of differences) {
    d.sentence = `set ${d.sets[1]} (${sets[d.sets[1] - 1].engines.join(', ') || 'incomplete runs only'}) is not compared with set ${d.sets[0]} (${sets[0].engines.join(', ')}): ${d.diffs.map((x) => x.text).join('; ')}`;
  }
  return { name, sets, differences };
}

// buildReport({runs, faults, skipped}, meta) -> report.json object
function buildReport(input, meta = {}) {
  const { results, notes } = mergeGroups(input.runs);
  const names = [...new Set(results.map((r) => r.experiment))].sort();
  const experiments = names.map((n) => buildExperiment(n, results.filter((r) => r.experiment === n)));
  return {
    report_version: 1,
    generated_at: meta.generatedAt || new Date().toISOString(),
    inputs: meta.inputs || [],
    filters: meta.filters || {},
    method: {
      throughput: 'ops/s per point = sum over op types; per engine the median over repetitions, with the fastest and slowest repetition beside it',
      fastest_and_median: 'fastest: the best repetition, the figure seeds/000 kept (timeit: the best the server can do); median: what a user should expect, robust to one disturbed repetition; slowest: the spread',
      latency: 'microseconds; exact percentiles of merged HdrHistograms where runs stored them',
      verdict: `ratio of medians; ${LEVEL * 100}% CI: Welch's Student t interval on log(ops/s) over repetitions, exponentiated (not a bootstrap: 3-5 repetitions are too few for one)`,
      excluded: 'points the loader limited (summary steps[].loader.limited) and incomplete runs never enter a verdict',
    },
    skipped: input.skipped,
    notes,
    experiments,
    safety: safetyRows(input.faults, experiments),
  };
}

module.exports = { buildReport, verdict, aggregate };
