'use strict';
// The seeds' findings, kind by kind, under each condition their claims carry (report/claims.json):
// hand-made runs that must reproduce, contradict, stay inconclusive, and be not comparable for
// each condition (the topology, the engine the server reports, the write concern, the data against
// memory, the journal, the seed's experiment, the label and server identity, the minimum of runs),
// beside the plain cases of claims.test.js.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir } = require('./support/fixtures');
const { claim, RS, W, P, reps, one, judged, dip, stab, LIMITED, reasonsIf } = require('./support/claim-runs');

// a claim as claims.json states it, with its minimum of runs raised (a stated minimum, honoured)
const withMin = (id, runs) => ({ ...claim(id), minimum: { ...claim(id).minimum, runs } });

// knee (002): a client sweep of ycsb-a; each row [what, runs (or [runs, claim]), status, field, pattern]
test('knee (002): each outcome, the minimum of runs, excluded steps, and not comparable for each condition', () => {
  const clients = [1, 2, 4, 8, 16];
  const sweep = (rates, lat, over = {}) => {
    const root = tmpDir();
    const at = (xs) => Object.fromEntries(clients.slice(0, xs.length).map((c, i) => [`clients-${c}`, xs[i]]));
    reps(root, { experiment: 'ycsb-a', engine: 'wiredtiger', points: at(rates), p50: at(lat), parameters: { params: { records: 1000 } }, ...over });
    return root;
  };
  const SPOT = [[100, 190, 350, 600, 605], [500, 500, 510, 520, 1000]];
  // the limited run's latency falls where the others' rises: left out, it changes nothing
  const reversed = { 'clients-8': 2000, 'clients-16': 200 };
  const limitedFirst = { n: 4, spread: [1, 0.99, 1, 1.01],
    step: (ph, i, e) => (i === 0 ? { ...LIMITED, ops: { insert: { ...e.ops.insert,
    latency_us: { ...e.ops.insert.latency_us, p50: reversed[ph] ?? e.ops.insert.latency_us.p50 } } } } : {}) };
  const rows = [
    ['a sweet spot', sweep(...SPOT), 'reproduced', 'lab', /^sweet spot at 8: clients 1 2 4 8 16/],
    ['throughput still climbing while latency rises: no sweet spot within the sweep', sweep([100, 200, 400, 800, 1600], [500, 500, 600, 800, 1000]), 'inconclusive', 'why', /still climbing at 16 clients/],
    ['throughput falls from the first step but latency does not rise', sweep([1000, 500, 400, 300, 200], [500, 500, 500, 500, 500]), 'inconclusive', 'why', /no step where throughput climbs/],
    ['throughput falls and latency rises from the first step', sweep([1000, 500, 400, 300, 200], [500, 1000, 2000, 4000, 8000]), 'contradicted', 'why', /from the first step/],
    ['two runs where the claim asks three', [sweep(...SPOT, { n: 2 }), withMin('002-knee', 3)], 'inconclusive', 'why', /some steps lack 3 usable runs/],
    ['a loader-limited run\'s latency is no measurement', sweep(...SPOT, limitedFirst), 'reproduced', 'lab', /^sweet spot at 8/],
    ['topology not recorded', sweep(...SPOT, { extra: { topology: null } }), 'not comparable', 'missing', /topology: not recorded in 3 of 3 runs \(the seed: a standalone mongod\)/],
    ['a sweep of two steps', sweep([100, 190], [500, 500]), 'not comparable', 'missing', /needs a sweep of at least 3 steps \(have 2\)/],
    ['the sweep run as another experiment', sweep(...SPOT, { experiment: 'ycsb-b' }), 'not comparable', 'missing', /needs runs of ycsb-a/],
  ];
  for (const [what, spec, status, field, re] of rows) {
    const [root, c] = Array.isArray(spec) ? spec : [spec, '002-knee'];
    const r = one(root, c);
    assert.equal(r.status, status, `${what}: ${JSON.stringify(r)}`);
    assert.match(r[field], re, what);
    if (status !== 'not comparable') assert.match(r.differs, /scale: 1,000 records \(seed: 5,000,000\)/, what);
  }
  // one row per engine swept, each judged on its own runs
  const two = sweep(...SPOT);
  reps(two, { experiment: 'ycsb-a', engine: 'inmemory', points: { 'clients-1': 100, 'clients-2': 200, 'clients-4': 400 }, p50: { 'clients-1': 500, 'clients-2': 500, 'clients-4': 500 }, parameters: { params: { records: 1000 } } });
  assert.deepEqual(judged(two, '002-knee').map((r) => [r.side, r.status]).sort(), [['inmemory', 'inconclusive'], ['wiredtiger', 'reproduced']]);
});

// steadiness (004): each run's seconds per minute outside dips, rocksdb against mmapv1
test('steadiness (004): each outcome, the minimum of runs, excluded steps, and not comparable for each condition', () => {
  const GOOD = { experiment2: { extra: RS, parameters: P(1000000) },
    experiment1: { extra: RS, parameters: W(10000000) } };
  // k dips a step on a side (and i more in its i-th run); over: what differs on a side (or both)
  const make = (experiment, rocksDips, mmapDips, over = {}) => {
    const root = tmpDir();
    for (const [engine, k, id] of [['rocksdb', rocksDips, 'rocks_flush'], ['mmapv1', mmapDips, 'mmapv1_flush']]) {
      const o = { ...GOOD[experiment], ...(over.both || {}), ...(over[engine] || {}) };
      const extraStep = o.extraStep || (() => ({}));
      reps(root, { experiment, engine, points: { 'clients-1': 1000, 'clients-2': 1000 }, ...o, step: (ph, i, e) => ({ ...stab([...Array(k + i)].map(() => dip(id, 'x'))), ...extraStep(ph, i, e) }) });
    }
    return root;
  };
  const fits = { extra: { ...RS, profile: 'seed2013', footprint: { end: { data_bytes: 3e6, index_bytes: 1e6 } } } };
  const exceeds = { extra: { ...RS, profile: 'seed2013', footprint: { end: { data_bytes: 3e9, index_bytes: 1e9 } } } };
  // rocksdb's second step was loader-limited, and dipped all the while: no measurement of the engine
  const limitedDips = { extraStep: (ph) => (ph === 'clients-2' ? { ...LIMITED, ...stab([...Array(40)].map(() => dip('rocks_flush', 'x'))) } : {}) };
  const wm = { parameters: { ...P(1000000), write_concern: { w: 'majority' } } };
  const rows = [
    ['read+update: rocksdb steadier', '004-read-update-steady', make('experiment2', 1, 20), 'reproduced', 'why', /higher, interval clear of 1\.0/],
    ['insert: mmapv1 steadier', '004-insert-steady', make('experiment1', 20, 1), 'contradicted', 'why', /the other way round/],
    ['insert: as steady, noisy', '004-insert-steady', make('experiment1', 5, 5), 'inconclusive', 'why', /the interval spans 1\.0/],
    ['two runs a side where the claim asks three', withMin('004-read-update-steady', 3), make('experiment2', 1, 20, { both: { n: 2 } }), 'inconclusive', 'why', /needs at least 3 usable runs a side \(have 2 and 2\)/],
    ['a loader-limited step\'s dips are left out', '004-read-update-steady', make('experiment2', 1, 20, { rocksdb: limitedDips }), 'reproduced', 'lab', /s\/min outside dips/],
    ['the server of the rocksdb runs reports wiredTiger', '004-read-update-steady', make('experiment2', 1, 20, { rocksdb: { reported: 'wiredTiger' } }), 'not comparable', 'missing', /engine: runs labelled rocksdb report wiredTiger \(the claim needs rocksdb, standing in for TokuMX 1\.x\)/],
    ['a standalone', '004-read-update-steady', make('experiment2', 1, 20, { both: { extra: {} } }), 'not comparable', 'missing', /topology: standalone in 6 of 6 runs/],
    ['w:majority', '004-insert-steady', make('experiment1', 1, 20, { both: { parameters: { ...W(10000000), write_concern: { w: 'majority' } } } }), 'not comparable', 'missing', /write concern: w:majority \(the seed: w:1, the shell.s col.insert/],
    ['read+update on data larger than memory', '004-read-update-steady', make('experiment2', 1, 20, { both: exceeds }), 'not comparable', 'missing', /data against memory: 4,000 MB of data and indexes exceed 2,147 MB of memory in 6 of 6 runs/],
    ['the insert on data that fits in memory', '004-insert-steady', make('experiment1', 1, 20, { both: fits }), 'not comparable', 'missing', /data against memory: 4 MB of data and indexes fit in 2,147 MB/],
    ['steadiness recorded for another experiment only', '004-read-update-steady', make('experiment1', 1, 20), 'not comparable', 'missing', /needs summary\.json steps\[\]\.stability/],
  ];
  for (const [what, c, root, status, field, re] of rows) {
    const r = one(root, c);
    assert.equal(r.status, status, `${what}: ${JSON.stringify(r)}`);
    assert.match(r[field], re, what);
  }
  // the set that meets the conditions is chosen over a larger one that does not
  const both = make('experiment2', 1, 20);
  for (const engine of ['rocksdb', 'mmapv1']) reps(both, { experiment: 'experiment2', engine, n: 5, points: { 'clients-1': 1000 }, extra: RS, ...wm, step: () => stab([]) });
  const r = one(both, '004-read-update-steady');
  assert.equal(r.status, 'reproduced', JSON.stringify(r));
  assert.match(r.lab, /3 and 3 runs/);
});

// labels (003, 001 preallocation): sides are --label values, on one server line; each row
// [what, claim, runs, status, field, pattern]
test('labels (003 systems, 001 preallocation): each outcome, the minimum of runs, and not comparable for each condition', () => {
  // os: { label value: rate }; over: per label value
  const gridfs = (rates, over = {}) => {
    const root = tmpDir();
    // ./run.sh compare --uri NAME=URI: each side's runs carry its name as their engine label
    for (const [os, rate] of Object.entries(rates)) reps(root, { experiment: 'gridfs', engine: os, reported: 'wiredTiger', points: { upload: rate }, ...(over[os] || {}), extra: { ...(over[os]?.extra || {}) } });
    return root;
  };
  const ORDER = { 'ubuntu-24.04': 2725, 'centos-9': 2119, 'freebsd-14': 1436 };
  const other = { extra: { server: { version: '6.0.0', storage_engine: { name: 'wiredtiger' } } } };
  // journal_prealloc=yes against =no, on a server that journals (or not)
  const prealloc = (yes, no, { journal = true, spread } = {}) => {
    const root = tmpDir();
    for (const [v, rate] of [['prealloc', yes], ['noprealloc', no]]) reps(root, { experiment: 'journal', engine: v, reported: 'mmapv1', points: { 'j:false': rate }, step: () => ({ journal }), ...(spread ? { spread } : {}) });
    return root;
  };
  const rows = [
    ['the order', '003-os-order', gridfs(ORDER), 'reproduced', 'why', /every pair in order/],
    ['CentOS above Ubuntu', '003-os-order', gridfs({ ...ORDER, 'centos-9': 3000 }), 'contradicted', 'why', /reversed: ubuntu\/centos/],
    ['CentOS as fast as FreeBSD', '003-os-order', gridfs({ ...ORDER, 'centos-9': 1436 }), 'inconclusive', 'why', /no difference shown: centos\/freebsd/],
    ['identical values', '003-os-order', gridfs(ORDER, Object.fromEntries(Object.keys(ORDER).map((k) => [k, { spread: [1] }]))), 'inconclusive', 'why', /no interval \(identical values\): ubuntu\/centos, centos\/freebsd/],
    ['two runs a side where the claim asks three', withMin('003-os-order', 3), gridfs(ORDER, Object.fromEntries(Object.keys(ORDER).map((k) => [k, { n: 2 }]))), 'inconclusive', 'why', /too few usable runs \(at least 3 a side\): ubuntu\/centos, centos\/freebsd/],
    ['no CentOS runs', '003-os-order', gridfs({ 'ubuntu-24.04': 2725, 'freebsd-14': 1436 }), 'not comparable', 'missing', /runs of gridfs on ubuntu and centos and freebsd alike \(have: (ubuntu, freebsd|freebsd, ubuntu)\)/],
    ['FreeBSD on another server version', '003-os', gridfs({ 'ubuntu-24.04': 2725, 'freebsd-14': 1436 }, { 'freebsd-14': other }), 'not comparable', 'missing', /server: the sides run 2 different servers \(versions 7\.0\.0, 6\.0\.0; the seed: "All nodes also ran MongoDB 2\.0\.2\."\)/],
    ['two runs a side where the claim asks three', withMin('003-os', 3), gridfs({ 'ubuntu-24.04': 2725, 'freebsd-14': 1436 }, { 'ubuntu-24.04': { n: 2 }, 'freebsd-14': { n: 2 } }), 'inconclusive', 'why', /needs at least 3 usable runs a side \(have 2 and 2\)/],
    ['two Ubuntu releases pooled as one side', '003-os', gridfs({ 'ubuntu-24.04': 2725, 'ubuntu-22.04': 2725, 'freebsd-14': 1436 }), 'not comparable', 'missing', /label: the ubuntu runs carry engine=ubuntu-2[24]\.04, engine=ubuntu-2[24]\.04: one system a side/],
    ['two Ubuntu releases in the order', '003-os-order', gridfs({ ...ORDER, 'ubuntu-22.04': 2725 }), 'not comparable', 'missing', /label: the ubuntu runs carry engine=ubuntu-2[24]\.04, engine=ubuntu-2[24]\.04/],
    ['a label of another system is no side', '003-os', gridfs({ 'ubuntu-24.04': 2725, 'freebsd-14': 1436, 'debian-12': 5000 }), 'reproduced', 'lab', /^ubuntu 2,725 vs freebsd 1,436/],
    ['preallocated faster', '001-prealloc', prealloc(1100, 1000), 'reproduced', 'why', /higher, interval clear of 1\.0/],
    ['preallocated slower', '001-prealloc', prealloc(900, 1000), 'contradicted', 'why', /the other way round/],
    ['as fast, noisy', '001-prealloc', prealloc(1000, 1000, { spread: [0.8, 1, 1.25] }), 'inconclusive', 'why', /spans 1\.0/],
    ['a server without a journal', '001-prealloc', prealloc(1100, 1000, { journal: false }), 'not comparable', 'missing', /journal: 6 of 6 runs on a server without a journal/],
    ['the journal not recorded', '001-prealloc', prealloc(1100, 1000, { journal: null }), 'not comparable', 'missing', /journal: not recorded in 6 of 6 runs/],
  ];
  for (const [what, c, root, status, field, re] of rows) {
    const r = one(root, c);
    assert.equal(r.status, status, `${what}: ${JSON.stringify(r)}`);
    assert.match(r[field], re, what);
  }
});

// the journal switch (001): mongod with --journal against without it, per engine; each side's
// server must be what the side says
test('journal switch (001): each side\'s server with or without a journal, per engine; not comparable otherwise', () => {
  const make = (on, off, { journalOn = true, journalOff = false, extra } = {}) => {
    const root = tmpDir();
    reps(root, { experiment: 'journal', engine: 'mmapv1', points: { 'j:false': on, 'j:true': on * 0.9 }, parameters: { params: { members_journal: 'on', commit_intervals_ms: [100] } }, step: () => ({ journal: journalOn }), ...(extra ? { extra } : {}) });
    reps(root, { experiment: 'journal', engine: 'mmapv1', points: { 'journal off': off }, parameters: { params: { members_journal: 'off' } }, step: () => ({ journal: journalOff }), ...(extra ? { extra } : {}) });
    return root;
  };
  const rows = [
    ['the seed\'s cost', make(670, 1000), 'reproduced', 'why', /within the claimed 0\.60-0\.75/],
    ['journal-on runs on a server that wrote no journal', make(1000, 1000, { journalOn: false }), 'not comparable', 'missing', /journal: 3 of 3 journal on runs on a server without a journal \(the seed's mongod ran with --journal\)/],
    ['journal-off runs on a server that journals', make(670, 1000, { journalOff: true }), 'not comparable', 'missing', /journal: 3 of 3 journal off runs on a server with a journal/],
    ['the journal not recorded', make(670, 1000, { journalOn: null }), 'not comparable', 'missing', /journal: not recorded in 3 of 3 journal on runs/],
    ['topology not recorded', make(670, 1000, { extra: { topology: null } }), 'not comparable', 'missing', /topology: not recorded in 6 of 6 runs \(the seed: "Tests were run on a single machine"\)/],
  ];
  for (const [what, root, status, field, re] of rows) {
    const r = one(root, '001-journal');
    assert.equal(r.status, status, `${what}: ${JSON.stringify(r)}`);
    assert.match(r[field], re, what);
    assert.equal(r.side, 'mmapv1', what);
  }
  // one row per engine that ran both cases, each on its own runs
  const both = make(670, 1000);
  reps(both, { experiment: 'journal', engine: 'wiredtiger', points: { 'j:false': 950 }, parameters: { params: { members_journal: 'on', commit_intervals_ms: [100] } }, step: () => ({ journal: true }) });
  reps(both, { experiment: 'journal', engine: 'wiredtiger', points: { 'journal off': 1000 }, parameters: { params: { members_journal: 'off' } }, step: () => ({ journal: false }) });
  assert.deepEqual(judged(both, '001-journal').map((r) => [r.side, r.status]).sort(), [['mmapv1', 'reproduced'], ['wiredtiger', 'contradicted']]);
});

// Every claim of claims.json and every condition it carries: runs that meet all of them are judged
// (any verdict), and runs that break exactly one are not comparable, naming it.
// runsFor(claim, v): the claim's runs, each condition met but the one v breaks: v.reported (that
// side's server reports wiredTiger), v.topology, v.w, v.j, v.memory (data against memory the other
// way), v.docs (below the seed's scale), v.journal (a server without one where the claim needs it).
function runsFor(c, v = {}) {
  const t = c.test;
  const cond = c.conditions;
  const root = tmpDir();
  const sc = c.seed_setup.scale;
  const scaled = { 'workload.docs': W, 'preload.docs': P }[sc.parameter]?.(v.docs ?? sc.value) ?? {};
  const topo = cond.topology?.need.includes('standalone') ? { topology: v.topology ? null : { kind: 'standalone' } } : v.topology ? {} : RS;
  const memBytes = cond.data_vs_memory && ((cond.data_vs_memory.need === 'fits') === !v.memory ? 4e6 : 4e9);
  const journalOf = (side) => (cond.journal === true ? !v.journal : cond.journal?.[side] === true
    ? !v.journal : cond.journal?.[side] ?? true);
  // the labels a claim needs (seeds/002's size=medium), unless v.labels breaks them
  const need = Object.fromEntries(Object.entries(cond.labels || {}).map(([k, x]) => [k, v.labels ? 'other' : x.value]));
  const add = (side, { engine = side, points, labels, params, journal_path, profile,
    step = () => ({}) }) => reps(root, {
    // a side named apart from its engine (a ./run.sh compare --uri side) reports the claim's engine
    experiment: t.experiment, engine, points, reported: v.reported === side ? 'wiredTiger' : cond.engines?.[side] && cond.engines[side].server_engine !== engine ? cond.engines[side].server_engine : !cond.engines && engine !== 'wiredtiger' ? 'wiredTiger' : undefined,
    parameters: { ...scaled, ...(v.w || v.j !== undefined
      ? { write_concern: { w: v.w ?? 1, ...(v.j !== undefined ? { j: v.j } : {}) } } : {}),
      ...(params ? { params } : {}) },
    extra: { ...topo, labels: { ...need, ...(labels || {}) }, ...(profile ? { profile } : {}), ...(v.otherServer && side === (t.denominator ?? t.pairs?.at(-1)?.[1]) ? { server: { version: '6.0.0', storage_engine: { name: 'wiredTiger' } } } : {}), storage: { journal_path: journal_path ?? null, ...(v.oplog === null ? {} : { oplog_mb_reported: 4096 }) },
      ...(memBytes ? { profile: 'seed2013' } : {}),
      footprint: { end: { documents: 10000, data_bytes: memBytes || 1e6, index_bytes: 0 },
        data_dir_bytes: { a: side === t.numerator ? 4.9e6 : 1e7 } } },
    step: (ph, i) => ({ journal: journalOf(side), ...stab([dip(t.cause_ids?.[0] ?? 'x', 'x'), dip(t.cause_ids?.[0] ?? 'x', 'x')]), replication: { flagged: reasonsIf(side === t.flagged) }, ...step(ph, i) }),
  });
  const two = { 'clients-1': 1000, 'clients-2': 1500 };
  const sides = t.side ? [t.side] : t.sides;
  if (t.kind === 'knee') add('wiredtiger', { points: { 'clients-1': 100, 'clients-2': 190, 'clients-4': 350 } });
  else if (t.kind === 'fluctuation' || t.kind === 'resolution') add(t.side, { points: { 'clients-1': 1000, 'clients-5': 1000 } });
  else if (t.kind === 'cost' && t.dimension !== 'engine') for (const s of sides) add(s, { engine: 'wiredtiger', points: { [t.case]: 670, [t.baseline]: 1000 }, labels: { [t.dimension]: s } });
  else if (t.dimension === 'profile') for (const s of [t.numerator, t.denominator]) add(s, { engine: 'wiredtiger', points: { [t.point]: 1000 }, profile: s });
  else if (t.kind === 'dips') add(t.side, { points: two });
  else if (t.kind === 'replication') for (const s of [t.flagged, t.steady]) add(s, { points: { 'clients-1': 1000 } });
  else if (t.kind === 'cost') add('wiredtiger', { points: { [t.case]: 670, [t.baseline]: 1000 } });
  else if (t.dimension === 'engine' && t.kind === 'ordering' && !t.point) add('wiredtiger', { points: Object.fromEntries(t.pairs.flat().map((p, i) => [p, 1000 - i])) });
  else if (t.dimension === 'engine' && t.kind === 'ordering') for (const s of t.pairs.flat()) add(s, { points: { [t.point]: 1000 } });
  else if (t.dimension === 'engine') for (const s of [t.numerator, t.denominator]) add(s, { points: t.point === 'max' || t.kind === 'steadiness' ? two : { [t.point]: 1000 } });
  else if (t.dimension === 'members_journal') for (const s of [t.numerator, t.denominator]) add(s, { engine: 'mmapv1', points: { [t.points[s]]: 1000 }, params: { members_journal: s === 'journal off' ? 'off' : 'on' } });
  else if (t.dimension === 'journal_path') for (const s of [t.numerator, t.denominator]) add(s, { engine: 'wiredtiger', points: { [t.point]: 1000 }, journal_path: s === 'journal apart' ? '/mnt/disk2' : undefined });
  else for (const s of [t.numerator, t.denominator]) add(s, { engine: 'mmapv1', points: t.point === 'max' ? two : { [t.point]: 1000 }, labels: { [t.dimension]: s } });
  return root;
}

test('every claim, every condition it carries: met, it is judged; broken alone, not comparable naming it', () => {
  const breaks = (c) => {
    const cond = c.conditions;
    const out = Object.keys(cond.engines || {}).map((side) => [`engine of ${side}`, { reported: side }, new RegExp(`engine: runs labelled ${side} report wiredTiger`)]);
    if (cond.topology) out.push(['topology', { topology: true }, cond.topology.need.includes('standalone') ? /topology: not recorded in/ : /topology: standalone in/]);
    if (cond.write_concern) out.push(['write concern', { w: 'majority' }, /write concern: w:majority \(the seed: (w:1|w:0 or w:1, mongoimport into one mongod)/]);
    for (const k of Object.keys(cond.labels || {})) out.push([`label ${k}`, { labels: true }, new RegExp(`label: ${k}=other in \\d+ of \\d+ runs`)]);
    if (cond.same_server) out.push(['one server', { otherServer: true }, /server: the sides run 2 different servers/]);
    if (cond.oplog) out.push(['oplog', { oplog: null }, /oplog: not recorded in \d+ of \d+ runs/]);
    if (typeof cond.write_concern?.j === 'boolean') out.push(['write concern j', { j: !cond.write_concern.j }, new RegExp(`write concern: j:${!cond.write_concern.j} in (\\d+) of \\1 runs \\(the seed: j:${cond.write_concern.j}\\)`)]);
    if (cond.data_vs_memory) out.push(['data against memory', { memory: true }, /data against memory: [\d,]+ MB of data and indexes (fit in|exceed)/]);
    if (cond.scale_min) out.push(['scale', { docs: 2000 }, /scale: 2,000 docs, below the seed's/]);
    if (cond.journal) out.push(['journal', { journal: true }, /journal: .*on a server without a journal/]);
    return out;
  };
  const KNOWN = ['engines', 'topology', 'write_concern', 'data_vs_memory', 'scale_min', 'journal', 'oplog', 'same_server', 'labels'];
  let seen = 0;
  for (const c of require('./support/claim-runs').CLAIMS) {
    for (const k of Object.keys(c.conditions)) assert.ok(KNOWN.includes(k), `${c.id}: condition ${k} has no break here`);
    if (!Object.keys(c.conditions).length) continue; // 003's systems: the labels test above
    const base = judged(runsFor(c), c);
    for (const r of base) assert.notEqual(r.status, 'not comparable', `${c.id} with every condition met: ${JSON.stringify(r)}`);
    for (const [what, v, re] of breaks(c)) {
      const rows = judged(runsFor(c, v), c);
      for (const r of rows) {
        assert.equal(r.status, 'not comparable', `${c.id}, ${what} broken: ${JSON.stringify(r)}`);
        assert.match(r.missing, re, `${c.id}, ${what}`);
      }
      seen++;
    }
  }
  assert.ok(seen >= 61, `${seen} claim conditions broken`); // 61 in claims.json today
});

// the outcomes claims.test.js leaves out, claim by claim; each row [what, claim, runs, status, field, pattern]
test('the remaining outcomes: stale secondaries on both sides, the j:true stand-in, dips in excluded steps, storage, the journal disk', () => {
  const root = (fill) => { const d = tmpDir(); fill(d); return d; };
  const ex1 = { experiment: 'experiment1', extra: { ...RS, storage: { oplog_mb_reported: 4096 } } };
  const stale = (rocksFlagged) => root((d) => {
    for (const engine of ['mmapv1', 'rocksdb']) reps(d, { ...ex1, engine, points: { 'clients-1': 1000 }, parameters: W(20000000), step: () => ({ replication: { flagged: reasonsIf(engine === 'mmapv1' || rocksFlagged) } }) });
  });
  const jtrue = (points, spread) => root((d) => reps(d, { experiment: 'journal', engine: 'wiredtiger', points, step: () => ({ journal: true }), ...(spread ? { spread } : {}) }));
  // mmapv1's dips: two during its flush a step; the second step, loader-limited, dipped ten times otherwise
  const limitedDips = root((d) => reps(d, { ...ex1, engine: 'mmapv1', points: { 'clients-1': 1000, 'clients-2': 1000 }, parameters: W(10000000),
    step: (ph) => (ph === 'clients-2' ? { ...LIMITED, ...stab([...Array(10)].map(() => dip('page_faults', 'x'))) } : stab([dip('mmapv1_flush', 'x'), dip('mmapv1_flush', 'x')])) }));
  // two runs: the first loader-limited all along, the second with four dips during the flush
  const oneUsable = root((d) => reps(d, { ...ex1, engine: 'mmapv1', n: 2, points: { 'clients-1': 1000 }, parameters: W(10000000),
    step: (ph, i) => ({ ...(i === 0 ? LIMITED : {}), ...stab([...Array(4)].map(() => dip('mmapv1_flush', 'x'))) }) }));
  // three runs of 30 s each, four dips apiece, none during a flush (none was due)
  const shortRecords = root((d) => reps(d, { ...ex1, engine: 'mmapv1', points: { 'clients-1': 1000 }, parameters: W(10000000), step: () => stab([...Array(4)].map(() => dip('page_faults', 'x')), 30) }));
  const rocksDips = (hit, other) => root((d) => reps(d, { experiment: 'experiment2', extra: RS, engine: 'rocksdb', points: { 'clients-1': 1000 }, parameters: P(1000000), step: () => stab([...[...Array(hit)].map(() => dip('rocks_flush', 'x')), ...[...Array(other)].map(() => dip('checkpoint', 'x'))], 180) }));
  // the data directory per document, spread over the runs (or not recorded)
  const storage = (rocks, spread, recorded = true, docs = 10000000,
    oplog = { oplog_mb_reported: 4096 }) => root((d) => {
    for (const [engine, bpd] of [['mmapv1', 1000], ['rocksdb', rocks]]) {
      let i = 0;
      reps(d, { ...ex1, engine, points: { 'clients-1': 1000 }, parameters: W(docs), step: () => ({}) });
      const dir = path.join(d, 'experiment1', engine);
      for (const run of fs.readdirSync(dir)) {
        const f = path.join(dir, run, 'summary.json');
        const s = JSON.parse(fs.readFileSync(f, 'utf8'));
        s.footprint = { end: { documents: 10000 }, ...(recorded ? { data_dir_bytes: { 'shard01-a': bpd * spread[i++ % spread.length] * 10000 } } : {}) };
        s.storage = oplog; // the seed's oplog by default: its du counted it
        fs.writeFileSync(f, JSON.stringify(s));
      }
    }
  });
  const disk = (experiment, point, apart, spread) => root((d) => {
    reps(d, { experiment, engine: 'wiredtiger', points: { [point]: apart }, extra: { ...RS, storage: { journal_path: '/mnt/disk2' } }, step: () => ({ journal: true }), spread });
    reps(d, { experiment, engine: 'wiredtiger', points: { [point]: 1000 }, extra: RS, step: () => ({ journal: true }) });
  });
  const rows = [
    ['rocksdb\'s secondaries fell behind too', '004-stale', stale(true), 'inconclusive', 'why', /rocksdb fell behind too/],
    ['j:true noisy: still the lab\'s own figure, no verdict', '001-journal-jtrue', jtrue({ 'j:false': 1000, 'j:true': 670 }, [0.4, 1, 2.5]), 'lab figure', 'why', /a quantity the seed never measured/],
    ['no j:true case', '001-journal-jtrue', jtrue({ 'j:false': 1000 }), 'not comparable', 'missing', /needs cases j:true and j:false/],
    ['dips of a loader-limited step are left out', '004-dips-mmapv1', limitedDips, 'reproduced', 'lab', /^6 dip\(s\) in 3 run\(s\), 6 during/],
    ['a run whose every step was loader-limited is no run toward the minimum', '004-dips-mmapv1', oneUsable, 'inconclusive', 'why', /needs at least 2 runs with the record on measured steps of 60 s or more, as its cause comes every syncDelay, 60 s \(have 1\)/],
    ['records shorter than the cause\'s period: no flush to see', '004-dips-mmapv1', shortRecords, 'inconclusive', 'why', /of 60 s or more, as its cause comes every syncDelay, 60 s \(have 0\)/],
    ['fewer than half of rocksdb\'s dips at its flush', '004-dips-rocksdb', rocksDips(1, 2), 'inconclusive', 'why', /fewer than half/],
    ['storage spread over both sides of the band', '004-storage', storage(500, [0.5, 1, 2]), 'inconclusive', 'why', /reaches both below and above the claimed 0\.40-0\.60/],
    ['storage over 2,000 documents: their preallocated files, not the seed\'s space', '004-storage', storage(160, [0.98, 1, 1.02], true, 2000), 'not comparable', 'missing', /scale: 2,000 docs, below the seed's 10,000,000/],
    ['no data directory recorded', '004-storage', storage(500, [1], false), 'not comparable', 'missing', /needs summary\.json footprint\.data_dir_bytes/],
    // ./run.sh --oplog-size 3800 (the needs line): the size asked is the seed's; the member's own, when it
    // reports one, decides (mongod keeps an oplog made before at its first size)
    ['--oplog-size 3800, no size reported: the seed\'s oplog, judged', '004-storage', storage(500, [0.98, 1, 1.02], true, 10000000, { oplog_mb: 3800, oplog_mb_reported: null }), 'reproduced', 'why', /lies within/],
    ['--oplog-size 3800 asked, 1,024 MB reported: not the seed\'s', '004-storage', storage(500, [0.98, 1, 1.02], true, 10000000, { oplog_mb: 3800, oplog_mb_reported: 1024 }), 'not comparable', 'missing', /oplog: 1,024 MB, below the seed's 3,500 MB/],
    ['the lab\'s default 1 GB oplog: not the seed\'s', '004-storage', storage(500, [0.98, 1, 1.02], true, 10000000, { oplog_mb: 1024, oplog_mb_reported: null }), 'not comparable', 'missing', /oplog: 1,024 MB, below the seed's 3,500 MB/],
    ['the journal apart, noisy (000)', '000-journal-disk', disk('writeconcern', 'w:1+j', 2000, [0.3, 1, 3.3]), 'inconclusive', 'why', /the interval reaches/],
    ['the journal apart, noisy (001): the lab\'s figure only', '001-journal-disk', disk('journal', 'j:false', 1000, [0.5, 1, 2]), 'lab figure', 'why', /Windows junction/],
  ];
  for (const [what, c, d, status, field, re] of rows) {
    const r = one(d, c);
    assert.equal(r.status, status, `${what}: ${JSON.stringify(r)}`);
    assert.match(r[field], re, what);
  }
});

// one side, one server: along the engine, runs of two server versions are two sides even where the
// claim names no engine (the durability order, the knee, the j:true stand-in)
test('one side, one server: wiredtiger runs of 7.0 and 8.0 are not pooled as one side', () => {
  const v8 = { server: { version: '8.0.4', storage_engine: { name: 'wiredtiger' } } };
  const order = { 'w:0': 4000, 'w:1': 3990, 'w:1+j': 1000, 'w:2': 1500, 'w:2+j': 500, majority: 1480, 'majority+j': 490 };
  const rows = [
    ['000-ordering', { points: order, extra: RS, step: () => ({ journal: true }) }, { extra: { ...RS, ...v8 } }],
    ['001-journal-jtrue', { points: { 'j:false': 1000, 'j:true': 670 }, step: () => ({ journal: true }) }, { extra: v8 }],
    ['002-knee', { points: { 'clients-1': 100, 'clients-2': 190, 'clients-4': 350 }, p50: { 'clients-1': 500, 'clients-2': 500, 'clients-4': 900 } }, { extra: v8 }],
  ];
  for (const [id, spec, other] of rows) {
    const d = tmpDir();
    reps(d, { experiment: claim(id).test.experiment, engine: 'wiredtiger', ...spec });
    assert.notEqual(one(d, id).status, 'not comparable', id);
    reps(d, { experiment: claim(id).test.experiment, engine: 'wiredtiger', ...spec, ...other });
    const r = one(d, id);
    assert.equal(r.status, 'not comparable', `${id}: ${JSON.stringify(r)}`);
    assert.match(r.missing, /engine: the wiredtiger runs come from 2 different servers \(versions 7\.0\.0, 8\.0\.4\): one side, one server/, id);
  }
});

// data against memory where the server's memory is not recorded (a --uri run, no profile): data
// below every profile's memory exceeded none; beyond it, the verdict names what is not known
test('data beyond memory with the memory not recorded: a few MB is not comparable, gigabytes give a verdict naming it', () => {
  const make = (dataBytes) => {
    const d = tmpDir();
    for (const [engine, rate] of [['rocksdb', 1300], ['mmapv1', 1000]]) reps(d, { experiment: 'experiment1', engine, points: { 'clients-1': rate }, parameters: W(3000), extra: { ...RS, profile: null, footprint: { end: { documents: 3000, data_bytes: dataBytes, index_bytes: 0 } } } });
    return d;
  };
  const small = one(make(1.2e6), '004-insert');
  assert.equal(small.status, 'not comparable', JSON.stringify(small));
  assert.match(small.missing, /data against memory: 1\.2 MB of data and indexes in 6 of 6 runs, less than any profile's 1,611 MB of memory \(the server's own is not recorded/);
  // gigabytes with the memory unknown: maybe beyond it, maybe not; unknown is never met
  const big = one(make(4e9), '004-insert');
  assert.equal(big.status, 'not comparable', JSON.stringify(big));
  assert.match(big.missing, /data against memory: not known in 6 of 6 runs \(no profile or no footprint recorded/);
  // data that fits is what read+update needs: a few MB with the memory not recorded is judged
  const d = tmpDir();
  for (const [engine, rate] of [['rocksdb', 1300], ['mmapv1', 1000]]) reps(d, { experiment: 'experiment2', engine, points: { 'clients-1': rate }, parameters: P(500), extra: { ...RS, profile: null, footprint: { end: { documents: 500, data_bytes: 2e5, index_bytes: 0 } } } });
  assert.equal(one(d, '004-read-update').status, 'reproduced');
});
