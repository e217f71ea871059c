'use strict';
// src/server-side.js on hand-made runs: medians per side, the throughput
// verdict's statistic with lower better, figures a line does not report left out (never 0), the
// data directory per document where ./run.sh recorded it, flagged steps carried through.
const test = require('node:test');
const assert = require('node:assert/strict');
const { serverSide, serverSideText } = require('../src/server-side');

// Each side's storage engine decides what its figures count (common/meanings.js): the run's
// footprint and step record the quantity ids, as the loader writes them.
const { meaningOf } = require('../../common/meanings');
const ENGINE = { wt: 'wiredTiger', mmap: 'mmapv1', rocks: 'rocksdb' };
function run(dir, side, { bpd, cpu, lag, disk, dirBytes, flagged = null, lagSource = 'lastAppliedWallTime' }) {
  const engine = ENGINE[side];
  return {
    dir, engine: side,
    footprint: { end: { documents: 1000, storage_engine: engine, bytes_per_doc: { logical: 250, engine_storage: disk }, quantities: { logical: 'bson_bytes', engine_storage: meaningOf('engine_storage', engine).quantity } }, seed_reference: null, data_dir_bytes: dirBytes ?? null },
    points: [{ name: 'clients-1', complete: true, server: { write_bytes_per_doc: bpd, write_quantity: meaningOf('write_bytes', engine).quantity, cpu_ms_per_1000_ops: cpu, lag_p99_s: lag, lag_quantity: meaningOf('lag', lagSource).quantity, flagged } }],
  };
}

const runs = [
  run('a1', 'wt', { bpd: 1000, cpu: 50, lag: 1, disk: 150, dirBytes: { 'shard01-a': 400000, 'shard01-b': 500000 } }),
  run('a2', 'wt', { bpd: 1100, cpu: 55, lag: 2, disk: 155, dirBytes: { 'shard01-a': 510000 } }),
  run('b1', 'mmap', { bpd: 3000, cpu: null, lag: 1, disk: 600, flagged: ['shard01-b left SECONDARY'], lagSource: 'optimeDate' }),
  run('b2', 'mmap', { bpd: 3100, cpu: null, lag: 30, disk: 610, lagSource: 'optimeDate' }),
];
const report = { experiments: [{ name: 'experiment1', sets: [{ id: 1, points: ['clients-1'], runs: runs.map((r) => ({ id: r.dir, side: r.engine })) }] }] };

// One quantity id is several engines' rows: a side is described by its own engine's, so
// MongoRocks' file writes read as its WAL, flushes and compactions, never as WiredTiger's block
// manager and log (the first row with that id, which the line used to print for every side).
test('not the same quantity: each side is described by its own engine\'s row', () => {
  const pair = [run('c1', 'rocks', { bpd: 3000, cpu: 10, lag: 1, disk: 300 }), run('c2', 'rocks', { bpd: 3100, cpu: 11, lag: 1, disk: 310 }), runs[2], runs[3]];
  const rep = { experiments: [{ name: 'experiment1', sets: [{ id: 1, points: ['clients-1'], runs: pair.map((r) => ({ id: r.dir, side: r.engine })) }] }] };
  const [sv] = serverSide(rep, pair);
  const v = sv.points[0].write_bytes_per_doc.verdicts[0];
  assert.equal(v.status, 'not-comparable');
  assert.match(v.sentence, new RegExp(`rocks counts ${meaningOf('write_bytes', 'rocksdb').measures.replace(/[()]/g, '\\$&')}`));
  assert.doesNotMatch(v.sentence, /rocks counts bytes written to the data files \(block manager\)/);
});

// The guards every verdict of the report passes: a step left out (common/step-exclusion.js) gives
// no sample of the server's cost at it, and two sides that ran one after the other no verdict.
test('server-side verdicts: left-out steps are no samples; sides not interleaved give no verdict', () => {
  const at = (r, minute) => ({ ...r, started_at: `2026-11-26T12:${String(minute).padStart(2, '0')}:00Z` });
  const same = [runs[0], runs[1], run('c1', 'rocks', { bpd: 3000, cpu: 10, lag: 1, disk: 300 }), run('c2', 'rocks', { bpd: 3100, cpu: 11, lag: 1, disk: 310 })];
  const setOf = (rs) => ({ experiments: [{ name: 'experiment1', sets: [{ id: 1, points: ['clients-1'], runs: rs.map((r) => ({ id: r.dir, side: r.engine })) }] }] });
  // the rocks steps left out for a shared host: no rocks sample, no verdict
  const shared = same.map((r) => (r.engine === 'rocks' ? { ...r, points: r.points.map((p) => ({ ...p, shared_host: ['the loader ran late'] })) } : r));
  const [a] = serverSide(setOf(shared), shared);
  assert.deepEqual(a.points[0].cpu_ms_per_1000_ops.sides.rocks, { median: null, samples: [], left_out: 2, quantity: meaningOf('cpu').quantity });
  // what a side counts is its engine's, its steps left out or not: wt's and mmap's write counters
  // still are not one quantity
  const unlike = [runs[0], runs[1], ...[runs[2], runs[3]].map((r) => ({ ...r, points: r.points.map((p) => ({ ...p, shared_host: ['late'] })) }))];
  assert.equal(serverSide(setOf(unlike), unlike)[0].points[0].write_bytes_per_doc.verdicts[0].status, 'not-comparable');
  assert.equal(a.points[0].cpu_ms_per_1000_ops.verdicts[0].status, 'no-verdict');
  // every wt run before every rocks run: not interleaved, the ratio kept
  const sequential = same.map((r, i) => at(r, i));
  const [b] = serverSide(setOf(sequential), sequential);
  const v = b.points[0].cpu_ms_per_1000_ops.verdicts[0];
  assert.equal(v.status, 'not-interleaved', v.sentence);
  assert.equal(v.verdict_if_interleaved, 'verdict');
  assert.match(v.sentence, /^server CPU ms per 1,000 operations: no verdict: wt ran before rocks \(ratio rocks\/wt [\d.]+, not interleaved/);
  // interleaved (wt, rocks, wt, rocks): the verdict stands
  const mixed = [0, 2, 1, 3].map((i, k) => at(same[i], k));
  assert.equal(serverSide(setOf(mixed), mixed)[0].points[0].cpu_ms_per_1000_ops.verdicts[0].status, 'verdict');
});

test('per side medians and a verdict with lower better where both sides count the same quantity; unreported figures have no sample and no verdict', () => {
  // wt against rocks: both write cost figures are bytes written to files (common/meanings.js).
  const same = [runs[0], runs[1], { ...run('c1', 'rocks', { bpd: 3000, cpu: 10, lag: 1, disk: 300 }) }, { ...run('c2', 'rocks', { bpd: 3100, cpu: 11, lag: 1, disk: 310 }) }];
  const rep = { experiments: [{ name: 'experiment1', sets: [{ id: 1, points: ['clients-1'], runs: same.map((r) => ({ id: r.dir, side: r.engine })) }] }] };
  const [sv] = serverSide(rep, same);
  const v = sv.points[0].write_bytes_per_doc.verdicts[0];
  assert.equal(v.status, 'verdict');
  assert.equal(v.lower, 'wt');
  assert.ok(v.ratio > 0.3 && v.ratio < 0.4 && v.ci[0] <= v.ratio && v.ratio <= v.ci[1], JSON.stringify(v));
  assert.match(v.sentence, /^bytes written to files per document written: wt is 0\.3\dx rocks \(95% CI /);
  const [s] = serverSide(report, runs);
  const [p] = s.points;
  assert.deepEqual(p.write_bytes_per_doc.sides.wt, { median: 1050, samples: [1000, 1100], quantity: 'file_write_bytes' });
  // wt against mmap: MMAPv1's counters are the journal plus copies into the mapped view, no disk
  // writes: one line of what each side counts, no ratio.
  const u = p.write_bytes_per_doc.verdicts[0];
  assert.equal(u.status, 'not-comparable');
  assert.equal(u.ratio, undefined);
  assert.match(u.sentence, /^bytes written to files per document written: not the same quantity, so no verdict: wt counts bytes written to the data files \(block manager\) and the journal \(log\); mmap counts journal bytes written, plus bytes copied into the mapped view/);
  assert.deepEqual(p.cpu_ms_per_1000_ops.sides.mmap, { median: null, samples: [], not_reported_in: 2 });
  assert.equal(p.cpu_ms_per_1000_ops.verdicts[0].status, 'no-verdict');
  assert.deepEqual(p.replication_flagged, [{ side: 'mmap', run: 'b1', reasons: ['shard01-b left SECONDARY'] }]);
  // Data directory per document: the largest member over the documents, only where recorded.
  assert.deepEqual(s.footprint.data_dir.sides.wt.samples, [500, 510]);
  assert.equal(s.footprint.data_dir.sides.mmap.not_reported_in, 2);
  const text = serverSideText([s]);
  assert.match(text, /experiment1 set 1 clients-1: REPLICATION on mmap \(b1\): shard01-b left SECONDARY/);
  // collStats storage: WiredTiger's files against MMAPv1's padded extents: no verdict, said.
  assert.equal(s.footprint.engine_storage.verdicts[0].status, 'not-comparable');
  assert.match(s.footprint.engine_storage.verdicts[0].sentence, /^collStats storageSize \+ totalIndexSize per document \(end of run\): not the same quantity, so no verdict: wt counts the size of the collection's and its indexes' WiredTiger files/);
  // Logical: the BSON on both: compared (equal here: no difference shown).
  assert.equal(s.footprint.logical.verdicts[0].status, 'no-difference');
  // Lag: lastAppliedWallTime (ms) against the heartbeat optime (whole seconds): no verdict.
  assert.equal(p.lag_p99_s.verdicts[0].status, 'not-comparable');
  assert.match(p.lag_p99_s.verdicts[0].sentence, /heartbeat/);
  assert.doesNotMatch(text.replace(/\n\s+/g, ' '), / is \d\.\d+x /, 'no ratio between unlike quantities anywhere');
});

test('data directory: compared between engines that keep their data on disk; inMemory says why not', () => {
  const mem = (dir, bytes) => {
    const r = run(dir, 'wt', { bpd: 0, cpu: 1, lag: 0, disk: 250, dirBytes: { 'shard01-a': bytes } });
    r.engine = 'mem';
    r.footprint.end.storage_engine = 'inMemory';
    return r;
  };
  const rs = [runs[0], runs[1], mem('m1', 20000), mem('m2', 21000)];
  const rep = { experiments: [{ name: 'experiment1', sets: [{ id: 1, points: ['clients-1'], runs: rs.map((r) => ({ id: r.dir, side: r.engine })) }] }] };
  const [s] = serverSide(rep, rs);
  const v = s.footprint.data_dir.verdicts[0];
  assert.equal(v.status, 'not-comparable');
  assert.match(v.sentence, /mem counts no known quantity/);
});

test('a set where no run recorded the server is left out', () => {
  const bare = runs.map((r) => ({ ...r, footprint: null, points: [{ name: 'clients-1', server: null }] }));
  assert.deepEqual(serverSide(report, bare), []);
});

test("the appendix's cache and dirty MB are the lab's MB (10^6 bytes), nulls kept", () => {
  const { serverSeries } = require('../src/server-side');
  const s = serverSeries([
    { t: '2026-01-01T00:00:00.000Z', member: 'a:1', role: 'shard', wt: { cache_bytes: 268435456, cache_dirty_bytes: 5e6, checkpoint_running: 0 }, repl: { state: 'PRIMARY' } },
    { t: '2026-01-01T00:00:01.000Z', member: 'b:1', role: 'shard', repl: { state: 'SECONDARY', lag_s: 1 } },
  ]);
  assert.equal(s[0].cache_mb, 268.4);
  assert.equal(s[0].dirty_mb, 5);
  assert.equal(s[1].cache_mb, null);
  assert.equal(s[1].s, 1);
});

test('lag from the heartbeat optime on both sides: values within its 2 s floor give no verdict, said so', () => {
  const rs = [
    run('m1', 'mmap', { bpd: 1, cpu: null, lag: 1, disk: 600, lagSource: 'optimeDate' }), run('m2', 'mmap', { bpd: 1, cpu: null, lag: 2, disk: 600, lagSource: 'optimeDate' }),
    run('r1', 'rocks', { bpd: 1, cpu: null, lag: 2, disk: 300, lagSource: 'optimeDate' }), run('r2', 'rocks', { bpd: 1, cpu: null, lag: 1, disk: 300, lagSource: 'optimeDate' }),
  ];
  const rep = { experiments: [{ name: 'experiment1', sets: [{ id: 1, points: ['clients-1'], runs: rs.map((r) => ({ id: r.dir, side: r.engine })) }] }] };
  const v = serverSide(rep, rs)[0].points[0].lag_p99_s.verdicts[0];
  assert.equal(v.status, 'no-verdict');
  assert.match(v.sentence, /within the 2 s the heartbeat optime cannot resolve/);
});

// Block writes as ./run.sh records them (summary.json block_writes): one span per loader
// invocation, shared by its repetitions.
function blockRun(dir, side, { perDoc, version, span = dir, engine = ENGINE[side] }) {
  const r = run(dir, side in ENGINE ? side : 'wt', { bpd: null, cpu: null, lag: null, disk: null });
  r.engine = side;
  r.footprint.end.storage_engine = engine;
  r.block_writes = { cgroup_version: version, bytes: { 'shard01-a': perDoc * 1000 }, absent: {}, runs: [`results/x/${span}`], documents_written: 1000, bytes_per_doc: perDoc, caveat: null };
  return r;
}
const blockSet = (rs) => serverSide({ experiments: [{ name: 'experiment1', sets: [{ id: 1, points: ['clients-1'], runs: rs.map((r) => ({ id: r.dir, side: r.engine })) }] }] }, rs)[0];

test('block writes: one quantity on every engine (inMemory too), one sample per loader invocation, a verdict between two cgroup v2 sides', () => {
  const s = blockSet([
    // wt: two repetitions of one invocation (one span) and a second invocation
    blockRun('w1', 'wt', { perDoc: 1000, version: 2, span: 'inv1' }), blockRun('w2', 'wt', { perDoc: 1000, version: 2, span: 'inv1' }), blockRun('w3', 'wt', { perDoc: 1100, version: 2 }),
    blockRun('m1', 'mem', { perDoc: 50, version: 2, engine: 'inMemory' }), blockRun('m2', 'mem', { perDoc: 55, version: 2, engine: 'inMemory' }),
  ]);
  assert.deepEqual(s.block_writes.sides.wt, { median: 1050, samples: [1000, 1100], quantity: 'cgroup_block_write_bytes' });
  const [v] = s.block_writes.verdicts;
  assert.equal(v.status, 'verdict');
  assert.equal(v.lower, 'mem');
  assert.match(v.sentence, /^block-device bytes written per document written \(largest shard member, its cgroup\): mem is 0\.0\dx wt \(95% CI /);
  assert.doesNotMatch(v.sentence, /lower bound/);
  assert.match(serverSideText([s]), /experiment1 set 1: block-device bytes written per document written .*mem is 0\.0\dx wt/s);
});

test('block writes under cgroup v1 on both sides: the verdict says it is a lower bound; a v1 side against a v2 side: no verdict, what each counts said', () => {
  const v1 = blockSet([
    blockRun('w1', 'wt', { perDoc: 1000, version: 1 }), blockRun('w2', 'wt', { perDoc: 1100, version: 1 }),
    blockRun('r1', 'rocks', { perDoc: 3000, version: 1 }), blockRun('r2', 'rocks', { perDoc: 3100, version: 1 }),
  ]).block_writes.verdicts[0];
  assert.equal(v1.status, 'verdict');
  assert.match(v1.sentence, /: wt is 0\.3\dx rocks \(95% CI .*\); measured under cgroup v1 on wt and rocks: a lower bound, as buffered writeback by the kernel's flusher threads is charged to the root cgroup/);
  const mixed = blockSet([
    blockRun('w1', 'wt', { perDoc: 1000, version: 1 }), blockRun('w2', 'wt', { perDoc: 1100, version: 1 }),
    blockRun('r1', 'rocks', { perDoc: 3000, version: 2 }), blockRun('r2', 'rocks', { perDoc: 3100, version: 2 }),
  ]);
  const [v] = mixed.block_writes.verdicts;
  assert.equal(v.status, 'not-comparable');
  assert.equal(v.ratio, undefined);
  assert.match(v.sentence, /not the same quantity, so no verdict: wt counts bytes the member's container itself submitted to the disk holding its data directory \(cgroup v1 blkio Write of that device alone, .*\), a lower bound: .*; rocks counts bytes the member's container wrote to the disk holding its data directory \(cgroup v2 io\.stat wbytes of that device alone: .*\)/);
  assert.doesNotMatch(serverSideText([mixed]).replace(/\n\s+/g, ' '), / is \d\.\d+x /);
});

test('block writes reach the comparison from summary.json as ./run.sh wrote them (normalise keeps block_writes)', () => {
  const { normalise } = require('../src/normalise');
  const summary = (engine, perDoc, dir) => ({ schema_version: 1, complete: true, experiment: 'experiment1', engine, steps: [],
    block_writes: { cgroup_version: 2, bytes: { 'shard01-a': perDoc * 1000 }, absent: {}, runs: [dir], documents_written: 1000, bytes_per_doc: perDoc, caveat: null } });
  const rs = [['wt', 1000, 'a'], ['wt', 1100, 'b'], ['rocks', 3000, 'c'], ['rocks', 3100, 'd']].map(([e, v, dir]) => normalise(summary(e, v, dir), [], dir));
  const s = blockSet(rs);
  assert.deepEqual(s.block_writes.sides.rocks.samples, [3000, 3100]);
  assert.equal(s.block_writes.verdicts[0].status, 'verdict');
});

// MongoRocks' index size starts again from its compressed SST files at each open (mongo-rocks
// v3.6 rocks_index.cpp RocksIndexBase): between two MongoRocks sides the verdict says the figure
// moves across a restart, which the report cannot see.
test("collStats storage between two MongoRocks sides: the verdict says the figure moves across a member's restart", () => {
  const rocks = (dir, side, disk) => ({ ...run(dir, 'rocks', { bpd: 1, cpu: 1, lag: 1, disk }), engine: side });
  const rs = [rocks('r1', 'before', 300), rocks('r2', 'before', 310), rocks('r3', 'after', 200), rocks('r4', 'after', 205)];
  const rep = { experiments: [{ name: 'experiment1', sets: [{ id: 1, points: ['clients-1'], runs: rs.map((r) => ({ id: r.dir, side: r.engine })) }] }] };
  const [v] = serverSide(rep, rs)[0].footprint.engine_storage.verdicts;
  assert.notEqual(v.status, 'not-comparable');
  assert.match(v.sentence, /moves across a member's restart with no workload change \(.*compressed files/);
  // a quantity that does not move says nothing of restarts
  const [w] = serverSide(report, runs)[0].footprint.logical.verdicts;
  assert.doesNotMatch(w.sentence, /restart/);
});
