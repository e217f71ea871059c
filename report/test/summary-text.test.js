'use strict';
// The terminal summary a new user reads: --by LABEL with several pairs in one
// set said "clients-1" three times without the pair; long point names were all cut to the same
// "j:false inter…"; a parameter's raw JSON ran past 120 columns. The real CLI on fixtures.
const test = require('node:test');
const assert = require('node:assert/strict');
const { tmpDir, makeRun } = require('./support/fixtures');
const { main } = require('../src/cli');
const { renderText } = require('../src/table');

function report(args) {
  let out = '';
  const io = { stdout: { write: (t) => { out += t; } }, stderr: { write: (t) => { out += t; } } };
  assert.equal(main(args, io, new Date('2026-11-02T00:00:00Z')), 0, out);
  return out;
}

test('--by platform with three platforms: each pair compared under its own heading, every line within 120 columns', () => {
  const root = tmpDir();
  for (const [plat, rate] of [['aws', 100], ['gcp', 150], ['azure', 220]]) {
    [0, 1].forEach((i) => makeRun(root, { engine: 'wt', stamp: `${plat}${i}`, steps: [{ name: 'clients-1', ops: { find: { rate: rate + i * 5 } } }], extra: { labels: { platform: plat } } }));
  }
  const out = report(['--results-dir', root, '--by', 'platform']);
  const lines = out.split('\n');
  for (const [pair, answer] of [['aws vs azure', 'azure 2.17x aws'], ['aws vs gcp', 'gcp 1.49x aws'], ['azure vs gcp', 'azure 1.46x gcp']]) {
    const at = lines.indexOf(`expX: ${pair}`);
    assert.ok(at >= 0, `a heading for ${pair}\n${out}`);
    assert.match(lines[at + 2], new RegExp(`^ {2}clients-1 +${answer} `), `${pair}'s row under its heading\n${out}`);
  }
  assert.deepEqual(lines.filter((l) => l.length > 120), []);
});

test('long point names are shown whole, each its own, when they fit', () => {
  const root = tmpDir();
  for (const [eng, rate] of [['a', 100], ['b', 150]]) {
    [0, 1].forEach((i) => makeRun(root, { engine: eng, stamp: `${eng}${i}`, steps: [100, 500].map((ms) => ({ name: `j:false interval ${ms}ms`, ops: { insert: { rate: rate + i } } })) }));
  }
  const out = report(['--results-dir', root]);
  assert.match(out, /^ {2}j:false interval 100ms +b 1\.50x a /m);
  assert.match(out, /^ {2}j:false interval 500ms +b 1\.50x a /m);
  assert.doesNotMatch(out, /…/);
});

test('a word longer than a line (raw JSON) is split across lines, never past 120 columns nor cut', () => {
  const json = JSON.stringify({ workload: { type: 'read_update', clients: Array.from({ length: 40 }, (_, i) => i + 1), duration_s: 120 } });
  const text = renderText({ by: 'engine', summary: [], experiments: [], left_out: [], notes: [`parameters differ: ${json}`], skipped: [] }, null);
  const lines = text.split('\n');
  assert.deepEqual(lines.filter((l) => l.length > 120), []);
  assert.ok(lines.join('').replace(/\s+/g, '').includes(json.replace(/\s+/g, '')), `the JSON whole\n${text}`);
});
