'use strict';
// The arguments a resumed comparison runs with (src/compare/resume.js, bin/lab-compare.js
// resume-args): the kept ones with their passwords, else the stored masked ones; each --uri side
// given again replaced; refusals in lib/compare.sh's words, exit 2 (bad input) or 1 (environment).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { resumeArgs, CompareRefusal } = require('../src/compare/resume');

const ID = 'cmp-20260101T000000Z-abcd';
const BIN = path.join(__dirname, '..', 'bin', 'lab-compare.js');
const nul = (args) => args.map((a) => `${a}\0`).join('');

// a results root and a secrets folder holding comparison ID: its args (masked), plan, maybe the
// kept args (as typed) and an abandoned mark
function setup({ stored, kept, abandoned = false, plan = true } = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'compare-resume-'));
  const comparisonsDir = path.join(root, 'results', '.comparisons');
  const secretsDir = path.join(root, '.secrets', '.comparisons');
  const dir = path.join(comparisonsDir, ID);
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(secretsDir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'args'), nul(stored ?? ['experiment2', '--engines', 'a,b']));
  if (plan) fs.writeFileSync(path.join(dir, 'plan.tsv'), '1\ta\n2\tb\n');
  if (kept) fs.writeFileSync(path.join(secretsDir, ID), nul(kept));
  if (abandoned) fs.writeFileSync(path.join(dir, 'abandoned'), '');
  return { id: ID, comparisonsDir, secretsDir, shownDir: 'results/.comparisons/' };
}

const URI_ARGS = (prod, stage = 'stage=mongodb://h2/') =>
  ['experiment1', '--uri', prod, `--uri=${stage}`, '--repeat', '2'];

test('the stored arguments; the kept ones (with passwords) rather than the masked ones', () => {
  assert.deepEqual(resumeArgs(setup()), ['experiment2', '--engines', 'a,b']);
  const where = setup({ stored: URI_ARGS('prod=mongodb://u:***@h1/'), kept: URI_ARGS('prod=mongodb://u:pw@h1/') });
  assert.deepEqual(resumeArgs(where), URI_ARGS('prod=mongodb://u:pw@h1/'));
});

test('--uri NAME=URI replaces that side, in either stored form (--uri V, --uri=V)', () => {
  const where = setup({ stored: URI_ARGS('prod=mongodb://u:***@h1/'), kept: URI_ARGS('prod=mongodb://u:old@h1/') });
  assert.deepEqual(resumeArgs({ ...where, uris: ['prod=mongodb://u:new@h9/', 'stage=mongodb://h8/'] }),
    URI_ARGS('prod=mongodb://u:new@h9/', 'stage=mongodb://h8/'));
});

test('refused as bad input (exit 2): not an id, no state, abandoned, a --uri without = or naming no side', () => {
  const refused = (where, re) =>
    assert.throws(() => resumeArgs(where), (e) => e instanceof CompareRefusal && e.exitCode === 2 && re.test(e.message),
      re.source);
  refused({ ...setup(), id: 'cmp-1' }, /^--resume: 'cmp-1' is not a comparison id \(cmp-YYYYMMDDTHHMMSSZ-xxxx/);
  refused(setup({ plan: false }), /^--resume: no comparison \S+ in results\/\.comparisons\/$/);
  refused({ ...setup({ plan: false }), hintResultsDir: true }, /\/ \(add its --results-dir DIR\)$/);
  refused(setup({ abandoned: true }), /was abandoned \(compare --abandon\): start a new one$/);
  refused({ ...setup(), uris: ['prod'] }, /--uri needs NAME=URI .*got 'prod'$/);
  refused({ ...setup({ stored: URI_ARGS('prod=mongodb://h1/') }), uris: ['dev=mongodb://h/'] },
    /--uri dev=\.\.\.: the comparison has no --uri side 'dev' \(its --uri sides: prod stage\)$/);
  refused({ ...setup(), uris: ['dev=mongodb://h/'] }, /\(its --uri sides: none\)$/);
});

test('a side whose password is no longer kept: exit 1 naming the command that gives it again', () => {
  const where = setup({ stored: URI_ARGS('prod=mongodb://u:***@h1/', 'stage=mongodb://v:***@h2/') });
  const said = `--resume: the --uri passwords of ${ID} are no longer kept (results/.comparisons/${ID}/args holds them`
    + ` masked): give them again: ./run.sh compare --resume ${ID} --uri prod=URI`;
  const uris = ['stage=mongodb://v:pw@h2/'];
  assert.throws(() => resumeArgs({ ...where, uris }), (e) => e.exitCode === 1 && e.message === said);
});

test('lab-compare resume-args: NAME=URI on stdin, the arguments NUL-separated out; a refusal alone on stderr', () => {
  const where = setup({ stored: URI_ARGS('prod=mongodb://u:***@h1/'), kept: URI_ARGS('prod=mongodb://u:old@h1/') });
  const cli = ['resume-args', ID, '--comparisons', where.comparisonsDir, '--secrets', where.secretsDir];
  cli.push('--shown', 'R/');
  const run = (uris) => spawnSync(process.execPath, [BIN, ...cli], { input: nul(uris), encoding: 'utf8' });
  let r = run(['prod=mongodb://u:new@h1/?a=b c']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, nul(URI_ARGS('prod=mongodb://u:new@h1/?a=b c')));
  r = run(['nope=mongodb://h/']);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, `--resume ${ID} --uri nope=...: the comparison has no --uri side 'nope'`
    + ' (its --uri sides: prod stage)\n');
});

test('lab-compare plan and positions: the files lib/compare.sh reads', () => {
  const where = setup();
  const plan = spawnSync(process.execPath, [BIN, 'plan', '2', 'a', 'b'], { encoding: 'utf8' });
  assert.equal(plan.stdout, '1\ta\n2\tb\n3\tb\n4\ta\n');
  const dir = path.join(where.comparisonsDir, ID);
  fs.writeFileSync(path.join(dir, 'runs.tsv'), '2\tb\tcomplete\t0\tr/b\n');
  const files = [path.join(dir, 'plan.tsv'), path.join(dir, 'runs.tsv')];
  const state = spawnSync(process.execPath, [BIN, 'positions', ...files], { encoding: 'utf8' });
  assert.equal(state.stdout, '1\ta\ttodo\n2\tb\tdone\n');
  const bad = spawnSync(process.execPath, [BIN, 'plan', '0', 'a'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^lab-compare: plan REPEAT SIDE\.\.\.\n$/);
});

test('lab-compare check-id: silent for an id, one refusal line naming the verb for anything else', () => {
  const ok = spawnSync(process.execPath, [BIN, 'check-id', '--abandon', ID], { encoding: 'utf8' });
  assert.equal(ok.status, 0);
  assert.equal(ok.stdout + ok.stderr, '');
  const bad = spawnSync(process.execPath, [BIN, 'check-id', '--abandon', 'cmp-x'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr,
    "--abandon: 'cmp-x' is not a comparison id (cmp-YYYYMMDDTHHMMSSZ-xxxx, printed when it started)\n");
});
