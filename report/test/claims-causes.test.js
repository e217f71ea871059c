'use strict';
// The seeds' findings where a claim's verdict would go where the report's own rules (or the seed's
// words) would not: one test per cause, each on hand-made results folders (support/claim-runs.js)
// whose honest verdict is known.
const test = require('node:test');
const assert = require('node:assert/strict');
const { tmpDir } = require('./support/fixtures');
const { RS, W, P, reps, one, judged } = require('./support/claim-runs');

// the start of run i of n after `after` runs: one run a minute
const at = (k) => new Date(Date.parse('2026-11-01T00:00:00Z') + k * 60000).toISOString();
const WC1 = { extra: RS, parameters: W(10000000) };

test('order and drift: one engine\'s runs all before the other\'s give no verdict, as in the summary', () => {
  // no engine effect, +4% a run from the host: mmapv1 runs first, rocksdb after (what separate
  // ./run.sh EXPERIMENT --engine E --repeat 3 commands make)
  const seq = tmpDir();
  reps(seq, { experiment: 'experiment1', engine: 'mmapv1', points: { 'clients-1': 1000 }, spread: [1, 1.04, 1.04 ** 2], startedAt: (i) => at(i), ...WC1 });
  reps(seq, { experiment: 'experiment1', engine: 'rocksdb', points: { 'clients-1': 1000 }, spread: [1.04 ** 3, 1.04 ** 4, 1.04 ** 5], startedAt: (i) => at(3 + i), ...WC1 });
  const r = one(seq, '004-insert');
  assert.equal(r.status, 'inconclusive', JSON.stringify(r));
  assert.match(r.why, /no verdict, as in the summary: clients-1: no verdict: mmapv1 ran before rocksdb .*not interleaved/);
  assert.match(r.lab, /^rocksdb [\d,]+ vs mmapv1 [\d,]+ ops\/s/); // the ratio stays shown
  assert.equal(r.ci, null);
  // the same runs interleaved (ABBA, as ./run.sh compare runs them) with a real difference: a verdict
  const abba = tmpDir();
  const order = [0, 3, 4, 7];
  const other = [1, 2, 5, 6];
  reps(abba, { experiment: 'experiment1', engine: 'mmapv1', n: 4, points: { 'clients-1': 1000 }, spread: [0.99, 1, 1.01, 1], startedAt: (i) => at(order[i]), ...WC1 });
  reps(abba, { experiment: 'experiment1', engine: 'rocksdb', n: 4, points: { 'clients-1': 1300 }, spread: [1, 0.99, 1.01, 1], startedAt: (i) => at(other[i]), ...WC1 });
  assert.equal(one(abba, '004-insert').status, 'reproduced');
  // interleaved, but ops/s climbs 10% a run whichever engine runs: drift, not a verdict
  const drift = tmpDir();
  const up = (ks) => ks.map((k) => 1.1 ** k);
  reps(drift, { experiment: 'experiment1', engine: 'mmapv1', n: 4, points: { 'clients-1': 1000 }, spread: up(order), startedAt: (i) => at(order[i]), ...WC1 });
  reps(drift, { experiment: 'experiment1', engine: 'rocksdb', n: 4, points: { 'clients-1': 1000 }, spread: up(other), startedAt: (i) => at(other[i]), ...WC1 });
  const d = one(drift, '004-insert');
  assert.equal(d.status, 'inconclusive', JSON.stringify(d));
  assert.match(d.why, /no verdict, as in the summary: clients-1: drift, not a verdict: ops\/s moves with the runs' order/);
  // a ratio between two sides at one point in an ordering (003's systems) is guarded alike
  const os = tmpDir();
  [['ubuntu', 2725], ['centos', 2119], ['freebsd', 1436]].forEach(([name, rate], k) => reps(os, { experiment: 'gridfs', engine: name, reported: 'wiredTiger', points: { upload: rate }, startedAt: (i) => at(k * 3 + i) }));
  const o = one(os, '003-os-order');
  assert.equal(o.status, 'inconclusive', JSON.stringify(o));
  assert.match(o.why, /ran before/);
});

test('an emulated engine compares with nothing', () => {
  const root = tmpDir();
  reps(root, { experiment: 'experiment1', engine: 'mmapv1', points: { 'clients-1': 1000 }, ...WC1 });
  reps(root, { experiment: 'experiment1', engine: 'rocksdb', points: { 'clients-1': 700 }, ...WC1, extra: { ...RS, storage: { emulated: true } } });
  const r = one(root, '004-insert');
  assert.equal(r.status, 'not comparable', JSON.stringify(r));
  assert.match(r.missing, /emulated: 3 of 6 runs ran under emulation \(summary\.json storage\.emulated\): their numbers compare with nothing/);
});

test("a paced run (--rate, --sla) is no engine's throughput: both sides paced alike would look about equal", () => {
  const root = tmpDir();
  reps(root, { experiment: 'experiment3', engine: 'mmapv1', points: { 'clients-1': 500, 'clients-2': 500 }, extra: RS,
    parameters: { ...W(10000000), rate: 500 } });
  reps(root, { experiment: 'experiment3', engine: 'rocksdb', points: { 'clients-1': 500, 'clients-2': 500 }, extra: RS,
    parameters: { ...W(10000000), rate: 500 } });
  const r = one(root, '004-reads');
  assert.equal(r.status, 'not comparable', JSON.stringify(r));
  assert.match(r.missing, /paced: 6 of 6 runs were offered a rate \(--rate 500\): their ops\/s is the rate asked for/);
  // the same runs unpaced are judged: about equal, as the seed found
  const flat = tmpDir();
  for (const engine of ['mmapv1', 'rocksdb']) reps(flat, { experiment: 'experiment3', engine, points: { 'clients-1': 500, 'clients-2': 500 }, extra: RS, parameters: W(10000000) });
  assert.notEqual(one(flat, '004-reads').status, 'not comparable', JSON.stringify(one(flat, '004-reads')));
  // a capacity search's steps are offered rates too; steadiness is no throughput claim and reads paced runs
  const sla = tmpDir();
  for (const engine of ['mmapv1', 'rocksdb']) reps(sla, { experiment: 'experiment3', engine, points: { 'clients-1': 500 }, extra: RS, parameters: { ...W(10000000), sla: 'p99=10ms' } });
  assert.match(one(sla, '004-reads').missing, /paced: 6 of 6 runs were offered a rate \(--sla p99=10ms\)/);
});

test('one path and one journal place for every side, unless that is the claim\'s dimension', () => {
  const root = tmpDir();
  reps(root, { experiment: 'experiment1', engine: 'mmapv1', points: { 'clients-1': 1000 }, ...WC1, extra: { topology: { kind: 'mongos' } } });
  reps(root, { experiment: 'experiment1', engine: 'rocksdb', points: { 'clients-1': 1300 }, ...WC1 });
  const r = one(root, '004-insert');
  assert.equal(r.status, 'not comparable', JSON.stringify(r));
  assert.match(r.missing, /topology: the sides ran through different paths \(rocksdb replica set member, mmapv1 mongos|mmapv1 mongos, rocksdb replica set member\)/);
  // one side's journal on its own disk
  const disk = tmpDir();
  reps(disk, { experiment: 'experiment1', engine: 'mmapv1', points: { 'clients-1': 1000 }, ...WC1 });
  reps(disk, { experiment: 'experiment1', engine: 'rocksdb', points: { 'clients-1': 1300 }, ...WC1, extra: { ...RS, storage: { journal_path: '/mnt/disk2' } } });
  assert.match(one(disk, '004-insert').missing, /journal place: .*rocksdb journal apart.*one journal place for every run/);
  // 000-journal-disk's own runs (journal apart and beside the data) pooled into the durability order
  const order = { 'w:0': 4000, 'w:1': 3990, 'w:1+j': 1000, 'w:2': 1500, 'w:2+j': 500, majority: 1480, 'majority+j': 490 };
  const pooled = tmpDir();
  reps(pooled, { experiment: 'writeconcern', engine: 'wiredtiger', points: order, extra: RS, step: () => ({ journal: true }) });
  reps(pooled, { experiment: 'writeconcern', engine: 'wiredtiger', points: order, extra: { ...RS, storage: { journal_path: '/mnt/disk2' } }, step: () => ({ journal: true }) });
  const w = one(pooled, '000-ordering');
  assert.equal(w.status, 'not comparable', JSON.stringify(w));
  assert.match(w.missing, /journal place: wiredtiger journal with data and journal apart/);
  // 001's preallocation: only one side's journal on another disk is not the seed's two rows
  const pre = tmpDir();
  reps(pre, { experiment: 'journal', engine: 'prealloc', reported: 'mmapv1', points: { 'j:false': 1100 }, extra: { storage: { journal_path: '/mnt/disk2' } }, step: () => ({ journal: true }) });
  reps(pre, { experiment: 'journal', engine: 'noprealloc', reported: 'mmapv1', points: { 'j:false': 1000 }, step: () => ({ journal: true }) });
  assert.match(one(pre, '001-prealloc').missing, /journal place: prealloc journal apart, noprealloc journal with data/);
  // along the journal's place itself, the two places are the claim
  const apart = tmpDir();
  reps(apart, { experiment: 'writeconcern', engine: 'wiredtiger', points: { 'w:1+j': 2000 }, extra: { ...RS, storage: { journal_path: '/mnt/disk2' } }, step: () => ({ journal: true }) });
  reps(apart, { experiment: 'writeconcern', engine: 'wiredtiger', points: { 'w:1+j': 1000 }, extra: RS, step: () => ({ journal: true }) });
  assert.equal(one(apart, '000-journal-disk').status, 'reproduced');
});

test('"Max throughput": each engine\'s own maximum, at whatever step it reaches it', () => {
  const ex = { extra: RS, parameters: P(1000000) };
  const make = (experiment, mmap, rocks) => {
    const root = tmpDir();
    reps(root, { experiment, engine: 'mmapv1', points: mmap, ...ex });
    reps(root, { experiment, engine: 'rocksdb', points: rocks, ...ex });
    return root;
  };
  // mmapv1 peaks at 5000, rocksdb at 4500: TokuMX's stand-in does not peak higher (where both
  // together do most, clients-2, rocksdb 4500 against mmapv1 3000 would have said it does)
  const ru = one(make('experiment2', { 'clients-1': 5000, 'clients-2': 3000 }, { 'clients-1': 2000, 'clients-2': 4500 }), '004-read-update');
  assert.equal(ru.status, 'contradicted', JSON.stringify(ru));
  assert.match(ru.lab, /rocksdb 4,500 vs mmapv1 5,000 ops\/s .*\(95% CI [\d.]+-[\d.]+, 3 and 3 runs\) at each side's maximum \(rocksdb at clients-2, mmapv1 at clients-1\)/);
  // the seed's reads: 8516 against 8104 at their own maxima are about equal
  const rd = one(make('experiment3', { 'clients-1': 8516, 'clients-2': 6000 }, { 'clients-1': 5000, 'clients-2': 8104 }), '004-reads');
  assert.equal(rd.status, 'reproduced', JSON.stringify(rd));
  assert.ok(Math.abs(rd.ratio - 8516 / 8104) < 0.01, rd.ratio);
});

test('unknown is never met: data against memory not recorded, the write concern of a single mongod\'s import', () => {
  // 1M documents, no footprint and no profile: nothing says the data did not fit in RAM
  const root = tmpDir();
  for (const [engine, rate] of [['mmapv1', 1000], ['rocksdb', 1300]]) reps(root, { experiment: 'experiment1', engine, points: { 'clients-1': rate }, extra: { ...RS, profile: null, footprint: null }, parameters: W(1000000) });
  const r = one(root, '004-insert');
  assert.equal(r.status, 'not comparable', JSON.stringify(r));
  assert.match(r.missing, /data against memory: not known in 6 of 6 runs .*the seed: "The dataset of 10M records does not fit in RAM\."/);
  // the seed's mongoimport into one mongod waited for no other member: w:majority imports are not it
  const maj = tmpDir();
  const journal = (wc) => {
    reps(maj, { experiment: 'journal', engine: 'mmapv1', points: { 'j:false': 670 }, parameters: { write_concern: wc, params: { members_journal: 'on', commit_intervals_ms: [100] } }, step: () => ({ journal: true }) });
    reps(maj, { experiment: 'journal', engine: 'mmapv1', points: { 'journal off': 1000 }, parameters: { write_concern: wc, params: { members_journal: 'off' } }, step: () => ({ journal: false }) });
  };
  journal({ w: 'majority' });
  const m = one(maj, '001-journal');
  assert.equal(m.status, 'not comparable', JSON.stringify(m));
  assert.match(m.missing, /write concern: w:majority \(the seed: w:0 or w:1, mongoimport into one mongod/);
});

test('a stand-in figure is the lab\'s own figure beside the seed\'s, never a verdict on the seed\'s words', () => {
  // j:true at 0.9x j:false: the seed never measured j:true, so nothing is reproduced or contradicted
  const root = tmpDir();
  reps(root, { experiment: 'journal', engine: 'mmapv1', points: { 'j:false': 1000, 'j:true': 900 }, parameters: { params: { members_journal: 'on', commit_intervals_ms: [100] } }, step: () => ({ journal: true }) });
  const rows = judged(root, '001-journal-jtrue');
  assert.deepEqual(rows.map((x) => x.status), ['lab figure'], JSON.stringify(rows));
  assert.match(rows[0].lab, /^j:true 900 vs j:false 1,000 ops\/s .*0\.90x \(95% CI/);
  assert.match(rows[0].published, /0\.65-0\.70x/);
  assert.equal(rows[0].p, null); // no test, so none in the claims' Holm family
});

test('a dropped cause: the seed\'s Windows junction is no part of the lab\'s Linux journal disk', () => {
  const root = tmpDir();
  reps(root, { experiment: 'journal', engine: 'mmapv1', points: { 'j:false': 1500 }, extra: { ...RS, storage: { journal_path: '/mnt/disk2' } }, step: () => ({ journal: true }) });
  reps(root, { experiment: 'journal', engine: 'mmapv1', points: { 'j:false': 1000 }, extra: RS, step: () => ({ journal: true }) });
  const r = one(root, '001-journal-disk');
  assert.equal(r.status, 'lab figure', JSON.stringify(r));
  assert.match(r.why, /the seed blamed a Windows junction and doubted the slowdown on Linux/);
  assert.match(r.lab, /^journal apart 1,500 vs journal with data 1,000 ops\/s/);
});

test('"may tie" within the tie band is a tie, not reversed', () => {
  // w:0 3% slower than w:1 ("There's not much difference"), every other pair in order
  const order = { 'w:0': 3870, 'w:1': 3990, 'w:1+j': 1000, 'w:2': 1500, 'w:2+j': 500, majority: 1480, 'majority+j': 490 };
  const root = tmpDir();
  reps(root, { experiment: 'writeconcern', engine: 'wiredtiger', points: order, extra: RS, spread: [0.995, 1, 1.005], step: () => ({ journal: true }) });
  const r = one(root, '000-ordering');
  assert.equal(r.status, 'reproduced', JSON.stringify(r));
  assert.equal(r.pairs.find((p) => p.a === 'w:0').state, 'tie-allowed');
  // far below the band (w:0 at half of w:1) a pair that may tie is reversed
  const slow = tmpDir();
  reps(slow, { experiment: 'writeconcern', engine: 'wiredtiger', points: { ...order, 'w:0': 2000 }, extra: RS, step: () => ({ journal: true }) });
  assert.equal(one(slow, '000-ordering').status, 'contradicted');
});

test('a band\'s top includes the seed\'s own figure: a result of 3x reproduces "up to x3"; "significant" is more than about equal', () => {
  const make = (apart, spread) => {
    const root = tmpDir();
    reps(root, { experiment: 'writeconcern', engine: 'wiredtiger', points: { 'w:1+j': apart }, extra: { ...RS, storage: { journal_path: '/mnt/disk2' } }, step: () => ({ journal: true }), spread });
    reps(root, { experiment: 'writeconcern', engine: 'wiredtiger', points: { 'w:1+j': 1000 }, extra: RS, step: () => ({ journal: true }), spread });
    return one(root, '000-journal-disk');
  };
  const three = make(3000, [0.99, 1, 1.01]);
  assert.equal(three.status, 'reproduced', JSON.stringify(three));
  const any = make(1050, [0.995, 1, 1.005]);
  assert.equal(any.status, 'contradicted', JSON.stringify(any));
  assert.match(any.why, /wholly below the claimed 1\.15-3\.45/);
});

test('a flat throughput with latency rising at every step is the sweet spot at the first step, as the seed read it', () => {
  const root = tmpDir();
  const steps = { 'clients-1': 1000, 'clients-2': 1000, 'clients-4': 1000, 'clients-8': 1000, 'clients-16': 1000 };
  reps(root, { experiment: 'ycsb-a', engine: 'wiredtiger', points: steps, spread: [0.98, 1, 1.02], p50: { 'clients-1': 500, 'clients-2': 1000, 'clients-4': 2000, 'clients-8': 4000, 'clients-16': 8000 } });
  const r = one(root, '002-knee');
  assert.equal(r.status, 'reproduced', JSON.stringify(r));
  assert.match(r.lab, /^sweet spot at 1: /);
  assert.match(r.why, /throughput flat from 1 client\(s\) while latency rises at every step/);
  // pure noise, latency flat too: still no sweet spot
  const noise = tmpDir();
  reps(noise, { experiment: 'ycsb-a', engine: 'wiredtiger', points: steps, spread: [0.7, 1, 1.3], p50: Object.fromEntries(Object.keys(steps).map((k) => [k, 500])) });
  assert.equal(one(noise, '002-knee').status, 'inconclusive');
});
