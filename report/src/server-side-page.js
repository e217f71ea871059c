/* global Plot */
// Runs in the browser after page.js (src/html.js inlines it): the server's side (// src/server-side.js): per experiment
// and set, a table of each side's medians (footprint per document, and per point engine write bytes per document,
// server CPU per 1,000 ops, worst lag p99), the verdict sentences, flagged steps and the seed's published sizes; then
// an appendix with each run's server series (cache and dirty MB, checkpoints running, lag) from server.ndjson.
(function () {
  'use strict';
  const report = JSON.parse(document.getElementById('report-data').textContent);
  const sets = report.server_side || [];
  const series = report.server_series || [];
  if (!sets.length && !series.length) return;
  const el = window.labEl; // page.js's
  const left = (x) => (x && x.left_out ? `, ${x.left_out} left out` : '');
  const cell = (x) => (x && x.median !== null ? `${x.median} (${x.samples.length} run${x.samples.length === 1 ? '' : 's'}${left(x)})`
    : `not reported${x && x.not_reported_in ? ` (${x.not_reported_in} run(s)${left(x)})` : x && x.left_out ? ` (${x.left_out} run(s) left out)` : ''}`);
  const box = el('section', { id: 'server-side' }, el('h2', {}, `The server's side, by ${report.by} (lower is better)`));
  for (const s of sets) {
    const metrics = [['footprint', s.footprint.logical], ['footprint', s.footprint.engine_storage], ['footprint', s.footprint.data_dir],
      ...(s.block_writes ? [['whole run', s.block_writes]] : []),
      ...s.points.flatMap((p) => [[p.point, p.write_bytes_per_doc], [p.point, p.cpu_ms_per_1000_ops],
        [p.point, p.lag_p99_s]])];
    const sides = Object.keys(s.footprint.logical.sides);
    box.append(el('h3', {}, `${s.experiment}${s.set > 1 ? ` set ${s.set}` : ''}`));
    box.append(el('table', { class: 'server-side' },
      el('tr', {}, el('th', {}, 'point'), el('th', {}, 'median of the runs'), sides.map((x) => el('th', {}, x))),
      metrics.map(([point, m]) => el('tr', {}, el('td', {}, point), el('td', {}, m.what), sides.map((x) => el('td', {}, cell(m.sides[x])))))));
    const verdicts = metrics.flatMap(([point, m]) => m.verdicts.map((v) => ({ ...v, point })));
    box.append(el('ul', {}, verdicts.map((v) => el('li', { class: v.status }, `${v.point}: ${v.sentence}`))));
    if (s.seed_reference) box.append(el('p', { class: 'meta' }, `seeds/004 published, for ${s.seed_reference.documents} documents: ${Object.entries(s.seed_reference.bytes_per_doc).map(([k, v]) => `${k} ${v} bytes/doc`).join(', ')} (${s.seed_reference.source})`));
    for (const p of s.points) for (const f of p.replication_flagged) box.append(el('p', { class: 'differs flagged' }, `${p.point}, ${f.side} (${f.run}): replication did not keep up: ${f.reasons.join('; ')}`));
  }
  // Appendix: each run's series, one chart per run and quantity, a line per member.
  if (series.length) {
    const app = el('details', { class: 'appendix', id: 'server-series' }, el('summary', {}, `Appendix: server series per run (server.ndjson${report.appendix && series.length < report.appendix.server_series ? `; ${series.length} of ${report.appendix.server_series} runs, evenly spaced; report.json has every run` : ''})`));
    for (const r of series) {
      app.append(el('h4', {}, `${r.experiment}, ${r.engine}, repetition ${r.repetition}: ${r.run}`));
      // server.ndjson lost lines (src/record-gap.js): the charts below have gaps, said above them
      if (r.gap) app.append(el('p', { class: 'differs record-gap' }, r.gap));
      for (const [key, label] of [['cache_mb', 'cache MB'], ['dirty_mb', 'dirty MB'], ['checkpoint', 'checkpoint running'], ['lag_s', 'lag s (secondaries)']]) {
        const data = r.series.filter((d) => d[key] !== null);
        if (!data.length) continue; // the line does not report it: no chart, never a flat zero
        const fig = el('figure', { class: 'chart', 'data-kind': `server-${key}`, 'data-run': r.run, 'data-engine': r.engine });
        fig.append(el('figcaption', {}, `${label} per second, by member`));
        fig.append(Plot.plot({
          width: 760, height: 160, marginLeft: 60, style: { fontSize: '11px' },
          x: { label: 's since the record began' }, y: { label, grid: true }, color: { legend: true },
          marks: [Plot.line(data, { x: 's', y: key, stroke: 'member', tip: true })],
        }));
        app.append(fig);
      }
    }
    box.append(app);
  }
  const anchor = document.querySelector('section.safety') || document.querySelector('section.skipped');
  if (anchor) anchor.before(box); else document.getElementById('report').append(box);
})();
