'use strict';
// Each claim's `needs`: commands that, run as written, make a set the claim can judge. Every line
// parses against the real CLI (./run.sh ... --dry-run: run.sh's own flags and the loader's parser,
// nothing started); where two sides are compared the runs are interleaved, as the report's order
// guard asks (src/drift.js): one ./run.sh compare whose sides are the claim's, or single runs of the
// two configurations alternated A B B A.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync, execFile } = require('node:child_process');
const { CLAIMS } = require('./support/claim-runs');
const { tmpDir } = require('./support/fixtures');

const ROOT = path.join(__dirname, '..', '..');

// the two sides a claim compares in separate runs (null: one side's own runs, cases against cases)
function sidesOf(c) {
  const t = c.test;
  if (['ratio', 'steadiness'].includes(t.kind)) return [t.numerator, t.denominator];
  if (t.kind === 'replication') return [t.flagged, t.steady];
  if (t.kind === 'ordering' && t.point) return [...new Set(t.pairs.flat())];
  if (t.kind === 'cost' && t.sides) return t.sides;
  return null;
}

// dryRun(args): ./run.sh ARGS --dry-run -> { status, stderr }. Four at a time below: each is a bash
// and a node process that mostly start up, and one after the other they took 49 s of the suite.
const dryRun = (args) => new Promise((resolve) => {
  execFile('bash', [path.join(ROOT, 'run.sh'), ...args, '--dry-run'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    (err, _stdout, stderr) => resolve({ status: err ? (err.code ?? 1) : 0, stderr }));
});

test('every needs line parses against the real CLI (./run.sh --dry-run exits 0)', { timeout: 600000 }, async () => {
  const lines = [...new Set(CLAIMS.flatMap((c) => c.needs))];
  const disk = tmpDir('lab-claims-disk2-');
  for (const line of lines) assert.match(line, /^\.\/run\.sh [\w:.,/=@+ -]+$/, `not one command: ${line}`);
  const queue = [...lines];
  const failed = [];
  await Promise.all(Array.from({ length: 4 }, async () => {
    for (let line = queue.shift(); line !== undefined; line = queue.shift()) {
      // --journal-path names the second disk, which run.sh wants mounted: a folder stands in for it
      const args = line.split(' ').slice(1).map((a) => (a === '/mnt/disk2' ? disk : a));
      const r = await dryRun(args);
      if (r.status !== 0) failed.push(`${line} (exit ${r.status})\n${r.stderr}`);
    }
  }));
  assert.deepEqual(failed, [], failed.join('\n'));
});

// a claim that needs the seed's oplog (conditions.oplog) asks for it: the lab's stacks start the
// engines table's 1 GB, so a needs line without ./run.sh --oplog-size made a set it never judges
test('a claim with an oplog condition: its needs lines start the members with an oplog of at least min_mb', () => {
  const withOplog = CLAIMS.filter((c) => c.conditions?.oplog);
  assert.ok(withOplog.length >= 2, 'the seeds/004 storage and stale-secondary claims carry one');
  for (const c of withOplog) {
    for (const line of c.needs) {
      const mb = Number(/ --oplog-size (\d+)\b/.exec(line)?.[1]);
      assert.ok(mb >= c.conditions.oplog.min_mb, `${c.id}: ${line} (needs --oplog-size >= ${c.conditions.oplog.min_mb})`);
    }
  }
});

test('a bad needs line fails the same check (the check can fail)', async () => {
  const r = await dryRun(['compare', 'experiment2', '--engines', 'mmapv1,rocksdb', '--profile', 'seed2014']);
  assert.notEqual(r.status, 0);
});

test('two sides compared: their runs interleaved, by ./run.sh compare of the claim\'s sides or A B B A single runs', () => {
  for (const c of CLAIMS) {
    const sides = sidesOf(c);
    if (!sides) {
      assert.ok(c.needs.length >= 1, c.id);
      continue;
    }
    const cmp = c.needs.filter((n) => n.startsWith('./run.sh compare '));
    if (cmp.length) {
      assert.equal(c.needs.length, 1, `${c.id}: one comparison`);
      const named = [...(/--engines (\S+)/.exec(cmp[0])?.[1].split(',') ?? []), ...[...cmp[0].matchAll(/--uri ([\w.-]+)=/g)].map((m) => m[1])];
      for (const s of sides) assert.ok(named.some((n) => n === s || (c.test.match === 'prefix' && n.startsWith(s))), `${c.id}: side ${s} not among ${named.join(', ')}`);
      continue;
    }
    // single runs alternated: A B B A, at least two of each, every one --repeat 1
    const kinds = [...new Set(c.needs)];
    assert.equal(kinds.length, 2, `${c.id}: two configurations, got ${kinds.length}`);
    assert.ok(c.needs.length >= 4 && c.needs.every((n) => / --repeat 1$/.test(n)), `${c.id}: single runs, four or more`);
    const seq = c.needs.map((n) => kinds.indexOf(n));
    for (let i = 0; i + 1 < seq.length; i += 2) assert.notEqual(seq[i], seq[i + 1], `${c.id}: runs ${i + 1} and ${i + 2} of one side: not interleaved`);
    for (let i = 1; i + 1 < seq.length; i += 2) assert.equal(seq[i], seq[i + 1], `${c.id}: A B B A`);
  }
});

test('a row names alternated single runs once each, with their order', () => {
  const { one } = require('./support/claim-runs');
  const r = one(tmpDir(), '000-journal-disk');
  assert.equal(r.status, 'not comparable');
  assert.match(r.why, /runs: \.\/run\.sh writeconcern --engine wiredtiger --repeat 1 ; \.\/run\.sh writeconcern --engine wiredtiger --journal-path \/mnt\/disk2 --repeat 1 \(alternated A B B A, 8 runs\)$/);
});
