'use strict';
// One results folder whose summary.json is not a run's summary (null from a disk that filled, a
// list, a number, a file cut off mid-write) must not take the whole report down: that folder is
// skipped with one line naming it and why, and the other runs are reported as before.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { tmpDir, makeRun } = require('./support/fixtures');

const BIN = path.join(__dirname, '..', 'bin', 'lab-report.js');

test('a null, non-object or truncated summary.json skips that folder only, with one line naming it', () => {
  const root = tmpDir();
  const a = [100, 110].map((r, i) => makeRun(root, { engine: 'a', stamp: `a${i}`, steps: [{ name: 'clients-1', ops: { find: { rate: r } } }] }));
  [200, 220].forEach((r, i) => makeRun(root, { engine: 'b', stamp: `b${i}`, steps: [{ name: 'clients-1', ops: { find: { rate: r } } }] }));
  // a good run's timeline and server record with damaged lines ('null', an op that is null): no
  // reading, the run stays
  fs.appendFileSync(path.join(a[0], 'timeline.ndjson'), 'null\n{"ops":{"find":null}}\n');
  fs.writeFileSync(path.join(a[0], 'server.ndjson'), 'null\n');
  const odd = { null: 'null', list: '[1, 2]', number: '5', text: '"x"', cut: '{"schema_version": 1, "experi' };
  for (const [name, text] of Object.entries(odd)) {
    fs.mkdirSync(path.join(root, 'expX', 'a', name));
    fs.writeFileSync(path.join(root, 'expX', 'a', name, 'summary.json'), text);
  }
  const r = spawnSync(process.execPath, [BIN, '--results-dir', root], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.match(r.stdout, /^ {2}clients-1 +b 2\.00x a .* 2\/2 v 2\/2$/m, 'the other runs are compared');
  const why = {
    null: 'summary.json holds null, not a run\'s summary object',
    list: 'summary.json holds an array, not a run\'s summary object',
    number: 'summary.json holds a number, not a run\'s summary object',
    text: 'summary.json holds a string, not a run\'s summary object',
    cut: 'summary.json is not whole JSON (Unterminated string in JSON at position 29): cut off while written?',
  };
  for (const [name, w] of Object.entries(why)) {
    // lines over 120 columns continue indented by four: read them joined
    const lines = r.stdout.replace(/\n {4}(?=\S)/g, ' ').split('\n').filter((l) => l.includes(path.join('expX', 'a', name) + ':'));
    assert.deepEqual(lines, [`skipped: ${path.join(root, 'expX', 'a', name)}: ${w}`]);
  }
  const rep = JSON.parse(fs.readFileSync(path.join(root, 'report', 'latest', 'report.json'), 'utf8'));
  assert.equal(rep.skipped.length, 5);
  assert.equal(rep.experiments[0].sets[0].runs.length, 4);
});

test("a step's replication.flagged that is not the loader's list of reasons is read as none, never a crash", () => {
  const root = tmpDir();
  const flag = (dir, flagged) => {
    const file = path.join(dir, 'summary.json');
    const s = JSON.parse(fs.readFileSync(file, 'utf8'));
    s.steps[0].replication = { lag_s: {}, flagged };
    fs.writeFileSync(file, JSON.stringify(s, null, 2));
  };
  const reason = 'shard01-b left SECONDARY (RECOVERING, seen by the primary) at 2026-11-01T00:00:05Z';
  [true, 'yes'].forEach((odd, i) => flag(makeRun(root, { engine: 'a', stamp: `a${i}`, steps: [{ name: 'clients-1', ops: { find: { rate: 100 + i } } }] }), odd));
  [[reason], null].forEach((list, i) => flag(makeRun(root, { engine: 'b', stamp: `b${i}`, steps: [{ name: 'clients-1', ops: { find: { rate: 200 + i } } }] }), list));
  const r = spawnSync(process.execPath, [BIN, '--results-dir', root], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const flagged = r.stdout.replace(/\n {4}(?=\S)/g, ' ').split('\n').filter((l) => l.includes('REPLICATION'));
  assert.deepEqual(flagged.map((l) => l.replace(/\(.*?\): /, '(RUN): ').trim()), [`expX set 1 clients-1: REPLICATION on b (RUN): ${reason}`]);
});
