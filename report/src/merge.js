'use strict';
// Several client hosts, one run: runs with the same experiment, engine, group and repetition were
// started together against one cluster (each host wrote its own folder). They become one result:
// counts and rates add up (the hosts ran at the same time), percentiles come from the merged
// histograms. Runs that cannot be merged honestly stay apart, with the reason.
const { mergeEncoded, percentiles, exactMax } = require('./hist');
const { diffParameters } = require('./params');
const { sumRates } = require('./normalise');
const { groupBy } = require('./group-by');

function mergeOps(list) {
  const ops = [...new Set(list.flatMap((p) => Object.keys(p.ops)))];
  return Object.fromEntries(ops.map((op) => {
    const parts = list.map((p) => p.ops[op]).filter(Boolean);
    const rates = parts.map((o) => o.ops_per_s).filter((x) => typeof x === 'number');
    const hists = parts.map((o) => o.histogram);
    const histogram = hists.every((h) => typeof h === 'string') ? mergeEncoded(hists) : null;
    return [op, {
      count: parts.reduce((a, o) => a + o.count, 0),
      errors: parts.reduce((a, o) => a + o.errors, 0),
      ops_per_s: rates.length ? Math.round(rates.reduce((a, b) => a + b, 0) * 10) / 10 : null,
      // Without every host's histogram there is no exact percentile: say so (null), never average.
      latency_us: histogram ? percentiles(histogram, exactMax(parts.map((o) => o.latency_us))) : null,
      latency_note: histogram ? null : 'not every host stored a histogram: merged percentiles unavailable',
      histogram,
    }];
  }));
}

const orNull = (xs) => (xs.length ? xs : null);
// A step's facts that any one host's makes the merged point's (the first host's that has it): one host
// that measured no engine (failed), a case it could not do, a step too short (common/step-exclusion.js).
const ANY_HOST = ['failed', 'unsupported', 'not_applicable', 'server_ignores', 'too_short'];
// folderTail('/x/results/experiment2/wiredtiger/2026-...'): the part of a results folder that is
// the same on every host (<experiment>/<engine>/<time>).
const folderTail = (dir) => String(dir).split(/[\\/]/).filter(Boolean).slice(-3).join('/');

function mergeHosts(runs) {
  const [first] = runs;
  const names = [...new Set(runs.flatMap((r) => r.points.map((p) => p.name)))];
  const points = names.map((name, order) => {
    const parts = runs.map((r) => r.points.find((p) => p.name === name)).filter(Boolean);
    const ops = mergeOps(parts);
    return {
      ...parts[0],
      order,
      clients: parts.every((p) => typeof p.clients === 'number') ? parts.reduce((a, p) => a + p.clients, 0) : null,
      complete: parts.length === runs.length && parts.every((p) => p.complete),
      loader_limited: parts.some((p) => p.loader_limited),
      loader_reasons: parts.flatMap((p, i) => p.loader_reasons.map((r) => `${runs[i].host}: ${r}`)),
      shared_host: parts.some((p) => p.shared_host) ? parts.flatMap((p, i) => (p.shared_host || []).map((c) => `${runs[i].host}: ${c}`)) : null,
      // The hosts of one run see each other as concurrent loaders: only another run counts.
      shared_server: orNull(parts.flatMap((p, i) => (p.shared_server || []).filter((line) => !runs.some((r) => line.includes(folderTail(r.dir)))).map((c) => `${runs[i].host}: ${c}`))),
      ...Object.fromEntries(ANY_HOST.map((k) => [k, parts.find((p) => p[k])?.[k] ?? null])),
      // a pause on any host is the merged point's (common/step-exclusion.js)
      paused: orNull(parts.flatMap((p) => p.paused || [])),
      documents: parts.every((p) => p.documents && typeof p.documents.sent === 'number') ? { sent: parts.reduce((a, p) => a + p.documents.sent, 0), arrived: parts.reduce((a, p) => a + p.documents.arrived, 0) } : parts[0].documents,
      ops,
      ops_per_s: sumRates(ops),
    };
  });
  return {
    ...first,
    dir: runs.map((r) => r.dir),
    host: runs.map((r) => r.host).join(' + '),
    hosts: runs.length,
    complete: runs.every((r) => r.complete),
    reason: runs.filter((r) => !r.complete).map((r) => `${r.host}: ${r.reason}`).join('; ') || null,
    started_at: runs.map((r) => r.started_at).sort()[0],
    description: { ...first.description, host: runs.map((r) => r.host).join(' + '), host_cpus: runs.map((r) => r.description.host_cpus).join(' + ') },
    points,
    parts: runs, // each host's own run (its timeline is drawn on its own)
  };
}

// The overlap rule: hosts of one run measure at the same time, so every step they share must
// overlap in time by at least OVERLAP_MIN of the shorter one (steps[].started_at + duration_s).
// Two runs started one after the other with the same --group do not, and are not merged.
const OVERLAP_MIN = 0.5;

function interval(p) {
  const t = Date.parse(p.started_at);
  return Number.isNaN(t) || typeof p.duration_s !== 'number' ? null : [t, t + p.duration_s * 1000];
}

// overlap(a, b) -> null when every shared step overlaps enough, else why not (one line).
function overlap(a, b) {
  for (const pa of a.points) {
    const pb = b.points.find((p) => p.name === pa.name);
    if (!pb) continue;
    const ia = interval(pa);
    const ib = interval(pb);
    if (!ia || !ib) return `${pa.name}: no step start time recorded, so no proof the hosts ran together`;
    const shorter = Math.min(ia[1] - ia[0], ib[1] - ib[0]);
    const shared = Math.min(ia[1], ib[1]) - Math.max(ia[0], ib[0]);
    if (shorter <= 0 || shared < OVERLAP_MIN * shorter) {
      return `${pa.name} started ${((ib[0] - ia[0]) / 1000).toFixed(1)} s apart and overlapped ${Math.max(0, shared / 1000).toFixed(1)} s of ${(shorter / 1000).toFixed(1)} s (needs ${OVERLAP_MIN * 100}%)`;
    }
  }
  return null;
}

// inTime(list) -> { together, apart: [{ run, why }] }: the parts that overlap the reference part
// (the one most others overlap; the earliest of equals) and the parts left out with the reason.
function inTime(list) {
  const start = (r) => String(r.points[0]?.started_at ?? r.started_at);
  const sorted = [...list].sort((x, y) => start(x).localeCompare(start(y)));
  const score = (r) => sorted.filter((o) => o !== r && !overlap(r, o)).length;
  const ref = sorted.reduce((best, r) => (score(r) > score(best) ? r : best), sorted[0]);
  const others = sorted.filter((r) => r !== ref).map((run) => ({ run, why: overlap(ref, run) }));
  return { together: [ref, ...others.filter((o) => !o.why).map((o) => o.run)], apart: others.filter((o) => o.why) };
}

// mergeGroups(runs) -> { results, notes, left_out }: one result per (experiment, engine, group,
// repetition) of parts that ran together; a part outside the overlap rule is left out and named.
function mergeGroups(runs) {
  const keyOf = (r) => (r.group === null ? `dir:${r.dir}`
    : JSON.stringify([r.experiment, r.engine, r.group, r.repetition]));
  const byKey = groupBy(runs, keyOf);
  const results = [];
  const notes = [];
  const leftOut = [];
  for (const all of byKey.values()) {
    let list = all;
    if (list.length > 1) {
      const t = inTime(list);
      for (const a of t.apart) {
        leftOut.push({ dir: a.run.dir, experiment: a.run.experiment, engine: a.run.engine, group: a.run.group, repetition: a.run.repetition, host: a.run.host, why: `not merged with ${t.together.map((r) => r.host).join(' + ')} of the same group and repetition: ${a.why}` });
      }
      list = t.together;
    }
    if (list.length === 1) {
      results.push({ ...list[0], hosts: 1, parts: [list[0]] });
      continue;
    }
    const diffs = diffParameters(list[0].parameters, list.slice(1).map((r) => r.parameters));
    if (diffs.length) {
      notes.push(`group ${list[0].group} repetition ${list[0].repetition} (${list[0].engine}): hosts ran different parameters (${diffs.map((d) => d.text).join('; ')}); not merged`);
      for (const r of list) results.push({ ...r, hosts: 1, parts: [r] });
      continue;
    }
    results.push(mergeHosts(list));
  }
  return { results, notes, left_out: leftOut };
}

module.exports = { mergeGroups, overlap };
