'use strict';
// A point's note is one implementation (src/point-note.js) for the terminal's table and the page:
// the page takes it from the inlined file, the terminal requires it.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { pointNote } = require('../src/point-note');

const A = { runs: 3, loader_limited_runs: 1, loader_reasons: ['worker 0 event-loop delay p99 150 ms'], paused: [{ idle_ms: 2100, from_s: 3, op_p99_ms: 4 }], excluded: { loader_limited: 1, paused: 1 } };

test('the note names every reason with its runs', () => {
  assert.equal(pointNote(A), "loader-limited in 1/3 run(s): worker 0 event-loop delay p99 150 ms; the server paused: nothing completed for 2.1 s, 3 s in (its operations' p99 4 ms); EXCLUDED from verdicts: loader-limited 1/3, server paused 1/3");
  assert.equal(pointNote({ runs: 2 }), '');
});

test('the page gets the same function from the file html.js inlines before page.js', () => {
  const src = path.join(__dirname, '..', 'src');
  const html = fs.readFileSync(path.join(src, 'html.js'), 'utf8');
  assert.match(html, /'point-note\.js', 'page\.js'/, 'inlined before page.js');
  const window = {};
  vm.runInNewContext(fs.readFileSync(path.join(src, 'point-note.js'), 'utf8'), { window, globalThis: window });
  assert.equal(window.labPointNote.pointNote(A), pointNote(A));
  assert.doesNotMatch(fs.readFileSync(path.join(src, 'page.js'), 'utf8'), /function pointNote/, 'page.js keeps no copy');
  assert.doesNotMatch(fs.readFileSync(path.join(src, 'table.js'), 'utf8'), /function pointNote/, 'table.js keeps no copy');
});
