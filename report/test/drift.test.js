'use strict';
// The drift guard (issue 41 item 2, src/drift.js) on synthetic results folders: runs of one
// comparison whose throughput moves with position give "drift, not a verdict"; the same sides
// without a trend keep their verdict; sides run one after the other are marked so, on the page's
// data and in the terminal. The same check on real interleaved runs: compare-uri.test.js.
const test = require('node:test');
const assert = require('node:assert/strict');
const { tmpDir, makeRun } = require('./support/fixtures');
const { readAll } = require('../src/read');
const { buildReport } = require('../src/compare');
const { trend, holm, orderOf } = require('../src/drift');
const { main } = require('../src/cli');

const build = (root) => buildReport(readAll([root], {}));
const ops = (rate) => ({ find: { rate: rate / 2 }, update: { rate: rate / 2 } });
const at = (minute) => new Date(Date.parse('2026-11-01T00:00:00Z') + minute * 60000).toISOString();

// comparison(root, id, rate(side, position)): A B B A A B B A, each run filed with its position.
function comparison(root, id, rate) {
  const order = ['a', 'b', 'b', 'a', 'a', 'b', 'b', 'a'];
  order.forEach((side, i) => {
    const position = i + 1;
    makeRun(root, { engine: side, stamp: `p${position}`, started_at: at(position), steps: [{ name: 'clients-1', ops: ops(rate(side, position)) }], extra: { comparison: { id, side, position } } });
  });
}
// deterministic noise of about +-1%, different per position
const noise = (position) => 1 + 0.01 * Math.sin(position * 7.3);

test('trend: the slope of log(ops/s) per position, its t test; holm steps down', () => {
  const tr = trend([1, 2, 3, 4].map((position) => ({ position, value: 100 * 1.1 ** position * noise(position) })));
  assert.ok(Math.abs(tr.pct_per_position - 10) < 1, `${tr.pct_per_position}`);
  assert.ok(tr.p < 0.01, `p ${tr.p}`);
  assert.equal(tr.df, 2);
  assert.equal(trend([{ position: 1, value: 1 }, { position: 2, value: 2 }]), null, 'two runs: no test');
  assert.deepEqual(holm([0.01, 0.04]), [true, true]);
  assert.deepEqual(holm([0.03, 0.04]), [false, false], '0.03 > 0.05/2');
  assert.deepEqual(holm([0.2, 0.02]), [false, true]);
});

test('order: interleaved by positions, sequential by positions or start times, unknown without', () => {
  const r = (id, position, started_at = null) => ({ id, position, started_at });
  assert.equal(orderOf([r('c', 1), r('c', 4)], [r('c', 2), r('c', 3)]), 'interleaved');
  assert.equal(orderOf([r('c', 1), r('c', 2)], [r('c', 3), r('c', 4)]), 'sequential');
  assert.equal(orderOf([r(null, null, at(1)), r(null, null, at(2))], [r(null, null, at(3))]), 'sequential');
  assert.equal(orderOf([r(null, null, at(1)), r(null, null, at(4))], [r(null, null, at(3))]), 'interleaved');
  assert.equal(orderOf([r(null, null)], [r(null, null, at(3))]), 'unknown');
});

test('an interleaved comparison without a trend keeps its verdict; with one it is drift, not a verdict', () => {
  const steady = tmpDir();
  comparison(steady, 'cmp-steady', (side, p) => (side === 'a' ? 1500 : 1000) * noise(p));
  const v1 = build(steady).experiments[0].sets[0].verdicts[0];
  assert.equal(v1.status, 'verdict', v1.sentence);
  assert.equal(v1.order, 'interleaved');
  assert.equal(v1.order_note, null);
  assert.equal(v1.drift.found, false);
  assert.match(v1.sentence, /^clients-1: a is 1\.(49|50|51)x b/);

  // Side a gains 6% per position (a cache warming over the comparison), b is steady: the ratio
  // depends on when the runs ran.
  const drifting = tmpDir();
  comparison(drifting, 'cmp-drift', (side, p) => (side === 'a' ? 1500 * 1.06 ** p : 1000) * noise(p));
  const rep = build(drifting);
  const v2 = rep.experiments[0].sets[0].verdicts[0];
  assert.equal(v2.status, 'drift', v2.sentence);
  assert.equal(v2.verdict_before_drift, 'verdict');
  assert.ok(v2.drift.tests.find((t) => t.side === 'a').drifts);
  assert.ok(!v2.drift.tests.find((t) => t.side === 'b').drifts);
  assert.match(v2.sentence, /^clients-1: drift, not a verdict: ops\/s moves with the runs' order \(a \+6\.\d% per position \(p [=<] 0\.0\d+, 4 runs\)\)/);
  const row = rep.summary.find((x) => x.point === 'clients-1');
  assert.equal(row.status, 'drift');
  let out = '';
  assert.equal(main(['--results-dir', drifting], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  assert.match(out, /DRIFT, not a verdict/);
  assert.match(out, /drift: ops\/s moves with the runs' order \(a \+6\.\d% per position/);
  for (const l of out.split('\n')) assert.ok(l.length <= 120, `over 120 columns: ${l}`);
});

test('sides run one after the other are marked, in report.json and the terminal', () => {
  const root = tmpDir();
  [1500, 1510, 1490].forEach((r, i) => makeRun(root, { engine: 'a', stamp: `a${i}`, started_at: at(i), steps: [{ name: 'clients-1', ops: ops(r) }] }));
  [1000, 1010, 990].forEach((r, i) => makeRun(root, { engine: 'b', stamp: `b${i}`, started_at: at(10 + i), steps: [{ name: 'clients-1', ops: ops(r) }] }));
  const rep = build(root);
  const v = rep.experiments[0].sets[0].verdicts[0];
  assert.equal(v.status, 'verdict');
  assert.equal(v.order, 'sequential');
  assert.match(v.sentence, /; run one after the other: drift can look like a difference$/);
  assert.equal(rep.summary[0].order_note, 'run one after the other: drift can look like a difference');
  let out = '';
  assert.equal(main(['--results-dir', root], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  assert.match(out, /order: run one after the other: drift can look like a difference/);
});
