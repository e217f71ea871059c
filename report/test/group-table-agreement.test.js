'use strict';
// One median for the same repetitions: the loader's --repeat group table
// (loader/src/results/table.js groupTable) and the report leave out the same steps by one rule
// (common/step-exclusion.js), so a repetition the loader limited, or whose host or server was
// shared, is out of both medians, and both say so. Real report CLI over hand-made summaries; the
// loader's table over the same summaries' steps.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir, makeRun } = require('./support/fixtures');
const { main } = require('../src/cli');
const { groupTable } = require('../../loader/src/results/table');

test('a repetition the loader limited is out of the loader\'s group median and the report\'s alike: one figure, both say why', () => {
  const root = tmpDir();
  const reps = [[100, false], [120, false], [300, true]]; // the third: loader-limited
  const dirs = reps.map(([rate, limited], i) => makeRun(root, { engine: 'a', stamp: `a${i}`, group: 'g-a', repetition: i + 1, steps: [{ name: 'clients-1', clients: 1, ops: { find: { rate } }, limited }] }));
  let out = '';
  assert.equal(main(['--results-dir', root, '--wide'], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  const row = out.split('\n').find((l) => /^clients-1\s{2,}a\s{2,}/.test(l));
  assert.ok(row, out);
  assert.match(row, /\s2\/3(\s|$)/, `the report's usable/all: ${row}`);
  const summaries = dirs.map((d) => JSON.parse(fs.readFileSync(path.join(d, 'summary.json'), 'utf8')));
  const table = groupTable({ name: 'expX', engine: 'a', group: 'g-a', runs: summaries.map((s) => s.steps), concurrent: summaries.map((s) => s.concurrent_runs ?? []) });
  const line = table.split('\n').find((l) => /^step 1\s+find\s/.test(l));
  assert.ok(line, table);
  const [, runs, fastest, median, slowest] = /^step 1\s+find\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$/.exec(line);
  assert.deepEqual([runs, fastest, median, slowest], ['2/3', '120', '110', '100'], table);
  assert.ok(row.split(/\s{2,}/).includes('110.0'), `the report's median find/s is the loader's 110: ${row}`);
  assert.match(table, /^left out: step 1: repetition 3: the loader was the limit \(as the report leaves it out\)$/m);
});
