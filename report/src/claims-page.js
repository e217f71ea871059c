// Runs in the browser after page.js (src/html.js inlines it): the seeds' findings (src/claims.js), placed right after
// the summary (and the capacity section where there is one): one row per claim with the seed's words, the published
// figure, the lab's figure and interval, the verdict, why, what stands in for what, and every difference from the seed.
(function () {
  'use strict';
  const report = JSON.parse(document.getElementById('report-data').textContent);
  const rows = report.claims || [];
  if (!rows.length) return;
  const el = window.labEl; // page.js's
  const box = el('section', { id: 'seeds' }, el('h2', {}, "The seeds' findings: reproduced or not"));
  const head = ['claim', 'seed', 'its words', 'published', 'lab (95% CI)', 'verdict', 'why / missing', 'stand-in and differences from the seed'];
  box.append(el('table', { class: 'claims' }, el('thead', {}, el('tr', {}, head.map((h) => el('th', {}, h)))),
    el('tbody', {}, rows.map((r) => el('tr', { class: `claim ${r.status.replace(' ', '-')}`, 'data-claim': r.id },
      [`${r.id}${r.side ? ` (${r.side})` : ''}`, `${r.seed}: ${r.experiment_of_seed ?? ''}`, `${r.words}. ${r.quote ?? ''}`, r.published, r.lab ?? '-', r.status,
        `${r.why}${typeof r.p_holm === 'number' ? ` [Holm-adjusted p ${r.p_holm.toFixed(3)}, ${r.comparisons} claim tests]` : ''}`,
        [r.stands_for ? `stand-in: ${r.stands_for}` : '', ...(r.differences || [])].filter(Boolean).join('; ') || '-'].map((c) => el('td', {}, c)))))));
  box.append(el('p', { class: 'note' }, 'Each claim is an entry of report/claims.json, judged under the seed\'s conditions (a condition not recorded is not met): ratios use the report\'s verdict rule (ratio of geometric means, Welch t 95% interval) on alike runs only, behind the same run-order and drift guard as the summary; a size is reproduced only when the interval lies within its band; a lab figure is the lab\'s own number beside the seed\'s, never judged; the claims are one Holm family. Findings this lab cannot judge are listed with why in claims.json not_claims.'));
  // after the summary and the capacity section (--sla runs), which keeps its place right after it
  const summary = document.getElementById('capacity') || document.getElementById('summary');
  if (summary) summary.after(box);
  else document.getElementById('report').prepend(box);
})();
