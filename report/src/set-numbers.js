'use strict';
// A set's numbers per point and side, as the terminal's --wide table (table.js requires this
// file) and the page's numbers table (html.js inlines it before page.js, which takes
// window.labSetNumbers) show them: one set of columns, one number format and one point note for
// both, so the two never show a figure differently. a: an aggregate of report.json (src/compare.js).
(function setNumbers(root) {
  // Why runs were left out of verdicts, short (report.json aggregates[].excluded keys).
  const EXCL = { incomplete: 'incomplete', not_applicable: 'not applicable', unsupported: 'unsupported', server_ignores: 'server ignores it', failed: 'errors', lost_documents: 'docs lost', paused: 'server paused', loader_limited: 'loader-limited', shared_host: 'shared host', shared_server: 'shared server', too_short: 'too short' };
  const exclLabel = (a) => Object.entries(a.excluded || {}).map(([k, n]) => `${EXCL[k] || k} ${n}/${a.runs}`).join(', ');

  // What a point says beyond its numbers, in one cell.
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

  // num(x, d): rounded by the loader's own rule first (common/stats.js round, the binary value),
  // then grouped: toLocaleString alone rounds the decimal text, so 0.5005 MB/s read 0.501 on the
  // page and 0.500 in the terminal and the loader's table.
  const num = (x, d = 0) => (typeof x === 'number' ? (Math.round(x * 10 ** d) / 10 ** d).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : '-');
  const ms = (us) => (typeof us === 'number' ? (us / 1000).toFixed(2) : '-');

  // numbersRows(set, pointHead, sideHead) -> { head, rows: [{ a, cells }] }: per point and side the
  // fastest, median and slowest repetition (from the usable runs, src/usable.js; "2/3": 1 run left
  // out), per op its rate, n (the operations the percentiles rest on) and percentiles, documents
  // and bytes moved where the kind records them (GridFS chunks: MB/s and MiB/s, as seeds/003
  // published), and the point's note.
  function numbersRows(set, pointHead, sideHead) {
    const ops = [...new Set(set.aggregates.flatMap((a) => Object.keys(a.ops)))].sort();
    const moves = ops.filter((op) => set.aggregates.some((a) => a.ops[op]?.docs_per_s_median !== undefined));
    const bytes = ops.filter((op) => !moves.includes(op)
      && set.aggregates.some((a) => a.ops[op]?.mb_per_s_median !== undefined));
    const head = [pointHead, sideHead, 'runs (usable/all)', 'ops/s fastest', 'ops/s median', 'ops/s slowest'];
    for (const op of ops) head.push(`${op}/s`, `${op} n`, `${op} p50 ms`, `${op} p99 ms`, `${op} p99.9 ms`);
    for (const op of moves) head.push(`${op} docs/s fastest`, `${op} docs/s median`, `${op} MB/s median`);
    for (const op of bytes) head.push(`${op} MB/s median`, `${op} MiB/s median`);
    head.push('note');
    const rows = [];
    for (const p of set.points) for (const a of set.aggregates.filter((x) => x.point === p)) {
      const u = a.usable?.ops_per_s ?? a.ops_per_s;
      const cells = [p, a.journal === false ? `${a.side} (no journal)` : a.side, a.usable && a.usable.runs < a.runs ? `${a.usable.runs}/${a.runs}` : String(a.runs), num(u.fastest, 1), num(u.median, 1), num(u.slowest, 1)];
      for (const op of ops) {
        const o = a.ops[op];
        cells.push(num(a.usable ? a.usable.ops[op]?.median : o?.ops_per_s_median, 1), num(o?.latency_us?.count),
          ms(o?.latency_us?.p50), ms(o?.latency_us?.p99), ms(o?.latency_us?.p999));
      }
      for (const op of moves) cells.push(num(a.ops[op]?.docs_per_s_fastest, 1), num(a.ops[op]?.docs_per_s_median, 1),
        num(a.ops[op]?.mb_per_s_median, 3));
      for (const op of bytes) {
        const mb = a.ops[op]?.mb_per_s_median;
        cells.push(num(mb, 3), num(typeof mb === 'number' ? (mb * 1e6) / 2 ** 20 : mb, 3));
      }
      cells.push(pointNote(a));
      rows.push({ a, cells });
    }
    return { head, rows };
  }

  const api = { pointNote, exclLabel, EXCL, num, ms, numbersRows };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  else root.labSetNumbers = api;
})(typeof window !== 'undefined' ? window : globalThis);
