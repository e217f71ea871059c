'use strict';
// DEVELOPERS.md "Adding an experiment", followed: a new experiments/NAME.yaml of an existing
// kind, in a temporary copy of the experiments folder, runs end to end through the loader CLI
// against mongo-java-server with no code edit; `check` validates it (and refuses bad ranges with
// one line) without connecting; `list` names it with its description; --repeat gives one folder
// per repetition under one group, each step's histogram stored as report/README.md defines.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const hdr = require('hdr-histogram-js');
const { testServer } = require('./support/server');
const { runLoader, tmpResults } = require('./support/loader');
const { checkSummary } = require('./support/summary-schema');

const REPO_EXPERIMENTS = path.join(__dirname, '..', '..', 'experiments');
// The recipe's example (DEVELOPERS.md): one file, an existing kind, nothing else.
const RECIPE = `# read-small: exact-match reads on a small data set, 1 and 2 clients (the recipe's example).
name: read-small
database: lab
collection: recipe
write_concern: { w: 1 }
read_preference: primary
read_concern: local
seed: 7
setup:
  drop: true
  indexes:
    - { x: 1 }
document:
  y_length: 50
  alphabet: abc
preload:
  docs: 300
  batch: 100
workload:
  type: read
  clients: [1, 2]
  duration: 2s
`;

let server;
let results;
let expDir;
test.before(async () => {
  server = await testServer();
  results = tmpResults();
  expDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-experiments-'));
  fs.cpSync(REPO_EXPERIMENTS, expDir, { recursive: true });
  fs.writeFileSync(path.join(expDir, 'read-small.yaml'), RECIPE);
});
test.after(async () => {
  await server?.stop();
  for (const d of [results, expDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

// names(): the experiment files in the test's folder (the repository's, plus the recipe's).
const names = () => fs.readdirSync(expDir).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)).sort();

const runs = (name, engine) => {
  const dir = path.join(results, name, engine);
  return fs.readdirSync(dir).filter((f) => f !== 'latest').sort()
    .map((f) => ({ dir: path.join(dir, f), summary: JSON.parse(fs.readFileSync(path.join(dir, f, 'summary.json'), 'utf8')) }));
};

test('a new experiment file of an existing kind runs end to end, with no code edit', async () => {
  const r = await runLoader(['read-small', '--experiments-dir', expDir, '--uri', server.uri, '--results-dir', results,
    '--metrics-port', '0', '--engine', 'recipe', '--progress-interval', '1s']);
  assert.equal(r.code, 0, r.stderr);
  const [{ dir, summary }] = runs('read-small', 'recipe');
  checkSummary(summary);
  assert.equal(summary.complete, true);
  assert.equal(summary.experiment, 'read-small');
  assert.equal(summary.parameters.collection, 'recipe');
  assert.equal(summary.preload.docs, 300);
  assert.deepEqual(summary.steps.map((s) => [s.phase, Object.keys(s.ops)]), [['clients-1', ['find']], ['clients-2', ['find']]]);
  for (const s of summary.steps) assert.ok(s.ops.find.count > 0 && s.ops.find.ops_per_s > 0);
  assert.equal(fs.readFileSync(path.join(dir, 'read-small.yaml'), 'utf8'), RECIPE, 'the file that ran is copied');
  assert.match(r.stdout, /read-small on recipe/);
});

test('check: the run\'s own validation, nothing connects; ranges refused in one line', async () => {
  const ok = await runLoader(['check', 'read-small', '--experiments-dir', expDir, '--clients', '1,4', '--duration', '1s']);
  assert.equal(ok.code, 0, ok.stderr);
  // nothing for the user (a kind without settings); only ./run.sh's facts (src/cli/stack-requests.js)
  assert.equal(ok.stderr, '');
  assert.deepEqual(ok.stdout.split('\n').filter((l) => l && !l.startsWith('@lab-fact\t')), []);
  assert.match(ok.stdout, /^@lab-fact\tclients\t1 4$/m);
  // --tool ycsb (./run.sh's) refuses another kind, naming the folder's YCSB experiments (./run.sh
  // reads no YAML); the folder's files are read for that only
  assert.doesNotMatch(ok.stdout, /kind-ycsb/);
  const tool = await runLoader(['check', 'read-small', '--experiments-dir', expDir, '--tool', 'ycsb']);
  assert.equal(tool.code, 2);
  assert.equal(tool.stderr, 'error: --tool ycsb runs YCSB\'s own workloads (ycsb-a): read-small is not one (its workload is read): drop --tool\n');
  assert.equal(tool.stdout, '');
  assert.equal((await runLoader(['check', 'ycsb-a', '--experiments-dir', expDir, '--tool', 'ycsb'])).code, 0);
  for (const [args, re] of [
    [['experiment2', '--clients', '1001', '--workers', '999'], /^error: --clients: 1001 is out of range 1\.\.1000$/],
    [['experiment2', '--workers', '999'], /^error: --workers: 999 is out of range 1\.\.256$/],
    [['read-small', '--experiments-dir', expDir, '--docs', '5'], /^error: --docs does not apply to read-small \(its read workload takes --duration, --preload-docs\)$/],
    // every file of the folder is named (the shipped experiments and the recipe's), whatever ships
    [['nope', '--experiments-dir', expDir], new RegExp(`^error: unknown experiment 'nope': no .*nope\\.yaml \\(experiments: ${names().join(' ')}, or a \\.yaml file\\)$`)],
    [['experiment2', '--repeat', '0'], /^error: --repeat: 0 is out of range 1\.\.1000$/],
    [['experiment2', '--group', 'a b'], /^error: --group: 'a b' is not a valid label/],
  ]) {
    const r = await runLoader(['check', ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr.trimEnd(), re);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1);
  }
});

test('a file with an unknown workload kind is refused, naming the kinds', async () => {
  const f = path.join(expDir, 'bad-kind.yaml');
  fs.writeFileSync(f, RECIPE.replace('type: read', 'type: scan').replace('name: read-small', 'name: bad-kind'));
  const r = await runLoader(['check', 'bad-kind', '--experiments-dir', expDir]);
  fs.rmSync(f);
  assert.equal(r.code, 2);
  assert.match(r.stderr, new RegExp(`workload\\.type: one of ${Object.keys(require('../src/kinds').KINDS).join(', ')}$`, 'm'));
});

test('list: every experiment file with its first comment line', async () => {
  const r = await runLoader(['list', '--experiments-dir', expDir]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.deepEqual(lines.map((l) => l.split('\t')[0]), names());
  assert.ok(names().includes('read-small') && names().includes('experiment1'));
  assert.ok(lines.includes('read-small\texact-match reads on a small data set, 1 and 2 clients (the recipe\'s example).'));
});

test('--repeat 2 --group: two folders, one group, repetitions 1 and 2, histograms at steps[].ops.<op>.histogram', async () => {
  const r = await runLoader(['read-small', '--experiments-dir', expDir, '--uri', server.uri, '--results-dir', results,
    '--metrics-port', '0', '--engine', 'rep', '--progress-interval', '1s', '--clients', '1', '--duration', '1s',
    '--repeat', '2', '--group', 'hostgroup-1', '--profile', 'laptop']);
  assert.equal(r.code, 0, r.stderr);
  const all = runs('read-small', 'rep');
  assert.equal(all.length, 2, 'one results folder per repetition');
  assert.equal((r.stdout.match(/^results: /gm) || []).length, 2);
  assert.deepEqual(all.map((x) => [x.summary.group, x.summary.repetition]).sort(), [['hostgroup-1', 1], ['hostgroup-1', 2]]);
  for (const { summary } of all) {
    assert.equal(summary.complete, true);
    assert.equal(summary.profile, 'laptop');
    assert.equal(summary.loader.cpu_model, os.cpus()[0].model);
    assert.equal(summary.preload.docs, 300, 'each repetition set its collection up afresh');
    const o = summary.steps[0].ops.find;
    const h = hdr.decodeFromCompressedBase64(o.histogram);
    assert.equal(h.totalCount, o.count, 'the histogram holds every op of the step');
    // latency_us is computed from it: HdrHistogram's percentile, capped at the exact max
    // (src/results/hist.js), which lies in the histogram's max bucket.
    assert.ok(h.lowestEquivalentValue(h.maxValue) <= o.latency_us.max && o.latency_us.max <= h.maxValue, `max ${o.latency_us.max} in the histogram's max bucket`);
    assert.equal(Math.min(h.getValueAtPercentile(99), o.latency_us.max), o.latency_us.p99, 'latency_us is computed from it');
  }
  // Without --group each invocation makes its own id; --uri runs have no profile.
  const one = await runLoader(['read-small', '--experiments-dir', expDir, '--uri', server.uri, '--results-dir', results,
    '--metrics-port', '0', '--engine', 'solo', '--clients', '1', '--duration', '1s']);
  assert.equal(one.code, 0, one.stderr);
  const [{ summary }] = runs('read-small', 'solo');
  assert.match(summary.group, /^read-small-\d{8}T\d{6}Z-[0-9a-f]{6}$/);
  assert.equal(summary.repetition, 1);
  assert.equal(summary.profile, null);
});
