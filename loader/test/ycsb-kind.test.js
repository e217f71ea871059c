'use strict';
// experiments/ycsb-a.yaml through the loader CLI against mongo-java-server over TCP, at tiny
// sizes: the preload writes YCSB's records (keys, fields, binary values), the run phase records
// 'read' and 'update' per thread step, bounded by --duration or by --operations (YCSB's split of
// operationcount over threads), and bad input is refused in one line with exit 2.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { MongoClient, Binary } = require('mongodb');
const { runLoader, runLoaders, withServerAndResults } = require('./support/loader');
const { checkSummary, checkTimelineLine } = require('./support/summary-schema');
const { buildKeyName } = require('../src/ycsb/keys');
const { share } = require('../src/kinds/ycsb');

let server;
let results;
withServerAndResults(test, (s, r) => { server = s; results = r; });

const latest = (engine) => {
  const dir = path.join(results, 'ycsb-a', engine);
  const run = fs.readdirSync(dir).filter((f) => f !== 'latest').sort().pop();
  return { dir: path.join(dir, run), summary: JSON.parse(fs.readFileSync(path.join(dir, run, 'summary.json'), 'utf8')) };
};
const common = (engine) => ['--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--engine', engine, '--progress-interval', '1s'];

test('ycsb-a: YCSB records preloaded, read/update per thread step, ops/s in the timeline', async () => {
  const r = await runLoader(['ycsb-a', ...common('tiny'), '--records', '300', '--fields', '3', '--field-length', '20', '--threads', '1,2', '--duration', '1s']);
  assert.equal(r.code, 0, r.stderr);
  const { dir, summary } = latest('tiny');
  checkSummary(summary);
  assert.equal(summary.complete, true);
  assert.equal(summary.preload.docs, 300);
  assert.deepEqual(summary.parameters.params.records, 300);
  assert.deepEqual(summary.steps.map((s) => [s.phase, s.clients]), [['clients-1', 1], ['clients-2', 2]]);
  for (const s of summary.steps) {
    assert.deepEqual(Object.keys(s.ops).sort(), ['read', 'update']);
    assert.ok(s.ops.read.count > 0 && s.ops.update.count > 0, JSON.stringify(s.ops));
    assert.equal(s.ops.read.errors, 0, 'every read finds its record');
    assert.equal(s.ops.update.errors, 0, 'every update matches its record');
    // 50/50 mix: within 5 sigma of a binomial at these counts.
    const n = s.ops.read.count + s.ops.update.count;
    assert.ok(Math.abs(s.ops.read.count - n / 2) < 5 * Math.sqrt(n / 4), `read share ${s.ops.read.count}/${n}`);
  }
  const lines = fs.readFileSync(path.join(dir, 'timeline.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  for (const l of lines) checkTimelineLine(l);
  assert.ok(lines.some((l) => l.ops.read?.ops_per_s > 0 && l.ops.update?.ops_per_s > 0), 'the 1 s timeline shows read and update ops/s');

  // The records as YCSB's MongoDB binding writes them.
  const client = new MongoClient(server.uri);
  try {
    const col = client.db('ycsb').collection('usertable');
    assert.equal(await col.countDocuments(), 300);
    const doc = await col.findOne({ _id: buildKeyName(0) });
    assert.equal(doc._id, 'user6284781860667377211');
    assert.deepEqual(Object.keys(doc), ['_id', 'field0', 'field1', 'field2']);
    for (const f of ['field0', 'field1', 'field2']) {
      assert.ok(doc[f] instanceof Binary && doc[f].sub_type === 0, `${f} is BSON binary subtype 0`);
      assert.equal(doc[f].length(), 20);
      for (const b of doc[f].buffer) assert.ok(b >= 32 && b < 128, 'printable bytes as RandomByteIterator');
    }
    assert.ok(await col.findOne({ _id: buildKeyName(299) }), 'the last record');
  } finally {
    await client.close();
  }
});

test('ycsb-a --operations: each step does exactly that many operations, split as YCSB splits them', async () => {
  assert.deepEqual([0, 1, 2].map((id) => share(10, 3, id)), [4, 3, 3], 'Client.java: opcount / threads, +1 below opcount % threads');
  const r = await runLoader(['ycsb-a', ...common('ops'), '--records', '200', '--fields', '2', '--field-length', '10', '--threads', '1,3', '--operations', '301']);
  assert.equal(r.code, 0, r.stderr);
  const { summary } = latest('ops');
  checkSummary(summary);
  assert.equal(summary.parameters.params.operations_per_step, 301);
  assert.equal(summary.parameters.workload.durationMs ?? null, null, 'no duration bound with --operations');
  for (const s of summary.steps) assert.equal(s.ops.read.count + s.ops.update.count, 301, s.phase);
});

test('ycsb-a --rate: latency also from the intended start (measurement.interval=intended)', async () => {
  const r = await runLoader(['ycsb-a', ...common('rate'), '--records', '100', '--fields', '1', '--field-length', '10', '--threads', '2', '--duration', '1s', '--rate', '200']);
  assert.equal(r.code, 0, r.stderr);
  const { summary } = latest('rate');
  const [s] = summary.steps;
  assert.equal(s.target_rate, 200);
  for (const op of ['read', 'update']) assert.ok(s.ops[op].intended_latency_us?.count > 0, `${op} has intended latency`);
  const n = s.ops.read.count + s.ops.update.count;
  assert.ok(n > 50 && n < 300, `about 200 ops in 1 s at --rate 200, never more (got ${n})`);
});

test('ycsb-a bad input: exit 2, one line, nothing run', async () => {
  const cases = [
    [['--threads', '0'], /--threads: 0 is out of range 1\.\.1000/],
    [['--threads', '1,,2'], /--threads: '1,,2' is not a list/],
    [['--records', '3', '--threads', '1,4'], /--records 3 is below the largest --threads step \(4\)/],
    [['--records', '0'], /--records: 0 is out of range/],
    [['--fields', '0'], /--fields: 0 is out of range/],
    [['--field-length', 'x'], /--field-length: 'x' is not a whole number/],
    [['--operations', '10', '--duration', '1s'], /--duration and --operations both bound a step/],
    [['--operations', '2', '--threads', '4', '--records', '10'], /--operations 2 is below the largest --threads step/],
    [['--threads', '2', '--clients', '2'], /--threads and --clients are the same setting/],
    [['--preload-docs', '10'], /--preload-docs does not apply to ycsb-a/],
    [['--fields', '1000', '--field-length', '100000'], /BSON's limit/],
  ];
  // A ycsb flag on another experiment is named as not applying (r, started with the others).
  const [r, ...got] = await runLoaders([['experiment2', ...common('bad'), '--records', '10'],
    ...cases.map(([args]) => ['ycsb-a', ...common('bad'), ...args])]);
  for (const [i, [args, re]] of cases.entries()) {
    assert.equal(got[i].code, 2, `${args.join(' ')}: ${got[i].stderr}`);
    assert.match(got[i].stderr, re, args.join(' '));
    assert.equal(got[i].stderr.trim().split('\n').length, 1, `one line: ${got[i].stderr}`);
  }
  assert.equal(fs.existsSync(path.join(results, 'ycsb-a', 'bad')), false, 'no results folder');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--records does not apply to experiment2/);
});
