'use strict';
// What a comparison has done, read from its state folder (src/compare/state.js): a position is
// done when runs.tsv has a complete line for it; --resume runs the others, and --resume without
// an id lists the comparisons with something left.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { positions, runFolders, resumable } = require('../src/compare/state');

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'compare-state-'));
const PLAN = '1\ta\n2\tb\n3\tb\n4\ta\n';
const RUNS = '1\ta\tcomplete\t0\tresults/e/a/1\n2\tb\tincomplete\t1\t\n3\tb\tinterrupted\t130\tresults/e/b/3\n'
  + '2\tb\tcomplete\t0\tresults/e/b/2\n';

function state(dir, id, plan, runs, abandoned = false) {
  const d = path.join(dir, id);
  fs.mkdirSync(d, { recursive: true });
  if (plan !== undefined) fs.writeFileSync(path.join(d, 'plan.tsv'), plan);
  if (runs !== undefined) fs.writeFileSync(path.join(d, 'runs.tsv'), runs);
  if (abandoned) fs.writeFileSync(path.join(d, 'abandoned'), '');
  return d;
}

test('positions: in plan order; done only with a complete run (a later complete one counts)', () => {
  const d = state(tmp(), 'cmp-x', PLAN, RUNS);
  assert.deepEqual(positions(path.join(d, 'plan.tsv'), path.join(d, 'runs.tsv')), [
    { position: '1', side: 'a', done: true },
    { position: '2', side: 'b', done: true },
    { position: '3', side: 'b', done: false }, // interrupted: run again
    { position: '4', side: 'a', done: false },
  ]);
});

test('positions: no runs.tsv yet (a new comparison) is every position to do', () => {
  const d = state(tmp(), 'cmp-x', PLAN);
  const done = positions(path.join(d, 'plan.tsv'), path.join(d, 'runs.tsv')).map((p) => p.done);
  assert.deepEqual(done, [false, false, false, false]);
});

test('runFolders: every folder a run wrote, in the order they ran; none for a run that wrote none', () => {
  const d = state(tmp(), 'cmp-x', PLAN, RUNS);
  assert.deepEqual(runFolders(path.join(d, 'runs.tsv')), ['results/e/a/1', 'results/e/b/3', 'results/e/b/2']);
  assert.deepEqual(runFolders(path.join(d, 'missing.tsv')), []);
});

test('resumable: a position left, not abandoned, with a plan; sorted; a missing folder is none', () => {
  const root = tmp();
  state(root, 'cmp-b-left', PLAN, RUNS);
  state(root, 'cmp-a-fresh', PLAN);
  state(root, 'cmp-c-all-done', '1\ta\n', '1\ta\tcomplete\t0\tr\n');
  state(root, 'cmp-d-abandoned', PLAN, '', true);
  state(root, 'cmp-e-no-plan', undefined, RUNS);
  state(root, 'other-folder', PLAN);
  assert.deepEqual(resumable(root), ['cmp-a-fresh', 'cmp-b-left']);
  assert.deepEqual(resumable(path.join(root, 'nowhere')), []);
});
