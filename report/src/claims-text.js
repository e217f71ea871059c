'use strict';
// The seeds' findings in the terminal: one row per claim (and side it was tested on), every line
// within the lab's 120 columns (common/text.js): the verdict, the seed's words, the published figure beside the
// lab's (absolute values, ratio, interval), why, what stands in for what, and each difference
// from the seed (or the condition the runs do not meet).
const { wrap } = require('../../common/text');
const STATUS = {
  reproduced: 'REPRODUCED', contradicted: 'CONTRADICTED', inconclusive: 'INCONCLUSIVE',
  'not comparable': 'NOT COMPARABLE', 'lab figure': 'LAB FIGURE',
};

// under(text): a line under a row's head, indented by four, its further lines by six.
const under = (text) => wrap(text, { first: '    ', indent: '      ' });

// claimsText(rows) -> lines
function claimsText(rows) {
  if (!rows || !rows.length) return [];
  const out = ['', "== the seeds' findings: each published claim tested on these runs (report/claims.json)"];
  for (const r of rows) {
    const head = `${r.id}${r.side ? ` (${r.side})` : ''}`;
    out.push(...wrap(`${head.padEnd(26)} ${STATUS[r.status].padEnd(14)} ${r.words}`, { indent: ' '.repeat(42) }));
    out.push(...under(`seed (${r.experiment_of_seed ?? r.seed}): ${r.quote ?? r.published}`));
    out.push(...under(`published ${r.published}; lab ${r.lab ?? '-'}`));
    const holm = typeof r.p_holm === 'number'
      ? ` [Holm-adjusted p ${r.p_holm < 0.001 ? '< 0.001' : `= ${r.p_holm.toFixed(3)}`}, ${r.comparisons} claim tests]` : '';
    if (r.why) out.push(...under(`${r.status === 'not comparable' ? 'missing' : 'why'}: ${r.why}${holm}`));
    if (r.stands_for) out.push(...under(`stand-in: ${r.stands_for}`));
    for (const d of r.differences || []) out.push(...under(`differs: ${d}`));
  }
  return out;
}

module.exports = { claimsText };
