'use strict';
// YCSB's text output (site.ycsb.measurements.exporter.TextMeasurementsExporter, YCSB 0.17.0) ->
// the lab's summary.json step entries, so that `./run.sh ycsb-a --tool ycsb` and the lab's loader
// are read by the same report. YCSB prints one line per measurement:
//   [OVERALL], RunTime(ms), 10012
//   [OVERALL], Throughput(ops/sec), 1234.5
//   [READ], Operations, 6170             (every READ measured as OK; failures go to READ-FAILED)
//   [READ], AverageLatency(us), 812.3    MinLatency(us), MaxLatency(us)
//   [READ], 95thPercentileLatency(us), 1503    (hdrhistogram.percentiles, default 95,99;
//                                               "99.9PercentileLatency(us)" for 99.9)
//   [READ], Return=OK, 6170               Return=NOT_FOUND, ... (DBWrapper.reportStatus: all)
//   [Intended-READ], ...                  (measurement.interval=intended or both)
// Only what YCSB printed is used: a percentile it did not print is null, never estimated.
const OP_NAMES = { READ: 'read', UPDATE: 'update', INSERT: 'insert' };
// A series' plain figures: YCSB's metric name -> the field parse() keeps it in.
const FIGURES = { Operations: 'operations', 'AverageLatency(us)': 'average_us',
  'MinLatency(us)': 'min_us', 'MaxLatency(us)': 'max_us' };

// parse(text) -> { overall: { runtime_ms, throughput }, series: { NAME: { operations,
//   average_us, min_us, max_us, percentiles: { '95': us, ... }, returns: { OK: n, ... } } } }
function parse(text) {
  const overall = { runtime_ms: null, throughput: null };
  const series = {};
  for (const line of String(text).split(/\r?\n/)) {
    const m = /^\[([^\]]+)\], ([^,]+), (.+)$/.exec(line.trim());
    if (!m) continue;
    const [, name, metric, raw] = m;
    const v = Number(raw);
    if (name === 'OVERALL') {
      if (metric === 'RunTime(ms)') overall.runtime_ms = v;
      else if (metric === 'Throughput(ops/sec)') overall.throughput = v;
      continue;
    }
    const s = (series[name] ??= { operations: null, average_us: null, min_us: null, max_us: null, percentiles: {},
      returns: {} });
    let p;
    if (Object.hasOwn(FIGURES, metric)) s[FIGURES[metric]] = v;
    else if ((p = /^(\d+(?:\.\d+)?)(?:th)?PercentileLatency\(us\)$/.exec(metric))) s.percentiles[String(Number(p[1]))] = v;
    else if ((p = /^Return=(.+)$/.exec(metric))) s.returns[p[1]] = v;
  }
  if (overall.runtime_ms === null) throw new Error('not YCSB output: no [OVERALL], RunTime(ms) line');
  return { overall, series };
}

// latency(s): the lab's latency_us from one YCSB series; absent percentiles are null.
function latency(s) {
  if (!s || !s.operations) return { count: 0, mean: null, p50: null, p90: null, p99: null, p999: null, max: null };
  const pct = (q) => s.percentiles[q] ?? null;
  return {
    count: s.operations,
    mean: s.average_us === null ? null : Math.round(s.average_us * 10) / 10,
    p50: pct('50'), p90: pct('90'), p99: pct('99'), p999: pct('99.9'),
    max: s.max_us,
  };
}

// toStep(parsed, { index, phase, clients, startedAt, targetRate }) -> one steps[] entry.
// ops_per_s is over YCSB's own [OVERALL] RunTime, as its Throughput is.
function toStep(parsed, { index, phase, clients, startedAt = null, targetRate = null }) {
  const seconds = parsed.overall.runtime_ms / 1000;
  const ops = {};
  for (const [name, op] of Object.entries(OP_NAMES)) {
    const s = parsed.series[name];
    if (!s) continue;
    const ok = s.returns.OK ?? s.operations ?? 0;
    const errors = Object.entries(s.returns).filter(([k]) => k !== 'OK').reduce((a, [, n]) => a + n, 0);
    ops[op] = {
      count: ok,
      errors,
      ops_per_s: seconds > 0 ? Math.round((ok / seconds) * 10) / 10 : null,
      latency_us: latency(s),
      // What YCSB printed for this op, as printed (percentiles by their label, e.g. '95').
      ycsb: { percentiles_us: s.percentiles, returns: s.returns },
    };
    const intended = parsed.series[`Intended-${name}`];
    if (intended) ops[op].intended_latency_us = latency(intended);
  }
  return {
    index,
    phase,
    clients,
    started_at: startedAt,
    duration_s: seconds,
    measured_s: seconds,
    complete: true,
    rate_basis: 'ops_per_s is over YCSB\'s [OVERALL] RunTime(ms)',
    target_rate: targetRate,
    ops,
    // The lab's loader self-check does not apply to YCSB's client: no verdict, no samples.
    loader: { limited: null, samples: 0, contention: [], reasons: [], workers: [] },
  };
}

// YCSB's status lines (-s, status.interval=1; StatusThread, on stderr), one per interval:
//   2026-11-23 01:04:50:741 1 sec: 1988 operations; 1535 current ops/sec; est completion in 3
//   second [READ: Count=739, Max=29, Min=0, Avg=0.06, 90=0, 99=1, 99.9=3, 99.99=29] [UPDATE: ...]
// With measurementtype=hdrhistogram each bracket covers the interval since the previous line.
// statusTimeline(text, { step, phase, clients, startedMs, runStartMs }) -> timeline.ndjson lines
// of the loader's shape (ops.<op>.ops_per_s and latency_us per second; p50 is not printed: null).
// The timestamps are the YCSB container's clock in its time zone (UTC in images/ycsb).
const STATUS = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d):(\d{3}) \d+ sec: \d+ operations;(.*)$/;
function statusTimeline(text, { step, phase, clients, startedMs = null, runStartMs = null }) {
  const out = [];
  let prev = startedMs;
  for (const line of String(text).split(/\r?\n/)) {
    const m = STATUS.exec(line.trim());
    if (!m) continue;
    const t = Date.parse(`${m[1]}T${m[2]}.${m[3]}Z`);
    const intervalS = prev === null ? 1 : Math.max(0.001, (t - prev) / 1000);
    prev = t;
    runStartMs ??= t - intervalS * 1000;
    const ops = {};
    for (const b of m[4].matchAll(/\[([A-Z-]+): ([^\]]*)\]/g)) {
      const op = OP_NAMES[b[1]];
      if (!op) continue;
      const f = Object.fromEntries(b[2].split(', ').map((kv) => kv.split('=')).map(([k, v]) => [k, Number(v)]));
      ops[op] = {
        ops_per_s: Math.round((f.Count / intervalS) * 10) / 10,
        latency_us: { count: f.Count, mean: f.Count ? f.Avg : null, p50: null, p90: f.Count ? f['90'] : null, p99: f.Count ? f['99'] : null, p999: f.Count ? f['99.9'] : null, max: f.Count ? f.Max : null },
      };
    }
    out.push({
      t: new Date(t).toISOString(),
      elapsed_s: Math.round((t - runStartMs) / 10) / 100,
      interval_s: Math.round(intervalS * 1000) / 1000,
      partial: intervalS < 0.9,
      phase,
      step,
      clients,
      ops,
      loader: { source: 'ycsb status', workers: [] },
    });
  }
  return out;
}

module.exports = { parse, toStep, latency, statusTimeline };
