'use strict';
// report.json: normalised runs -> per experiment, sets of comparable runs (same parameters,
// loader, host count, labels: setKey), within a set one side per value of the dimension compared
// (--by: engine by default) and server identity (sideKey), per point and side the aggregates over
// repetitions, per pair of sides a verdict, and the summary rows the page and the terminal open
// with. No experiment name appears here: every experiment is a list of points with ops.
// A side is named `side` throughout (with --by engine, the default, it is an engine label; with
// --by platform a platform); `engine` is only ever the run's engine label.
const { mergeGroups } = require('./merge');
const { dimensionValue, pathOf } = require('./identity');
const { restartNotes } = require('./restarts');
const { fingerprint, diffParameters, flatten } = require('./params');
const { groupBy } = require('./group-by');
const { mergeEncoded, percentiles, exactMax } = require('./hist');
const { median, spread } = require('./stats');
const { LEVEL, verdictOf } = require('./verdict');
const { publishedSeries } = require('./published');
const { safetyRows } = require('./safety');
// the drift guard and order mark over each verdict (src/drift.js)
const { guardVerdict } = require('./drift');
const { usableFigures } = require('./usable');
// Why a run's point is no measurement of the engine (EXCLUSIONS' keys, null: it is one): the
// loader's one rule, which its --repeat group table applies too.
const { EXCLUSIONS, stepExclusion } = require('../../common/step-exclusion');

// A run as report.json lists it: its folder(s) as id, these fields of it, its loader-limited points.
const RUN_FIELDS = ['side', 'engine', 'labels', 'identity', 'group', 'repetition', 'hosts', 'complete', 'reason',
  'started_at', 'description'];
function runRef(r) {
  return {
    id: Array.isArray(r.dir) ? r.dir.join(' + ') : r.dir,
    ...Object.fromEntries(RUN_FIELDS.map((k) => [k, r[k]])),
    loader_limited_points: r.points.filter((p) => p.loader_limited)
      .map((p) => ({ point: p.name, reasons: p.loader_reasons })),
  };
}

// Latency of one op at one point over the repetitions: the pooled histogram when every run has
// one (exact), else the median of the runs' own percentiles (and it says so).
function latencyOver(parts) {
  const hists = parts.map((o) => o.histogram);
  if (hists.length && hists.every((h) => typeof h === 'string')) {
    return { latency_us: percentiles(mergeEncoded(hists), exactMax(parts.map((o) => o.latency_us))), latency_source: `histograms of ${parts.length} run(s) merged` };
  }
  const pick = (k) => median(parts.map((o) => o.latency_us?.[k]).filter((x) => typeof x === 'number'));
  const counts = parts.map((o) => o.latency_us?.count).filter((x) => typeof x === 'number');
  return { latency_us: { count: counts.length ? counts.reduce((a, b) => a + b, 0) : null, p50: pick('p50'), p99: pick('p99'), p999: pick('p999') }, latency_source: `median of ${parts.length} run(s)' own percentiles (no histograms stored)` };
}

function aggregate(results, pointName, side) {
  const pts = results.map((r) => r.points.find((p) => p.name === pointName)).filter(Boolean);
  if (!pts.length) return null;
  const why = pts.map(stepExclusion);
  const usable = pts.filter((p, i) => why[i] === null);
  const excluded = {};
  for (const w of why) if (w) excluded[w] = (excluded[w] || 0) + 1;
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
  const notApplicable = [...new Set(pts.map((p) => p.not_applicable).filter(Boolean))];
  const docs = pts.map((p) => p.documents).filter((d) => d && typeof d.sent === 'number' && typeof d.arrived === 'number');
  const costs = pts.map((p) => p.relative_to_baseline?.change_percent).filter((x) => typeof x === 'number');
  return {
    point: pointName,
    side,
    order: pts[0].order,
    clients: pts[0].clients,
    parameters: pts[0].parameters, // a case's own settings, if any
    runs: pts.length,
    loader_limited_runs: pts.filter((p) => p.loader_limited).length,
    // runs left out of verdicts, by reason (EXCLUSIONS), and what they said
    excluded,
    failed: pts.map((p) => p.failed).filter(Boolean),
    shared_host: [...new Set(pts.flatMap((p) => p.shared_host || []))],
    shared_server: [...new Set(pts.flatMap((p) => p.shared_server || []))],
    // The server's pauses inside the step (loader/src/run/pauses.js), each run's.
    paused: pts.flatMap((p) => p.paused || []),
    loader_reasons: [...new Set(pts.flatMap((p) => p.loader_reasons))],
    // fastest (the seed's figure: seeds/000 kept the best of 3), median (what to expect), slowest
    ops_per_s: { ...spread(rates), min: rates.length ? Math.min(...rates) : null,
      max: rates.length ? Math.max(...rates) : null, samples: rates },
    // the samples verdicts use: complete points the loader did not limit
    verdict_samples: usable.map((p) => p.ops_per_s).filter((x) => typeof x === 'number' && x > 0),
    ops,
    // A case the server could not do in n of the runs, and why (the loader's line).
    unsupported: unsupported.length ? { runs: pts.filter((p) => p.unsupported).length, why: unsupported } : null,
    // A case the loader did not run on this topology (writeconcern's not_applicable), and why.
    not_applicable: notApplicable.length ? { runs: pts.filter((p) => p.not_applicable).length,
      why: notApplicable } : null,
    documents: docs.length ? { sent: docs.reduce((a, d) => a + d.sent, 0),
      arrived: docs.reduce((a, d) => a + d.arrived, 0), runs: docs.length } : null,
    relative_to_baseline: costs.length ? {
      baseline: pts.find((p) => p.relative_to_baseline)?.relative_to_baseline.baseline,
      change_percent_median: median(costs), samples: costs,
    } : null,
    latency_meaning: pts.find((p) => p.latency_meaning)?.latency_meaning ?? null,
    journal: pts.find((p) => p.journal !== null)?.journal ?? null,
  };
}

// "a: the loader was the limit in 3 of 3 run(s)"; '' when nothing was excluded.
const excludedText = (A) => Object.entries(A.excluded).map(([k, n]) => `${EXCLUSIONS[k]} in ${n} of ${A.runs} run(s)`).join(', ');

// verdict(point, A, B): two sides' aggregates at one point, judged on their usable samples
// (verdict.js verdictOf), the samples kept beside it.
function verdict(point, A, B) {
  const excluded = [A, B].filter((x) => Object.keys(x.excluded).length).map((x) => `${x.side}: ${excludedText(x)}`).join('; ');
  const v = verdictOf(point, { side: A.side, samples: A.verdict_samples }, { side: B.side, samples: B.verdict_samples },
    { excluded });
  const samples = v.ratio === null ? {} : { samples: { [A.side]: A.verdict_samples, [B.side]: B.verdict_samples } };
  return { point, runs: [A.runs, B.runs], usable: [A.verdict_samples.length, B.verdict_samples.length], ...v,
    ...samples };
}

// timelineOf(part, side): one host's per-second timeline of a run, under its side's name.
function timelineOf(r, side) {
  return { id: r.dir, side, host: r.host, group: r.group, repetition: r.repetition, complete: r.complete,
    seconds: r.timeline };
}

function buildSet(results, incomplete, key, idx) {
  const sides = [...new Set(results.map((r) => r.side))].sort();
  const pointNames = [...new Set(results.flatMap((r) => [...r.points].sort((x, y) => x.order - y.order)
    .map((p) => p.name)))];
  const aggregates = sides.flatMap((side) => {
    const rs = results.filter((r) => r.side === side);
    return pointNames.map((p) => aggregate(rs, p, side)).filter(Boolean);
  });
  const usable = (x) => stepExclusion(x) === null;
  // each side's figure from its usable runs, the excluded ones apart (src/usable.js)
  usableFigures(aggregates, results, usable);
  const pairs = sides.flatMap((a, i) => sides.slice(i + 1).map((b) => [a, b]));
  const verdicts = pointNames.flatMap((p) => pairs.flatMap((names) => {
    const [A, B] = names.map((e) => aggregates.find((x) => x.point === p && x.side === e));
    if (!A || !B) return [];
    // the verdict as verdict() gives it, then the order and drift guard over it (src/drift.js),
    // which reads the order on every run of the two sides, incomplete ones too
    const sideRuns = names.map((e) => [...results, ...incomplete].filter((r) => r.side === e));
    return [guardVerdict(verdict(p, A, B), { point: p, names, sides: sideRuns, usable })];
  }));
  const first = results[0] || incomplete[0];
  return {
    id: idx + 1,
    fingerprint: key,
    parameters: first.parameters,
    sides,
    points: pointNames,
    published: publishedSeries(first.published),
    runs: results.map(runRef),
    incomplete: incomplete.map(runRef),
    aggregates,
    verdicts,
    timelines: [...results, ...incomplete].flatMap((r) => r.parts.map((part) => timelineOf(part, r.side))),
  };
}

// setKey(r, by): what runs must share to be compared at all: the load (parameters), the loader's
// version and Node, the host count (so the total clients), the path to the server (through mongos
// or to a member: the router's hop is no engine's cost), emulation (an emulated run measures the
// emulator: it compares with no native one), the labels other than the one compared, the profile,
// the engine label unless it is the dimension; and, unless the dimension is the engine or the
// server itself, the server's identity and driver line (an engine comparison spans builds: MMAPv1
// only exists on 4.0). Flattened by params.flatten, so differences read "run.hosts: 1 vs 2".
function setKey(r, by) {
  const labels = { ...r.labels };
  delete labels[by];
  const loader = { version: r.identity.loader.version, node: r.identity.loader.node };
  const run = { hosts: r.hosts, path: pathOf(r), loader, labels };
  if (r.record?.storage?.emulated === true) run.emulated = true;
  if (by !== 'profile') run.profile = r.profile;
  if (by !== 'engine') run.engine = r.engine;
  if (by !== 'engine' && by !== 'server') Object.assign(run, { server: r.identity.server, driver_line: r.identity.loader.driver_line });
  return { ...r.parameters, run };
}

// sideKey: runs of one side are pooled as repetitions; they share the dimension's value and the
// server's identity (two servers that share a label are two sides, never one).
const sideIdentity = (r) => ({ server: r.identity.server, driver_line: r.identity.loader.driver_line });

// nameSides(results, by): r.side = the dimension's value, with the identity that tells two sides
// of one value apart ("unknown (java 7.0.0) [server.version 6.0.0]").
function nameSides(results, by) {
  for (const [v, runs] of groupBy(results, (r) => dimensionValue(r, by))) {
    const lists = [...groupBy(runs, (r) => fingerprint(sideIdentity(r))).values()];
    if (lists.length === 1) {
      for (const r of lists[0]) r.side = v;
      continue;
    }
    const ids = lists.map((l) => sideIdentity(l[0]));
    const keys = diffParameters(ids[0], ids.slice(1)).map((d) => d.key);
    lists.forEach((l, i) => {
      const f = flatten(ids[i]);
      const name = `${v} [${keys.map((k) => `${k} ${k in f ? JSON.parse(f[k]) : 'not recorded'}`).join(', ')}]`;
      for (const r of l) r.side = name;
    });
  }
}

function buildExperiment(name, results, by) {
  // Sets of comparable runs (setKey); within each, sides named by nameSides.
  const bySet = [...groupBy(results, (r) => fingerprint(setKey(r, by)))].map(([key, runs]) => ({
    key, runs, complete: runs.filter((r) => r.complete), incomplete: runs.filter((r) => !r.complete),
  }));
  const sets = bySet.sort((x, y) => y.complete.length - x.complete.length).map((v, i) => {
    nameSides([...v.complete, ...v.incomplete], by);
    return { ...buildSet(v.complete, v.incomplete, v.key, i), compared_on: setKey(v.runs[0], by) };
  });
  // Why sets are apart: each set against the first (the one with the most complete runs).
  const differences = sets.slice(1).map((s) => {
    const diffs = diffParameters(sets[0].compared_on, [s.compared_on]);
    const sentence = `set ${s.id} (${s.sides.join(', ') || 'incomplete runs only'}) is not compared with set ${sets[0].id} (${sets[0].sides.join(', ')}): ${diffs.map((x) => x.text).join('; ')}`;
    return { sets: [sets[0].id, s.id], diffs, sentence };
  });
  return { name, sets, differences };
}

// The summary's safety cell for one side at one point: errors, documents sent vs arrived, cases
// the server could not do, and (by engine) acknowledged writes lost in failover runs.
function safetyOf(a, safety, by, labelEngine) {
  const out = [];
  const errors = Object.values(a.ops).reduce((n, o) => n + (o.errors || 0), 0);
  if (errors) out.push(`${errors} error(s)`);
  if (a.documents && a.documents.arrived !== a.documents.sent) out.push(`${a.documents.arrived} of ${a.documents.sent} docs arrived`);
  if (a.unsupported) out.push(`unsupported ${a.unsupported.runs}/${a.runs}`);
  if (by === 'engine') {
    for (const f of safety.filter((x) => x.engine === labelEngine && typeof x.lost === 'number')) out.push(`w:${f.w} failover lost ${f.lost} of ${f.acknowledged} acked`);
  }
  return out;
}

// One row per experiment, set and point (per pair of sides where a set has more): the answer.
function summaryRows(experiments, safety, by) {
  const rows = [];
  for (const ex of experiments) {
    for (const set of ex.sets) {
      const sideEngine = new Map([...set.runs, ...set.incomplete].map((r) => [r.side, r.engine]));
      const cell = (p, e) => {
        const a = set.aggregates.find((x) => x.point === p && x.side === e);
        const facts = a ? safetyOf(a, safety, by, sideEngine.get(e)) : [];
        return facts.length ? [`${e}: ${facts.join(', ')}`] : [];
      };
      for (const p of set.points) {
        const base = { experiment: ex.name, set: set.id, sets: ex.sets.length, point: p };
        const vs = set.verdicts.filter((v) => v.point === p);
        if (!vs.length) {
          const sides = set.aggregates.filter((x) => x.point === p);
          rows.push({ ...base, sides: sides.map((x) => x.side), status: 'one-side', runs: sides.map((x) => x.runs), usable: sides.map((x) => x.verdict_samples.length), excluded: sides.map((x) => x.excluded), safety: sides.flatMap((x) => cell(p, x.side)), sentence: `${p}: one side only (${sides.map((x) => x.side).join(', ') || 'no complete run'}): nothing to compare` });
          continue;
        }
        for (const v of vs) {
          const ex2 = v.sides.map((e) => set.aggregates.find((x) => x.point === p && x.side === e).excluded);
          rows.push({ ...base, sides: v.sides, status: v.status, faster: v.faster ?? null, slower: v.slower ?? null,
            ratio: v.ratio, ci: v.ci, runs: v.runs, usable: v.usable, excluded: ex2,
            safety: v.sides.flatMap((e) => cell(p, e)), sentence: v.sentence,
          order_note: v.order_note ?? null, drift: v.drift ?? null }); // src/drift.js
        }
      }
    }
  }
  return rows;
}

// buildReport({runs, faults, skipped}, meta) -> report.json object
function buildReport(input, meta = {}) {
  const by = meta.by || 'engine';
  const { results, notes, left_out: leftOut } = mergeGroups(input.runs);
  const names = [...new Set(results.map((r) => r.experiment))].sort();
  const experiments = names.map((n) => buildExperiment(n, results.filter((r) => r.experiment === n), by));
  const safety = safetyRows(input.faults, experiments);
  return {
    // 3: a side is `side` everywhere (sets' sides, aggregates' and timelines' side, verdicts'
    // sides); runs carry both their side and their engine label (2 called the side `engine`).
    report_version: 3,
    generated_at: meta.generatedAt || new Date().toISOString(),
    inputs: meta.inputs || [],
    filters: meta.filters || {},
    by,
    method: {
      throughput: 'ops/s per point = sum over op types; per side the median over repetitions, with the fastest and slowest repetition beside it',
      fastest_and_median: 'fastest: the best repetition, the figure seeds/000 kept (timeit: the best the server can do); median: what a user should expect, robust to one disturbed repetition; slowest: the spread',
      latency: 'microseconds; exact percentiles of merged HdrHistograms where runs stored them; n = the operations they rest on',
      verdict: `ratio of geometric means of total ops/s over repetitions, with its ${LEVEL * 100}% CI (Welch's Student t interval on log ops/s, exponentiated; not a bootstrap: 3-5 repetitions are too few for one)`,
      comparable: `runs are compared only within a set (same parameters, loader version and Node, host count, labels, profile${by === 'engine' ? '' : ', engine label'}${by === 'engine' || by === 'server' ? '' : ', server'}) and pooled only within a side (same ${by} and the same server identity: version, git version, product, backend, process, storage engine, driver line)`,
      excluded: `never in a verdict, shown and counted: ${Object.values(EXCLUSIONS).join('; ')}`,
    },
    skipped: input.skipped,
    notes: [...notes, ...restartNotes(results, by)],
    left_out: leftOut,
    experiments,
    summary: summaryRows(experiments, safety, by),
    safety,
  };
}

module.exports = { buildReport, verdict, aggregate, setKey, nameSides };
