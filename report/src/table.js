'use strict';
// The comparison as plain text for the terminal. It opens with the summary (the answer: per
// experiment, set and point who is faster, the ratio with its 95% interval drawn against 1.0, runs
// per side, what was excluded and the safety facts), every line within WIDTH columns; then what
// was not compared, left out or skipped. --wide adds every number: per experiment and set, one
// row per point and side, the verdicts, incomplete runs and the speed/safety table.
const { fmt } = require('./verdict');
// the numbers' columns, format and point note, the page's as well (src/set-numbers.js)
const { num, ms, numbersRows } = require('./set-numbers');
const { groupBy } = require('./group-by');

function grid(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => (i < 2 || i === r.length - 1 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ').trimEnd()).join('\n');
}

// Per point and side (by: what a side is, the column's head) every number (src/set-numbers.js).
function setTable(set, by) {
  const { head, rows } = numbersRows(set, 'point', by);
  const out = [grid([head, ...rows.map((r) => r.cells)])];
  const w0 = set.aggregates.find((a) => a.latency_meaning);
  if (w0) out.push(...wrap(`note: ${w0.latency_meaning}`, { indent: '    ' })); // below the grid: prose
  return out.join('\n');
}

// Each run's description beside its numbers: one line per distinct description and side.
function describeRuns(set) {
  const seen = new Map();
  for (const r of set.runs) {
    const d = r.description;
    const text = `server ${d.server_version}, storage engine ${d.storage_engine}${d.journal && d.journal !== 'not recorded' ? `, journal ${d.journal}` : ''}, images ${d.images}, profile ${d.profile}, topology ${d.topology}, ${d.loader}, host ${d.host} (${d.host_cpus} CPUs, ${d.cpu_model === 'not recorded' ? 'CPU model not recorded' : d.cpu_model})`;
    const key = `${r.side}: ${text}`;
    seen.set(key, (seen.get(key) || 0) + 1);
  }
  return [...seen.entries()].map(([k, n]) => `runs: ${k.replace(': ', ` (${n} run${n > 1 ? 's' : ''}): `)}`);
}

const { WIDTH, wrap } = require('../../common/text');
const { claimsText } = require('./claims-text');

// cut(t, w): a cell of the summary's rows cut to its column with "…", on purpose: a row is the
// summary's one line per point, its columns aligned; --wide and index.html give every cell whole.
// Prose is never cut (common/text.js wrap splits a long word instead).
const cut = (t, w) => (t.length > w ? `${t.slice(0, w - 1)}…` : t.padEnd(w));

// The forest plot in characters: the 95% interval as a bar, o at the ratio, | at 1.0, on one log
// scale for the whole summary (lo..hi).
const FOREST = 21;
function forest(row, lo, hi) {
  const cells = Array(FOREST).fill(' ');
  const scale = (x) => (Math.log(x) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
  const at = (x) => Math.max(0, Math.min(FOREST - 1, Math.round(scale(x) * (FOREST - 1))));
  if (row.ci) for (let i = at(row.ci[0]); i <= at(row.ci[1]); i++) cells[i] = '-';
  cells[at(1)] = cells[at(1)] === '-' ? '+' : '|';
  if (typeof row.ratio === 'number') cells[at(row.ratio)] = 'o';
  return `[${cells.join('')}]`;
}

function answer(r) {
  if (r.status === 'verdict') return `${r.faster} ${fmt(r.ratio)}x ${r.slower}`;
  if (r.status === 'no-difference') return `no difference (${fmt(r.ratio)})`;
  if (r.status === 'excluded') return 'NO VERDICT: excluded runs';
  if (r.status === 'drift') return `DRIFT, not a verdict (${fmt(r.ratio)})`;
  if (r.status === 'not-interleaved') return `NO VERDICT: ${r.faster}/${r.slower} ${fmt(r.ratio)}, not interleaved`;
  if (r.status === 'equivalent') return `no difference within ±${Math.round(r.words.margin * 100)}% (${fmt(r.ratio)})`;
  if (r.status === 'inconclusive') return `inconclusive (${fmt(r.ratio)})`;
  if (r.status === 'one-side') return 'one side only';
  return 'NO VERDICT: too few runs';
}

function excludedLine(r) {
  const parts = r.sides.map((side, i) => [side, Object.entries(r.excluded[i] || {})
    .map(([k, n]) => `${k.replace('_', '-')} ${n}/${r.runs[i]}`).join(', ')]);
  return parts.filter(([, t]) => t).map(([side, t]) => `${side}: ${t}`).join('; ');
}

// summaryText(report) -> lines, each within WIDTH columns.
function summaryText(report) {
  const given = report.summary;
  const out = [`== summary: who is faster (ratio of geometric means of ops/s, 95% CI; forest: o ratio, - CI, | 1.0), by ${report.by}`];
  // a report of capacity searches alone opens with the capacities (printed before this)
  if (!given.length) return report.capacity?.length ? [] : [...out, 'no experiment runs'];
  if (report.family) out.push(...wrap(report.family.text, { indent: '    ' }));
  // The rows of one block together, blocks in the order they first appear.
  // (grouped in one pass: a filter of every row per block made 4,000 sets take 8.8 s)
  const keyOf = (r) => `${r.experiment}\0${r.set}\0${r.sides.join('\0')}`;
  const rows = [...groupBy(given, keyOf).values()].flat();
  // one log scale for every row: at least 0.5-2, at most 0.1-10 (beyond is clipped at the edge)
  const bounds = rows.filter((r) => r.ci).flatMap((r) => r.ci).map((x) => Math.min(10, Math.max(0.1, x)));
  const lo = Math.min(0.5, ...bounds);
  const hi = Math.max(2, ...bounds);
  out.push(`forest scale ${fmt(lo)} .. ${fmt(hi)} (log)`);
  // A block per experiment, set and pair compared: with --by LABEL one set may hold several
  // pairs (aws vs gcp, aws vs azure, ...), and rows named only by their point did not say which.
  const blockOf = (r) => `${r.experiment}${r.sets > 1 ? ` set ${r.set}` : ''}: ${r.sides.join(' vs ')}`;
  // Point and answer columns as wide as their longest cell, within WIDTH (the point is cut last:
  // "j:false interval 100ms" and "j:false interval 500ms" were both "j:false inter…").
  const fixed = 2 + 2 + 11 + 2 + FOREST + 2 + 2 + Math.max(...rows.map((r) => r.sides.map((_, i) => `${r.usable[i]}/${r.runs[i]}`).join(' v ').length), 17);
  const pw = Math.max(5, ...rows.map((r) => r.point.length));
  const aw = Math.max(6, ...rows.map((r) => answer(r).length));
  const pointW = Math.min(pw, Math.max(14, WIDTH - fixed - Math.min(aw, 40)));
  const answerW = Math.min(aw, WIDTH - fixed - pointW);
  let head = null;
  for (const r of rows) {
    const h = blockOf(r);
    if (h !== head) {
      out.push('', ...wrap(h, { indent: '    ' }));
      out.push(`  ${'point'.padEnd(pointW)}  ${'answer'.padEnd(answerW)}  ${'95% CI'.padEnd(11)}  ${'forest'.padEnd(FOREST + 2)}  runs (usable/all)`.slice(0, WIDTH));
      head = h;
    }
    const ci = r.ci ? `${fmt(r.ci[0])}-${fmt(r.ci[1])}` : '-';
    const runs = r.sides.map((_, i) => `${r.usable[i]}/${r.runs[i]}`).join(' v ');
    out.push(`  ${cut(r.point, pointW)}  ${cut(answer(r), answerW)}  ${ci.padEnd(11)}  ${forest(r, lo, hi)}  ${runs}`.trimEnd().slice(0, WIDTH));
    const ex = excludedLine(r);
    // the order the runs were made in, and the drift found (src/drift.js)
    const under = [ex && `excluded: ${ex}`, r.order_note && `order: ${r.order_note}`,
      r.drift?.found && `drift: ${r.drift.text}`, r.safety.length && `safety: ${r.safety.join('; ')}`];
    for (const t of under.filter(Boolean)) out.push(...wrap(t, { indent: ' '.repeat(20), first: ' '.repeat(16) }));
  }
  return out;
}

// The lines below the summary without --wide: what was not compared, left out, incomplete, skipped.
function notesText(report, outDir) {
  const out = [];
  for (const ex of report.experiments) {
    for (const d of ex.differences) out.push(...wrap(`not compared: ${ex.name} ${d.sentence}`, { indent: '    ' }));
    for (const set of ex.sets) for (const r of set.incomplete) out.push(...wrap(`INCOMPLETE (not compared): ${ex.name} ${r.side}: ${r.reason}`, { indent: '    ' }));
  }
  out.push(...leftOutLines(report));
  out.push('', ...wrap(`every number: --wide${outDir ? `, or ${outDir}/index.html` : ''}`, { indent: '    ' }));
  return out;
}

// prose(line): a --wide line that is not a grid row, within WIDTH like the summary's (the grids
// are tables, a column per op: wider than a terminal by design, and not wrapped).
const prose = (line) => wrap(line, { indent: '    ' });
// What was left out, noted or skipped: the last lines with --wide or without.
const leftOutLines = (report) => [
  ...report.left_out.map((l) => `left out: ${l.experiment} ${l.engine} ${l.host}: ${l.why}`),
  ...report.notes.map((n) => `note: ${n}`),
  ...report.skipped.map((s) => `skipped: ${s.dir}: ${s.why}`),
].flatMap(prose);

function renderText(report, outDir, opts = {}) {
  // the summary, then the seeds' findings (src/claims-text.js)
  const top = [...summaryText(report), ...claimsText(report.claims)];
  if (!opts.wide) return [...top, '', ...notesText(report, outDir)].join('\n').replace(/\n{3,}/g, '\n\n') + '\n';
  const out = [...top, '', '== every number (--wide)'];
  for (const ex of report.experiments) {
    for (const set of ex.sets) {
      out.push('', `== ${ex.name}${ex.sets.length > 1 ? ` (set ${set.id})` : ''}: ${set.sides.join(' vs ') || 'no complete run'}`);
      if (set.aggregates.length) out.push(setTable(set, report.by));
      if (set.aggregates.some((a) => a.runs > 1)) out.push(...prose(`fastest/median/slowest over repetitions: ${report.method.fastest_and_median}`));
      out.push(...describeRuns(set).flatMap(prose));
      // The seed's figure as published (27.25 MiB/s, not 27): num() rounds to whole numbers.
      for (const p of set.published?.series || []) out.push(...prose(`published: ${p.label} ${p.field} = ${p.value.toLocaleString('en-US', { maximumFractionDigits: 20 })} (${set.published.source})`));
      for (const v of set.verdicts) out.push(...prose(`verdict: ${v.sentence}`));
      for (const r of set.incomplete) out.push(...prose(`INCOMPLETE (not compared): ${r.side} ${r.id}: ${r.reason}`));
    }
    for (const d of ex.differences) out.push(...prose(`not compared: ${ex.name} ${d.sentence}`));
  }
  if (report.safety.length) {
    out.push('', '== speed beside safety (fault failover)');
    const rows = [['engine', 'w', 'writes/s', 'write p99 ms', 'acknowledged', 'lost', 'recovered', 'from']];
    for (const s of report.safety) {
      const sp = s.speed[0];
      rows.push([s.engine, s.w, sp ? num(sp.write_ops_per_s, 1) : '-', sp ? ms(sp.write_p99_us) : '-', num(s.acknowledged), num(s.lost), num(s.recovered), sp ? `${sp.experiment} ${sp.point}` : `no experiment run at w:${s.w}`]);
    }
    out.push(grid(rows));
    for (const s of report.safety) if (s.sentence) out.push(...prose(s.sentence));
  }
  out.push(...leftOutLines(report));
  if (outDir) out.push('', ...prose(`report: ${outDir}/index.html (numbers: report.json)`));
  return out.join('\n').replace(/^\n/, '') + '\n';
}

module.exports = { renderText, wrap, WIDTH };
