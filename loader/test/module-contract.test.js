'use strict';
// Kind and fault-scenario modules are checked as they are loaded (src/module-contract.js), with
// one line naming the file and the part it lacks, exit 2: a kind without `bound` used to end
// `lab-loader check` in a TypeError (exit 1), one without `shape` passed, and a scenario without
// `heal` was found only after `apply` had changed the cluster. The shipped modules are checked
// here by the same function the loader calls.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { KIND, SCENARIO, fileProblem } = require('../src/module-contract');
const { KINDS } = require('../src/kinds');

const REPO = path.join(__dirname, '..', '..');
const KINDS_DIR = path.join(__dirname, '..', 'src', 'kinds');
const SCENARIOS_DIR = path.join(__dirname, '..', 'src', 'faults', 'scenarios');
const FIXTURES = path.join(__dirname, 'faults', 'fixtures', 'scenarios');

const modulesIn = (dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => path.join(dir, f));

test('every kind module and every fault scenario (and the recipe\'s example) meets its contract', () => {
  const kinds = modulesIn(KINDS_DIR).filter((f) => require(f).name !== undefined);
  const names = kinds.map((f) => require(f).name).sort();
  assert.deepEqual(names, Object.keys(KINDS).sort(), 'each kind module is registered');
  for (const f of kinds) assert.equal(fileProblem(f, require(f), KIND), null, f);
  const scenarios = [...modulesIn(SCENARIOS_DIR), ...modulesIn(FIXTURES)];
  assert.ok(scenarios.length >= 6, scenarios.join(' '));
  for (const f of scenarios) {
    assert.equal(fileProblem(f, require(f), SCENARIO), null, f);
    assert.equal(require(f).name, path.basename(f, '.js'), `${f}: its name is its file's`);
  }
});

test('the check names the part: missing, or not what the contract says', () => {
  const insert = require('../src/kinds/insert');
  const withoutBound = { ...insert, bound: undefined };
  assert.equal(fileProblem(path.join(KINDS_DIR, 'x.js'), withoutBound, KIND),
    'loader/src/kinds/x.js: no `bound` (one of documents, duration, own)');
  assert.equal(fileProblem('/elsewhere/x.js', { ...insert, shape: 'rows' }, KIND),
    '/elsewhere/x.js: `shape` is "rows", not one of steps, cases');
  // a kind's own settings: each a whole declaration, its default taken by its own parser
  const gridfs = require('../src/kinds/gridfs');
  const withFileSize = (change) => ({ ...gridfs,
    options: { ...gridfs.options, fileSize: { ...gridfs.options.fileSize, ...change } } });
  assert.match(fileProblem('/x.js', withFileSize({ default: 'huge' }), KIND),
    /^\/x\.js: options\.fileSize: its default 'huge' does not parse: --file-size: /);
  const both = withFileSize({ required: true });
  assert.equal(fileProblem('/x.js', both, KIND), '/x.js: options.fileSize: a default or `required`, not both');
});

// A copy of the loader with one kind module more, as DEVELOPERS.md "Adding an experiment" adds one.
function loaderWithKind(source) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-kind-contract-'));
  for (const p of ['loader/bin', 'loader/src', 'loader/package.json', 'common']) {
    fs.cpSync(path.join(REPO, p), path.join(root, p), { recursive: true });
  }
  fs.symlinkSync(path.join(REPO, 'loader', 'node_modules'), path.join(root, 'loader', 'node_modules'));
  fs.writeFileSync(path.join(root, 'loader', 'src', 'kinds', 'scan.js'), source);
  return root;
}

const scanKind = (without) => `'use strict';
module.exports = ${JSON.stringify(Object.fromEntries(Object.entries({
    name: 'scan', ops: ['find'], opsPerIteration: 1, bound: 'duration', needsPreload: true, shape: 'steps',
  }).filter(([k]) => k !== without)))};
module.exports.next = () => async () => false;
`;

for (const part of ['bound', 'shape']) {
  test(`a kind module without \`${part}\`: lab-loader check exits 2, one line naming the file and \`${part}\``, () => {
    const root = loaderWithKind(scanKind(part));
    try {
      const r = spawnSync(process.execPath, [path.join(root, 'loader', 'bin', 'lab-loader.js'), 'check', 'experiment1',
        '--experiments-dir', path.join(REPO, 'experiments')], { encoding: 'utf8', timeout: 60000 });
      assert.equal(r.status, 2, r.stdout + r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, new RegExp(`^error: loader/src/kinds/scan\\.js: no \`${part}\` \\([^\\n]*\\)\\n$`));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
}

test('a fault scenario without heal: lab-fault check exits 2, one line naming the file and `heal`, nothing run', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-scenario-contract-'));
  try {
    const example = fs.readFileSync(path.join(FIXTURES, 'pause-member.js'), 'utf8');
    const noHeal = example.replace(/^ {2}async heal\(ctx\) \{[\s\S]*?^ {2}\},\n/m, '');
    assert.notEqual(noHeal, example, 'the example\'s heal was taken out');
    fs.writeFileSync(path.join(dir, 'pause-member.js'), noHeal);
    const r = spawnSync(process.execPath, [path.join(__dirname, '..', 'bin', 'lab-fault.js'), 'check', 'pause-member',
      '--member', 'shard01-b', '--scenarios-dir', dir], { encoding: 'utf8', timeout: 60000 });
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.equal(r.stderr, `error: ${path.join(dir, 'pause-member.js')}: no \`heal\` (a function)\n`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
