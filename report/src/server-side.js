'use strict';
// The server's side compared: per experiment, set of alike runs (the sets
// compare.js formed) and side, the footprint per document and per point the write cost, CPU and
// lag, each as the median of the repetitions and, between two sides, the throughput's statistic
// (verdict.js verdictOf, the one rule); lower is better. The figures: report/README.md, "The server's side".
const { dataDirPerDoc } = require('./data-dir');
const { median } = require('./stats');
const { groupBy } = require('./group-by');
const { wrap } = require('../../common/text');
const { verdictOf } = require('./verdict');
const { orderGuarded } = require('./drift');
const { stepNamed, keptStep } = require('../../common/step-exclusion');
const { comparable, meaningOf, FIGURES } = require('../../common/meanings');

// Each metric and the figure of common/meanings.js whose quantity ids decide whether two sides
// count the same thing: only then a ratio and a verdict; else one line of what each side counts.
const FIGURE_OF = { write_bytes_per_doc: 'write_bytes', cpu_ms_per_1000_ops: 'cpu', lag_p99_s: 'lag', engine_storage_bytes_per_doc: 'engine_storage', logical_bytes_per_doc: 'logical', data_dir_bytes_per_doc: 'data_dir', block_write_bytes_per_doc: 'block_writes' };
// Each metric's name in the sentences: its figure's (the footprint's logical bytes are the run's end)
const METRICS = Object.fromEntries(Object.entries(FIGURE_OF)
  .map(([m, f]) => [m, `${FIGURES[f].what}${f === 'logical' ? ' (end of run)' : ''}`]));

// compare(metric, A, B): A, B = { side, samples }; lower is better, so the smaller side reads
// first. Neither side recorded the figure (a server line that reports none): nothing to say.
function compare(metric, A, B) {
  if (!A.samples.length && !B.samples.length && !A.left_out && !B.left_out) return { metric, sides: [A.side, B.side], status: 'not-recorded', sentence: `${METRICS[metric]}: recorded by neither ${A.side} nor ${B.side}` };
  return { metric, ...verdictOf(METRICS[metric], A, B, { lowerIsBetter: true }) };
}

// sidesOf(metric, bySide, value, quantity, leftOut): value(run) -> number | null; quantity(run) ->
// the quantity id the run's figure is (common/meanings.js), null when unknown; leftOut(run): the
// run's step is one the throughput verdicts leave out (counted apart, as left_out, never as not
// reported). Two sides are judged only where every run with a value counted the same quantity.
function sidesOf(metric, bySide, value, quantity, leftOut = () => false) {
  const sides = {};
  const quantities = {};
  const engines = {}; // each run's storage engine: a side is described by its own engine's row
  for (const [side, all] of bySide) {
    const every = all.map((r) => ({ value: value(r), out: leftOut(r) }));
    const kept = every.filter((x) => !x.out);
    const samples = kept.map((x) => x.value).filter((v) => typeof v === 'number');
    // what a side counts is its engine's, left-out steps or not: read from every run with a value
    quantities[side] = all.filter((r, i) => typeof every[i].value === 'number').map((r) => quantity(r) ?? null);
    engines[side] = all.map(engineOf).filter(Boolean);
    const q = [...new Set(quantities[side])];
    sides[side] = { median: median(samples), samples,
      ...(samples.length < kept.length ? { not_reported_in: kept.length - samples.length } : {}),
      ...(kept.length < all.length ? { left_out: all.length - kept.length } : {}),
      ...(q.length === 1 ? { quantity: q[0] } : q.length ? { quantity: 'mixed' } : {}) };
  }
  const names = Object.keys(sides);
  const verdicts = names.flatMap((a, i) => names.slice(i + 1).map((b) => {
    const A = { side: a, ...sides[a] };
    const B = { side: b, ...sides[b] };
    const c = quantities[a].length && quantities[b].length
      ? comparable(FIGURE_OF[metric], { [a]: quantities[a], [b]: quantities[b] }, engines) : { same: true };
    // A quantity with a floor (lag from the heartbeat optime: 0-2 s on a healthy secondary):
    // values all within it say nothing about either side.
    const floor = c.same && c.quantity ? Object.values(FIGURES[FIGURE_OF[metric]])
      .find((row) => row && row.quantity === c.quantity && row.floor_s)?.floor_s : null;
    if (floor && [...A.samples, ...B.samples].every((x) => x <= floor)) return { metric, sides: [a, b], status: 'no-verdict', sentence: `${METRICS[metric]}: no verdict between ${a} and ${b} (every value within the ${floor} s the heartbeat optime cannot resolve)` };
    if (!c.same) return { metric, sides: [a, b], status: 'not-comparable', sentence: c.why };
    // guarded as every figure that is no step's ops/s is (drift.js orderGuarded)
    const v = orderGuarded(compare(metric, A, B), [a, b], [bySide.get(a), bySide.get(b)], METRICS[metric]);
    // A quantity that moves across a restart (MongoRocks' index estimate restarts from its
    // compressed files at each open): the verdict says so, since it cannot tell a restart here.
    const moves = c.quantity ? Object.values(FIGURES[FIGURE_OF[metric]])
      .find((row) => row && row.quantity === c.quantity && row.moves_on_restart) : null;
    if (moves && v.sentence) v.sentence += `; this figure moves across a member's restart with no workload change (${moves.measures})`;
    return v;
  }));
  return { what: METRICS[metric], sides, verdicts };
}

// blockWrites(bySide): the block writes ./run.sh measured over each loader invocation (summary.json
// block_writes: the shard members' own cgroups, the same quantity on every engine), one sample per
// invocation: its repetitions carry the same span and are not independent runs. Compared only
// between sides of one cgroup version (common/meanings.js block_writes), and where cgroup v1
// counted it (a lower bound) the verdict says so.
function blockWrites(bySide) {
  // one run a span: the first of the runs whose block writes cover the same loader invocation
  const first = (runs) => {
    const spans = runs.map((r) => r.block_writes && JSON.stringify(r.block_writes.runs));
    return runs.filter((r, i) => !spans[i] || spans.indexOf(spans[i]) === i);
  };
  const perSpan = new Map([...bySide].map(([side, runs]) => [side, first(runs)]));
  const version = (r) => (r.block_writes && r.block_writes.cgroup_version ? `v${r.block_writes.cgroup_version}` : null);
  const out = sidesOf('block_write_bytes_per_doc', perSpan, (r) => r.block_writes?.bytes_per_doc ?? null, (r) => (version(r) ? meaningOf('block_writes', version(r)).quantity : null));
  const lower = meaningOf('block_writes', 'v1');
  for (const v of out.verdicts) {
    if (v.status === 'not-comparable') continue; // what each side counts is said, the lower bound with it
    const onV1 = v.sides.filter((side) => out.sides[side].quantity === lower.quantity);
    if (onV1.length) v.sentence += `; measured under cgroup v1 on ${onV1.join(' and ')}: a lower bound, as buffered writeback by the kernel's flusher threads is charged to the root cgroup, not the container`;
  }
  return out;
}

// engineOf(run): the storage engine the run's server named (footprint, else its description).
const engineOf = (r) => r.footprint?.end?.storage_engine ?? r.footprint?.after_load?.storage_engine ?? null;

// serverSide(report, runs) -> [{ experiment, set, footprint, seed_reference, points }]
function serverSide(report, runs) {
  const byDir = new Map(runs.map((r) => [r.dir, r]));
  return (report.experiments || []).flatMap((x) => (x.sets || []).flatMap((set) => {
    const refs = (set.runs || []).map((ref) => [ref, byDir.get(ref.id) || byDir.get(String(ref.id).split(' + ')[0])]);
    const bySide = groupBy(refs.filter(([, r]) => r), ([ref]) => ref.side, ([, r]) => r);
    const all = [...bySide.values()].flat();
    // no run recorded the server
    if (!all.some((r) => r.footprint || r.block_writes || r.points.some((p) => p.server))) return [];
    const end = (r) => r.footprint && r.footprint.end && r.footprint.end.bytes_per_doc;
    const points = (set.points || []).map((name) => {
      const at = (r) => stepNamed(r, name)?.server ?? null;
      // a step left out (common/step-exclusion.js) is left out of the server's figures too
      const leftOut = (r) => Boolean(stepNamed(r, name)) && !keptStep(r, name);
      const flagged = [...bySide].flatMap(([side, rs]) => rs.filter((r) => at(r)?.flagged)
        .map((r) => ({ side, run: r.dir, reasons: at(r).flagged })));
      return {
        point: name,
        write_bytes_per_doc: sidesOf('write_bytes_per_doc', bySide, (r) => at(r)?.write_bytes_per_doc ?? null, (r) => at(r)?.write_quantity, leftOut),
        cpu_ms_per_1000_ops: sidesOf('cpu_ms_per_1000_ops', bySide, (r) => at(r)?.cpu_ms_per_1000_ops ?? null, () => meaningOf('cpu').quantity, leftOut),
        lag_p99_s: sidesOf('lag_p99_s', bySide, (r) => at(r)?.lag_p99_s ?? null, (r) => at(r)?.lag_quantity, leftOut),
        replication_flagged: flagged,
      };
    });
    return [{
      experiment: x.name,
      set: set.id,
      footprint: {
        // collStats storage: a different quantity per engine (compressed files, padded extents,
        // logical bytes, memory): compared only between runs whose engines count the same.
        engine_storage: sidesOf('engine_storage_bytes_per_doc', bySide, (r) => end(r)?.engine_storage ?? null, (r) => r.footprint?.end?.quantities?.engine_storage),
        // The documents' BSON, measured by the loader on every line: the same quantity everywhere.
        logical: sidesOf('logical_bytes_per_doc', bySide, (r) => end(r)?.logical ?? null, (r) => r.footprint?.end?.quantities?.logical),
        // On Compose, ./run.sh adds each shard member's du -sb (footprint.data_dir_bytes): what
        // the engine occupies on disk, except where its data lives in memory.
        data_dir: sidesOf('data_dir_bytes_per_doc', bySide, dataDirPerDoc, (r) => (engineOf(r) ? meaningOf('data_dir', engineOf(r)).quantity : null)),
      },
      // Block-device bytes the shard members wrote per document (Compose: their own cgroups).
      block_writes: blockWrites(bySide),
      // The seed's published sizes (experiment1: 10M documents), beside the footprint.
      seed_reference: all.map((r) => r.footprint && r.footprint.seed_reference).find(Boolean) ?? null,
      points,
    }];
  }));
}

// serverSideText(list) -> the terminal's lines: each verdict sentence and each flagged step.
function serverSideText(list) {
  const lines = [];
  for (const s of list) {
    const head = `${s.experiment} set ${s.set}`;
    const said = (v) => v.status !== 'not-recorded';
    for (const v of [...s.footprint.logical.verdicts, ...s.footprint.engine_storage.verdicts, ...s.footprint.data_dir.verdicts, ...s.block_writes.verdicts].filter(said)) lines.push(`${head}: ${v.sentence}`);
    if (s.seed_reference) lines.push(`${head}: seeds/004 published, for ${s.seed_reference.documents} documents: ${Object.entries(s.seed_reference.bytes_per_doc).map(([k, v]) => `${k} ${v} bytes/doc`).join(', ')} (du -sh of the data directory)`);
    for (const p of s.points) {
      for (const m of ['write_bytes_per_doc', 'cpu_ms_per_1000_ops', 'lag_p99_s']) for (const v of p[m].verdicts.filter(said)) lines.push(`${head} ${p.point}: ${v.sentence}`);
      for (const f of p.replication_flagged) lines.push(`${head} ${p.point}: REPLICATION on ${f.side} (${f.run}): ${f.reasons.join('; ')}`);
    }
  }
  // Within the terminal's WIDTH like every other line of the summary (common/text.js wrap).
  return lines.length ? `\nThe server's side (lower is better):\n${lines.flatMap((l) => wrap(l, { indent: '    ', first: '  ' })).join('\n')}\n` : '';
}

// serverSeries(server.ndjson lines) -> [{ s, member, state, cache_mb, dirty_mb, checkpoint, lag_s }]
// per member per second (s: seconds since the record's first line): what the appendix draws.
// Fields a member did not report stay null (never 0), as in the record.
function serverSeries(lines) {
  if (!lines.length) return null;
  const t0 = Date.parse(lines[0].t);
  // MB as the lab writes it everywhere (10^6 bytes: loader/README.md, the metrics' MB/s).
  const mb = (x) => (typeof x === 'number' ? Math.round(x / 1e5) / 10 : null);
  return lines.map((l) => ({
    s: Math.round((Date.parse(l.t) - t0) / 100) / 10,
    member: l.member,
    state: l.repl?.state ?? l.role ?? null,
    cache_mb: mb(l.wt?.cache_bytes),
    dirty_mb: mb(l.wt?.cache_dirty_bytes),
    checkpoint: typeof l.wt?.checkpoint_running === 'number' ? (l.wt.checkpoint_running ? 1 : 0) : null,
    lag_s: typeof l.repl?.lag_s === 'number' ? l.repl.lag_s : null,
  }));
}

// seriesOf(report, runs): the appendix's per-run server series, for the runs the report shows.
function seriesOf(runs) {
  return runs.filter((r) => r.server_series).map((r) => ({ run: r.dir, experiment: r.experiment, engine: r.engine,
    repetition: r.repetition, series: r.server_series, gap: r.server_record_gap?.sentence ?? null }));
}

module.exports = { serverSide, serverSideText, serverSeries, seriesOf };
