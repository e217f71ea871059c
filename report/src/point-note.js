'use strict';
// What a point says beyond its numbers, in one cell: the terminal's table (table.js requires
// this file) and the page's (html.js inlines it before page.js, which takes window.labPointNote):
// one wording for both. a: an aggregate of report.json (src/compare.js).
(function pointNotes(root) {
  // Why runs were left out of verdicts, short (report.json aggregates[].excluded keys).
  const EXCL = { incomplete: 'incomplete', not_applicable: 'not applicable', unsupported: 'unsupported', server_ignores: 'server ignores it', failed: 'errors', lost_documents: 'docs lost', paused: 'server paused', loader_limited: 'loader-limited', shared_host: 'shared host', shared_server: 'shared server', too_short: 'too short' };
  const exclLabel = (a) => Object.entries(a.excluded || {}).map(([k, n]) => `${EXCL[k] || k} ${n}/${a.runs}`).join(', ');

  function pointNote(a) {
    const n = [];
    if (a.not_applicable) n.push(`NOT APPLICABLE (not run) in ${a.not_applicable.runs}/${a.runs}: ${a.not_applicable.why.join(' | ')}`);
    if (a.unsupported) n.push(`UNSUPPORTED in ${a.unsupported.runs}/${a.runs}: ${a.unsupported.why.join(' | ')}`);
    if (a.documents && a.documents.arrived !== a.documents.sent) n.push(`${a.documents.sent} sent, ${a.documents.arrived} arrived`);
    if (a.relative_to_baseline) n.push(`${a.relative_to_baseline.change_percent_median > 0 ? '+' : ''}${a.relative_to_baseline.change_percent_median}% docs/s vs ${a.relative_to_baseline.baseline}`);
    if (a.loader_limited_runs) n.push(`loader-limited in ${a.loader_limited_runs}/${a.runs} run(s)${(a.loader_reasons || []).length ? `: ${a.loader_reasons.join('; ')}` : ''}`);
    for (const f of a.failed || []) n.push(`errors above the threshold: ${f.errors} of ${f.operations} operations${f.first_error ? ` (first: ${f.first_error.codeName || f.first_error.code || ''} ${f.first_error.message || ''})` : ''}`);
    if ((a.shared_host || []).length) n.push(`shared the host with other load: ${a.shared_host.join('; ')}`);
    if ((a.shared_server || []).length) n.push(`another loader ran against the same server and collection: ${a.shared_server.join('; ')}`);
    if ((a.paused || []).length) n.push(`the server paused: ${a.paused.map((p) => `nothing completed for ${(p.idle_ms / 1000).toFixed(1)} s, ${p.from_s} s in${p.op_p99_ms ? ` (its operations' p99 ${p.op_p99_ms} ms)` : ''}`).join('; ')}`);
    if (Object.keys(a.excluded || {}).length) n.push(`EXCLUDED from verdicts: ${exclLabel(a)}`);
    return n.join('; ');
  }

  if (typeof module !== 'undefined' && module.exports) module.exports = { pointNote, exclLabel, EXCL };
  else root.labPointNote = { pointNote, exclLabel, EXCL };
})(typeof window !== 'undefined' ? window : globalThis);
