'use strict';
// Speed beside safety: failover fault runs (results/fault-failover/<engine>/<UTC>/summary.json,
// written by the fault runner, loader/src/faults/runner.js: params.w, result, and the set checker's
// counts in evidence.counts; folders written before the runner existed hold them in steps.check)
// next to the same engine's write throughput and p99 at that write concern from experiment runs.
const WRITE_OPS = ['insert', 'update'];

const wOf = (wc) => (wc && typeof wc === 'object' && 'w' in wc ? String(wc.w) : null);

// Best write point of each comparable set run with write concern w on this engine.
function speedAt(experiments, engine, w) {
  return experiments.flatMap((ex) => ex.sets.flatMap((set) => {
    let best = null;
    const sides = new Set(set.runs.filter((r) => r.engine === engine).map((r) => r.side)); // the engine's
    for (const a of set.aggregates) {
      if (!sides.has(a.side) || a.loader_limited_runs === a.runs) continue;
      const pointWc = wOf(a.parameters?.write_concern); // a case may set its own (report/README.md)
      if ((pointWc ?? wOf(set.parameters.write_concern)) !== w) continue;
      const writes = WRITE_OPS.filter((op) => a.ops[op]);
      if (!writes.length) continue;
      const rate = writes.reduce((s, op) => s + (a.ops[op].ops_per_s_median || 0), 0);
      const p99 = Math.max(...writes.map((op) => a.ops[op].latency_us?.p99 ?? -1));
      if (!best || rate > best.write_ops_per_s) best = { experiment: ex.name, set: set.id, point: a.point,
        runs: a.runs, write_ops_per_s: rate, write_p99_us: p99 >= 0 ? p99 : null, ops: writes };
    }
    return best ? [best] : [];
  }));
}

// setCheckCounts(summary) -> {attempted, acknowledged, lost, recovered}, null each where not
// counted: the runner's evidence.counts, or the older one-shot summarize's steps.check.
function setCheckCounts(f) {
  const n = f.evidence?.counts;
  if (n) return { attempted: n.attempted, acknowledged: n.acknowledged, lost: n.lost, recovered: n.recovered };
  const c = f.steps?.check;
  if (c) return { attempted: c.attemptCount, acknowledged: c.acknowledgedCount, lost: c.lostCount,
    recovered: c.recoveredCount };
  return { attempted: null, acknowledged: null, lost: null, recovered: null };
}

function safetyRows(faults, experiments) {
  const rows = faults.filter((f) => f.scenario === 'failover').map((f) => {
    const w = f.params?.w != null ? String(f.params.w) : null;
    return {
      engine: f.engine,
      w,
      how: f.params?.how ?? null,
      dir: f.dir,
      finished: f.finished ?? null,
      pass: f.pass ?? null,
      verdict: f.verdict ?? null,
      ...setCheckCounts(f),
      speed: speedAt(experiments, f.engine, w),
    };
  });
  // "w:1 is 1.4x faster and lost 37 acknowledged writes of 20,000", where both are known.
  for (const r of rows) {
    const other = rows.find((o) => o.engine === r.engine && o.w !== r.w && o.speed.length && r.speed.length);
    if (!other || r.lost === null) continue;
    const same = r.speed.find((s) => other.speed.some((t) => t.experiment === s.experiment && t.point === s.point));
    if (!same) continue;
    const o = other.speed.find((t) => t.experiment === same.experiment && t.point === same.point);
    const ratio = same.write_ops_per_s / o.write_ops_per_s;
    r.sentence = `${r.engine}: w:${r.w} is ${ratio.toFixed(2)}x the write throughput of w:${other.w} (${same.experiment}, ${same.point}) and lost ${r.lost} acknowledged writes of ${r.acknowledged}`;
  }
  return rows;
}

module.exports = { safetyRows };
