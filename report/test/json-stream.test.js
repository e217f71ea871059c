'use strict';
// report.json is streamed (src/json-stream.js): the same bytes JSON.stringify(report, null, 1)
// gave, and a report whose text is longer than V8's longest string is written, not lost to
// "RangeError: Invalid string length" (as 1,200 runs of default length were).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir } = require('./support/fixtures');
const { writeJson, SMALL_CHARS } = require('../src/json-stream');
const { writeReport } = require('../src/output');

const { renderHtml, writeHtml } = require('../src/html');

const writtenBy = (write) => {
  const file = path.join(tmpDir(), 'x.json');
  const fd = fs.openSync(file, 'w');
  write(fd);
  fs.closeSync(fd);
  return fs.readFileSync(file, 'utf8');
};
const written = (value, how) => writtenBy((fd) => writeJson(fd, value, how));

test('the same bytes as JSON.stringify(value, null, 1), small and past the streaming bound', () => {
  const odd = { a: undefined, f: () => 1, s: Symbol('x'), d: new Date(0), n: NaN, i: -Infinity, z: -0, nested: [undefined, () => 1, null, { toJSON: (k) => `key ${k}` }], e: {}, ea: [], str: 'quote " back \\ new\nline </script>' };
  const big = {
    experiments: Array.from({ length: 3 }, (_, e) => ({
      name: `ex${e}`, odd,
      timelines: Array.from({ length: 40 }, (_, r) => ({ id: `run ${r}`, seconds: Array.from({ length: 800 }, (_, s) => ({ elapsed_s: s, ops: { find: { ops_per_s: s * 1.5, p99_us: null } }, gone: undefined })) })),
    })),
    tail: [1, 'two', [3, [4, {}]], []],
  };
  assert.ok(JSON.stringify(big).length > 4 * SMALL_CHARS, 'big enough to be walked, not stringified whole');
  for (const v of [odd, big, [big, odd], 'text', 12, null, [], {}]) assert.equal(written(v), JSON.stringify(v, null, 1));
  // compact, as the page embeds it (src/html.js): JSON.stringify(v) with its "<" escaped
  const escape = (text) => text.replace(/</g, '\\u003c');
  for (const v of [odd, big, [big, odd], 'text', null, [], {}]) {
    assert.equal(written(v, { compact: true, escape }), escape(JSON.stringify(v)));
  }
});

test('a value\'s toJSON is called once, as it is written: a run\'s series read from its folder one at a time', () => {
  let reads = 0;
  let file = null;
  let onDisk = 0; // bytes of the report written when the last run's series is read
  const lazy = { toJSON: () => {
    reads++;
    if (file && reads === 200) onDisk = fs.statSync(file).size;
    return Array.from({ length: 3000 }, (_, s) => ({ s, v: s / 3 }));
  } };
  const gone = { toJSON: () => undefined };
  const report = { timelines: Array.from({ length: 200 }, (_, i) => ({ id: i, seconds: lazy, gone })) };
  file = path.join(tmpDir(), 'lazy.json');
  const fd = fs.openSync(file, 'w');
  writeJson(fd, report);
  fs.closeSync(fd);
  assert.equal(reads, 200, 'once a run');
  const size = fs.statSync(file).size;
  assert.ok(onDisk > 0.9 * size, `${onDisk} of ${size} bytes were on disk when the last series was read`);
  const text = fs.readFileSync(file, 'utf8');
  file = null;
  assert.equal(text, JSON.stringify(report, null, 1));
});

test('the page written in pieces is the page rendered as one string', () => {
  const series = [{ run: '</script><b>', series: [{ s: 1 }] }];
  const report = { generated_at: 'now', experiments: [], server_series: series, run_dips: [] };
  assert.equal(writtenBy((fd) => writeHtml(fd, report)), renderHtml(report));
});

test('a report longer than the longest string V8 makes is written whole', () => {
  const mb = 'x'.repeat(1 << 20);
  const report = { generated_at: 'now', runs: Array.from({ length: 600 }, (_, i) => ({ id: i, series: mb })) };
  assert.throws(() => JSON.stringify(report, null, 1), RangeError, 'the old way: one string, too long');
  const root = tmpDir();
  const dir = writeReport(root, new Date('2026-11-29T00:00:00Z'), report, '<!doctype html>');
  const file = path.join(dir, 'report.json');
  const size = fs.statSync(file).size;
  assert.ok(size > 600 * (1 << 20), `${size} bytes`);
  const fd = fs.openSync(file, 'r');
  const head = Buffer.alloc(64);
  fs.readSync(fd, head, 0, 64, 0);
  const tail = Buffer.alloc(16);
  fs.readSync(fd, tail, 0, 16, size - 16);
  fs.closeSync(fd);
  assert.match(head.toString(), /^\{\n "generated_at": "now",\n "runs": \[\n  \{\n   "id": 0,/);
  assert.match(tail.toString(), /x"\n  \}\n \]\n\}\n$/);
  fs.rmSync(root, { recursive: true, force: true });
});
