'use strict';
// summary.json as this loader writes it: first the one schema (common/summary.schema.json, which
// the loader applies before each write and the report before each read: the types and what the
// report's figures need), then what the schema leaves open because the report also reads older
// summaries: the fields this loader always writes, and invariants between fields no schema states
// (percentiles in order, measured within duration, the capacity's steps are the run's steps).
// checkSummary throws naming the first field that is wrong.
const assert = require('node:assert/strict');
const { OPS } = require('../../src/kinds'); // every kind's op names
const schema = require('../../src/results/summary-schema');

const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const num = (v, name) => assert.ok(typeof v === 'number' && Number.isFinite(v), `${name}: number expected, got ${JSON.stringify(v)}`);
const numOrNull = (v, name) => v === null || num(v, name);
const str = (v, name) => assert.equal(typeof v, 'string', `${name}: string expected`);

// every figure present, a number or null (timeline lines have no schema), and in order
function checkLatency(l, name) {
  assert.ok(isObj(l), `${name}: object expected`);
  for (const k of ['count', 'mean', 'p50', 'p90', 'p99', 'p999', 'max']) {
    assert.ok(k in l, `${name}.${k} missing`);
    numOrNull(l[k], `${name}.${k}`);
  }
  if (l.count > 0) assert.ok((l.p50 === null || l.p50 <= l.p99) && (l.p90 === null || l.p90 <= l.p99) && l.p99 <= l.p999 && l.p999 <= l.max, `${name}: percentiles out of order`);
}

function checkSummary(s) {
  schema.checkSummary(s);
  if (s.complete) assert.equal(s.reason, null); else str(s.reason, 'reason');
  // exit_code: null only in the placeholder written at the start (the run never ended on its own)
  if (s.complete) assert.equal(s.exit_code, 0, 'exit_code of a complete run'); else numOrNull(s.exit_code, 'exit_code');
  str(s.experiment, 'experiment');
  str(s.engine, 'engine');
  assert.ok(['flag', 'server', 'product', 'none'].includes(s.engine_source), 'engine_source: flag | server | product | none');
  assert.ok('engine_reported' in s, 'engine_reported (the server\'s storage engine, or null)');
  if (s.engine_source === 'none') assert.match(s.engine, /^unknown(-.+)?$/, 'engine of a server that reports none: unknown-<what it reports>');
  assert.ok('started_at' in s, 'started_at: ISO time');
  // placement: where loader and members ran (src/run/placement.js); null for --uri.
  assert.ok('placement' in s, 'placement (or null)');
  if (s.placement !== null) {
    assert.ok('shared' in s.placement, 'placement.shared');
    str(s.placement.loader_cpus, 'placement.loader_cpus');
    str(s.placement.member_cpus, 'placement.member_cpus');
  }
  assert.ok(isObj(s.parameters), 'parameters');
  for (const k of ['database', 'collection', 'write_concern', 'read_preference', 'read_concern', 'seed', 'workload', 'preload', 'uri']) {
    assert.ok(k in s.parameters, `parameters.${k} missing`);
  }
  assert.ok(!/:[^/@]*[^*]@/.test(s.parameters.uri) || s.parameters.uri.includes('***'), 'parameters.uri: password redacted');
  if (s.server !== null) {
    assert.ok(isObj(s.server), 'server');
    assert.ok('version' in s.server, 'server.version');
    assert.ok('storage_engine' in s.server, 'server.storage_engine (null when not reported)');
    if (s.server.storage_engine === null) str(s.server.storage_engine_note, 'server.storage_engine_note');
    assert.ok(isObj(s.topology), 'topology');
    str(s.topology.kind, 'topology.kind');
  }
  assert.ok(isObj(s.images), 'images (empty when the loader did not start the cluster)');
  for (const [k, v] of Object.entries(s.images)) str(v, `images.${k}`);
  assert.ok(isObj(s.loader), 'loader');
  for (const k of ['version', 'node', 'driver', 'histogram']) str(s.loader[k], `loader.${k}`);
  // node_flags: the Node loader's (a --tool ycsb summary's loader is YCSB's JVM: no such field).
  if ('node_flags' in s.loader) assert.ok(Array.isArray(s.loader.node_flags) && s.loader.node_flags.every((f) => typeof f === 'string'), 'loader.node_flags: the node flags, an array of strings');
  // A sweep writes steps[]; a kind of shape 'cases' writes cases[] instead, each entry a step
  // entry plus its name and parameters (src/kinds/index.js).
  // (Callers that pass {...s, steps: s.cases} are checked on the cases, the same entries.)
  const list = 'cases' in s ? 'cases' : 'steps';
  assert.ok(Array.isArray(s[list]), list);
  for (const [i, st] of s[list].entries()) {
    const n = `${list}[${i}]`;
    if (list === 'cases') {
      str(st.name, `${n}.name`);
      assert.ok(isObj(st.parameters), `${n}.parameters`);
    }
    num(st.index, `${n}.index`);
    num(st.clients, `${n}.clients`);
    str(st.phase, `${n}.phase`);
    num(st.duration_s, `${n}.duration_s`);
    num(st.measured_s, `${n}.measured_s`);
    assert.ok(st.measured_s <= st.duration_s, `${n}.measured_s within duration_s`);
    str(st.rate_basis, `${n}.rate_basis`);
    assert.ok('complete' in st, `${n}.complete`);
    for (const [op, o] of Object.entries(st.ops)) {
      assert.ok(OPS.includes(op), `${n}.ops: unknown op ${op} (not an op of any kind)`);
      checkLatency(o.latency_us, `${n}.ops.${op}.latency_us`);
      if (o.intended_latency_us) checkLatency(o.intended_latency_us, `${n}.ops.${op}.intended_latency_us`);
    }
    assert.ok(isObj(st.loader), `${n}.loader`);
    for (const k of ['limited', 'contention', 'reasons']) assert.ok(k in st.loader, `${n}.loader.${k}`);
    if (st.loader.limited === null) assert.equal(st.loader.samples, 0, `${n}.loader: null verdict only without samples`);
    assert.ok(Array.isArray(st.loader.workers), `${n}.loader.workers`);
    // The server's side of the step (src/server-record/step-facts.js), where the record ran.
    if (st.write_cost) {
      // 0 only said so (an engine that writes no file for its documents: inMemory).
      assert.ok(st.write_cost.bytes_per_doc === null ? typeof st.write_cost.reason === 'string' : st.write_cost.bytes_per_doc > 0 || (st.write_cost.bytes_per_doc === 0 && typeof st.write_cost.zero_note === 'string'), `${n}.write_cost: bytes_per_doc, or null with reason, or 0 with zero_note`);
      if (st.write_cost.cpu_ms_per_1000_ops) assert.ok(st.write_cost.cpu_ms_per_1000_ops.value === null ? typeof st.write_cost.cpu_ms_per_1000_ops.reason === 'string' : st.write_cost.cpu_ms_per_1000_ops.value >= 0, `${n}.write_cost.cpu_ms_per_1000_ops`);
    }
    if (st.replication) {
      assert.ok(isObj(st.replication.lag_s) && Array.isArray(st.replication.state_changes), `${n}.replication`);
      assert.ok(st.replication.flagged === null || (Array.isArray(st.replication.flagged) && st.replication.flagged.length > 0), `${n}.replication.flagged: null or reasons`);
    }
  }
  // server_record (src/server-record/sampler.js): null with --server-record off.
  if (s.server_record) {
    assert.equal(s.server_record.file, 'server.ndjson');
    assert.ok(Array.isArray(s.server_record.members) && isObj(s.server_record.absent) && Array.isArray(s.server_record.not_recorded), 'server_record: members, absent, not_recorded');
  }
  assert.ok('loader_limited' in s, 'loader_limited');
  // --sla: the capacity search (src/experiment/sla.js capacityOf); absent without --sla.
  if (s.parameters.sla) checkCapacity(s.capacity, s[list]);
  else assert.ok(!('capacity' in s), 'capacity only with parameters.sla');
  assert.ok('published' in s, 'published (the seed\'s numbers, or null)');
  assert.ok(isObj(s.files), 'files');
}

// capacity: the SLA, the capacity (null: no rate passed), the clients, and one judged step per
// measured step, in order, each with its offered rate, what was achieved, the worst op's intended
// and service latency at the SLA's percentile, and passed or why not.
// (the types are the schema's; here: what the loader adds to it and how it ties to the steps)
function checkCapacity(c, steps) {
  assert.ok(isObj(c), 'capacity: object expected with parameters.sla');
  assert.ok(isObj(c.search), 'capacity.search');
  str(c.search.ended, 'capacity.search.ended (why the search stopped)');
  assert.equal(c.steps.length, steps.length, 'capacity.steps: one per measured step');
  for (const [i, st] of c.steps.entries()) {
    const n = `capacity.steps[${i}]`;
    assert.equal(st.offered_ops_per_s, steps[i].target_rate, `${n}: the step's offered rate (steps[${i}].target_rate)`);
    assert.ok('intended_us' in st && 'service_us' in st, `${n}.intended_us, service_us`);
    assert.ok(isObj(st.latency), `${n}.latency (per op: intended and service p50/p99/p99.9)`);
    for (const [op, l] of Object.entries(st.latency)) {
      for (const k of ['intended_us', 'service_us']) if (l[k] !== null) for (const p of ['p50', 'p99', 'p999']) numOrNull(l[k][p], `${n}.latency.${op}.${k}.${p}`);
    }
    if (st.passed) assert.equal(st.why, null, `${n}: a passing step has no why`);
    else str(st.why, `${n}.why`);
  }
  if (c.capacity_ops_per_s !== null) assert.ok(c.steps.some((st) => st.passed && st.offered_ops_per_s === c.capacity_ops_per_s), 'capacity: a rate that passed');
}

function checkTimelineLine(l) {
  assert.ok(!Number.isNaN(Date.parse(l.t)), 'timeline t');
  num(l.elapsed_s, 'timeline elapsed_s');
  num(l.interval_s, 'timeline interval_s');
  assert.equal(typeof l.partial, 'boolean', 'timeline partial');
  num(l.step, 'timeline step');
  num(l.clients, 'timeline clients');
  str(l.phase, 'timeline phase');
  assert.ok(isObj(l.ops), 'timeline ops');
  for (const [op, o] of Object.entries(l.ops)) {
    num(o.ops_per_s, `timeline ops.${op}.ops_per_s`);
    checkLatency(o.latency_us, `timeline ops.${op}.latency_us`);
  }
  assert.ok(isObj(l.loader) && Array.isArray(l.loader.workers), 'timeline loader');
}

module.exports = { checkSummary, checkTimelineLine };
