'use strict';
// The loader is summary.json's only writer: what ./run.sh measures around a run on Compose (block
// writes, data directories, OOM kills: lib/summary-merge.sh) reaches it as data through
// `lab-loader merge-summary DIR... < MEASURED.json`, which merges it where it belongs, checks it
// against common/summary.schema.json and writes nothing it refuses. A real run's summary is the
// base; the schema must name every field a merged summary holds.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { runLoader, tmpResults, latestRun, BIN } = require('./support/loader');
const { testServer } = require('./support/server');
const { checkSummary } = require('./support/summary-schema');
const SCHEMA = require('../../common/summary.schema.json');

let root;
let dir;
let original;
test.before(async () => {
  const server = await testServer();
  root = tmpResults();
  try {
    const r = await runLoader(['experiment1', '--uri', server.uri, '--docs', '20', '--results-dir', root,
      '--metrics-port', '0', '--engine', 'wiredtiger']);
    assert.equal(r.code, 0, r.stderr);
  } finally {
    await server.stop();
  }
  dir = latestRun(root, 'experiment1', 'wiredtiger').dir;
  original = fs.readFileSync(path.join(dir, 'summary.json'), 'utf8');
});
test.after(() => fs.rmSync(root, { recursive: true, force: true }));
test.beforeEach(() => fs.writeFileSync(path.join(dir, 'summary.json'), original));

const merge = (measured, dirs = [dir]) => spawnSync(process.execPath, [BIN, 'merge-summary', ...dirs],
  { input: typeof measured === 'string' ? measured : JSON.stringify(measured), encoding: 'utf8', timeout: 30000 });
const summary = () => JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));

const MEASURED = {
  block_writes: { cgroup_version: 2, bytes: { 'shard01-a': 5000 }, absent: {}, runs: ['results/x'],
    documents_written: 20,
    bytes_per_doc: 250, bytes_per_doc_note: null, per_doc_of: 'shard01-a', caveat: null },
  block_writes_note: 'measured by ./run.sh',
  data_dir_bytes: { 'shard01-a': 1000, 'shard01-b': 2000 },
  data_dir_note: 'du -sb /data/db in each shard member after the run (./run.sh)',
  oom_killed: ['shard01-b'],
  oom_reason: 'killed for memory during the run (Docker OOMKilled): shard01-b',
};

test('every field ./run.sh measures lands where the schema names it; an OOM kill makes the run incomplete', () => {
  const r = merge(MEASURED);
  assert.equal(r.status, 0, r.stderr);
  const s = summary();
  checkSummary(s);
  assert.deepEqual(s.block_writes, MEASURED.block_writes);
  assert.equal(s.block_writes_note, MEASURED.block_writes_note);
  assert.deepEqual(s.footprint.data_dir_bytes, MEASURED.data_dir_bytes);
  assert.equal(s.footprint.data_dir_note, MEASURED.data_dir_note);
  assert.ok(s.footprint.end, 'the loader\'s own footprint is kept');
  assert.deepEqual([s.complete, s.reason, s.exit_code, s.oom_killed], [false, MEASURED.oom_reason, 1, ['shard01-b']]);
  assert.equal(Object.keys(s).indexOf('oom_killed'), Object.keys(s).indexOf('exit_code') + 1, 'beside exit_code');
  // the schema names every field a summary can hold: the loader's, and what the merge adds
  const unnamed = Object.keys(s).filter((k) => !(k in SCHEMA.properties));
  assert.deepEqual(unnamed, [], 'top-level fields common/summary.schema.json does not name');
  const footprint = SCHEMA.properties.footprint && SCHEMA.properties.footprint.properties;
  assert.ok(footprint && 'data_dir_bytes' in footprint && 'data_dir_note' in footprint,
    'the schema names footprint\'s merged fields');
});

test('a second kill on an incomplete run: its reason kept after the new one, exit code kept', () => {
  const base = { ...JSON.parse(original), complete: false, reason: 'interrupted (SIGINT)', exit_code: 130 };
  fs.writeFileSync(path.join(dir, 'summary.json'), JSON.stringify(base, null, 2));
  const r = merge({ oom_killed: ['cfg1'], oom_reason: 'killed: cfg1' });
  assert.equal(r.status, 0, r.stderr);
  const s = summary();
  assert.deepEqual([s.complete, s.reason, s.exit_code, s.oom_killed],
    [false, 'killed: cfg1; interrupted (SIGINT)', 130, ['cfg1']]);
});

for (const [what, measured, said] of [
  ['a field no summary takes', { block_writes_note: 'x', oom: ['a'] },
    /^error: merge-summary: 'oom' is not a field \.\/run\.sh measures \(known: /],
  ['a value the schema refuses', { data_dir_bytes: { 'shard01-a': 'ten' } },
    /^error: merge-summary: \/\S+\/summary\.json does not match its schema \(common\/summary\.schema\.json\): footprint\.data_dir_bytes\.shard01-a is "ten", must be integer\n$/],
  ['an OOM kill without its reason', { oom_killed: ['shard01-b'] },
    /^error: merge-summary: oom_killed and oom_reason come together\n$/],
  ['no JSON', 'block_writes: 1', /^error: merge-summary: what \.\/run\.sh measured is not JSON/],
]) {
  test(`${what}: one line, exit 2, the summary as the loader wrote it`, () => {
    const r = merge(measured);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, r.stderr);
    assert.match(r.stderr, said);
    assert.equal(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'), original);
  });
}

test('a folder without a summary: refused before any folder is written', () => {
  const r = merge(MEASURED, [dir, path.join(root, 'nowhere')]);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /^error: merge-summary: .*nowhere\/summary\.json: no such file\n$/);
  assert.equal(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'), original);
});
