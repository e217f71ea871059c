'use strict';
// DEVELOPERS.md "Adding an experiment" with a new workload kind, done as written: a copy of the
// loader gets one kind module (src/kinds/scan.js, declaring its one setting: flag --limit, file
// key workload.limit, default 10; no configure, no document of its own) and the experiments
// folder one file; nothing else is edited. `check` must catch what the run needs (the seed's
// document, which the preload writes for a kind without makeDoc: once check and --dry-run passed
// and the first real run crashed in preload) and print the setting with its source, `flags`
// (./run.sh help) must list the flag with its default, and a real run against mongo-java-server
// must complete with the file's value.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { testServer } = require('./support/server');
const { checkSummary } = require('./support/summary-schema');

const REPO = path.join(__dirname, '..', '..');
const KIND = `'use strict';
const { parseCount } = require('../text/usage');
module.exports = {
  name: 'scan',
  ops: ['find'],
  opsPerIteration: 1,
  bound: 'duration',
  needsPreload: true,
  shape: 'steps',
  options: { limit: { flag: '--limit', file: 'workload.limit', default: '10', parse: (f, s) => parseCount(f, s, 1, 1000), help: 'documents per scan' } },
  next(config, col) {
    return async (record, intended, now) => {
      const t = now();
      await col.find({}).limit(config.params.limit).toArray();
      record('find', t, now(), intended, true);
      return true;
    };
  },
};
`;
const FILE = (document, limit = '  limit: 7\n') => `# scan-small: the recipe's new kind
name: scan-small
database: lab
collection: scan
seed: 3
${document}preload:
  docs: 200
  batch: 100
workload:
  type: scan
${limit}  clients: [1]
  duration: 1s
smoke: "--duration 1s"
`;

let server;
let root;
test.before(async () => {
  server = await testServer();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-new-kind-'));
  for (const p of ['loader/bin', 'loader/src', 'loader/package.json', 'common']) fs.cpSync(path.join(REPO, p), path.join(root, p), { recursive: true });
  fs.symlinkSync(path.join(REPO, 'loader', 'node_modules'), path.join(root, 'loader', 'node_modules'));
  fs.writeFileSync(path.join(root, 'loader', 'src', 'kinds', 'scan.js'), KIND);
  fs.mkdirSync(path.join(root, 'experiments'));
});
test.after(async () => {
  await server?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const loader = (...args) => spawnSync(process.execPath, [path.join(root, 'loader', 'bin', 'lab-loader.js'), ...args, '--experiments-dir', path.join(root, 'experiments')], { encoding: 'utf8', timeout: 120000 });

// forUser(stdout): check's lines for the user; the @lab- lines are ./run.sh's (src/cli/stack-requests.js).
const forUser = (out) => out.split('\n').filter((l) => l && !l.startsWith('@lab-')).map((l) => `${l}\n`).join('');

test('a new kind is its module plus the experiment file: check catches a missing document and prints the declared setting, help lists it with its default, a real run completes with the file\'s value', () => {
  const file = path.join(root, 'experiments', 'scan-small.yaml');
  fs.writeFileSync(file, FILE(''));
  const bad = loader('check', 'scan-small');
  assert.equal(bad.status, 2, `check must refuse what the preload needs: ${bad.stdout}${bad.stderr}`);
  assert.match(bad.stderr, /document\.y_length: whole number/);

  const doc = 'document:\n  y_length: 20\n  alphabet: abc\n';
  fs.writeFileSync(file, FILE(doc, ''));
  const byDefault = loader('check', 'scan-small');
  assert.equal(byDefault.status, 0, byDefault.stderr);
  assert.equal(forUser(byDefault.stdout), 'scan settings: --limit 10 (default)\n');
  // and what ./run.sh needs of it (src/cli/stack-requests.js): the new kind's facts, no hook
  assert.match(byDefault.stdout, /^@lab-fact\tkind\tscan$/m);
  assert.doesNotMatch(byDefault.stdout, /^@lab-docker/m);
  fs.writeFileSync(file, FILE(doc, '  limit: 0\n'));
  const badFile = loader('check', 'scan-small');
  assert.equal(badFile.status, 2);
  assert.equal(badFile.stderr, `error: ${file}: workload.limit: 0 is out of range 1..1000\n`);
  fs.writeFileSync(file, FILE(doc));
  assert.equal(forUser(loader('check', 'scan-small').stdout), 'scan settings: --limit 7 (file)\n');
  const ok = loader('check', 'scan-small', '--limit', '5');
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(forUser(ok.stdout), 'scan settings: --limit 5 (flag)\n');
  assert.match(loader('flags').stdout, /^ {2}--limit +scan-small: documents per scan \[default 10; file: workload\.limit = 7\]$/m);

  const results = path.join(root, 'results');
  const r = loader('scan-small', '--uri', server.uri, '--engine', 'scan-test', '--results-dir', results, '--metrics-port', '0', '--warmup', '0');
  assert.equal(r.status, 0, r.stderr);
  const dir = fs.realpathSync(path.join(results, 'scan-small', 'scan-test', 'latest'));
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
  checkSummary(summary);
  assert.deepEqual(summary.parameters.params, { limit: 7 }, 'no flag: the file\'s value');
  assert.ok(summary.steps[0].ops.find.count > 0, JSON.stringify(summary.steps[0].ops));
});
