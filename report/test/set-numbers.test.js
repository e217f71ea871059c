'use strict';
// A set's numbers are one implementation (src/set-numbers.js) for the terminal's --wide table and
// the page's numbers table: the columns, the number format and a point's note. The page takes it
// from the inlined file, the terminal requires it.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { pointNote, num, numbersRows } = require('../src/set-numbers');

const A = { runs: 3, loader_limited_runs: 1, loader_reasons: ['worker 0 event-loop delay p99 150 ms'], paused: [{ idle_ms: 2100, from_s: 3, op_p99_ms: 4 }], excluded: { loader_limited: 1, paused: 1 } };

test('the note names every reason with its runs', () => {
  assert.equal(pointNote(A), "loader-limited in 1/3 run(s): worker 0 event-loop delay p99 150 ms; the server paused: nothing completed for 2.1 s, 3 s in (its operations' p99 4 ms); EXCLUDED from verdicts: loader-limited 1/3, server paused 1/3");
  assert.equal(pointNote({ runs: 2 }), '');
});

test('a number is rounded by the loader\'s rule before it is grouped (toLocaleString alone gives 0.501)', () => {
  assert.equal(num(0.5005, 3), '0.500');
  assert.equal(num(1846.45, 1), '1,846.5');
  assert.equal(num(null), '-');
});

test('one row per point and side with the usable runs, n and the note; the page gets the same functions from the file html.js inlines before page.js', () => {
  const agg = (side, median) => ({ point: 's1', side, runs: 3, usable: { runs: 2, ops_per_s: { fastest: median + 1, median, slowest: median - 1 }, ops: { find: { median } } }, ops: { find: { ops_per_s_median: median, latency_us: { count: 1200, p50: 1500, p99: 4000, p999: 9000 } } }, excluded: { loader_limited: 1 } });
  const set = { points: ['s1'], aggregates: [agg('a', 1846.45), agg('b', 900)] };
  const { head, rows } = numbersRows(set, 'point', 'engine');
  assert.deepEqual(head, ['point', 'engine', 'runs (usable/all)', 'ops/s fastest', 'ops/s median', 'ops/s slowest', 'find/s', 'find n', 'find p50 ms', 'find p99 ms', 'find p99.9 ms', 'note']);
  assert.deepEqual(rows[0].cells, ['s1', 'a', '2/3', '1,847.5', '1,846.5', '1,845.5', '1,846.5', '1,200', '1.50', '4.00', '9.00', 'EXCLUDED from verdicts: loader-limited 1/3']);
  const src = path.join(__dirname, '..', 'src');
  const html = fs.readFileSync(path.join(src, 'html.js'), 'utf8');
  assert.match(html, /'set-numbers\.js', 'page\.js'/, 'inlined before page.js');
  const window = {};
  vm.runInNewContext(fs.readFileSync(path.join(src, 'set-numbers.js'), 'utf8'), { window, globalThis: window });
  assert.deepEqual(JSON.parse(JSON.stringify(window.labSetNumbers.numbersRows(set, 'point', 'engine'))), JSON.parse(JSON.stringify({ head, rows })));
  for (const f of ['page.js', 'table.js']) {
    const text = fs.readFileSync(path.join(src, f), 'utf8');
    assert.doesNotMatch(text, /function pointNote|const num = |const ms = /, `${f} keeps no copy of the numbers' format or note`);
  }
});
