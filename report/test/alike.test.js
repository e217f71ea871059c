'use strict';
// Which runs are alike, from hand-made results folders with known values: runs are compared only when alike
// (two servers reporting no engine are two sides named by what they report; one label on two
// builds named apart; loader version/Node and host count keep sets apart), multi-host parts merge
// only when their steps overlap (a part 7 s apart left out), steps that measured no engine
// (failed, unsupported, docs lost, shared host) never enter a verdict and are counted, one
// statistic (the headline inside its own CI with bimodal samples), any dimension (--by platform),
// and a summary whose numbers do not read (a torn histogram, a rate stored as text) is skipped
// with the field named, exit 0.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir, makeRun, histogramOf } = require('./support/fixtures');
const { readAll } = require('../src/read');
const { buildReport } = require('../src/compare');
const { main } = require('../src/cli');
const { FAILED_STEP_ERROR_FRACTION } = require('../../common/step-failure');

const build = (root, by) => buildReport(readAll([root], {}), { by });
const quiet = () => { let out = ''; return { io: { stdout: { write: (s) => { out += s; } }, stderr: { write: (s) => { out += s; } } }, text: () => out }; };
const one = (r, extra = {}) => ({ name: 's', ops: { find: { rate: r, lat: [[100, 10]] } }, ...extra });
// A server that reports no storage engine: the loader files it under "unknown", engine_source none.
const unknownServer = (version) => ({ engine_source: 'none', server: { version, storage_engine: null, storage_engine_note: 'not reported', process: 'java' } });

test('two servers that report no storage engine are two sides named by what they report, never one "unknown"', () => {
  const root = tmpDir();
  [100, 110, 105].forEach((r, i) => makeRun(root, { engine: 'unknown', stamp: `a${i}`, extra: unknownServer('7.0.0'), steps: [one(r)] }));
  [1000, 1100, 1050].forEach((r, i) => makeRun(root, { engine: 'unknown', stamp: `b${i}`, extra: unknownServer('6.0.0'), steps: [one(r)] }));
  const [set] = build(root).experiments[0].sets;
  assert.deepEqual(set.sides, ['unknown (java 6.0.0)', 'unknown (java 7.0.0)']);
  for (const a of set.aggregates) assert.equal(a.runs, 3, `${a.side}: its own 3 runs, not 6 pooled`);
  assert.equal(set.verdicts[0].status, 'verdict');
  assert.equal(set.verdicts[0].faster, 'unknown (java 6.0.0)');
});

test('one label, two server builds: two sides, the difference named', () => {
  const root = tmpDir();
  [100, 110].forEach((r, i) => makeRun(root, { engine: 'wt', stamp: `a${i}`, extra: { server: { version: '8.0.4', git_version: 'aaa', storage_engine: { name: 'wiredTiger' } } }, steps: [one(r)] }));
  [100, 110].forEach((r, i) => makeRun(root, { engine: 'wt', stamp: `b${i}`, extra: { server: { version: '8.0.4', git_version: 'bbb', product: 'psmdb 8.0.4-2', storage_engine: { name: 'wiredTiger' } } }, steps: [one(r)] }));
  const [set] = build(root).experiments[0].sets;
  assert.deepEqual(set.sides.sort(), ['wt [server.git_version aaa, server.product not recorded]', 'wt [server.git_version bbb, server.product psmdb 8.0.4-2]']);
});

test('a different loader version or Node is a different set, the difference named', () => {
  const root = tmpDir();
  makeRun(root, { engine: 'a', stamp: 'a', steps: [one(100)] });
  makeRun(root, { engine: 'b', stamp: 'b', extra: { loader: { version: '2.0.0', node: 'v22', driver: 'mongodb 7.8.0', histogram: 'hdr', hostname: 'h' } }, steps: [one(100)] });
  const ex = build(root).experiments[0];
  assert.equal(ex.sets.length, 2);
  assert.deepEqual(ex.differences[0].diffs.map((d) => d.key), ['run.loader.node', 'run.loader.version']);
});

test('several hosts: merged only when their steps overlap; a part outside is left out and named; a merged run is never pooled with single-host runs', () => {
  const root = tmpDir();
  const at = (s) => new Date(Date.parse('2026-11-01T00:00:00Z') + s * 1000).toISOString();
  const step = (r, start) => ({ name: 's', started_at: at(start), duration_s: 2, ops: { find: { rate: r, lat: [[100, 10]] } } });
  // group g1: hostA and hostB together (0.3 s apart); group g2: hostC started 7 s after hostD
  makeRun(root, { engine: 'wt', stamp: 'A', host: 'hostA', group: 'g1', repetition: 1, steps: [step(100, 10)] });
  makeRun(root, { engine: 'wt', stamp: 'B', host: 'hostB', group: 'g1', repetition: 1, steps: [step(100, 10.3)] });
  makeRun(root, { engine: 'wt', stamp: 'D', host: 'hostD', group: 'g2', repetition: 1, steps: [step(100, 20)] });
  const c = makeRun(root, { engine: 'wt', stamp: 'C', host: 'hostC', group: 'g2', repetition: 1, steps: [step(100, 27)] });
  makeRun(root, { engine: 'wt', stamp: 'E', host: 'hostE', steps: [step(100, 40)] });
  const rep = build(root);
  assert.equal(rep.left_out.length, 1);
  assert.equal(rep.left_out[0].dir, c);
  assert.match(rep.left_out[0].why, /not merged with hostD of the same group and repetition: s started 7\.0 s apart and overlapped 0\.0 s of 2\.0 s \(needs 50%\)/);
  const ex = rep.experiments[0];
  assert.equal(ex.sets.length, 2, 'the 2-host run apart from the single-host runs');
  const two = ex.sets.find((s) => s.runs.some((r) => r.hosts === 2));
  assert.equal(two.runs.length, 1);
  assert.ok(ex.differences[0].diffs.some((d) => d.key === 'run.hosts'), JSON.stringify(ex.differences));
});

test('no verdict without a measurement: errors above the threshold, unsupported, docs lost, loader-limited and shared-host steps are excluded and counted', () => {
  const root = tmpDir();
  const errs = Math.ceil(1000 * FAILED_STEP_ERROR_FRACTION) + 5; // above the loader's threshold
  const failing = { name: 'errors', ops: { insert: { rate: 100, lat: [[100, 10]] } } };
  for (const [e, rs] of Object.entries({ a: [100, 110, 105], b: [200, 210, 205] })) {
    rs.forEach((r, i) => {
      const dir = makeRun(root, { engine: e, stamp: `${e}${i}`, steps: [one(r), { ...failing, name: 'errors' }, { ...one(r), name: 'shared' }, { ...one(r), name: 'w:0' }, { ...one(r), name: 'w:2' }] });
      const f = path.join(dir, 'summary.json');
      const s = JSON.parse(fs.readFileSync(f, 'utf8'));
      if (e === 'b') s.steps[1].ops.insert.errors = errs; // b's errors step failed (count 1000, errors > 1 %)
      if (e === 'a' && i < 2) s.steps[2].loader.contention = ['host busy 1.9 of 2 cores while the loader used 0.3'];
      s.steps[3].unsupported = e === 'a' ? 'the server closed the connection after an unacknowledged write' : null;
      if (e === 'b') s.steps[3].documents = { sent: 6, arrived: 0 };
      // a case the loader did not run: the topology cannot satisfy it (writeconcern's not_applicable)
      s.steps[4].not_applicable = 'w:2 needs 2 data-bearing members; a standalone has 1';
      fs.writeFileSync(f, JSON.stringify(s));
    });
  }
  const rep = build(root);
  const [set] = rep.experiments[0].sets;
  const v = (p) => set.verdicts.find((x) => x.point === p);
  assert.equal(v('s').status, 'verdict');
  assert.equal(v('errors').status, 'excluded');
  assert.match(v('errors').sentence, /b: errors above the threshold in 3 of 3 run\(s\), excluded/);
  assert.equal(v('shared').status, 'excluded');
  assert.match(v('shared').sentence, /a: other load on the loader's host made the loader late by a material share of what it measured in 2 of 3 run\(s\)/);
  assert.equal(v('w:0').status, 'excluded');
  assert.match(v('w:0').sentence, /a: the server could not do it in 3 of 3 run\(s\); b: not every document sent arrived in 3 of 3 run\(s\)/);
  assert.equal(v('w:2').status, 'excluded');
  assert.deepEqual(rep.summary.find((r) => r.point === 'w:2').excluded, [{ not_applicable: 3 }, { not_applicable: 3 }]);
  const row = rep.summary.find((r) => r.point === 'w:0');
  assert.deepEqual(row.excluded, [{ unsupported: 3 }, { lost_documents: 3 }]);
  assert.ok(row.safety.includes('a: unsupported 3/3') && row.safety.includes('b: 0 of 18 docs arrived'), row.safety.join('|'));
  assert.deepEqual(row.usable, [0, 0]);
});

test('two loaders on one server: a run whose summary records another loader during a step is excluded and named; the hosts of one run do not exclude each other', () => {
  const root = tmpDir();
  const other = { pid: 4242, host: 'h2', started_at: '2026-01-01T00:00:01.000Z', results: '/r/experiment2/b/other', noticed: 'started during this run' };
  for (const [e, rs] of Object.entries({ a: [100, 110, 105], b: [200, 210, 205] })) {
    rs.forEach((r, i) => {
      const dir = makeRun(root, { engine: e, stamp: `${e}${i}`, steps: [one(r)] });
      if (e === 'a' && i === 0) {
        const f = path.join(dir, 'summary.json');
        const s = JSON.parse(fs.readFileSync(f, 'utf8'));
        s.concurrent_runs = [{ ...other, started_at: s.steps[0].started_at }];
        fs.writeFileSync(f, JSON.stringify(s));
      }
    });
  }
  const [set] = build(root).experiments[0].sets;
  const [v] = set.verdicts;
  assert.match(v.sentence, /a: another loader ran against the same server and collection in 1 of 3 run\(s\)/);
  const a = set.aggregates.find((x) => x.side === 'a');
  assert.equal(a.excluded.shared_server, 1);
  assert.match(a.shared_server[0], /loader pid 4242 on h2/);
  assert.equal(a.verdict_samples.length, 2, 'the shared run is not a sample');

  // Two hosts of one group: each records the other; merged, they are one run, not excluded.
  const root2 = tmpDir();
  const dirs = ['h1', 'h2'].map((host) => makeRun(root2, { engine: 'a', stamp: `g-${host}`, extra: { group: 'g1', loader: { hostname: host } }, steps: [one(100)] }));
  dirs.forEach((dir, i) => {
    const f = path.join(dir, 'summary.json');
    const s = JSON.parse(fs.readFileSync(f, 'utf8'));
    s.concurrent_runs = [{ pid: 1, host: 'x', started_at: s.steps[0].started_at, results: dirs[1 - i], noticed: 'at this run\'s start' }];
    fs.writeFileSync(f, JSON.stringify(s));
  });
  const [set2] = build(root2).experiments[0].sets;
  const a2 = set2.aggregates.find((x) => x.side === 'a');
  assert.equal(a2.runs, 1, 'one 2-host run');
  assert.equal(a2.excluded.shared_server, undefined, JSON.stringify(a2.excluded));
});

test('one statistic: the headline is the ratio the interval describes, even with bimodal samples', () => {
  const root = tmpDir();
  // bimodal: medians 100 vs 1000 (a ratio of medians would say 10x, outside its own interval)
  const a = [100, 100, 100, 100, 100, 1000, 1000, 1000, 1000];
  const b = [100, 100, 100, 100, 1000, 1000, 1000, 1000, 1000];
  a.forEach((r, i) => makeRun(root, { engine: 'a', stamp: `a${i}`, steps: [one(r)] }));
  b.forEach((r, i) => makeRun(root, { engine: 'b', stamp: `b${i}`, steps: [one(r)] }));
  const [v] = build(root).experiments[0].sets[0].verdicts;
  assert.ok(v.ci[0] <= v.ratio && v.ratio <= v.ci[1], `${v.ratio} in ${v.ci}`);
  assert.ok(Math.abs(v.ratio - 10 ** (1 / 9)) < 1e-9, `geometric means: ${v.ratio}`);
  assert.match(v.sentence, /ratio 1\.29, 95% CI/);
});

test('--by a label: runs compared along platform, other labels keep sets apart; runs without it named', () => {
  const root = tmpDir();
  for (const [pf, rs] of Object.entries({ aws: [100, 110], gcp: [200, 220] })) {
    rs.forEach((r, i) => makeRun(root, { engine: 'wt', stamp: `${pf}${i}`, extra: { labels: { platform: pf, os: 'ubuntu-24.04' } }, steps: [one(r)] }));
  }
  makeRun(root, { engine: 'wt', stamp: 'x', extra: { labels: { platform: 'aws', os: 'debian-12' } }, steps: [one(100)] });
  const rep = build(root, 'platform');
  const ex = rep.experiments[0];
  const main1 = ex.sets[0];
  assert.deepEqual(main1.sides, ['aws', 'gcp']);
  assert.match(main1.verdicts[0].sentence, /gcp is 2\.00x aws/);
  assert.equal(ex.sets.length, 2, 'os=debian-12 is not pooled with os=ubuntu-24.04');
  assert.match(ex.differences[0].sentence, /run\.labels\.os: "ubuntu-24\.04" vs "debian-12"/);
  // by engine, the same runs split by both labels
  assert.equal(build(root, 'engine').experiments[0].sets.length, 3);
});

test('bad input: a corrupt histogram or a rate stored as text skips that run with its reason, exit 0 for the rest', () => {
  const root = tmpDir();
  [100, 110].forEach((r, i) => makeRun(root, { engine: 'a', stamp: `a${i}`, steps: [one(r)] }));
  [200, 210].forEach((r, i) => makeRun(root, { engine: 'b', stamp: `b${i}`, steps: [one(r)] }));
  const torn = makeRun(root, { engine: 'a', stamp: 'torn', steps: [one(100)] });
  const text = makeRun(root, { engine: 'b', stamp: 'text', steps: [one(100)] });
  const edit = (dir, fn) => { const f = path.join(dir, 'summary.json'); const s = JSON.parse(fs.readFileSync(f, 'utf8')); fn(s); fs.writeFileSync(f, JSON.stringify(s)); };
  edit(torn, (s) => { s.steps[0].ops.find.histogram = histogramOf([[100, 10]]).slice(0, 20); });
  edit(text, (s) => { s.steps[0].ops.find.ops_per_s = '1000'; });
  const q = quiet();
  assert.equal(main(['--results-dir', root], q.io), 0);
  assert.doesNotMatch(q.text(), /\n\s+at /, 'no stack trace');
  const flat = q.text().replace(/\n\s+/g, ' '); // lines are wrapped at 120 columns
  assert.match(flat, /skipped: .*torn: summary\.json: steps\[0\]\.ops\.find\.histogram is not a readable HdrHistogram/);
  assert.match(flat, /skipped: .*text: summary\.json: steps\[0\]\.ops\.find\.ops_per_s is "1000", must be number or null/);
  const rep = JSON.parse(fs.readFileSync(path.join(root, 'report', 'latest', 'report.json'), 'utf8'));
  assert.deepEqual(rep.experiments[0].sets[0].aggregates.map((a) => a.runs), [2, 2], 'the rest reported, the bad runs in no total');
});

test('--by server: two builds under one engine label compared as servers, the engine kept alike', () => {
  const root = tmpDir();
  const srv = (version, product) => ({ server: { version, product, process: 'mongod', storage_engine: { name: 'wiredTiger' } } });
  [100, 110].forEach((r, i) => makeRun(root, { engine: 'wt', stamp: `m${i}`, extra: srv('8.0.4', null), steps: [one(r)] }));
  [300, 330].forEach((r, i) => makeRun(root, { engine: 'wt', stamp: `p${i}`, extra: srv('8.0.4-2', 'psmdb 8.0.4-2'), steps: [one(r)] }));
  makeRun(root, { engine: 'rocks', stamp: 'r', extra: srv('8.0.4', null), steps: [one(500)] });
  const ex = build(root, 'server').experiments[0];
  const set = ex.sets.find((s) => s.runs.every((r) => r.engine === 'wt'));
  assert.deepEqual(set.sides, ['mongod 8.0.4', 'mongod 8.0.4-2 (psmdb 8.0.4-2)']);
  assert.match(set.verdicts[0].sentence, /mongod 8\.0\.4-2 \(psmdb 8\.0\.4-2\) is 3\.00x mongod 8\.0\.4/);
  assert.ok(ex.differences.some((d) => /run\.engine: "wt" vs "rocks"|run\.engine: "rocks" vs "wt"/.test(d.sentence)), 'another engine is another set');
});

test('runs of different profiles are never pooled: one set per profile, the difference named (setKey keeps the profile)', () => {
  const root = tmpDir();
  for (const profile of ['laptop', 'seed2013']) {
    for (const [e, rates] of Object.entries({ a: [100, 110], b: [200, 210] })) rates.forEach((r, i) => makeRun(root, { engine: e, stamp: `${profile}-${e}${i}`, extra: { profile }, steps: [one(profile === 'laptop' ? r : r * 3)] }));
  }
  const ex = build(root).experiments[0];
  assert.equal(ex.sets.length, 2, 'laptop and seed2013 apart');
  for (const set of ex.sets) for (const a of set.aggregates) assert.equal(a.runs, 2, `${a.side}: its own profile's 2 runs`);
  assert.match(ex.differences[0].sentence, /run\.profile: "(laptop|seed2013)" vs "(laptop|seed2013)"/);
});

test('driver lines 6.9 and 6.16 are two lines: major.minor, never the major alone', () => {
  const { driverLine } = require('../src/identity');
  assert.equal(driverLine('mongodb 6.9.0, chosen for server wire version 7'), 'mongodb 6.9');
  assert.equal(driverLine('mongodb 6.16.0, chosen for server wire version 8'), 'mongodb 6.16');
  const root = tmpDir();
  const loader = (driver) => ({ loader: { version: '1.0.0', node: 'v20', driver, histogram: 'hdr', host_cores: 2, hostname: 'hostA' } });
  [100, 110].forEach((r, i) => makeRun(root, { engine: 'wt', stamp: `a${i}`, extra: loader('mongodb 6.9.0, chosen for server wire version 7'), steps: [one(r)] }));
  [100, 110].forEach((r, i) => makeRun(root, { engine: 'wt', stamp: `b${i}`, extra: loader('mongodb 6.16.0, chosen for server wire version 8'), steps: [one(r)] }));
  const [set] = build(root).experiments[0].sets;
  assert.deepEqual(set.sides.sort(), ['wt [driver_line mongodb 6.16]', 'wt [driver_line mongodb 6.9]']);
});

test('a summary that breaks the schema is skipped with the field named: a missing count, an SLA percentile the loader never writes, a time that is no time', () => {
  const root = tmpDir();
  [100, 110].forEach((r, i) => makeRun(root, { engine: 'a', stamp: `a${i}`, steps: [one(r)] }));
  const bad = {
    count: (s) => { delete s.steps[0].ops.find.count; },
    sla: (s) => { s.capacity = { sla: { percentile: 'p98', target_ms: 10 }, capacity_ops_per_s: 100, clients: 4, complete: true, steps: [] }; },
    time: (s) => { s.steps[0].started_at = 'yesterday'; },
    engine: (s) => { delete s.engine; },
  };
  for (const [stamp, fn] of Object.entries(bad)) {
    const dir = makeRun(root, { engine: 'a', stamp, steps: [one(100)] });
    const f = path.join(dir, 'summary.json');
    const s = JSON.parse(fs.readFileSync(f, 'utf8'));
    fn(s);
    fs.writeFileSync(f, JSON.stringify(s));
  }
  const { skipped, runs } = readAll([root], {});
  assert.equal(runs.length, 2, 'the good runs only');
  const why = Object.fromEntries(skipped.map((x) => [path.basename(x.dir), x.why]));
  assert.deepEqual(why, {
    count: 'summary.json: steps[0].ops.find.count is missing',
    sla: 'summary.json: capacity.sla.percentile is "p98", must be one of "p50", "p90", "p99", "p99.9"',
    time: `summary.json: steps[0].started_at is "yesterday", must match pattern "${require('../../common/summary.schema.json').definitions.time.pattern}"`,
    engine: 'summary.json: engine is missing',
  });
});
