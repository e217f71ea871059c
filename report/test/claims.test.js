'use strict';
// The seeds' findings: each claim of report/claims.json judged on hand-made results folders
// (support/fixtures.js makeRun) with known rates. Every kind reproduces, contradicts, stays
// inconclusive, and is not comparable for each of its conditions; sizes need the interval within
// the band; identical values give no interval; the claims are one Holm family; the rows in
// report.json and the terminal (120 columns, no tracker numbers).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir, makeRun } = require('./support/fixtures');
const { readAll } = require('../src/read');
const { claimsReport, KINDS, judgeClaim: judge, holmClaims } = require('../src/claims');
const { main } = require('../src/cli');
const { CLAIMS, claim, RS, W, P, reps, judged, one, dip, stab, reasonsIf } = require('./support/claim-runs');

test('claims.json: every claim is data with its quote, conditions, a known kind and the runs it needs; no tracker numbers', () => {
  assert.ok(CLAIMS.length >= 18);
  for (const c of CLAIMS) {
    for (const k of ['id', 'seed', 'words', 'quote', 'experiment_of_seed']) assert.ok(typeof c[k] === 'string' && c[k], `${c.id}: ${k}`);
    assert.ok(c.published?.text, `${c.id}: published.text`);
    assert.ok(KINDS[c.test?.kind], `${c.id}: test.kind ${c.test?.kind}`);
    assert.ok(c.reproduced_when?.why, `${c.id}: reproduced_when.why`);
    assert.ok(c.conditions && typeof c.conditions === 'object', `${c.id}: conditions`);
    assert.ok(c.minimum?.runs >= 2, `${c.id}: minimum.runs`);
    if (c.reproduced_when.expect === 'size') assert.ok(Array.isArray(c.reproduced_when.band), c.id);
    assert.ok(c.needs.some((n) => n.startsWith('./run.sh ')), `${c.id}: needs a ./run.sh command`);
  }
  assert.doesNotMatch(fs.readFileSync(path.join(__dirname, '..', 'claims.json'), 'utf8'), /issue \d/i);
  for (const f of ['claims.js', 'claims-text.js', 'claims-page.js']) assert.doesNotMatch(fs.readFileSync(path.join(__dirname, '..', 'src', f), 'utf8'), /issue \d/i, f);
  for (const id of ['004-read-update-steady', '004-insert-steady', '001-prealloc', '001-journal-disk', '003-os-order', '001-journal-jtrue']) assert.ok(claim(id), id);
});

test('judge: direction, size band, zero width, and the "about equal" band 0.87-1.15 as claims.json states it', () => {
  const eq = claim('004-reads').reproduced_when;
  assert.deepEqual(eq.band, [0.87, 1.15]);
  // an interval from 0.86 to 1.0: inside 0.85-1.15, not inside 0.87-1.15
  assert.equal(judge({ ratio: 0.93, ci: [0.86, 1.0], df: 4 }, eq).status, 'inconclusive');
  assert.equal(judge({ ratio: 0.95, ci: [0.88, 1.03], df: 4 }, eq).status, 'reproduced');
  assert.equal(judge({ ratio: 1.4, ci: [1.2, 1.6], df: 4 }, eq).status, 'contradicted');
  const half = claim('004-storage').reproduced_when;
  assert.equal(judge({ ratio: 0.99, ci: [0.99, 0.99], df: null }, half).status, 'inconclusive'); // zero width
  assert.match(judge({ ratio: 0.99, ci: [0.99, 0.99], df: null }, half).why, /no interval/);
  assert.equal(judge({ ratio: 0.16, ci: [0.12, 0.2], df: 4 }, half).status, 'contradicted');
  assert.equal(judge({ ratio: 0.5, ci: [0.45, 0.55], df: 4 }, half).status, 'reproduced');
  const j = claim('001-journal').reproduced_when;
  assert.equal(judge({ ratio: 0.5, ci: [0.3, 0.7], df: 2 }, j).status, 'inconclusive'); // touches the band, not within it
  const up3 = claim('000-journal-disk').reproduced_when;
  assert.equal(judge({ ratio: 2, ci: [1.5, 2.6], df: 4 }, up3).status, 'reproduced');
  assert.equal(judge({ ratio: 5, ci: [4, 6], df: 4 }, up3).status, 'contradicted');
  assert.equal(judge({ ratio: 1, ci: [0.8, 1.2], df: 4 }, { expect: 'higher' }).status, 'inconclusive');
});

test('ratio between engines (004 inserts): reproduced, contradicted, inconclusive; not comparable for each condition', () => {
  const good = { parameters: W(10000000), extra: RS };
  const make = (rates, spread, over = {}) => {
    const root = tmpDir();
    for (const [engine, rate] of Object.entries(rates)) reps(root, { experiment: 'experiment1', engine, points: { 'clients-1': rate }, ...(spread ? { spread } : {}), ...good, ...(over[engine] || {}) });
    return root;
  };
  for (const [want, rates, spread] of [['reproduced', { rocksdb: 1300, mmapv1: 1000 }], ['contradicted', { rocksdb: 800, mmapv1: 1000 }], ['inconclusive', { rocksdb: 1000, mmapv1: 1000 }, [0.8, 1, 1.25]]]) {
    const r = one(make(rates, spread), '004-insert');
    assert.equal(r.status, want, JSON.stringify(r));
    assert.match(r.lab, /^rocksdb [\d,]+ vs mmapv1 [\d,]+ ops\/s \(geometric means\): [\d.]+x \(95% CI [\d.]+-[\d.]+, 3 and 3 runs\) at clients-1/);
    assert.match(r.stands_for, /rocksdb stands in for TokuMX 1\.x; mmapv1 for|rocksdb stands in for TokuMX 1\.x; mmapv1 stands in for MongoDB 2\.4/);
    assert.match(r.differs, /topology: replica set member \(seed: "1 shard \(replica set\) with 3 shard servers"; "We connected the clients directly on the PRIMARY/);
    assert.doesNotMatch(r.differs, /data against memory/); // known beyond memory: met, not listed
  }
  // conditions: standalone, the server reports another engine, another write concern, data that fits in memory
  const nc = (over, re) => {
    const r = one(make({ rocksdb: 1300, mmapv1: 1000 }, null, over), '004-insert');
    assert.equal(r.status, 'not comparable', JSON.stringify(r));
    assert.match(r.missing, re);
  };
  nc({ rocksdb: { extra: {} }, mmapv1: { extra: {} } }, /topology: standalone in 6 of 6 runs/);
  nc({ rocksdb: { reported: 'wiredTiger' } }, /engine: runs labelled rocksdb report wiredTiger \(the claim needs rocksdb, standing in for TokuMX/);
  const wm = { parameters: { ...W(10000000), write_concern: { w: 'majority' } } };
  nc({ mmapv1: wm, rocksdb: wm }, /write concern: w:majority \(the seed: w:1, the shell.s col.insert/);
  const fits = { extra: { ...RS, profile: 'seed2013', footprint: { end: { data_bytes: 3e6, index_bytes: 1e6 } } } };
  nc({ rocksdb: fits, mmapv1: fits }, /data against memory: 4 MB of data and indexes fit in 2,147 MB of memory/);

  // the set at the seed's scale is chosen over a larger set at another scale
  const root = make({ rocksdb: 1300, mmapv1: 1000 });
  for (const engine of ['rocksdb', 'mmapv1']) reps(root, { experiment: 'experiment1', engine, points: { 'clients-1': engine === 'rocksdb' ? 700 : 1000 }, n: 5, parameters: W(3000), extra: RS });
  const s = one(root, '004-insert');
  assert.equal(s.status, 'reproduced');
  assert.doesNotMatch(s.differs, /scale/);

  // runs of one side from two servers are not pooled as one side
  const two = make({ rocksdb: 1300, mmapv1: 1000 });
  reps(two, { experiment: 'experiment1', engine: 'mmapv1', points: { 'clients-1': 1000 }, ...good, extra: { ...RS, server: { version: '4.0.28', storage_engine: { name: 'mmapv1' } } } });
  assert.match(one(two, '004-insert').missing, /the mmapv1 runs come from 2 different servers/);

  const missing = tmpDir();
  reps(missing, { experiment: 'experiment1', engine: 'mmapv1', points: { 'clients-1': 1000 }, ...good });
  makeRun(missing, { experiment: 'experiment1', engine: 'rocksdb', stamp: 'cut', complete: false, steps: [{ name: 'clients-1', ops: { insert: { rate: 900 } } }] });
  const r = one(missing, '004-insert');
  assert.equal(r.status, 'not comparable');
  assert.match(r.missing, /needs runs of experiment1 on rocksdb and mmapv1 alike \(have: mmapv1\)/);
  assert.match(r.why, /\(1 incomplete run\(s\) of experiment1 not counted\)$/);
});

test('size claims (004 storage, half the space, on the whole data directory as the seed measured): identical values are no interval; wholly outside the band contradicts', () => {
  const make = (rocks, spread) => {
    const root = tmpDir();
    for (const [engine, bpd] of [['mmapv1', 1000], ['rocksdb', rocks]]) {
      let i = 0;
      reps(root, { experiment: 'experiment1', engine, points: { 'clients-1': 1000 }, parameters: W(10000000), extra: RS,
        step: () => ({}), ...(spread ? {} : {}) });
      // footprint per run: identical, or spread
      const dir = path.join(root, 'experiment1', engine);
      for (const d of fs.readdirSync(dir)) {
        const f = path.join(dir, d, 'summary.json');
        const s = JSON.parse(fs.readFileSync(f, 'utf8'));
        // the data directory (./run.sh's du -sb of each shard member), over the end's documents; the
        // collection's own storage figure says otherwise, and must not be what the claim reads
        const docs = 10000;
        const bytes = bpd * (spread ? spread[i++ % 3] : 1) * docs;
        s.footprint = { end: { documents: docs, bytes_per_doc: { on_disk_with_indexes: 1 } }, data_dir_bytes: { 'shard01-a': bytes, 'shard01-b': bytes * 0.9 } };
        s.storage = { oplog_mb_reported: 4096 }; // the seed's oplog size: its du counted it
        fs.writeFileSync(f, JSON.stringify(s));
      }
    }
    return root;
  };
  const same = one(make(990), '004-storage');
  assert.equal(same.status, 'inconclusive', JSON.stringify(same));
  assert.match(same.why, /no interval/);
  assert.equal(one(make(490, [0.98, 1, 1.02]), '004-storage').status, 'reproduced');
  const small = one(make(160, [0.98, 1, 1.02]), '004-storage');
  assert.equal(small.status, 'contradicted');
  assert.match(small.why, /wholly below the claimed 0\.40-0\.60/);
  assert.equal(one(make(1050, [0.98, 1, 1.02]), '004-storage').status, 'contradicted');
});

test('max (004 read+update): each side at its own maximum; "about equal" (reads)', () => {
  const root = tmpDir();
  const ex = { extra: RS, parameters: P(1000000) };
  reps(root, { experiment: 'experiment2', engine: 'rocksdb', points: { 'clients-1': 800, 'clients-2': 1500, 'clients-3': 1400 }, ...ex });
  reps(root, { experiment: 'experiment2', engine: 'mmapv1', points: { 'clients-1': 1000, 'clients-2': 900, 'clients-3': 850 }, ...ex });
  const r = one(root, '004-read-update');
  assert.equal(r.status, 'reproduced', JSON.stringify(r));
  assert.match(r.lab, /1\.50x .* at each side's maximum \(rocksdb at clients-2, mmapv1 at clients-1\)/);

  // each side's own best, as the seed's "Max throughput" of each engine
  const cross = tmpDir();
  reps(cross, { experiment: 'experiment2', engine: 'rocksdb', points: { 'clients-1': 1000, 'clients-2': 800 }, ...ex });
  reps(cross, { experiment: 'experiment2', engine: 'mmapv1', points: { 'clients-1': 500, 'clients-2': 1100 }, ...ex });
  const x = one(cross, '004-read-update');
  assert.match(x.lab, /at each side's maximum \(rocksdb at clients-1, mmapv1 at clients-2\)/);
  assert.equal(x.status, 'contradicted');

  // a step with too few usable runs on a side is not the peak while another step has enough
  const few = tmpDir();
  reps(few, { experiment: 'experiment2', engine: 'rocksdb', points: { 'clients-1': 1300, 'clients-2': 3000 }, ...ex });
  reps(few, { experiment: 'experiment2', engine: 'mmapv1', points: { 'clients-1': 1000 }, ...ex });
  makeRun(few, { experiment: 'experiment2', engine: 'mmapv1', stamp: 'one', parameters: P(1000000), extra: RS, steps: [{ name: 'clients-2', clients: 2, ops: { insert: { rate: 3000 } } }] });
  const f = one(few, '004-read-update');
  assert.match(f.lab, /rocksdb at clients-2, mmapv1 at clients-1\)/);
  assert.equal(f.status, 'reproduced');

  const lim = tmpDir();
  reps(lim, { experiment: 'experiment2', engine: 'rocksdb', points: { 'clients-1': 800, 'clients-2': 1500 }, ...ex });
  const fits = { profile: 'seed2013', footprint: { end: { data_bytes: 2e8, index_bytes: 2e7 } } }; // as reps records it
  for (let i = 0; i < 3; i++) makeRun(lim, { experiment: 'experiment2', engine: 'mmapv1', stamp: `lim${i}`, parameters: P(1000000), extra: { ...RS, ...fits }, steps: [1, 2].map((c) => ({ name: `clients-${c}`, clients: c, limited: true, ops: { insert: { rate: 1000 } } })) });
  const l = one(lim, '004-read-update');
  assert.equal(l.status, 'inconclusive', JSON.stringify(l));
  assert.match(l.why, /needs at least 2 usable runs a side/);

  const eq = (a, b, spread) => {
    const d = tmpDir();
    reps(d, { experiment: 'experiment3', engine: 'mmapv1', points: { 'clients-1': a }, ...ex, ...(spread ? { spread } : {}) });
    reps(d, { experiment: 'experiment3', engine: 'rocksdb', points: { 'clients-1': b }, ...ex });
    return one(d, '004-reads');
  };
  assert.equal(eq(1020, 1000).status, 'reproduced');
  assert.match(eq(2000, 1000).why, /wholly above the claimed 0\.87-1\.15/);
  assert.equal(eq(1000, 1000, [0.7, 1, 1.4]).status, 'inconclusive');
});

// the seed's journal-off case: journal on (j:false) against members without a journal
test('001 journal: the journal-off case where the engine has one; the j:true stand-in labelled apart', () => {
  const make = (on, off, spread) => {
    const root = tmpDir();
    // each case records whether its server journals, as the journal experiment writes it
    reps(root, { experiment: 'journal', engine: 'mmapv1', points: { 'j:false': on, 'j:true': on * 0.9 }, parameters: { params: { members_journal: 'on', commit_intervals_ms: [100] } }, step: () => ({ journal: true }), ...(spread ? { spread } : {}) });
    reps(root, { experiment: 'journal', engine: 'mmapv1', points: { 'journal off': off }, parameters: { params: { members_journal: 'off' } }, step: () => ({ journal: false }) });
    return root;
  };
  const ok = judged(make(670, 1000), '001-journal');
  assert.deepEqual(ok.map((r) => [r.side, r.status]), [['mmapv1', 'reproduced']], JSON.stringify(ok));
  assert.match(ok[0].lab, /^journal on 670 vs journal off 1,000 ops\/s .* at j:false vs journal off/);
  assert.equal(one(make(950, 1000), '001-journal').status, 'contradicted');
  assert.equal(one(make(500, 1000, [0.6, 1, 1.6]), '001-journal').status, 'inconclusive');
  // the stand-in reads the journal-on runs alone (j:true at 0.9x j:false here), never the journal-off
  // set, and is the lab's own figure: no verdict on the seed's words
  const stand = one(make(670, 1000), '001-journal-jtrue');
  assert.equal(stand.status, 'lab figure', JSON.stringify(stand));
  assert.match(stand.lab, /^j:true 603 vs j:false 670 ops\/s/);

  const jt = (jtrue, journal) => {
    const root = tmpDir();
    reps(root, { experiment: 'journal', engine: 'wiredtiger', points: { 'j:false': 1000, 'j:true': jtrue }, step: () => ({ journal }) });
    return one(root, '001-journal-jtrue');
  };
  assert.equal(jt(670, true).status, 'lab figure');
  assert.match(jt(670, true).words, /^STAND-IN/);
  assert.equal(jt(950, true).status, 'lab figure');
  assert.match(jt(670, false).missing, /journal: 3 of 3 runs on a server without a journal/);
});

test('ordering (000 write concerns, the seed\'s pairs): ordered, reversed, ties, not run; replica set and journal required', () => {
  const order = { 'w:0': 4000, 'w:1': 3990, 'w:1+j': 1000, 'w:2': 1500, 'w:2+j': 500, majority: 1480, 'majority+j': 490 };
  const make = (points, extra = RS, journal = true) => {
    const root = tmpDir();
    reps(root, { experiment: 'writeconcern', engine: 'wiredtiger', points, extra, step: () => ({ journal }) });
    return root;
  };
  const r = one(make(order), '000-ordering');
  assert.equal(r.status, 'reproduced', JSON.stringify(r));
  assert.match(r.why, /w:0\/w:1, w:2\/majority, w:2\+j\/majority\+j tie as they may/);
  assert.equal(r.pairs.length, 8);
  const c = one(make({ ...order, 'w:2+j': 2000 }), '000-ordering');
  assert.equal(c.status, 'contradicted');
  assert.match(c.why, /reversed: w:2\/w:2\+j, w:1\+j\/w:2\+j/);
  const i = one(make({ 'w:0': 2000, 'w:1': 2000, 'w:1+j': 2000 }), '000-ordering');
  assert.equal(i.status, 'inconclusive');
  assert.match(i.why, /no difference shown: w:1\/w:1\+j/);
  assert.match(i.why, /not run: w:1\/w:2/);
  // a server that ignores w > 1 (FerretDB on a standalone acknowledges w:2): those cases were
  // recorded as server_ignores, never measured; no more runs on it would test them
  const ign = tmpDir();
  reps(ign, { experiment: 'writeconcern', engine: 'wiredtiger', points: order, extra: RS, step: (phase) => ({ journal: true, ...(/^(w:2|majority)/.test(phase) ? { server_ignores: 'FerretDB ignores w: it acknowledges w:2 on a standalone' } : {}) }) });
  const u = one(ign, '000-ordering');
  assert.equal(u.status, 'not comparable', JSON.stringify(u));
  assert.match(u.why, /^cannot be tested on this server: it ignores what w:1\/w:2, .*w:2\/majority.* ask/);
  // a larger set of runs holding one case only (another profile) does not stand in for the ordering
  const more = make(order);
  reps(more, { experiment: 'writeconcern', engine: 'wiredtiger', points: { 'w:1+j': 900 }, n: 5, extra: { ...RS, profile: 'laptop' }, step: () => ({ journal: true }) });
  assert.equal(one(more, '000-ordering').status, 'reproduced');
  assert.match(one(make(order, {}), '000-ordering').missing, /topology: standalone/);
  assert.match(one(make(order, RS, false), '000-ordering').missing, /journal: 3 of 3 runs on a server without a journal/);
  assert.match(one(make(order, RS, null), '000-ordering').missing, /journal: not recorded/);
});

test('knee (002) read from latency: a sweet spot, still climbing, noise, a fall from the first step', () => {
  const clients = [1, 2, 4, 8, 16];
  const make = (rates, lat, spread) => {
    const root = tmpDir();
    const pts = Object.fromEntries(clients.map((c, i) => [`clients-${c}`, rates[i]]));
    const p50 = Object.fromEntries(clients.map((c, i) => [`clients-${c}`, lat[i]]));
    reps(root, { experiment: 'ycsb-a', engine: 'wiredtiger', points: pts, p50, ...(spread ? { spread } : {}) });
    return one(root, '002-knee');
  };
  const k = make([100, 190, 350, 600, 605], [500, 500, 510, 520, 1000]);
  assert.equal(k.status, 'reproduced', JSON.stringify(k));
  assert.match(k.lab, /^sweet spot at 8: clients 1 2 4 8 16; ops\/s/);
  assert.match(k.differs, /topology: standalone \(seed: a standalone mongod\)/);
  assert.equal(make([100, 200, 400, 800, 1600], [500, 500, 500, 500, 500]).status, 'inconclusive');
  // a throughput knee whose latency never rises is no sweet spot read from latency
  const flat = make([100, 190, 350, 600, 605], [500, 500, 500, 500, 500]);
  assert.equal(flat.status, 'inconclusive', JSON.stringify(flat));
  assert.match(flat.why, /no step where throughput climbs up to it and latency rises after it/);
  const noise = make([100, 100, 100, 100, 100], [500, 500, 500, 500, 500], [0.7, 1, 1.3]);
  assert.equal(noise.status, 'inconclusive', JSON.stringify(noise));
  assert.equal(make([1000, 500, 400, 300, 200], [500, 1000, 2000, 4000, 8000]).status, 'contradicted');
});

test('labels (003): almost 2x Ubuntu over FreeBSD, and the order Ubuntu > CentOS > FreeBSD', () => {
  const make = (rates, spread) => {
    const root = tmpDir();
    // ./run.sh compare --uri NAME=URI labels each side's runs with its name
    for (const [os, rate] of Object.entries(rates)) reps(root, { experiment: 'gridfs', engine: os, reported: 'wiredTiger', points: { upload: rate }, ...(spread ? { spread } : {}) });
    return root;
  };
  const r = one(make({ 'ubuntu-24.04': 2725, 'freebsd-14': 1436 }), '003-os');
  assert.equal(r.status, 'reproduced', JSON.stringify(r));
  assert.match(r.lab, /^ubuntu 2,725 vs freebsd 1,436 ops\/s .*1\.90x/);
  const near = one(make({ 'ubuntu-24.04': 1050, 'freebsd-14': 1000 }), '003-os');
  assert.equal(near.status, 'contradicted'); // 1.05x is not almost 2x
  assert.equal(one(make({ 'ubuntu-24.04': 1900, 'freebsd-14': 1000 }, [0.6, 1, 1.6]), '003-os').status, 'inconclusive');
  assert.match(one(make({ 'ubuntu-24.04': 1000 }), '003-os').missing, /runs of gridfs on ubuntu and freebsd alike/);
  const o = make({ 'ubuntu-24.04': 2725, 'centos-6': 2119, 'freebsd-14': 1436 });
  assert.equal(one(o, '003-os-order').status, 'reproduced');
  assert.equal(one(make({ 'ubuntu-24.04': 1500, 'centos-6': 2119, 'freebsd-14': 1436 }), '003-os-order').status, 'contradicted');
});

test('dips (004): each engine\'s own cause by id, on the seed\'s experiment; at least half; minimums', () => {
  const make = (experiment, engine, dipsOf, over = {}) => {
    const root = tmpDir();
    reps(root, { experiment, engine, points: { 'clients-1': 1000 }, extra: RS, step: (_, i) => stab(dipsOf(i)), ...over });
    return root;
  };
  const two = (n, hit) => (i) => [...Array(n)].map((_, k) => (k < hit ? dip('mmapv1_flush', 'during an MMAPv1 background flush') : dip('page_faults', 'with a burst of page faults')));
  // exactly half of the dips during the cause: "at least half" reproduces
  const half = one(make('experiment1', 'mmapv1', two(2, 1)), '004-dips-mmapv1');
  assert.equal(half.status, 'reproduced', JSON.stringify(half));
  assert.match(half.lab, /^6 dip\(s\) in 3 run\(s\), 3 during a MMAPv1 data-file flush/);
  assert.equal(one(make('experiment1', 'mmapv1', two(3, 1)), '004-dips-mmapv1').status, 'inconclusive');
  // none during a recorded flush: the kernel's own writeback is not recorded, so not contradicted
  const none = one(make('experiment1', 'mmapv1', two(2, 0)), '004-dips-mmapv1');
  assert.equal(none.status, 'inconclusive');
  assert.match(none.why, /not contradicted: the kernel's own writeback/);
  // words that name the cause without its id are not matched
  const words = one(make('experiment1', 'mmapv1', () => [dip(null, 'during an MMAPv1 background flush'), dip(null, 'during an MMAPv1 background flush')]), '004-dips-mmapv1');
  assert.equal(words.status, 'inconclusive');
  // one run with one dip is too little
  const few = one(make('experiment1', 'mmapv1', () => [dip('mmapv1_flush', 'x')], { n: 1 }), '004-dips-mmapv1');
  assert.equal(few.status, 'inconclusive');
  assert.match(few.why, /needs at least 2 runs/);
  assert.match(one(make('experiment1', 'mmapv1', (i) => (i ? [] : [dip('mmapv1_flush', 'x')])), '004-dips-mmapv1').why, /needs at least 4 dips/);
  // rocksdb: its own flush or compaction, in experiment 2 (where the seed saw TokuMX's drops); a checkpoint is not
  // its cause
  // two dips GAP s apart in each run's 180 s: the seed's drops came every minute
  const at = (id, sec) => ({ ...dip(id, 'x'), start: new Date(Date.parse('2026-01-01T00:00:00Z') + sec * 1000).toISOString() });
  const rocks = (id, gap = 60) => one(make('experiment2', 'rocksdb', null, { parameters: P(1000000), step: () => stab([at(id, 5), at(id, 5 + gap)], 180) }), '004-dips-rocksdb');
  assert.equal(rocks('rocks_flush').status, 'reproduced');
  assert.match(rocks('rocks_flush').lab, /median gap between dips 60 s/);
  const notMinute = rocks('rocks_flush', 15);
  assert.equal(notMinute.status, 'inconclusive');
  assert.match(notMinute.why, /not the seed's period/);
  assert.equal(rocks('mmapv1_flush').status, 'contradicted');
  assert.match(one(make('experiment1', 'rocksdb', () => [dip('rocks_flush', 'x')]), '004-dips-rocksdb').missing, /stability|runs of experiment2/);
  // the engine condition
  assert.match(one(make('experiment1', 'mmapv1', two(2, 2), { reported: 'wiredTiger' }), '004-dips-mmapv1').missing, /engine: runs labelled mmapv1 report wiredTiger/);
  assert.match(one(make('experiment1', 'mmapv1', two(2, 2), { extra: {} }), '004-dips-mmapv1').missing, /topology: standalone/);
});

test('steadiness (004): TokuMX steadier under read+update and during the insert', () => {
  const make = (experiment, rocksDips, mmapDips, spread = [0, 1, 2]) => {
    const root = tmpDir();
    const ex = { extra: RS, parameters: experiment === 'experiment2' ? P(1000000) : W(10000000) };
    reps(root, { experiment, engine: 'rocksdb', points: { 'clients-1': 1000, 'clients-2': 1000 }, step: (_, i) => stab([...Array(rocksDips + spread[i])].map(() => dip('rocks_flush', 'x'))), ...ex });
    reps(root, { experiment, engine: 'mmapv1', points: { 'clients-1': 1000, 'clients-2': 1000 }, step: (_, i) => stab([...Array(mmapDips + spread[i])].map(() => dip('mmapv1_flush', 'x'))), ...ex });
    return root;
  };
  const r = one(make('experiment2', 1, 20), '004-read-update-steady');
  assert.equal(r.status, 'reproduced', JSON.stringify(r));
  assert.match(r.lab, /s\/min outside dips/);
  assert.equal(one(make('experiment2', 20, 1), '004-read-update-steady').status, 'contradicted');
  assert.equal(one(make('experiment2', 5, 5, [0, 9, 18]), '004-read-update-steady').status, 'inconclusive');
  assert.equal(one(make('experiment1', 0, 0, [0, 0, 0]), '004-insert-steady').status, 'inconclusive'); // no dips on either side: no interval
  assert.equal(one(make('experiment1', 1, 20), '004-insert-steady').status, 'reproduced');
  assert.match(one(tmpDir(), '004-insert-steady').missing, /stability/);
});

test('stale secondaries (004): every mmapv1 run at 20M, none of rocksdb; too small or too few is not enough', () => {
  const make = (docs, flaggedOf, n = 3, oplog = 4096) => {
    const root = tmpDir();
    const extra = { ...RS, storage: { oplog_mb_reported: oplog } };
    reps(root, { experiment: 'experiment1', engine: 'mmapv1', n, points: { 'clients-1': 1000 }, parameters: W(docs), extra, step: (_, i) => ({ replication: { flagged: reasonsIf(flaggedOf(i)) } }) });
    reps(root, { experiment: 'experiment1', engine: 'rocksdb', n, points: { 'clients-1': 1000 }, parameters: W(docs), extra, step: () => ({ replication: { flagged: null } }) });
    return one(root, '004-stale');
  };
  assert.equal(make(20000000, () => true).status, 'reproduced');
  assert.equal(make(20000000, () => false).status, 'contradicted');
  // the lab's 1 GB oplog, smaller than the seed's: secondaries fall off it sooner, so falling off
  // reproduces nothing, while staying caught up still contradicts
  const smallOplog = make(20000000, () => true, 3, 1024);
  assert.equal(smallOplog.status, 'inconclusive', JSON.stringify(smallOplog));
  assert.match(smallOplog.why, /oplog: 1,024 MB, below the seed's 3,500 MB/);
  assert.equal(make(20000000, () => false, 3, 1024).status, 'contradicted');
  assert.match(make(20000000, () => true, 3, null).missing, /oplog: not recorded in 6 of 6 runs/);
  assert.equal(make(20000000, (i) => i === 0, 5).status, 'inconclusive');
  const small = make(2000, () => false);
  assert.equal(small.status, 'not comparable');
  assert.match(small.missing, /scale: 2,000 docs, below the seed's 20,000,000/);
  assert.match(make(20000000, () => true, 2).why, /needs at least 3 mmapv1/);
  assert.match(one(tmpDir(), '004-stale').missing, /replication/);
});

// The guards every verdict of the report passes: steps left out (common/step-exclusion.js) count
// for no run, and sides that ran one after the other give no reproduction.
test('stale secondaries (004): steps left out count for no run; sides not interleaved reproduce nothing', () => {
  const make = ({ mmapStep = {}, startedAt = {} } = {}) => {
    const root = tmpDir();
    const extra = { ...RS, storage: { oplog_mb_reported: 4096 } };
    reps(root, { experiment: 'experiment1', engine: 'mmapv1', points: { 'clients-1': 1000 }, parameters: W(20000000), extra,
      step: () => ({ replication: { flagged: reasonsIf(true) }, ...mmapStep }), startedAt: startedAt.mmapv1 });
    reps(root, { experiment: 'experiment1', engine: 'rocksdb', points: { 'clients-1': 1000 }, parameters: W(20000000), extra,
      step: () => ({ replication: { flagged: null } }), startedAt: startedAt.rocksdb });
    return one(root, '004-stale');
  };
  const limited = make({ mmapStep: { loader: { limited: true, reasons: ['worker 0 event loop busy 95% of the time (> 90%)'] } } });
  assert.equal(limited.status, 'inconclusive', JSON.stringify(limited));
  assert.match(limited.why, /needs at least 3 mmapv1 .*\(have 0 and 3\)/);
  const minute = (m) => (i) => `2026-11-01T00:${String(m + i).padStart(2, '0')}:00.000Z`;
  const sequential = make({ startedAt: { mmapv1: minute(0), rocksdb: minute(10) } });
  assert.equal(sequential.status, 'inconclusive', JSON.stringify(sequential));
  assert.match(sequential.why, /^mmapv1 ran before rocksdb: not interleaved/);
  const interleaved = make({ startedAt: { mmapv1: (i) => minute(0)(2 * i), rocksdb: (i) => minute(1)(2 * i) } });
  assert.equal(interleaved.status, 'reproduced', JSON.stringify(interleaved));
});

test('the journal on its own disk: 000 up to 3x and 001 slower, on one server; two servers are not one comparison', () => {
  const make = (apart, withData, otherServer = false) => {
    const root = tmpDir();
    for (const [experiment, point] of [['writeconcern', 'w:1+j'], ['journal', 'j:false']]) {
      reps(root, { experiment, engine: 'wiredtiger', points: { [point]: apart }, extra: { ...RS, storage: { journal_path: '/mnt/disk2' }, ...(otherServer ? { server: { version: '8.0.4', storage_engine: { name: 'wiredtiger' } } } : {}) }, step: () => ({ journal: true }) });
      reps(root, { experiment, engine: 'wiredtiger', points: { [point]: withData }, extra: RS, step: () => ({ journal: true }) });
    }
    return root;
  };
  const fast = make(2000, 1000);
  assert.equal(one(fast, '000-journal-disk').status, 'reproduced');
  // the seed's cause, a Windows junction, is no part of the lab's Linux runs: their figure only
  const linux = one(fast, '001-journal-disk');
  assert.equal(linux.status, 'lab figure', JSON.stringify(linux));
  assert.match(linux.why, /Windows junction/);
  const slow = make(900, 1000);
  assert.equal(one(slow, '000-journal-disk').status, 'contradicted');
  assert.equal(one(slow, '001-journal-disk').status, 'lab figure');
  assert.equal(one(make(5000, 1000), '000-journal-disk').status, 'contradicted'); // beyond "up to 3x"
  assert.match(one(make(2000, 1000, true), '000-journal-disk').missing, /runs of writeconcern on journal apart and journal with data alike/);
  assert.match(one(tmpDir(), '000-journal-disk').missing, /--journal-path/);
});

test('Holm over the claims: a decision that holds alone but not among many becomes inconclusive', () => {
  const rows = [{ status: 'reproduced', p: 0.03, why: 'w' }, { status: 'reproduced', p: 0.001, why: 'w' }, { status: 'contradicted', p: 0.04, why: 'w' }, { status: 'inconclusive', p: null, why: 'w' }];
  const out = holmClaims(rows);
  assert.deepEqual(out.map((r) => r.status), ['inconclusive', 'reproduced', 'inconclusive', 'inconclusive']);
  assert.match(out[0].why, /does not hold after correcting for 3 claim tests \(Holm-adjusted p = 0\.060\)/);
  assert.equal(out[1].comparisons, 3);
  assert.equal(out[3].p_holm, undefined);
  // an inconclusive claim with an interval is one of the family's tests too
  assert.equal(judge({ ratio: 1, ci: [0.8, 1.25], df: 4 }, { expect: 'higher' }).p, 1);
  assert.ok(judge({ ratio: 0.7, ci: [0.5, 0.98], df: 4 }, claim('004-storage').reproduced_when).p > 0.05);
  // through the judge: every decided claim carries its p and the family size
  const root = tmpDir();
  for (const engine of ['rocksdb', 'mmapv1']) reps(root, { experiment: 'experiment1', engine, points: { 'clients-1': engine === 'rocksdb' ? 1300 : 1000 }, parameters: W(10000000), extra: RS });
  const r = claimsReport(readAll([root]).runs).find((x) => x.id === '004-insert');
  assert.equal(r.status, 'reproduced');
  assert.ok(r.p < 0.05 && r.p_holm >= r.p && r.comparisons >= 1, JSON.stringify(r));
});

test('report.json and the terminal carry one row per claim with the quote, stand-in and differences, within 120 columns', () => {
  const root = tmpDir();
  reps(root, { experiment: 'journal', engine: 'wiredtiger', points: { 'j:false': 1000, 'j:true': 670 }, step: () => ({ journal: true }) });
  for (const engine of ['rocksdb', 'mmapv1']) reps(root, { experiment: 'experiment1', engine, points: { 'clients-1': engine === 'rocksdb' ? 1300 : 1000 }, parameters: W(2000), extra: RS });
  let out = '';
  assert.equal(main(['--results-dir', root], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  const rep = JSON.parse(fs.readFileSync(path.join(root, 'report', 'latest', 'report.json'), 'utf8'));
  assert.deepEqual([...new Set(rep.claims.map((c) => c.id))], CLAIMS.map((c) => c.id));
  assert.equal(rep.claims.find((c) => c.id === '001-journal-jtrue').status, 'lab figure');
  assert.match(out, /^== the seeds' findings/m);
  assert.match(out, /^001-journal-jtrue \(wiredtiger\)\s+LAB FIGURE\s/m);
  assert.match(out, /^004-insert\s+REPRODUCED\s/m);
  assert.match(out, /^ {4}stand-in: rocksdb stands in for TokuMX 1\.x/m);
  assert.match(out, /^ {4}differs: scale: 2,000 docs \(seed: 10,000,000\)/m);
  assert.match(out, /^ {4}seed \(Experiment 1a/m);
  assert.doesNotMatch(out, /issue \d/i);
  for (const l of out.split('\n')) assert.ok(l.length <= 120, `${l.length}: ${l}`);
});
