'use strict';
// Several client hosts, one run: runs with the same experiment, engine, group and repetition were
// started together against one cluster (each host wrote its own folder). They become one result:
// counts and rates add up (the hosts ran at the same time), percentiles come from the merged
// histograms. Runs that cannot be merged honestly stay apart, with the reason.
const { mergeEncoded, percentiles } = require('./hist');
const { diffParameters } = require('./params');

function mergeOps(list) {
  const out = {};
  const ops = new Set(list.flatMap((p) => Object.keys(p.ops)));
  for (const op of ops) {
    const parts = list.map((p) => p.ops[op]).filter(Boolean);
    const rates = parts.map((o) => o.ops_per_s).filter((x) => typeof x === 'number');
    const hists = parts.map((o) => o.histogram);
    const all = hists.every((h) => typeof h === 'string');
    const histogram = all ? mergeEncoded(hists) : null;
    out[op] = {
      count: parts.reduce((a, o) => a + o.count, 0),
      errors: parts.reduce((a, o) => a + o.errors, 0),
      ops_per_s: rates.length ? Math.round(rates.reduce((a, b) => a + b, 0) * 10) / 10 : null,
      // Without every host's histogram there is no exact percentile: say so (null), never average.
      latency_us: histogram ? percentiles(histogram) : null,
      latency_note: histogram ? null : 'not every host stored a histogram: merged percentiles unavailable',
      histogram,
    };
  }
  return out;
}

function mergeHosts(runs) {
  const [first] = runs;
  const names = [...new Set(runs.flatMap((r) => r.points.map((p) => p.name)))];
  const points = names.map((name, order) => {
    const parts = runs.map((r) => r.points.find((p) => p.name === name)).filter(Boolean);
    const ops = mergeOps(parts);
    const rates = Object.values(ops).map((o) => o.ops_per_s).filter((x) => typeof x === 'number');
    return {
      ...parts[0],
      order,
      clients: parts.every((p) => typeof p.clients === 'number') ? parts.reduce((a, p) => a + p.clients, 0) : null,
      complete: parts.length === runs.length && parts.every((p) => p.complete),
      loader_limited: parts.some((p) => p.loader_limited),
      loader_reasons: parts.flatMap((p, i) => p.loader_reasons.map((r) => `${runs[i].host}: ${r}`)),
      ops,
      ops_per_s: rates.length ? rates.reduce((a, b) => a + b, 0) : null,
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

// mergeGroups(runs) -> { results, notes }: one result per (experiment, engine, group, repetition).
function mergeGroups(runs) {
  const byKey = new Map();
  for (const r of runs) {
    const key = r.group === null ? `dir:${r.dir}` : JSON.stringify([r.experiment, r.engine, r.group, r.repetition]);
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(r);
  }
  const results = [];
  const notes = [];
  for (const list of byKey.values()) {
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
  return { results, notes };
}

module.exports = { mergeGroups, mergeHosts };
