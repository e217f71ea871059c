'use strict';
// The console tables: formatTable at the end of a run, from the summary's steps or cases (every
// kind alike: one row per step and op, whatever ops the kind records); groupTable at the end of
// a --repeat group, the fastest, median and slowest repetition per step and op.
// The median is the lab's one (common/stats.js), the report's too.
const { median, round } = require('../../../common/stats');

const { mibPerS } = require('../text/mib');
const { durationText } = require('../text/duration');
const { wrapProse, columns, WIDTH } = require('../text/wrap');
const { EXCLUSIONS, exclusionFacts, stepExclusion } = require('../../../common/step-exclusion');

// grid(rows, left(i, n)): columns aligned, column i of n left-aligned where left says so, else right.
// A left-aligned last column is prose (a capacity step's verdict, a note): where a row would pass
// WIDTH it wraps under itself, the other columns kept aligned.
function grid(rows, left) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => {
    const cells = r.map((c, i) => (left(i, r.length) ? c.padEnd(widths[i]) : c.padStart(widths[i])));
    const line = cells.join('  ').trimEnd();
    const before = cells.slice(0, -1).join('  ');
    const room = WIDTH - before.length - 2;
    if (line.length <= WIDTH || !left(r.length - 1, r.length) || room < 20) return line;
    return columns(before, r.at(-1), { col: before.length + 2 });
  }).join('\n');
}

// Latencies in ms to 10 us, from summary.json's us (capacity-table.js prints them alike).
const ms = (us) => (us === null || us === undefined ? '-' : (us / 1000).toFixed(2));
const val = (x) => (x === null || x === undefined ? '-' : String(x));

// costLine: a change against the baseline with its sign; a speed-up is not called a cost.
function costLine(label, percent, baseline, extra = '') {
  const signed = `${percent > 0 ? '+' : ''}${percent}% docs/s against ${baseline}${extra}`;
  return percent > 0 ? `faster: ${label}: ${signed} (no cost measured)` : `cost: ${label}: ${signed}`;
}

// caseLines(s): what a case says beyond its numbers, one line each (durability kinds: a case the
// server could not do, what w:0 delivered, the change against the baseline case).
function caseLines(s) {
  const out = [];
  const label = s.name ? `${s.index} ${s.name}` : `step ${s.index}`;
  if (s.not_applicable) out.push(`not applicable: ${label}: ${s.not_applicable}`);
  if (s.unsupported) out.push(`unsupported: ${label}: ${s.unsupported}`);
  if (s.server_ignores && s.skipped) out.push(`${s.server_ignores.split(':')[0]}: ${label}: not run, cannot be tested on this server`);
  else if (s.server_ignores) out.push(`${s.server_ignores.split(':')[0]}: ${label}: measured, never a verdict (${s.server_ignores.slice(s.server_ignores.indexOf(':') + 2).split(' (')[0]})`);
  if (s.stopped) out.push(`stopped: ${label}: ${s.stopped}`);
  if (s.documents && s.documents.arrived !== undefined
    && (s.parameters?.write_concern?.w === 0 || s.documents.arrived !== s.documents.sent)) {
    out.push(`documents: ${label}: ${s.documents.sent} sent, ${s.documents.arrived} arrived (counted after the case)`);
  }
  if (s.cost_not_computed) out.push(`measured: ${label}: ${s.cost_not_computed}`);
  if (s.relative_to_baseline) out.push(costLine(label, s.relative_to_baseline.change_percent,
    s.relative_to_baseline.baseline));
  if (typeof s.journal_commit_interval_restored === 'string') out.push(`WARNING: ${label}: journalCommitInterval ${s.journal_commit_interval_restored}`);
  return out;
}

// warmupLines(steps, warmupMs): what the steps' warm-ups ran and left out of the figures.
function warmupLines(steps, warmupMs) {
  const warm = steps.filter((s) => s.warmup);
  if (!warm.length || !warmupMs) return [];
  const out = [`warm-up: each step's first ${durationText(warmupMs)} (${warm.reduce((a, s) => a + s.warmup.ops, 0)} operations) ran and is not in these figures`];
  for (const s of warm) if (s.warmup.measured === false) out.push(`warm-up: step ${s.index} ended within its warm-up: nothing was measured`);
  return out;
}

function formatTable({ name, engine, complete, steps, preload, warmupMs = 0 }) {
  if (!steps.length) return '';
  // Documents and bytes per second are shown where a kind records them (bulk imports, files).
  const withMoves = steps.some((s) => Object.values(s.ops || {})
    .some((o) => o.docs_per_s !== undefined || o.mb_per_s !== undefined));
  // MiB/s beside MB/s where ops move bytes, not documents (files: gridfs, whose seed, seeds/003,
  // published MiB/s as "MB/s"): from MB/s, as the gridfs line and summary.json say it (src/text/mib.js).
  const withMib = withMoves && steps.some((s) => Object.values(s.ops || {}).some((o) => o.bytes && !o.docs));
  const mib = (s, o) => (o.bytes && o.mb_per_s !== null && o.mb_per_s !== undefined ? String(mibPerS(o.mb_per_s)) : '-');
  const moveCols = (s, o) => (withMoves ? [val(o.docs_per_s), val(o.mb_per_s), ...(withMib ? [mib(s, o)] : [])] : []);
  const blank = (x) => (withMoves ? [x, x, ...(withMib ? [x] : [])] : []);
  const head = ['step', 'clients', 'op', 'ops', 'ops/s', ...(withMoves ? ['docs/s', 'MB/s', ...(withMib ? ['MiB/s'] : [])] : []), 'p50 ms', 'p99 ms', 'p99.9 ms', 'errors'];
  const rows = [head];
  for (const s of steps) {
    // A case is named (w:majority, j:true, ...): its name beside its number.
    const label = s.name ? `${s.index} ${s.name}` : String(s.index);
    const ops = Object.entries(s.ops);
    // A case that did not run (the server cannot do it) still has its row.
    if (!ops.length) rows.push([label, String(s.clients), '-', '0', '-', ...blank('-'), '-', '-', '-', '-']);
    for (const [op, o] of ops) {
      rows.push([label, String(s.clients), op, String(o.count), String(o.ops_per_s), ...moveCols(s, o),
        ms(o.latency_us.p50), ms(o.latency_us.p99), ms(o.latency_us.p999), String(o.errors)]);
      if (o.intended_latency_us) rows.push(['', '', `${op} (intended)`, '', '', ...blank(''), ms(o.intended_latency_us.p50), ms(o.intended_latency_us.p99), ms(o.intended_latency_us.p999), '']);
    }
  }
  const table = grid(rows, (i) => i < 3);
  let out = `\n${name} on ${engine}${complete ? '' : ' (INCOMPLETE)'}\n${table}\n`;
  if (preload) out += `preload: ${preload.docs} docs in ${preload.duration_s}s (not measured)\n`;
  for (const l of warmupLines(steps, warmupMs)) out += `${l}\n`;
  const journal = steps.find((s) => s.journal !== undefined);
  if (journal) out += `journal: ${journal.journal === null ? 'not known' : journal.journal ? 'yes' : 'NO (j:true cannot mean a journal write)'} (${journal.journal_source})\n`;
  for (const s of steps) for (const l of caseLines(s)) out += `${l}\n`;
  const w0 = steps.find((s) => s.latency_meaning);
  if (w0) out += `note: ${w0.latency_meaning}\n`;
  for (const s of steps) {
    if (!s.complete) out += `note: step ${s.index} ended early; its ops/s are over the ${s.measured_s} s it was measuring (to its last completed operation)\n`;
    if (s.too_short) out += `note: step ${s.index} is too short to measure, left out of verdicts: ${s.too_short}\n`;
    if (s.loader.limited) out += `WARNING: step ${s.index} was limited by the loader, not the server: ${s.loader.reasons.join('; ')}\n`;
    if (s.loader.contention.length) out += `note: step ${s.index} shared the host with other load (not counted against the loader): ${s.loader.contention.join('; ')}\n`;
  }
  // The notes within 120 columns (one reached 369); the grid as it is.
  return wrapProse(out, table);
}

const WHY_BOTH = 'fastest: the best this server did; median: what a user should expect, robust to one disturbed repetition; slowest: the spread';

// seedRule(published): which seed the experiment reproduces and what it kept of its repetitions,
// from the experiment file's published: (source names the seed, method says its rule); the
// footnote never names another experiment's seed.
function seedRule(published) {
  const seed = /seeds\/\d{3}/.exec(published?.source ?? '')?.[0];
  if (!seed) return 'the experiment file names no seed to compare with';
  const m = published.method;
  if (!m || m.repetitions === undefined) return `${seed} states no rule for its repetitions`;
  return `${seed} ran each case ${m.repetitions} time${m.repetitions === 1 ? '' : 's'} and kept ${m.kept ?? 'what it does not say'}`;
}

// footnote(published): the group table's closing line.
const footnote = (published) => `${WHY_BOTH}. The seed: ${seedRule(published)}`;

// groupTable({name, engine, group, runs: [steps or cases of each repetition], concurrent}): per
// step and op, the fastest, median and slowest repetition's ops/s (and docs/s, MB/s where
// recorded). A step that is no measurement in a repetition (src/step-exclusion.js, the report's
// rule too: not run, unsupported, errors, the loader the limit, its host or server shared) is left
// out of its numbers, said under the table, and the row says in how many repetitions it counted:
// so the median here is the report's. concurrent: each repetition's summary.json concurrent_runs.
// Without wide, docs/s and MB/s show their medians only: twelve columns ran to 225 (the
// report's --wide, or this table's, has every number).
function groupTable({ name, engine, group, runs, concurrent = [], published = null, wide = false }) {
  const by = new Map(); // in the order the steps first appear
  runs.forEach((steps, rep) => {
    for (const s of steps) {
      const key = s.name ?? `step ${s.index}`;
      if (!by.has(key)) by.set(key, { ops: new Map(), unsupported: new Set(), notApplicable: new Set(), costs: [],
        baseline: null, left: [] });
      const e = by.get(key);
      if (s.not_applicable) e.notApplicable.add(s.not_applicable);
      if (s.cost_not_computed) e.noCost = s.cost_not_computed;
      if (s.unsupported) e.unsupported.add(s.unsupported);
      if (s.relative_to_baseline) {
        e.costs.push(s.relative_to_baseline.change_percent);
        e.baseline = s.relative_to_baseline.baseline;
      }
      const why = stepExclusion(exclusionFacts(s, concurrent[rep]));
      if (why) {
        // not run and unsupported have their own lines below
        if (why !== 'not_applicable' && why !== 'unsupported') e.left.push(`repetition ${rep + 1}: ${EXCLUSIONS[why]}`);
        continue;
      }
      for (const [op, o] of Object.entries(s.ops || {})) {
        if (!o.count || typeof o.ops_per_s !== 'number') continue;
        if (!e.ops.has(op)) e.ops.set(op, []);
        e.ops.get(op).push(o);
      }
    }
  });
  const all = [...by.values()].flatMap((e) => [...e.ops.values()].flat());
  const withMoves = all.some((o) => typeof o.docs_per_s === 'number' || typeof o.mb_per_s === 'number');
  const head = ['step', 'op', 'runs', 'fastest ops/s', 'median ops/s', 'slowest ops/s'];
  if (withMoves) head.push(...(wide ? ['fastest docs/s', 'median docs/s', 'slowest docs/s', 'fastest MB/s', 'median MB/s', 'slowest MB/s'] : ['median docs/s', 'median MB/s']));
  const rows = [head];
  const three = (xs, d = 1) => (xs.length ? [Math.max(...xs), median(xs), Math.min(...xs)].map((x) => String(round(x, d))) : ['-', '-', '-']);
  const moved = (xs, d) => (wide ? three(xs, d) : [three(xs, d)[1]]);
  const none = wide ? ['-', '-', '-', '-', '-', '-'] : ['-', '-'];
  const lines = [];
  for (const [key, e] of by) {
    if (!e.ops.size) rows.push([key, '-', `0/${runs.length}`, '-', '-', '-', ...(withMoves ? none : [])]);
    for (const [op, list] of e.ops) {
      const r = [key, op, `${list.length}/${runs.length}`, ...three(list.map((o) => o.ops_per_s))];
      if (withMoves) r.push(...moved(list.map((o) => o.docs_per_s).filter((x) => typeof x === 'number')), ...moved(list.map((o) => o.mb_per_s).filter((x) => typeof x === 'number'), 3));
      rows.push(r);
    }
    if (e.left.length) lines.push(`left out: ${key}: ${e.left.join('; ')} (as the report leaves it out)`);
    for (const u of e.notApplicable) lines.push(`not applicable: ${key}: ${u}`);
    for (const u of e.unsupported) lines.push(`unsupported: ${key}: ${u}`);
    if (e.noCost && !e.costs.length) lines.push(`measured: ${key}: ${e.noCost}`);
    if (e.costs.length) lines.push(costLine(key, Math.round(median(e.costs) * 10) / 10, e.baseline, ` (median of ${e.costs.length}; per repetition: ${e.costs.join(', ')})`));
  }
  const table = grid(rows, (i) => i < 2);
  return wrapProse(`\n${name} on ${engine}: ${runs.length} repetitions${group ? ` (group ${group})` : ''}, per step and op over the repetitions\n${table}\n${lines.map((l) => `${l}\n`).join('')}${footnote(published)}\n`, table);
}

module.exports = { formatTable, groupTable, WHY_BOTH, footnote, seedRule, grid, ms };
