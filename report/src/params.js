'use strict';
// Which parameters differ between runs: flattened paths (workload.duration_s) with each value,
// so the report can say why two runs are not compared.
function flatten(obj, prefix = '', out = {}) {
  if (obj !== null && typeof obj === 'object' && !Array.isArray(obj)) {
    for (const [k, v] of Object.entries(obj)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (obj !== null && obj !== undefined) {
    // null and absent mean the same (not set), so they never count as a difference
    out[prefix] = JSON.stringify(obj);
  }
  return out;
}

// fingerprint(params): equal for runs of the same load (key order does not matter).
function fingerprint(params) {
  const f = flatten(params);
  return JSON.stringify(Object.keys(f).sort().map((k) => [k, f[k]]));
}

// diffParameters(a, [b, ...]) -> [{ key, values: [a's, b's, ...], text }]
function diffParameters(a, others) {
  const fa = flatten(a);
  const fs = others.map((o) => flatten(o));
  const keys = [...new Set([fa, ...fs].flatMap((f) => Object.keys(f)))].sort();
  return keys.map((key) => ({ key, values: [fa, ...fs].map((f) => (key in f ? f[key] : 'absent')) }))
    .filter((d) => new Set(d.values).size > 1)
    .map(({ key, values }) => ({ key, values, text: `${key}: ${[...new Set(values)].join(' vs ')}` }));
}

module.exports = { flatten, fingerprint, diffParameters };
