'use strict';
// The summary builder (src/results/summary.js) is pure: synthetic measurements in, summary.json out.
// No server, no workers, no clock.
const test = require('node:test');
const assert = require('node:assert/strict');
const hdr = require('hdr-histogram-js');
const { newHistogram } = require('../src/results/hist');
const { buildSummary, stepSummary, forcedSteps, forcedReason, loaderLimited } = require('../src/results/summary');
const { formatTable } = require('../src/results/table');

const T0 = Date.parse('2026-01-01T00:00:00Z');
const config = {
  name: 'synthetic', database: 'lab', collection: 'c', writeConcern: { w: 1 }, readPreference: 'primary', readConcern: 'local',
  seed: 1, setup: { drop: true, indexes: [] }, document: { yLength: 3, alphabet: 'ab' }, preload: { docs: 10, batch: 5 },
  workload: { type: 'read', clients: [1, 2], durationMs: 10000 }, rate: null, published: null,
};
const opts = { uri: 'mongodb://u:secret@h:1/', serverSelectionTimeoutMs: 1000, stallTimeoutMs: 2000, group: 'g', repetition: 2, profile: 'laptop' };

// acc for a step: n finds of 100 us and one of 5000 us, 10 one-second samples of an idle loader.
function acc(n, lastOkAt) {
  const hist = newHistogram();
  for (let i = 0; i < n; i++) hist.recordValue(100);
  hist.recordValue(5000);
  const seconds = Array.from({ length: 10 }, () => ({ cpuCores: 0.1, intervalS: 1, host: null,
    selfs: [{ worker: 0, elu: 0.1, eldP99Ms: 0 }] }));
  return { ops: { find: { ok: n + 1, err: 2, hist, intended: newHistogram() } }, seconds, lastOkAt };
}
const step = (index, clients) => ({ index, phase: `clients-${clients}`, clientIds: Array.from({ length: clients }, (_, k) => k), startAt: T0 + index * 10000 });

const facts = (over) => ({
  complete: true, reason: null, running: false, exitCode: 0, endedAt: '2026-01-01T00:00:20.000Z', config, opts,
  engine: 'e', engineSource: 'flag', engineReported: 'wiredTiger', startedAt: new Date(T0), description: null, workers: 2,
  loader: { version: 'x', cpu_model: 'CPU' }, preload: { docs: 10 }, experimentFile: 'synthetic.yaml', steps: [], ...over,
});

test('a whole step: rate over the step, percentiles and the histogram they come from', () => {
  const s = stepSummary({ step: step(0, 1), acc: acc(999, T0 + 9000), endAt: T0 + 10000,
    stopReason: null, rate: null, cores: 2 });
  assert.equal(s.index, 1);
  assert.equal(s.complete, true);
  assert.equal(s.measured_s, 10);
  assert.equal(s.ops.find.ops_per_s, 100);
  assert.equal(s.ops.find.errors, 2);
  assert.equal(s.ops.find.latency_us.p50, 100);
  assert.equal(s.ops.find.latency_us.max, 5000);
  const h = hdr.decodeFromCompressedBase64(s.ops.find.histogram);
  assert.equal(h.totalCount, 1000);
  assert.equal(h.getValueAtPercentile(50), s.ops.find.latency_us.p50);
  assert.equal(s.ops.find.intended_histogram, undefined, 'no --rate: no intended histogram');
  assert.equal(s.loader.limited, false);
});

test('a step cut short: rate over measured_s (to its last completed op), marked incomplete', () => {
  const s = stepSummary({ step: step(1, 2), acc: acc(399, T0 + 10000 + 4000), endAt: T0 + 18000, stopReason: 'interrupted (SIGINT)', rate: null, cores: 2 });
  assert.equal(s.complete, false);
  assert.equal(s.duration_s, 8);
  assert.equal(s.measured_s, 4);
  assert.equal(s.ops.find.ops_per_s, 100);
  assert.match(s.rate_basis, /ended early \(interrupted \(SIGINT\)\)/);
});

test('a step with a scheduled end: measured to that end or its last operation, not the loader\'s wind-down after it', () => {
  // A paced 1 s step at 20 ops/s (2 clients) that completed its 20 operations by 960 ms, summed
  // up 105 ms after its end on a busy host: 20 ops/s, not 20 / 1.105 = 18.1 (seen in CI, where
  // --sla then judged the rate not achieved).
  const paced = { ...step(0, 2), endAt: T0 + 1000 };
  const at = (lastOkAt, st = paced) => stepSummary({ step: st, acc: acc(19, lastOkAt), endAt: T0 + 1105,
    stopReason: null, rate: st.endAt ? 20 : null, cores: 2 });
  const s = at(T0 + 960);
  assert.equal(s.duration_s, 1);
  assert.equal(s.measured_s, 1);
  assert.equal(s.ops.find.ops_per_s, 20);
  // An operation started before the end and completed after it is counted, and so is its time.
  assert.equal(at(T0 + 1030).duration_s, 1.03);
  // A step without a scheduled end (bounded by its documents) ends when it was summed up, as before.
  assert.equal(at(T0 + 960, step(0, 2)).duration_s, 1.105);
});

test('buildSummary: group, repetition, profile, redacted uri, loader_limited', () => {
  const steps = [stepSummary({ step: step(0, 1), acc: acc(9, T0 + 1), endAt: T0 + 10000,
    stopReason: null, rate: null, cores: 2 })];
  const s = buildSummary(facts({ steps }));
  assert.equal(s.complete, true);
  assert.equal(s.exit_code, 0);
  assert.equal(s.group, 'g');
  assert.equal(s.repetition, 2);
  assert.equal(s.profile, 'laptop');
  assert.equal(s.loader.cpu_model, 'CPU');
  assert.equal(s.parameters.uri, 'mongodb://u:***@h:1/');
  assert.equal(s.parameters.workload.duration_s, 10);
  assert.equal(s.loader_limited, false);
  const running = buildSummary(facts({ complete: false, reason: 'running', running: true, endedAt: null }));
  assert.equal(running.exit_code, null);
  assert.equal(running.loader_limited, null, 'no step judged: unknown');
  const noOpts = buildSummary(facts({ opts: { uri: 'mongodb://h/' } }));
  assert.deepEqual([noOpts.group, noOpts.repetition, noOpts.profile], [null, 1, null]);
});

test('loaderLimited: true if any step, false only when every step was judged', () => {
  const L = (x) => ({ loader: { limited: x } });
  assert.equal(loaderLimited([L(false), L(true)]), true);
  assert.equal(loaderLimited([L(false), L(false)]), false);
  assert.equal(loaderLimited([L(false), L(null)]), null);
  assert.equal(loaderLimited([]), null);
});

test('second Ctrl-C (forced exit): finished steps and the one in progress, never twice, incomplete with both reasons', () => {
  const done = [stepSummary({ step: step(0, 1), acc: acc(99, T0 + 9000), endAt: T0 + 10000,
    stopReason: null, rate: null, cores: 2 })];
  const current = { step: step(1, 2), acc: acc(49, T0 + 12000) };
  let summarised = 0;
  const stepOf = (c) => { summarised++; return stepSummary({ ...c, endAt: T0 + 13000, stopReason: 'interrupted (SIGINT)', rate: null, cores: 2 }); };
  const steps = forcedSteps(done, current, stepOf);
  assert.deepEqual(steps.map((s) => [s.index, s.complete]), [[1, true], [2, false]]);
  assert.equal(steps[1].measured_s, 2);
  // The step in progress already pushed (the second signal came as it ended): not added again.
  assert.equal(forcedSteps(steps, current, stepOf).length, 2);
  assert.equal(summarised, 1);
  assert.equal(forcedSteps(done, null, stepOf).length, 1);
  const reason = forcedReason('interrupted (SIGINT)');
  const s = buildSummary(facts({ complete: false, reason, exitCode: 130, steps }));
  assert.equal(s.complete, false);
  assert.equal(s.exit_code, 130);
  assert.equal(s.reason, 'interrupted (SIGINT); then forced to exit by a second signal');
  assert.equal(s.steps.length, 2);
  assert.match(formatTable({ name: 'synthetic', engine: 'e', complete: false, steps, preload: null }), /synthetic on e \(INCOMPLETE\)[\s\S]*note: step 2 ended early/);
});

test('documents written: every write of the run (preload, warm-ups, measured steps), the divisor of the block writes over the invocation', () => {
  const { checkSummary } = require('../src/results/summary-schema');
  const writes = (ins, upd, warmIns, docs) => {
    const a = acc(0, T0 + 1);
    a.ops.insert = { ok: ins, err: 3, docs, hist: newHistogram(), intended: null };
    a.ops.update = { ok: upd, err: 0, hist: newHistogram(), intended: null };
    a.warm = { ops: { insert: { ok: warmIns, err: 0 }, find: { ok: 50, err: 0 } }, seconds: 1 };
    a.measuredFrom = T0 + 1000;
    return a;
  };
  // Inserts one document each, updates one each, the warm-up's inserts too; finds write nothing
  // and failed writes are not counted.
  const s1 = stepSummary({ step: step(0, 1), acc: writes(100, 40, 7), endAt: T0 + 10000,
    stopReason: null, rate: null, cores: 2 });
  assert.equal(s1.documents_written, 147);
  // A batch op (bulk_import) counts its documents, not its operations.
  const s2 = stepSummary({ step: step(1, 1), acc: writes(4, 0, 0, 4000), endAt: T0 + 20000,
    stopReason: null, rate: null, cores: 2 });
  assert.equal(s2.documents_written, 4000);
  const s = buildSummary(facts({ steps: [s1, s2], preload: { docs: 10 } }));
  assert.equal(s.documents_written, 10 + 147 + 4000);
  // ./run.sh fills the block writes on Compose; the loader leaves them null with the reason.
  assert.equal(s.block_writes, null);
  assert.match(s.block_writes_note, /only \.\/run\.sh on Compose/);
  checkSummary({ schema_version: 1, ...s });
  assert.throws(() => checkSummary({ schema_version: 1, ...s, block_writes: { cgroup_version: 3, bytes: {}, runs: [] } }), /block_writes/);
});
