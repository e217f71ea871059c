'use strict';
// Hand-made results folders with known values, in the loader's layout and summary.json schema 1
// (loader/README.md), plus the fields report/README.md asks of the loader: group, repetition and
// each op's histogram (HdrHistogram compressed base64).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { newHistogram, encode } = require('../../src/hist');
const { percentilesOf } = require('../../../common/percentiles');

// Temporary folders are removed when the test process exits (LAB_KEEP_TMP=1 keeps them).
const made = [];
process.on('exit', () => { if (!process.env.LAB_KEEP_TMP) for (const d of made) fs.rmSync(d, { recursive: true, force: true }); });
function tmpDir(prefix = 'lab-report-test-') {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(d);
  return d;
}

// histogramOf([[value_us, count], ...]) -> b64
const histogramOf = (pairs) => encode(recorded(pairs));
function recorded(pairs) {
  const h = newHistogram();
  for (const [v, n] of pairs) h.recordValueWithCount(v, n);
  return h;
}

const PARAMS = {
  name: 'expX', database: 'lab', collection: 'c', write_concern: { w: 1 }, read_preference: 'primary', read_concern: 'local', seed: 4,
  setup: { drop: true, indexes: [{ x: 1 }] }, document: { y_length: 200 }, preload: { docs: 1000, batch: 100 },
  workload: { type: 'read_update', docs: null, clients: [1, 2], duration_s: 10 }, rate: null, uri: 'mongodb://127.0.0.1:1/', workers: 2,
};

// step({name, clients, ops: {op: {rate, lat: [[us, n], ...] | undefined, p99}}, limited})
function step(s, i) {
  const ops = {};
  for (const [op, o] of Object.entries(s.ops)) {
    const count = Math.round(o.rate * 10);
    const p = o.p ?? { p50: 500, p99: 2000, p999: 4000 };
    ops[op] = {
      count, errors: 0, ops_per_s: o.rate,
      // with a histogram, what the loader stores beside it: its reading of the live histogram
      latency_us: o.lat ? percentilesOf(recorded(o.lat)) : { count, mean: p.p50, p50: p.p50, p90: p.p99, p99: p.p99,
        p999: p.p999, max: p.p999 },
      ...(o.lat ? { histogram: histogramOf(o.lat) } : {}),
    };
  }
  return {
    index: i + 1, phase: s.name, clients: s.clients ?? i + 1, started_at: s.started_at ?? '2026-11-01T00:00:00.000Z', duration_s: s.duration_s ?? 10, complete: s.complete !== false, target_rate: null, ops,
    loader: { cpu_cores_mean: 0.5, cores: 2, workers: [], limited: Boolean(s.limited), reasons: s.limited ? ['worker 0 event loop busy 95% of the time (> 90%)'] : [] },
  };
}

// makeRun(root, spec) -> dir. spec: experiment, engine, stamp, steps, group, repetition, host,
// complete, parameters (merged over PARAMS), schema_version, published, extra (merged at top level)
function makeRun(root, spec) {
  const dir = path.join(root, spec.experiment ?? 'expX', spec.engine, spec.stamp);
  fs.mkdirSync(dir, { recursive: true });
  const steps = spec.steps.map(step);
  const summary = {
    schema_version: spec.schema_version ?? 1,
    complete: spec.complete !== false,
    reason: spec.complete === false ? 'lost the server: test' : null,
    exit_code: spec.complete === false ? 1 : 0,
    experiment: spec.experiment ?? 'expX',
    engine: spec.engine,
    engine_source: 'flag',
    started_at: spec.started_at ?? '2026-11-01T00:00:00.000Z',
    ended_at: '2026-11-01T00:01:00.000Z',
    ...(spec.group ? { group: spec.group, repetition: spec.repetition } : {}),
    parameters: { ...PARAMS, ...(spec.parameters || {}) },
    server: { version: '7.0.0', storage_engine: { name: spec.engine } },
    topology: { kind: 'standalone' },
    images: {},
    loader: { version: '1.0.0', node: 'v20', driver: 'mongodb 7', histogram: 'hdr', host_cores: 2, hostname: spec.host ?? 'hostA', ...(spec.cpu_model ? { cpu_model: spec.cpu_model } : {}) },
    published: spec.published ?? null,
    preload: null,
    steps,
    loader_limited: steps.some((s) => s.loader.limited),
    files: { timeline: 'timeline.ndjson', experiment: 'expX.yaml' },
    ...(spec.extra || {}),
  };
  fs.writeFileSync(path.join(dir, 'summary.json'), JSON.stringify(summary, null, 2));
  const lines = [];
  let t = 0;
  for (const s of steps) {
    for (let k = 0; k < 5; k++) {
      t += 1;
      const ops = {};
      for (const [op, o] of Object.entries(s.ops)) ops[op] = { ok: o.ops_per_s, err: 0,
        ops_per_s: o.ops_per_s * (0.9 + 0.05 * k), latency_us: o.latency_us };
      lines.push({ t: new Date(Date.parse('2026-11-01T00:00:00Z') + t * 1000).toISOString(), elapsed_s: t, interval_s: 1, partial: false, phase: s.phase, step: s.index, clients: s.clients, ops, loader: { cpu_cores: 0.5, workers: [] } });
    }
  }
  fs.writeFileSync(path.join(dir, 'timeline.ndjson'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return dir;
}

// A failover fault run as the fault runner writes it (loader/src/faults/runner.js: result, pass,
// verdict, evidence.counts from scenarios/failover.js); legacy: true writes the older one-shot
// summarize's shape (steps.check), which results folders from before the runner still hold.
function makeFailover(root, { engine, w, stamp, acknowledged, lost, recovered, legacy = false }) {
  const dir = path.join(root, 'fault-failover', engine, stamp);
  fs.mkdirSync(dir, { recursive: true });
  const attempted = acknowledged + 100;
  const summary = {
    schema_version: 1, scenario: 'failover', engine, complete: true,
    params: { w: String(w), how: 'partition', writers: 4 },
    started: '2026-11-01T00:59:00.000Z', finished: '2026-11-01T01:00:00.000Z', result: true, pass: true,
    verdict: `PASS: failover w:${w}: ${attempted} attempted, ${acknowledged} acknowledged, ... ${lost} lost`,
  };
  if (legacy) {
    summary.steps = { check: { attemptCount: attempted, acknowledgedCount: acknowledged, okCount: acknowledged - lost,
      lostCount: lost, unexpectedCount: 0, recoveredCount: recovered } };
  } else {
    summary.evidence = { old_primary: 'shard01-a', failover: { observed: true }, lost: [], unexpected: [], counts: { attempted, acknowledged, ok: acknowledged - lost, lost, unexpected: 0, recovered }, rollback_files: [] };
  }
  fs.writeFileSync(path.join(dir, 'summary.json'), JSON.stringify(summary, null, 2));
  return dir;
}

module.exports = { tmpDir, makeRun, makeFailover, histogramOf, PARAMS };
