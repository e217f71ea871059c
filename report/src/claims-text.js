'use strict';
// The seeds' findings in the terminal: one row per claim (and side it was tested on), every line
// within table.js's 120 columns: the verdict, the seed's words, the published figure beside the
// lab's (absolute values, ratio, interval), why, what stands in for what, and each difference
// from the seed (or the condition the runs do not meet).
const WIDTH = 120;
const STATUS = { reproduced: 'REPRODUCED', contradicted: 'CONTRADICTED', inconclusive: 'INCONCLUSIVE', 'not comparable': 'NOT COMPARABLE', 'lab figure': 'LAB FIGURE' };

function wrap(text, indent, cont = `${indent}  `) {
  const out = [];
  let line = indent;
  for (const word of String(text).split(' ')) {
    if (line.trim() && (line + ' ' + word).length > WIDTH) {
      out.push(line);
      line = `${cont}${word}`;
    } else {
      line = line.trim() ? `${line} ${word}` : line + word;
    }
  }
  if (line.trim()) out.push(line);
  return out.map((l) => (l.length > WIDTH ? `${l.slice(0, WIDTH - 1)}…` : l));
}

// claimsText(rows) -> lines
function claimsText(rows) {
  if (!rows || !rows.length) return [];
  const out = ['', "== the seeds' findings: each published claim tested on these runs (report/claims.json)"];
  for (const r of rows) {
    const head = `${r.id}${r.side ? ` (${r.side})` : ''}`;
    out.push(...wrap(`${head.padEnd(26)} ${STATUS[r.status].padEnd(14)} ${r.words}`, '', ' '.repeat(42)));
    out.push(...wrap(`seed (${r.experiment_of_seed ?? r.seed}): ${r.quote ?? r.published}`, '    '));
    out.push(...wrap(`published ${r.published}; lab ${r.lab ?? '-'}`, '    '));
    if (r.why) out.push(...wrap(`${r.status === 'not comparable' ? 'missing' : 'why'}: ${r.why}${typeof r.p_holm === 'number' ? ` [Holm-adjusted p ${r.p_holm < 0.001 ? '< 0.001' : `= ${r.p_holm.toFixed(3)}`}, ${r.comparisons} claim tests]` : ''}`, '    '));
    if (r.stands_for) out.push(...wrap(`stand-in: ${r.stands_for}`, '    '));
    for (const d of r.differences || []) out.push(...wrap(`differs: ${d}`, '    '));
  }
  return out;
}

module.exports = { claimsText, WIDTH };
