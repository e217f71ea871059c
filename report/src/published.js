'use strict';
// The seed's published numbers (experiment file `published:`, copied into summary.json) as
// labelled reference series. Shape: { source: "...", <label>: { <what>_per_s_<stat>: N, ... } }.
// The op a number belongs to comes from its field name (updates_per_s_max -> update), so no
// experiment is named here.
const OP_WORDS = { inserts: 'insert', updates: 'update', reads: 'find', finds: 'find' };
const BYTE_UNITS = { mib: { unit: 'MiB/s', bytes: 2 ** 20 }, mb: { unit: 'MB/s', bytes: 1e6 } };

function publishedSeries(published) {
  if (!published || typeof published !== 'object') return null;
  const source = typeof published.source === 'string' ? published.source : 'source not given';
  const year = (/\b(19|20)\d\d\b/.exec(source) || [null])[0];
  const series = [];
  const notes = [];
  for (const [label, v] of Object.entries(published)) {
    if (label === 'source' || !v || typeof v !== 'object') continue;
    for (const [field, value] of Object.entries(v)) {
      const m = /^([a-z]+)_per_s(?:_([a-z]+))?$/.exec(field);
      if (m && typeof value === 'number') {
        // docs_per_s_* (seeds/001's import rate) belongs with the documents-per-second chart;
        // mib_per_s / mb_per_s (seeds/003's file throughput) with the MB/s chart, drawn there in
        // MB/s (mb_value) and named in the unit it was published in (unit).
        const bytes = BYTE_UNITS[m[1]];
        const measure = m[1] === 'docs' ? 'docs_per_s' : bytes ? 'mb_per_s' : 'ops_per_s';
        series.push({
          label, field, value, op: OP_WORDS[m[1]] ?? null, ...(measure !== 'ops_per_s' ? { measure } : {}),
          ...(bytes ? { unit: bytes.unit, mb_value: (value * bytes.bytes) / 1e6 } : {}),
          stat: m[2] ?? null, name: `${label} ${year ?? ''} (${m[2] ?? 'value'})`.replace('  ', ' '),
        });
      } else if (field === 'result' && typeof value === 'string') {
        notes.push(`${label}: ${value}`);
      }
    }
  }
  return { source, year, series, notes };
}

module.exports = { publishedSeries };
