'use strict';
// src/server-side.js on hand-made runs (issue 39 item 5): medians per side, the throughput
// verdict's statistic with lower better, figures a line does not report left out (never 0), the
// data directory per document where ./run.sh recorded it, flagged steps carried through.
const test = require('node:test');
const assert = require('node:assert/strict');
const { serverSide, serverSideText } = require('../src/server-side');

function run(dir, side, { bpd, cpu, lag, disk, dirBytes, flagged = null }) {
  return {
    dir, engine: side,
    footprint: { end: { documents: 1000, bytes_per_doc: { logical: 250, on_disk_with_indexes: disk } }, seed_reference: null, data_dir_bytes: dirBytes ?? null },
    points: [{ name: 'clients-1', server: { write_bytes_per_doc: bpd, cpu_ms_per_1000_ops: cpu, lag_p99_s: lag, flagged } }],
  };
}

const runs = [
  run('a1', 'wt', { bpd: 1000, cpu: 50, lag: 1, disk: 150, dirBytes: { 'shard01-a': 400000, 'shard01-b': 500000 } }),
  run('a2', 'wt', { bpd: 1100, cpu: 55, lag: 2, disk: 155, dirBytes: { 'shard01-a': 510000 } }),
  run('b1', 'mmap', { bpd: 3000, cpu: null, lag: 1, disk: 600, flagged: ['shard01-b left SECONDARY'] }),
  run('b2', 'mmap', { bpd: 3100, cpu: null, lag: 30, disk: 610 }),
];
const report = { experiments: [{ name: 'experiment1', sets: [{ id: 1, points: ['clients-1'], runs: runs.map((r) => ({ id: r.dir, engine: r.engine })) }] }] };

test('per side medians and a verdict with lower better; unreported figures have no sample and no verdict', () => {
  const [s] = serverSide(report, runs);
  const [p] = s.points;
  assert.deepEqual(p.write_bytes_per_doc.sides.wt, { median: 1050, samples: [1000, 1100] });
  const v = p.write_bytes_per_doc.verdicts[0];
  assert.equal(v.status, 'verdict');
  assert.equal(v.lower, 'wt');
  assert.ok(v.ratio > 0.3 && v.ratio < 0.4 && v.ci[0] <= v.ratio && v.ratio <= v.ci[1], JSON.stringify(v));
  assert.match(v.sentence, /^engine bytes written per document: wt is 0\.3\dx mmap \(95% CI /);
  assert.deepEqual(p.cpu_ms_per_1000_ops.sides.mmap, { median: null, samples: [], not_reported_in: 2 });
  assert.equal(p.cpu_ms_per_1000_ops.verdicts[0].status, 'no-verdict');
  assert.deepEqual(p.replication_flagged, [{ side: 'mmap', run: 'b1', reasons: ['shard01-b left SECONDARY'] }]);
  // Data directory per document: the largest member over the documents, only where recorded.
  assert.deepEqual(s.footprint.data_dir.sides.wt.samples, [500, 510]);
  assert.equal(s.footprint.data_dir.sides.mmap.not_reported_in, 2);
  const text = serverSideText([s]);
  assert.match(text, /experiment1 set 1 clients-1: REPLICATION on mmap \(b1\): shard01-b left SECONDARY/);
  assert.match(text, /bytes per document on disk with indexes \(end of run\): wt is 0\.2\dx mmap/);
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
