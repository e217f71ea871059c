'use strict';
// Every finding of the five seeds is a claim or a reasoned non-claim (claims.json not_claims), and
// the findings added as claims are judged as the seed stated them: seeds/002's clouds along
// --label platform (one instance size), seeds/000's instance size along the profile, seeds/004's
// monitoring resolution, TokuMX's fluctuation at 5-6 clients and MMAPv1's read+update drops.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir } = require('./support/fixtures');
const { CLAIMS, RS, P, W, reps, one, judged, dip, stab } = require('./support/claim-runs');

const FILE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'claims.json'), 'utf8'));
const at = (k) => new Date(Date.parse('2026-11-01T00:00:00Z') + k * 60000).toISOString();
// A B B A start times for two sides of n runs each
const abba = (side, n = 4) => (i) => at([0, 3, 4, 7, 8, 11][i] + (side ? [1, 1, -1, -1, 1, 1][i] : 0));

test('every finding of the seeds: a claim, or a one-line reason why this lab cannot judge it', () => {
  const ids = [...CLAIMS.map((c) => c.id), ...FILE.not_claims.map((n) => n.id)];
  assert.equal(new Set(ids).size, ids.length, 'ids unique across claims and not_claims');
  for (const n of FILE.not_claims) {
    for (const k of ['id', 'seed', 'quote', 'why']) assert.ok(typeof n[k] === 'string' && n[k].length, `${n.id}: ${k}`);
    assert.doesNotMatch(n.why, /\n/, `${n.id}: one line`);
    assert.ok(n.why.length <= 300, `${n.id}: one line, ${n.why.length} characters`);
    assert.match(n.id, new RegExp(`^${n.seed.slice(-3)}-`), n.id);
  }
  // the findings that had neither, each now one or the other
  for (const id of ['002-do-insert', '002-others-close-in', '002-azure-medium', '002-aws-large', '002-aws-azure-flat', '002-do-scales',
    '002-latency-graceful', '004-monitoring', '004-tokumx-fluctuates', '004-dips-mmapv1-update', '000-instance', '001-prealloc-choice', '003-virtio']) {
    assert.ok(ids.includes(id), id);
  }
  // every seed has its findings here, with the seed's words quoted (a clone has no seeds folder)
  for (const s of ['000', '001', '002', '003', '004']) assert.ok(CLAIMS.some((c) => c.seed === `seeds/${s}`) && FILE.not_claims.some((n) => n.seed === `seeds/${s}`), s);
  for (const c of [...CLAIMS, ...FILE.not_claims]) assert.match(c.quote, /"/, `${c.id}: quotes the seed`);
});

test('seeds/002: the clouds along --label platform, one instance size; each provider at its own maximum', () => {
  const make = (rates, size = 'medium') => {
    const root = tmpDir();
    Object.entries(rates).forEach(([platform, pts], k) => reps(root, {
      experiment: 'ycsb-a', engine: 'wiredtiger', n: 4, points: pts, startedAt: abba(k), extra: { labels: { platform, size } },
    }));
    return root;
  };
  const medium = make({ azure: { 'clients-8': 1500, 'clients-16': 1600 }, aws: { 'clients-8': 1000, 'clients-16': 900 } });
  const r = one(medium, '002-azure-medium');
  assert.equal(r.status, 'reproduced', JSON.stringify(r));
  assert.match(r.lab, /azure at clients-16, aws at clients-8/);
  assert.equal(one(medium, '002-aws-large').status, 'not comparable'); // medium runs: not the large instances
  const large = make({ azure: { 'clients-8': 1500 }, aws: { 'clients-8': 1000 } }, 'large');
  const l = one(large, '002-aws-large');
  assert.equal(l.status, 'contradicted', JSON.stringify(l));
  const m = one(large, '002-azure-medium');
  assert.equal(m.status, 'not comparable');
  assert.match(m.missing, /label: size=large in 8 of 8 runs \(the claim needs size=medium/);
  // DigitalOcean still climbing from 16 to 32 threads; AWS and Azure flat from 8 to 16, each its row
  const sweep = make({ digitalocean: { 'clients-16': 1000, 'clients-32': 1900 }, aws: { 'clients-8': 1000, 'clients-16': 1010 }, azure: { 'clients-8': 1000, 'clients-16': 1500 } });
  assert.equal(one(sweep, '002-do-scales').status, 'reproduced');
  assert.deepEqual(judged(sweep, '002-aws-azure-flat').map((x) => [x.side, x.status]), [['aws', 'reproduced'], ['azure', 'contradicted']]);
});

test('seeds/000: the larger instance along the profile, interleaved', () => {
  const root = tmpDir();
  for (const [k, [profile, rate]] of [['laptop', 1000], ['seed2013', 1100]].entries()) {
    reps(root, { experiment: 'writeconcern', engine: 'wiredtiger', n: 4, points: { 'w:1+j': rate }, startedAt: abba(k), extra: { ...RS, profile }, step: () => ({ journal: true }) });
  }
  const r = one(root, '000-instance');
  assert.equal(r.status, 'reproduced', JSON.stringify(r));
  assert.match(r.lab, /^seed2013 1,0\d\d vs laptop 99\d ops\/s .*4 and 4 runs\) at w:1\+j/);
});

test('seeds/004: drops seen at 1 s vanish in 56 s means (the monitoring resolution)', () => {
  // each mmapv1 run: dips at 1 s, and a timeline of 224 s (four 56 s windows)
  const make = (secondOf) => {
    const root = tmpDir();
    reps(root, { experiment: 'experiment1', engine: 'mmapv1', points: { 'clients-1': 1000 }, extra: RS, parameters: W(10000000), step: () => stab([dip('mmapv1_flush', 'x'), dip('mmapv1_flush', 'x')]) });
    const dir = path.join(root, 'experiment1', 'mmapv1');
    for (const run of fs.readdirSync(dir)) {
      const lines = [...Array(224)].map((_, s) => ({ elapsed_s: s + 1, interval_s: 1, partial: false, phase: 'clients-1', ops: { insert: { ops_per_s: secondOf(s) } } }));
      fs.writeFileSync(path.join(dir, run, 'timeline.ndjson'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    }
    return one(root, '004-monitoring');
  };
  // one-second drops to 40% every minute: a 56 s mean loses about 1%
  const hidden = make((s) => (s % 60 === 30 ? 400 : 1000));
  assert.equal(hidden.status, 'reproduced', JSON.stringify(hidden));
  assert.match(hidden.lab, /in 3 the lowest 56 s mean is 90% or more of the median/);
  // a whole minute at half speed shows in the 56 s means too
  const shown = make((s) => (s >= 112 && s < 168 ? 500 : 1000));
  assert.equal(shown.status, 'contradicted', JSON.stringify(shown));
});

test('seeds/004: TokuMX fluctuates at 5 and 6 clients; MMAPv1\'s read+update drops at its flushes', () => {
  const ex = { extra: RS, parameters: P(1000000) };
  const pts = Object.fromEntries([1, 2, 3, 4, 5, 6].map((c) => [`clients-${c}`, 1000]));
  const root = tmpDir();
  // 0 dips a minute at 1-4 clients, 6 at 5-6
  reps(root, { experiment: 'experiment2', engine: 'rocksdb', points: pts, ...ex, step: (ph, i) => stab([...Array(Number(ph.split('-')[1]) >= 5 ? 6 + i : i % 2)].map(() => dip('rocks_flush', 'x'))) });
  const r = one(root, '004-tokumx-fluctuates');
  assert.equal(r.status, 'reproduced', JSON.stringify(r));
  assert.match(r.lab, /^5\+ clients [\d.]+ vs below 5 clients [\d.]+ s\/min outside dips/);
  const m = tmpDir();
  reps(m, { experiment: 'experiment2', engine: 'mmapv1', points: pts, ...ex, step: () => stab([dip('mmapv1_flush', 'x'), dip('mmapv1_flush', 'x')]) });
  assert.equal(one(m, '004-dips-mmapv1-update').status, 'reproduced');
});
