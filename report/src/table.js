'use strict';
// The comparison as plain text for the terminal: per experiment and set, one row per point and
// engine, then the verdicts, incomplete runs, skipped folders and the speed/safety table.
const num = (x, d = 0) => (typeof x === 'number' ? x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : '-');
const ms = (us) => (typeof us === 'number' ? (us / 1000).toFixed(2) : '-');

function grid(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => (i < 2 || i === r.length - 1 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ').trimEnd()).join('\n');
}

// engineCell(a): the engine, and beside it that it has no journal where the run recorded so.
const engineCell = (a) => (a.journal === false ? `${a.engine} (no journal)` : a.engine);

// pointNote(a): what a point says beyond its numbers, in one cell.
function pointNote(a) {
  const n = [];
  if (a.unsupported) n.push(`UNSUPPORTED in ${a.unsupported.runs}/${a.runs}: ${a.unsupported.why.join(' | ')}`);
  if (a.documents && a.documents.arrived !== a.documents.sent) n.push(`${a.documents.sent} sent, ${a.documents.arrived} arrived`);
  if (a.relative_to_baseline) n.push(`${a.relative_to_baseline.change_percent_median > 0 ? '+' : ''}${a.relative_to_baseline.change_percent_median}% docs/s vs ${a.relative_to_baseline.baseline}`);
  if (a.loader_limited_runs) n.push(`LOADER-LIMITED in ${a.loader_limited_runs}/${a.runs}: excluded from verdicts`);
  return n.join('; ');
}

// Per point and engine: fastest, median and slowest repetition (report.json method.fastest_and_median).
function setTable(set) {
  const ops = [...new Set(set.aggregates.flatMap((a) => Object.keys(a.ops)))].sort();
  const moves = ops.filter((op) => set.aggregates.some((a) => a.ops[op]?.docs_per_s_median !== undefined));
  const head = ['point', 'engine', 'runs', 'ops/s fastest', 'ops/s median', 'ops/s slowest'];
  for (const op of ops) head.push(`${op}/s`, `${op} p50 ms`, `${op} p99 ms`, `${op} p99.9 ms`);
  for (const op of moves) head.push(`${op} docs/s fastest`, `${op} docs/s median`, `${op} MB/s median`);
  head.push('note');
  const rows = [head];
  for (const p of set.points) {
    for (const a of set.aggregates.filter((x) => x.point === p)) {
      const r = [p, engineCell(a), a.runs, num(a.ops_per_s.fastest, 1), num(a.ops_per_s.median, 1), num(a.ops_per_s.slowest, 1)];
      for (const op of ops) {
        const o = a.ops[op];
        r.push(num(o?.ops_per_s_median, 1), ms(o?.latency_us?.p50), ms(o?.latency_us?.p99), ms(o?.latency_us?.p999));
      }
      for (const op of moves) r.push(num(a.ops[op]?.docs_per_s_fastest, 1), num(a.ops[op]?.docs_per_s_median, 1), num(a.ops[op]?.mb_per_s_median, 3));
      r.push(pointNote(a));
      rows.push(r);
    }
  }
  const out = [grid(rows)];
  const w0 = set.aggregates.find((a) => a.latency_meaning);
  if (w0) out.push(`note: ${w0.latency_meaning}`);
  return out.join('\n');
}

// Each run's description beside its numbers: one line per distinct description and engine.
function describeRuns(set) {
  const seen = new Map();
  for (const r of set.runs) {
    const d = r.description;
    const text = `server ${d.server_version}, storage engine ${d.storage_engine}${d.journal && d.journal !== 'not recorded' ? `, journal ${d.journal}` : ''}, images ${d.images}, profile ${d.profile}, topology ${d.topology}, ${d.loader}, host ${d.host} (${d.host_cpus} CPUs, ${d.cpu_model === 'not recorded' ? 'CPU model not recorded' : d.cpu_model})`;
    const key = `${r.engine}: ${text}`;
    seen.set(key, (seen.get(key) || 0) + 1);
  }
  return [...seen.entries()].map(([k, n]) => `runs: ${k.replace(': ', ` (${n} run${n > 1 ? 's' : ''}): `)}`);
}

function renderText(report, outDir) {
  const out = [];
  for (const ex of report.experiments) {
    for (const set of ex.sets) {
      out.push('', `== ${ex.name}${ex.sets.length > 1 ? ` (set ${set.id})` : ''}: ${set.engines.join(' vs ') || 'no complete run'}`);
      if (set.aggregates.length) out.push(setTable(set));
      if (set.aggregates.some((a) => a.runs > 1)) out.push(`fastest/median/slowest over repetitions: ${report.method.fastest_and_median}`);
      out.push(...describeRuns(set));
      for (const p of set.published?.series || []) out.push(`published: ${p.label} ${p.field} = ${num(p.value)} (${set.published.source})`);
      for (const v of set.verdicts) out.push(`verdict: ${v.sentence}`);
      for (const r of set.incomplete) out.push(`INCOMPLETE (not compared): ${r.engine} ${r.id}: ${r.reason}`);
    }
    for (const d of ex.differences) out.push(`not compared: ${ex.name} ${d.sentence}`);
  }
  if (report.safety.length) {
    out.push('', '== speed beside safety (fault failover)');
    const rows = [['engine', 'w', 'writes/s', 'write p99 ms', 'acknowledged', 'lost', 'recovered', 'from']];
    for (const s of report.safety) {
      const sp = s.speed[0];
      rows.push([s.engine, s.w, sp ? num(sp.write_ops_per_s, 1) : '-', sp ? ms(sp.write_p99_us) : '-', num(s.acknowledged), num(s.lost), num(s.recovered), sp ? `${sp.experiment} ${sp.point}` : `no experiment run at w:${s.w}`]);
    }
    out.push(grid(rows));
    for (const s of report.safety) if (s.sentence) out.push(s.sentence);
  }
  for (const n of report.notes) out.push(`note: ${n}`);
  for (const s of report.skipped) out.push(`skipped: ${s.dir}: ${s.why}`);
  if (outDir) out.push('', `report: ${outDir}/index.html (numbers: report.json)`);
  return out.join('\n').replace(/^\n/, '') + '\n';
}

module.exports = { renderText };
