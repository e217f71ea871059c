'use strict';
// The seeds' findings (issue 42): each claim of report/claims.json judged on hand-made results
// folders (support/fixtures.js makeRun) with known rates: reproduced, contradicted, inconclusive
// and not comparable (missing runs, or the server record of issues 39/40 absent), then the rows
// in report.json and the terminal through the real CLI.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir, makeRun } = require('./support/fixtures');
const { readAll } = require('../src/read');
const { claimsReport, loadClaims, KINDS } = require('../src/claims');
const { main } = require('../src/cli');

const CLAIMS = loadClaims();
const claim = (id) => CLAIMS.find((c) => c.id === id);
let seq = 0;

// reps(root, spec): 3 repetitions whose rates are spec.points' x 0.99, 1.00, 1.01 (or spec.spread);
// spec.step(name) adds fields to a step entry (the server record), spec.extra to the summary.
function reps(root, { experiment, engine, points, spread = [0.99, 1, 1.01], extra = {}, step = null, n = 3 }) {
  for (let i = 0; i < n; i++) {
    const f = spread[i % spread.length];
    const dir = makeRun(root, {
      experiment, engine, stamp: `20261101T0000${String(seq++).padStart(2, '0')}Z`, extra,
      steps: Object.entries(points).map(([name, rate]) => ({ name, clients: /^clients-(\d+)/.exec(name) ? Number(/^clients-(\d+)/.exec(name)[1]) : 1, ops: { insert: { rate: rate * f } } })),
    });
    if (step) {
      const file = path.join(dir, 'summary.json');
      const s = JSON.parse(fs.readFileSync(file, 'utf8'));
      for (const e of s.steps) Object.assign(e, step(e.phase, i));
      fs.writeFileSync(file, JSON.stringify(s));
    }
  }
}

const judged = (root, id) => claimsReport(readAll([root]).runs, [claim(id)]);
const one = (root, id) => {
  const rows = judged(root, id);
  assert.equal(rows.length, 1, JSON.stringify(rows, null, 1));
  return rows[0];
};

test('claims.json: every claim is complete data with a known test kind and the runs it needs', () => {
  assert.ok(CLAIMS.length >= 11);
  for (const c of CLAIMS) {
    for (const k of ['id', 'seed', 'words']) assert.ok(typeof c[k] === 'string' && c[k], `${c.id}: ${k}`);
    assert.ok(c.published?.text, `${c.id}: published.text`);
    assert.ok(KINDS[c.test?.kind], `${c.id}: test.kind ${c.test?.kind}`);
    assert.ok(c.reproduced_when?.why, `${c.id}: reproduced_when.why`);
    assert.ok(c.seed_setup?.engines && c.seed_setup?.hardware, `${c.id}: seed_setup`);
    assert.ok(c.needs.some((n) => n.startsWith('./run.sh ')), `${c.id}: needs a ./run.sh command`);
  }
  for (const s of ['seeds/004', 'seeds/001', 'seeds/000', 'seeds/002', 'seeds/003']) assert.ok(CLAIMS.some((c) => c.seed === s), s);
});

test('ratio between engines (seeds/004 inserts): reproduced, contradicted, inconclusive, missing runs', () => {
  const cases = [
    ['reproduced', { rocksdb: 1300, mmapv1: 1000 }, null],
    ['contradicted', { rocksdb: 800, mmapv1: 1000 }, null],
    ['inconclusive', { rocksdb: 1000, mmapv1: 1000 }, [0.8, 1, 1.25]],
  ];
  for (const [want, rates, spread] of cases) {
    const root = tmpDir();
    for (const [engine, rate] of Object.entries(rates)) reps(root, { experiment: 'experiment1', engine, points: { 'clients-1': rate }, ...(spread ? { spread } : {}) });
    const r = one(root, '004-insert');
    assert.equal(r.status, want, JSON.stringify(r));
    assert.match(r.lab, /x \(95% CI [\d.]+-[\d.]+, 3 and 3 runs\)/);
    assert.ok(r.ci[0] <= r.ratio && r.ratio <= r.ci[1]);
    assert.match(r.differs, /engine line: .*mmapv1 on .*\(seed: TokuMX/);
    assert.match(r.differs, /scale: not recorded docs \(seed: 10,000,000\)/);
  }
  const root = tmpDir();
  reps(root, { experiment: 'experiment1', engine: 'mmapv1', points: { 'clients-1': 1000 } });
  makeRun(root, { experiment: 'experiment1', engine: 'rocksdb', stamp: 'cut', complete: false, steps: [{ name: 'clients-1', ops: { insert: { rate: 900 } } }] });
  const r = one(root, '004-insert');
  assert.match(r.why, /\(1 incomplete run\(s\) of experiment1 not counted\)$/);
  assert.equal(r.status, 'not comparable');
  assert.match(r.missing, /needs runs of experiment1 on rocksdb and mmapv1 alike \(have: mmapv1\)/);
  assert.match(r.why, /\.\/run\.sh experiment1 --engine rocksdb --profile seed2013 --docs 10000000/);
});

test('ratio at each side\'s peak step (seeds/004 read+update) and "about equal" (reads)', () => {
  const root = tmpDir();
  reps(root, { experiment: 'experiment2', engine: 'rocksdb', points: { 'clients-1': 800, 'clients-2': 1500, 'clients-3': 1400 } });
  reps(root, { experiment: 'experiment2', engine: 'mmapv1', points: { 'clients-1': 1000, 'clients-2': 900, 'clients-3': 850 } });
  const r = one(root, '004-read-update');
  assert.equal(r.status, 'reproduced');
  assert.match(r.lab, /1\.50x .* peak clients-2 vs clients-1/);

  // every run of one side excluded (the loader was the limit): inconclusive, saying so, not "not run"
  const lim = tmpDir();
  reps(lim, { experiment: 'experiment2', engine: 'rocksdb', points: { 'clients-1': 800, 'clients-2': 1500 } });
  for (let i = 0; i < 3; i++) {
    makeRun(lim, { experiment: 'experiment2', engine: 'mmapv1', stamp: `lim${i}`, steps: [1, 2].map((c) => ({ name: `clients-${c}`, clients: c, limited: true, ops: { insert: { rate: 1000 } } })) });
  }
  const l = one(lim, '004-read-update');
  assert.equal(l.status, 'inconclusive', JSON.stringify(l));
  assert.match(l.why, /mmapv1: the loader was the limit in 3 of 3 run\(s\), excluded/);

  const eq = tmpDir();
  reps(eq, { experiment: 'experiment3', engine: 'mmapv1', points: { 'clients-1': 1020 } });
  reps(eq, { experiment: 'experiment3', engine: 'rocksdb', points: { 'clients-1': 1000 } });
  assert.equal(one(eq, '004-reads').status, 'reproduced');
  const far = tmpDir();
  reps(far, { experiment: 'experiment3', engine: 'mmapv1', points: { 'clients-1': 2000 } });
  reps(far, { experiment: 'experiment3', engine: 'rocksdb', points: { 'clients-1': 1000 } });
  const f = one(far, '004-reads');
  assert.equal(f.status, 'contradicted');
  assert.match(f.why, /not about equal/);
});

test('cost against a baseline (seeds/001 journal): inside 30-35%, outside it, no difference, no runs', () => {
  const want = [['reproduced', 670], ['contradicted', 950], ['inconclusive', 1000]];
  for (const [status, jtrue] of want) {
    const root = tmpDir();
    reps(root, { experiment: 'journal', engine: 'wiredtiger', points: { 'j:false': 1000, 'j:true': jtrue }, spread: status === 'inconclusive' ? [0.8, 1, 1.2] : [0.99, 1, 1.01] });
    const r = one(root, '001-journal');
    assert.equal(r.status, status, JSON.stringify(r));
    assert.equal(r.side, 'wiredtiger');
    assert.match(r.lab, /j:true\/j:false/);
  }
  assert.match(one(tmpDir(), '001-journal').missing, /needs runs of journal/);
});

test('ordering of cases (seeds/000 write concerns): ordered, reversed, ties, a case not run', () => {
  const order = { 'w:0': 4000, 'w:1': 2000, 'w:1+j': 1000, 'w:2': 500, majority: 500 };
  const root = tmpDir();
  reps(root, { experiment: 'writeconcern', engine: 'wiredtiger', points: order });
  const r = one(root, '000-ordering');
  assert.equal(r.status, 'reproduced', JSON.stringify(r));
  assert.match(r.why, /w:2\/majority tie as they may here/);
  assert.match(r.lab, /^3 of 4 steps slower/);

  const rev = tmpDir();
  reps(rev, { experiment: 'writeconcern', engine: 'wiredtiger', points: { ...order, 'w:1+j': 3000 } });
  const c = one(rev, '000-ordering');
  assert.equal(c.status, 'contradicted');
  assert.match(c.why, /reversed: w:1\/w:1\+j/);

  // a larger set of runs holding one case only (other parameters) does not stand in for the ordering
  const more = tmpDir();
  reps(more, { experiment: 'writeconcern', engine: 'wiredtiger', points: order });
  reps(more, { experiment: 'writeconcern', engine: 'wiredtiger', points: { 'w:1+j': 900 }, n: 5, extra: { profile: 'laptop' } });
  assert.equal(one(more, '000-ordering').status, 'reproduced');

  const tie = tmpDir();
  reps(tie, { experiment: 'writeconcern', engine: 'wiredtiger', points: { 'w:0': 2000, 'w:1': 2000, 'w:1+j': 2000 } });
  const i = one(tie, '000-ordering');
  assert.equal(i.status, 'inconclusive');
  assert.match(i.why, /no difference shown: w:0\/w:1, w:1\/w:1\+j/);
  assert.match(i.why, /not run: w:1\+j\/w:2, w:2\/majority/);
});

test('knee in a sweep (seeds/002): knee, still climbing, no climb', () => {
  const sweep = (rates) => Object.fromEntries([1, 2, 4, 8, 16].map((c, i) => [`clients-${c}`, rates[i]]));
  const want = [['reproduced', [100, 190, 350, 600, 605], /knee at 8/], ['inconclusive', [100, 200, 400, 800, 1600], /still climbing at 16/], ['contradicted', [100, 100, 100, 100, 100], /no significant climb/]];
  for (const [status, rates, re] of want) {
    const root = tmpDir();
    reps(root, { experiment: 'ycsb-a', engine: 'wiredtiger', points: sweep(rates) });
    const r = one(root, '002-knee');
    assert.equal(r.status, status, JSON.stringify(r));
    assert.match(`${r.lab} ${r.why}`, re);
  }
});

test('difference between labels (seeds/003 operating systems), and no second label', () => {
  const make = (rates) => {
    const root = tmpDir();
    for (const [os, rate] of Object.entries(rates)) reps(root, { experiment: 'gridfs', engine: 'wiredtiger', points: { upload: rate }, extra: { labels: { os } } });
    return root;
  };
  const r = one(make({ ubuntu: 2700, freebsd: 1430 }), '003-os');
  assert.equal(r.status, 'reproduced');
  assert.match(r.lab, /^ubuntu\/freebsd 1\.89x/);
  assert.equal(one(make({ ubuntu: 1000, freebsd: 1001 }), '003-os').status, 'contradicted');
  assert.match(one(make({ ubuntu: 1000 }), '003-os').missing, /at least two values of --label os/);
});

test('the server record (issues 39, 40): not comparable without it, judged when present', () => {
  // without footprint / stability / replication: each names what is missing
  const bare = tmpDir();
  for (const engine of ['mmapv1', 'rocksdb']) reps(bare, { experiment: 'experiment1', engine, points: { 'clients-1': 1000 } });
  assert.match(one(bare, '004-storage').missing, /footprint \(issue 39\)/);
  assert.match(one(bare, '004-dips').missing, /steps\[\]\.stability \(issue 40\)/);
  assert.match(one(bare, '004-stale').missing, /steps\[\]\.replication \(issue 39\)/);
  assert.match(one(bare, '000-journal-disk').missing, /--journal-path/);

  const rec = tmpDir();
  reps(rec, { experiment: 'experiment1', engine: 'mmapv1', points: { 'clients-1': 1000 }, extra: { footprint: { end: { bytes_per_doc: { on_disk_with_indexes: 960 } } } },
    step: () => ({ stability: { seconds: 60, dip_seconds: 1, worst_second_fraction: 0.4, dips: [{ start: '2026-01-01T00:00:03Z', length_s: 1, depth: 0.4, causes: [{ rule: 'mmapv1_flush', says: 'during an MMAPv1 background flush' }], cause_text: 'during an MMAPv1 background flush' }] }, replication: { flagged: true } }) });
  reps(rec, { experiment: 'experiment1', engine: 'rocksdb', points: { 'clients-1': 1000 }, extra: { footprint: { end: { bytes_per_doc: { on_disk_with_indexes: 470 } } } },
    step: () => ({ stability: { seconds: 60, dip_seconds: 1, worst_second_fraction: 0.4, dips: [{ start: '2026-01-01T00:01:00Z', length_s: 1, depth: 0.4, causes: [{ rule: 'checkpoint', says: 'during a checkpoint' }], cause_text: 'during a checkpoint' }] }, replication: { flagged: false } }) });
  const s = one(rec, '004-storage');
  assert.equal(s.status, 'reproduced');
  assert.match(s.lab, /^0\.49x/);
  const dips = judged(rec, '004-dips');
  assert.deepEqual(dips.map((d) => [d.side, d.status]), [['mmapv1', 'reproduced'], ['rocksdb', 'reproduced']]);
  assert.equal(one(rec, '004-stale').status, 'reproduced');
});

test('the separate journal disk (seeds/000), once runs record storage.journal_path', () => {
  const root = tmpDir();
  reps(root, { experiment: 'writeconcern', engine: 'wiredtiger', points: { 'w:1+j': 3000 }, extra: { storage: { journal_path: '/mnt/disk2' } } });
  reps(root, { experiment: 'writeconcern', engine: 'wiredtiger', points: { 'w:1+j': 1000 } });
  const r = one(root, '000-journal-disk');
  assert.equal(r.status, 'reproduced', JSON.stringify(r));
  assert.match(r.lab, /^3\.00x/);
});

test('report.json and the terminal carry one row per claim, every line within 120 columns', () => {
  const root = tmpDir();
  reps(root, { experiment: 'journal', engine: 'wiredtiger', points: { 'j:false': 1000, 'j:true': 670 } });
  let out = '';
  assert.equal(main(['--results-dir', root], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  const rep = JSON.parse(fs.readFileSync(path.join(root, 'report', 'latest', 'report.json'), 'utf8'));
  assert.deepEqual([...new Set(rep.claims.map((c) => c.id))], CLAIMS.map((c) => c.id));
  assert.equal(rep.claims.find((c) => c.id === '001-journal').status, 'reproduced');
  assert.match(out, /^== the seeds' findings/m);
  assert.match(out, /^001-journal \(wiredtiger\)\s+REPRODUCED\s/m);
  assert.match(out, /^004-insert\s+NOT COMPARABLE\s/m);
  for (const l of out.split('\n')) assert.ok(l.length <= 120, `${l.length}: ${l}`);
});
