// Runs in the browser after page.js (src/html.js inlines it): steadiness (// src/steadiness.js): per experiment, set
// and point, each side's seconds in dips per minute and worst second / median (medians of the runs), the verdict
// sentences, which side was steadier and why; and the summary table's rows get that sentence under them.
(function () {
  'use strict';
  const report = JSON.parse(document.getElementById('report-data').textContent);
  const sets = report.steadiness || [];
  if (!sets.length) return;
  const el = window.labEl; // page.js's
  const med = (f, side) => (f.sides[side] && f.sides[side].median !== null ? `${f.sides[side].median} (${f.sides[side].samples.length} run${f.sides[side].samples.length === 1 ? '' : 's'})` : 'not judged');
  const box = el('section', { id: 'steadiness' }, el('h2', {}, `Steadiness, by ${report.by} (higher is steadier)`));
  for (const s of sets) {
    box.append(el('h3', {}, `${s.experiment}${s.set > 1 ? ` set ${s.set}` : ''}`));
    for (const p of s.points) {
      const sides = Object.keys(p.worst_second_fraction.sides);
      box.append(el('table', { class: 'steadiness' },
        el('tr', {}, el('th', {}, p.point), sides.map((x) => el('th', {}, x))),
        el('tr', {}, el('td', {}, 'seconds in dips per minute (median)'), sides.map((x) => el('td', {}, p.dip_s_per_min[x] ?? 'not judged'))),
        el('tr', {}, el('td', {}, p.worst_second_fraction.what), sides.map((x) => el('td', {}, med(p.worst_second_fraction, x)))),
        el('tr', {}, el('td', {}, 'why (dips by cause, all runs)'), sides.map((x) => el('td', {}, (p.why[x] || []).join(', ') || 'no dips')))));
      const vs = [...p.worst_second_fraction.verdicts, ...p.steady_s_per_min.verdicts];
      box.append(el('ul', {}, vs.map((v) => el('li', { class: v.status }, v.sentence)), p.steadier ? el('li', { class: 'verdict steadier' }, p.steadier) : null));
    }
  }
  // The summary's rows: which side was steadier and why, under each row that has it.
  const summary = document.querySelector('table.summary');
  if (summary) {
    const rows = (report.summary || []).filter((r) => r.steadier);
    if (rows.length) summary.after(el('ul', { class: 'steadier' }, rows.map((r) => el('li', {}, `${r.experiment}: ${r.steadier}`))));
  }
  const anchor = document.getElementById('server-side') || document.querySelector('section.safety') || document.querySelector('section.skipped');
  if (anchor) anchor.before(box); else document.getElementById('report').append(box);
})();
