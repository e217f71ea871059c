'use strict';
// report.json computed from hand-made results folders with known values (support/fixtures.js): the
// t interval against textbook numbers (df 4, t 2.776); ratio, CI and sentence; one repetition ->
// no verdict; "CI spans 1.0"; two hosts merged with known histograms (900 x 100 us + 100 x
// 10,000 us -> p50 100 us, p99 10,000 us; an average would say ~5,000); no average when a
// histogram is missing; differing hosts not merged; repetitions pool histograms; incomplete and
// loader-limited handling; an unknown schema_version named and skipped; differing parameters
// named; published reference series; a point list of `cases`; speed/safety rows and sentence;
// filters.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { tmpDir, makeRun, makeFailover, histogramOf } = require('./support/fixtures');
const { readAll } = require('../src/read');
const { buildReport } = require('../src/compare');
const { ratioCI, median } = require('../src/stats');
const { percentiles } = require('../src/hist');

const build = (root, filter) => buildReport(readAll([root], filter || {}));
const ops2 = (r, lat) => ({ find: { rate: r, lat }, update: { rate: r } });

test('ratioCI: Welch t on logs, textbook numbers (df 4, t 2.776)', () => {
  // log a = 1,2,3 and log b = 0,1,2: difference 1, both variances 1, se sqrt(2/3), Welch df 4
  const a = [1, 2, 3].map(Math.exp);
  const b = [0, 1, 2].map(Math.exp);
  const ci = ratioCI(a, b);
  assert.ok(Math.abs(ci.df - 4) < 1e-9, `df ${ci.df}`);
  const half = 2.7764451051977987 * Math.sqrt(2 / 3);
  assert.ok(Math.abs(ci.low - Math.exp(1 - half)) < 1e-9, `low ${ci.low}`);
  assert.ok(Math.abs(ci.high - Math.exp(1 + half)) < 1e-9, `high ${ci.high}`);
  // the headline is the ratio the interval describes: of geometric means, exp(mean log difference)
  assert.ok(Math.abs(ci.ratio - Math.exp(1)) < 1e-12, `ratio ${ci.ratio}`);
  assert.ok(ci.low < ci.ratio && ci.ratio < ci.high);
  assert.equal(median([3, 1, 2, 10]), 2.5);
});

test('verdict: ratio of geometric means, its 95% CI and the plain sentence; one repetition says no verdict', () => {
  const root = tmpDir();
  // total ops/s = find + update = 2 x rate
  [1000, 1050, 980].forEach((r, i) => makeRun(root, { engine: 'wiredtiger', stamp: `w${i}`, group: 'gw', repetition: i + 1, steps: [{ name: 'clients-1', ops: ops2(r) }] }));
  [1800, 1850, 1790].forEach((r, i) => makeRun(root, { engine: 'inmemory', stamp: `i${i}`, group: 'gi', repetition: i + 1, steps: [{ name: 'clients-1', ops: ops2(r) }] }));
  makeRun(root, { engine: 'rocks', stamp: 'r0', steps: [{ name: 'clients-1', ops: ops2(1500) }] });
  const rep = build(root);
  const [set] = rep.experiments[0].sets;
  assert.deepEqual(set.sides, ['inmemory', 'rocks', 'wiredtiger']);
  const v = set.verdicts.find((x) => x.sides.includes('inmemory') && x.sides.includes('wiredtiger'));
  assert.equal(v.status, 'verdict');
  assert.equal(v.faster, 'inmemory');
  const expected = ratioCI([3600, 3700, 3580], [2000, 2100, 1960]);
  const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
  assert.ok(Math.abs(v.ratio - geo([3600, 3700, 3580]) / geo([2000, 2100, 1960])) < 1e-12, `ratio ${v.ratio}`);
  assert.equal(v.ratio, expected.ratio);
  assert.deepEqual(v.ci, [expected.low, expected.high]);
  assert.ok(v.ci[0] > 1.6 && v.ci[1] < 2.0, `CI ${v.ci}`);
  assert.equal(v.sentence, `clients-1: inmemory is 1.80x wiredtiger (95% CI ${expected.low.toFixed(2)}-${expected.high.toFixed(2)}, 3 runs each)`);
  const one = set.verdicts.find((x) => x.sides.includes('rocks') && x.sides.includes('wiredtiger'));
  assert.equal(one.status, 'no-verdict');
  assert.equal(one.ratio, null);
  assert.match(one.sentence, /no verdict possible between rocks and wiredtiger \(rocks has 1 usable run\(s\), wiredtiger 3; a confidence interval needs at least 2 repetitions/);
});

test('verdict: overlapping engines give "no difference shown (CI spans 1.0)"', () => {
  const root = tmpDir();
  [1000, 1200, 900].forEach((r, i) => makeRun(root, { engine: 'a', stamp: `a${i}`, steps: [{ name: 's', ops: { find: { rate: r } } }] }));
  [1010, 1150, 950].forEach((r, i) => makeRun(root, { engine: 'b', stamp: `b${i}`, steps: [{ name: 's', ops: { find: { rate: r } } }] }));
  const [v] = build(root).experiments[0].sets[0].verdicts;
  assert.equal(v.status, 'no-difference');
  assert.ok(v.ci[0] < 1 && v.ci[1] > 1);
  assert.equal(v.sentence, 's: no difference shown between b and a (ratio 1.01, 95% CI 0.75-1.36 spans 1.0; 3 runs each)');
});

test('several hosts, one run: same group and repetition merge; percentiles from the merged histograms', () => {
  const root = tmpDir();
  // host A: 900 finds at 100 us; host B: 100 finds at 10,000 us. Merged: p50 100 us, p90 100 us,
  // p99 10,000 us (within HdrHistogram's 3 digits). Averaging the hosts' p99 would give ~5,000.
  const a = makeRun(root, { engine: 'wt', stamp: 'hA', host: 'hostA', group: 'g1', repetition: 1, steps: [{ name: 'clients-2', clients: 2, ops: { find: { rate: 90, lat: [[100, 900]] } } }] });
  const b = makeRun(root, { engine: 'wt', stamp: 'hB', host: 'hostB', group: 'g1', repetition: 1, parameters: { uri: 'mongodb://other:27017/' }, steps: [{ name: 'clients-2', clients: 2, ops: { find: { rate: 10, lat: [[10000, 100]] } } }] });
  const rep = build(root);
  const [set] = rep.experiments[0].sets;
  assert.equal(set.runs.length, 1, 'two hosts -> one result');
  assert.equal(set.runs[0].hosts, 2);
  assert.equal(set.runs[0].id, [a, b].sort().join(' + '));
  const agg = set.aggregates[0];
  assert.equal(agg.clients, 4, 'clients add up');
  assert.equal(agg.ops.find.ops_per_s_median, 100, 'rates add up (the hosts ran at the same time)');
  assert.equal(agg.ops_per_s.median, 100, 'the step\'s total adds up the merged operations');
  const l = agg.ops.find.latency_us;
  assert.equal(l.count, 1000);
  assert.equal(l.p50, 100);
  assert.equal(l.p90, 100);
  assert.ok(Math.abs(l.p99 - 10000) <= 10, `p99 ${l.p99}`);
  assert.ok(Math.abs(l.max - 10000) <= 10, `max ${l.max}`);
  assert.match(agg.ops.find.latency_source, /histograms of 1 run\(s\) merged/);
  // the two hosts' timelines stay apart
  assert.equal(set.timelines.length, 2);
});

// Every exclusion of a host's step is the merged point's: a pause or a step too short on one host
// once came from the first host only, and the merged run was counted.
test('several hosts: a pause or a too-short step on any host leaves the merged point out', () => {
  const root = tmpDir();
  const odd = [];
  for (const engine of ['a', 'b']) for (let rep = 1; rep <= 3; rep++) for (const host of ['hostA', 'hostB']) {
    const dir = makeRun(root, { engine, stamp: `${engine}${rep}${host}`, group: `g-${engine}`, repetition: rep, host,
      steps: [{ name: 'clients-1', ops: { insert: { rate: (engine === 'a' ? 1000 : 900) * (1 + rep / 100) } } }] });
    if (engine === 'a' && host === 'hostB') odd.push(dir);
  }
  const patch = (dir, f) => { const file = `${dir}/summary.json`; const s = JSON.parse(fs.readFileSync(file, 'utf8')); f(s); fs.writeFileSync(file, JSON.stringify(s)); };
  patch(odd[0], (s) => { s.steps[0].pauses = [{ start: '2026-11-01T00:00:02Z', length_s: 4 }]; });
  patch(odd[1], (s) => { s.steps[0].too_short = 'under one second'; });
  const rep = build(root);
  assert.deepEqual(rep.experiments[0].sets[0].runs.map((r) => r.hosts), [2, 2, 2, 2, 2, 2]);
  const row = rep.summary[0];
  assert.deepEqual(row.usable, [1, 3], JSON.stringify(row));
  assert.notEqual(row.status, 'verdict', row.sentence);
});

test('several hosts: a host without a histogram gives no merged percentile (never an average)', () => {
  const root = tmpDir();
  makeRun(root, { engine: 'wt', stamp: 'hA', host: 'hostA', group: 'g1', repetition: 1, steps: [{ name: 's', ops: { find: { rate: 90, lat: [[100, 900]] } } }] });
  makeRun(root, { engine: 'wt', stamp: 'hB', host: 'hostB', group: 'g1', repetition: 1, steps: [{ name: 's', ops: { find: { rate: 10, p: { p50: 9000, p99: 10000, p999: 10000 } } } }] });
  const agg = build(root).experiments[0].sets[0].aggregates[0];
  assert.equal(agg.ops.find.latency_us.p99, null);
});

test('several hosts whose parameters differ are not merged, and the note says which parameter', () => {
  const root = tmpDir();
  makeRun(root, { engine: 'wt', stamp: 'hA', host: 'hostA', group: 'g1', repetition: 1, steps: [{ name: 's', ops: { find: { rate: 1 } } }] });
  makeRun(root, { engine: 'wt', stamp: 'hB', host: 'hostB', group: 'g1', repetition: 1, parameters: { seed: 5 }, steps: [{ name: 's', ops: { find: { rate: 1 } } }] });
  const rep = build(root);
  assert.equal(rep.notes.length, 1);
  assert.match(rep.notes[0], /hosts ran different parameters \(seed: 4 vs 5\); not merged/);
});

test('repetitions pool their histograms for the latency shown', () => {
  const root = tmpDir();
  makeRun(root, { engine: 'wt', stamp: 'r1', group: 'g', repetition: 1, steps: [{ name: 's', ops: { find: { rate: 1, lat: [[200, 50]] } } }] });
  makeRun(root, { engine: 'wt', stamp: 'r2', group: 'g', repetition: 2, steps: [{ name: 's', ops: { find: { rate: 1, lat: [[400, 50]] } } }] });
  const agg = build(root).experiments[0].sets[0].aggregates[0];
  assert.equal(agg.runs, 2);
  assert.deepEqual(agg.ops.find.latency_us, percentiles(histogramOf([[200, 50], [400, 50]])));
});

test('incomplete runs are listed as incomplete and never mixed into numbers or verdicts', () => {
  const root = tmpDir();
  [100, 110].forEach((r, i) => makeRun(root, { engine: 'a', stamp: `a${i}`, steps: [{ name: 's', ops: { find: { rate: r } } }] }));
  [200, 210].forEach((r, i) => makeRun(root, { engine: 'b', stamp: `b${i}`, steps: [{ name: 's', ops: { find: { rate: r } } }] }));
  makeRun(root, { engine: 'a', stamp: 'a9', complete: false, steps: [{ name: 's', ops: { find: { rate: 100000 } } }] });
  const [set] = build(root).experiments[0].sets;
  assert.equal(set.incomplete.length, 1);
  assert.equal(set.incomplete[0].complete, false);
  assert.match(set.incomplete[0].reason, /lost the server/);
  const a = set.aggregates.find((x) => x.side === 'a');
  assert.equal(a.runs, 2);
  assert.equal(a.ops_per_s.median, 105);
  assert.equal(set.verdicts[0].runs.join(','), '2,2');
  assert.ok(set.timelines.some((t) => !t.complete), 'its timeline is still drawn, marked incomplete');
});

test('a loader-limited step is marked and left out of verdicts', () => {
  const root = tmpDir();
  [100, 110, 105].forEach((r, i) => makeRun(root, { engine: 'a', stamp: `a${i}`, steps: [{ name: 's1', ops: { find: { rate: r } } }, { name: 's2', limited: true, ops: { find: { rate: r } } }] }));
  [200, 210, 190].forEach((r, i) => makeRun(root, { engine: 'b', stamp: `b${i}`, steps: [{ name: 's1', limited: i === 0, ops: { find: { rate: r } } }, { name: 's2', ops: { find: { rate: r } } }] }));
  const [set] = build(root).experiments[0].sets;
  const s2 = set.verdicts.find((v) => v.point === 's2');
  assert.equal(s2.status, 'excluded');
  assert.match(s2.sentence, /no verdict possible between a and b \(a has 0 usable run\(s\), b 3; a confidence interval needs at least 2 repetitions of each \(--repeat\); a: the loader was the limit in 3 of 3 run\(s\), excluded\)/);
  const s1 = set.verdicts.find((v) => v.point === 's1');
  assert.equal(s1.status, 'verdict');
  assert.deepEqual(s1.runs, [3, 3]);
  assert.deepEqual(s1.samples.b, [210, 190], 'the limited repetition is not a sample');
  assert.match(s1.sentence, /3 and 2 runs|2 and 3 runs/);
  assert.match(s1.sentence, /b: the loader was the limit in 1 of 3 run\(s\), those runs excluded/);
  assert.equal(set.aggregates.find((x) => x.side === 'a' && x.point === 's2').loader_limited_runs, 3);
});

test('unknown schema_version is named and skipped; unreadable summary too', () => {
  const root = tmpDir();
  makeRun(root, { engine: 'a', stamp: 'ok', steps: [{ name: 's', ops: { find: { rate: 1 } } }] });
  const dir = makeRun(root, { engine: 'a', stamp: 'v2', schema_version: 2, steps: [] });
  const bad = makeRun(root, { engine: 'a', stamp: 'bad', steps: [] });
  fs.writeFileSync(`${bad}/summary.json`, '{ torn');
  const rep = build(root);
  assert.equal(rep.experiments[0].sets[0].runs.length, 1);
  const v2 = rep.skipped.find((s) => s.dir === dir);
  assert.equal(v2.why, 'schema_version 2 is not one this report reads (1)');
  assert.match(rep.skipped.find((s) => s.dir === bad).why, /summary\.json is not whole JSON \(.*\): cut off while written\?/);
});

// Fields the schema leaves open (a step's stability, replication) in a shape no loader writes: that
// folder is named and skipped; the other runs are still reported (it once ended the whole report
// with a TypeError naming no file).
test('a summary whose open fields hold what no loader writes is named and skipped, the others reported', () => {
  const shapes = [{ stability: { seconds: 60, dip_seconds: 1, dips: [null] } }, { replication: { lag_s: { 'shard01-b': null } } },
    { stability: { seconds: 60, dip_seconds: 1, dips: [{ start: 'x', causes: [null] }] } }];
  for (const shape of shapes) {
    const root = tmpDir();
    makeRun(root, { engine: 'a', stamp: 'ok', steps: [{ name: 's', ops: { find: { rate: 1 } } }] });
    const odd = makeRun(root, { engine: 'a', stamp: 'odd', steps: [{ name: 's', ops: { find: { rate: 1 } } }] });
    const file = `${odd}/summary.json`;
    const summary = JSON.parse(fs.readFileSync(file, 'utf8'));
    Object.assign(summary.steps[0], shape);
    fs.writeFileSync(file, JSON.stringify(summary));
    const rep = build(root);
    assert.equal(rep.experiments[0].sets[0].runs.length, 1, JSON.stringify(shape));
    assert.match(rep.skipped.find((x) => x.dir === odd)?.why ?? '', /^summary\.json: a field in a shape this report cannot read \(Cannot read properties of null/, JSON.stringify(shape));
  }
});

test('runs whose parameters differ are not compared, and the report says which parameter differs', () => {
  const root = tmpDir();
  makeRun(root, { engine: 'a', stamp: 'a', steps: [{ name: 's', ops: { find: { rate: 1 } } }] });
  makeRun(root, { engine: 'b', stamp: 'b', parameters: { write_concern: { w: 'majority' } }, steps: [{ name: 's', ops: { find: { rate: 1 } } }] });
  const ex = build(root).experiments[0];
  assert.equal(ex.sets.length, 2);
  for (const s of ex.sets) assert.equal(s.verdicts.length, 0);
  assert.equal(ex.differences.length, 1);
  assert.deepEqual(ex.differences[0].diffs.map((d) => d.key), ['write_concern.w']);
  assert.match(ex.differences[0].sentence, /write_concern\.w: 1 vs "majority"/);
});

test('a run through mongos and one straight to a member, or an emulated and a native one, are never one comparison', () => {
  const root = tmpDir();
  const steps = [{ name: 's', ops: { find: { rate: 100 } } }];
  for (const rep of [1, 2]) {
    makeRun(root, { engine: 'a', stamp: `a${rep}`, group: 'ga', repetition: rep, steps, extra: { topology: { kind: 'mongos', shards: [{ id: 's1' }] } } });
    makeRun(root, { engine: 'b', stamp: `b${rep}`, group: 'gb', repetition: rep, steps: [{ name: 's', ops: { find: { rate: 50 } } }] });
  }
  let ex = build(root).experiments[0];
  assert.equal(ex.sets.length, 2, 'the mongos runs and the direct runs share a set');
  for (const s of ex.sets) assert.equal(s.verdicts.length, 0);
  assert.match(ex.differences[0].sentence, /run\.path: "(mongos|standalone)" vs "(mongos|standalone)"/);
  // the same path, one side emulated (summary.json storage.emulated: QEMU or Rosetta)
  const root2 = tmpDir();
  for (const rep of [1, 2]) {
    makeRun(root2, { engine: 'a', stamp: `a${rep}`, group: 'ga', repetition: rep, steps, extra: { storage: { emulated: true } } });
    makeRun(root2, { engine: 'b', stamp: `b${rep}`, group: 'gb', repetition: rep, steps: [{ name: 's', ops: { find: { rate: 50 } } }], extra: { storage: { emulated: false } } });
  }
  ex = build(root2).experiments[0];
  assert.equal(ex.sets.length, 2, 'an emulated run and a native one share a set');
  assert.match(ex.differences[0].sentence, /run\.emulated: (true vs absent|absent vs true)/);
  // both native on one path: one set, a verdict
  const root3 = tmpDir();
  for (const rep of [1, 2]) {
    makeRun(root3, { engine: 'a', stamp: `a${rep}`, group: 'ga', repetition: rep, steps });
    makeRun(root3, { engine: 'b', stamp: `b${rep}`, group: 'gb', repetition: rep, steps: [{ name: 's', ops: { find: { rate: 50 } } }] });
  }
  assert.equal(build(root3).experiments[0].sets.length, 1);
});

test('published numbers become labelled reference series (year and hardware from the source)', () => {
  const root = tmpDir();
  const published = { source: 'seeds/004 (Severalnines, 2013), 2 GB RAM / 4 cores each', mongodb_2_4_mmapv1: { updates_per_s_max: 3910, clients: '1..6' }, x_20m: { result: 'failed: too stale' } };
  makeRun(root, { engine: 'a', stamp: 'a', published, steps: [{ name: 's', ops: { update: { rate: 1 } } }] });
  const p = build(root).experiments[0].sets[0].published;
  assert.equal(p.year, '2013');
  assert.equal(p.source, published.source);
  assert.deepEqual(p.series, [{ label: 'mongodb_2_4_mmapv1', field: 'updates_per_s_max', value: 3910, op: 'update', stat: 'max', name: 'mongodb_2_4_mmapv1 2013 (max)' }]);
  assert.deepEqual(p.notes, ['x_20m: failed: too stale']);
});

test('a point list other than steps ("cases") is read through the same shape, with its own write concern', () => {
  const root = tmpDir();
  makeRun(root, {
    engine: 'a', stamp: 'a', steps: [],
    extra: { cases: [{ name: 'w1', parameters: { write_concern: { w: 1 } }, ops: { insert: { count: 10, errors: 0, ops_per_s: 500, latency_us: { p50: 100, p99: 900, p999: 1000 } } }, loader: { limited: false, reasons: [] } }] },
  });
  makeFailover(root, { engine: 'a', w: 1, stamp: 'f', acknowledged: 20000, lost: 37, recovered: 2 });
  const rep = build(root);
  const [set] = rep.experiments[0].sets;
  assert.deepEqual(set.points, ['w1']);
  assert.equal(set.aggregates[0].ops.insert.ops_per_s_median, 500);
  assert.equal(rep.safety.length, 1);
  const s = rep.safety[0];
  assert.deepEqual([s.engine, s.w, s.acknowledged, s.lost, s.recovered], ['a', '1', 20000, 37, 2]);
  assert.equal(s.speed[0].write_ops_per_s, 500);
  assert.equal(s.speed[0].write_p99_us, 900);
});

test('speed beside safety: w:1 next to w:majority, with the sentence', () => {
  const root = tmpDir();
  makeRun(root, { engine: 'wt', stamp: 'a', steps: [{ name: 'clients-1', ops: { insert: { rate: 1400, p: { p50: 100, p99: 700, p999: 900 } } } }] });
  makeRun(root, { engine: 'wt', stamp: 'b', parameters: { write_concern: { w: 'majority' } }, steps: [{ name: 'clients-1', ops: { insert: { rate: 1000 } } }] });
  makeFailover(root, { engine: 'wt', w: 1, stamp: 'f1', acknowledged: 20000, lost: 37, recovered: 0 });
  makeFailover(root, { engine: 'wt', w: 'majority', stamp: 'f2', acknowledged: 15000, lost: 0, recovered: 3 });
  const rep = build(root);
  const w1 = rep.safety.find((r) => r.w === '1');
  assert.equal(w1.speed[0].write_ops_per_s, 1400);
  assert.equal(w1.sentence, 'wt: w:1 is 1.40x the write throughput of w:majority (expX, clients-1) and lost 37 acknowledged writes of 20000');
  assert.equal(rep.safety.find((r) => r.w === 'majority').speed[0].write_ops_per_s, 1000);
});

test('speed beside safety: failover folders from before the fault runner (steps.check) still read', () => {
  const root = tmpDir();
  makeFailover(root, { engine: 'wt', w: 1, stamp: 'old', acknowledged: 9000, lost: 5, recovered: 1, legacy: true });
  const [s] = build(root).safety;
  assert.deepEqual([s.attempted, s.acknowledged, s.lost, s.recovered], [9100, 9000, 5, 1]);
});

test('filters: --engine, --experiment, --since', () => {
  const root = tmpDir();
  makeRun(root, { engine: 'a', stamp: 'a', steps: [{ name: 's', ops: { find: { rate: 1 } } }] });
  makeRun(root, { engine: 'b', stamp: 'b', started_at: '2026-12-01T00:00:00.000Z', steps: [{ name: 's', ops: { find: { rate: 1 } } }] });
  makeRun(root, { experiment: 'expY', engine: 'a', stamp: 'c', steps: [{ name: 's', ops: { find: { rate: 1 } } }] });
  assert.deepEqual(readAll([root], { engines: ['b'] }).runs.map((r) => r.engine), ['b']);
  assert.deepEqual(readAll([root], { experiments: ['expY'] }).runs.map((r) => r.experiment), ['expY']);
  assert.deepEqual(readAll([root], { since: new Date('2026-11-15') }).runs.map((r) => r.engine), ['b']);
});

test('a stored histogram reads as the loader read it: every percentile capped at the exact max stored beside it', () => {
  // 998 finds at 100 us, 2 at 5001 us: p99.9 falls in 5001's bucket [5000, 5003]. The loader caps
  // at the exact max it recorded (5001); a decoded histogram knows only the bucket's top (5003).
  const root = tmpDir();
  makeRun(root, { engine: 'wt', stamp: 'r1', steps: [{ name: 's', ops: { find: { rate: 1, lat: [[100, 998], [5001, 2]] } } }] });
  const summary = JSON.parse(fs.readFileSync(require('node:path').join(root, 'expX', 'wt', 'r1', 'summary.json'), 'utf8'));
  assert.equal(summary.steps[0].ops.find.latency_us.p999, 5001, 'what the loader stored');
  const l = build(root).experiments[0].sets[0].aggregates[0].ops.find.latency_us;
  assert.equal(l.p999, 5001);
  assert.equal(l.max, 5001);
});
