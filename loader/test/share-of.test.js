'use strict';
// --share-of N (./run.sh NAME --on k8s --loaders N): the loader splits each step's clients among the
// N loaders itself, from --clients or the experiment file's, and refuses steps that do not divide.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const BIN = path.join(__dirname, '..', 'bin', 'lab-loader.js');
const check = (...args) => spawnSync(process.execPath, [BIN, 'check', ...args], { encoding: 'utf8' });
const clientsFact = (r) => /^@lab-fact\tclients\t(.*)$/m.exec(r.stdout)?.[1];

test('each loader runs its share of every step: --clients 3,6 among 3 is 1,2 each; the file\'s steps too', () => {
  const r = check('experiment2', '--share-of', '3', '--clients', '3,6');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(clientsFact(r), '1 2');
  const one = check('experiment2', '--clients', '3,6');
  assert.equal(clientsFact(one), '3 6', 'one loader runs them all');
  const file = check('experiment1', '--share-of', '1');
  assert.equal(clientsFact(file), '1');
});

test('steps that do not divide are refused in one line naming where they came from', () => {
  const r = check('experiment2', '--share-of', '3', '--clients', '4');
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'error: --loaders 3: --clients 4 does not divide by 3, one share per loader (e.g. --clients 6,12)\n');
  // the file's six steps among 99 loaders: the list cut, the line within 120 columns (it was 167)
  const file = check('experiment2', '--share-of', '99');
  assert.equal(file.status, 2);
  assert.equal(file.stderr, 'error: --loaders 99: workload.clients 1,2,3,4,... does not divide by 99, one share per loader (e.g. --clients 198,396)\n');
  assert.ok(file.stderr.trimEnd().length <= 120, file.stderr);
  // ycsb's client steps are its --threads: the advice names the flag it takes
  const threads = check('ycsb-a', '--share-of', '3', '--threads', '4');
  assert.equal(threads.status, 2);
  assert.equal(threads.stderr, 'error: --loaders 3: --threads 4 does not divide by 3, one share per loader (e.g. --threads 6,12)\n');
  assert.equal(check('experiment2', '--share-of', '0').status, 2);
});

// gridfs was told "give --clients, e.g. --clients 4,8", which it refuses: it takes no client count.
test('a kind that takes no client count (gridfs) is told --loaders 1, not --clients', () => {
  const r = check('gridfs', '--share-of', '2');
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'error: --loaders 2: gridfs runs one upload stream, then one download stream: they do not split; run it with --loaders 1\n');
  assert.ok(r.stderr.trimEnd().length <= 120, r.stderr);
});
