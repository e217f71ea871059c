'use strict';
// The order and drift guard (src/drift.js): the drift test's power and false alarms from a seeded
// simulation (the figures drift.js states), its robustness to one outlier, the run order read on
// every run and on the usable ones, sides run one after the other giving no verdict, and drift
// found on a tie and on a sequential side. The same check on real interleaved runs:
// compare-uri.test.js.
const test = require('node:test');
const assert = require('node:assert/strict');
const { tmpDir, makeRun } = require('./support/fixtures');
const { readAll } = require('../src/read');
const { buildReport } = require('../src/compare');
const { driftTest, theilSen, orderOf, ALPHA, POWER } = require('../src/drift');
const { Rng } = require('../../common/rng');
const { main } = require('../src/cli');

const build = (root) => buildReport(readAll([root], {}));
const ops = (rate) => ({ find: { rate: rate / 2 }, update: { rate: rate / 2 } });
const at = (minute) => new Date(Date.parse('2026-11-01T00:00:00Z') + minute * 60000).toISOString();
const ORDER = ['a', 'b', 'b', 'a', 'a', 'b', 'b', 'a']; // compare's balanced order, 4 runs a side

// comparison(root, id, rate(side, position), extra(side, position)): ORDER, each run filed with
// its position.
function comparison(root, id, rate, extra = () => ({})) {
  ORDER.forEach((side, i) => {
    const position = i + 1;
    makeRun(root, { engine: side, stamp: `p${position}`, started_at: at(position), steps: [{ name: 'clients-1', ops: ops(rate(side, position)), ...extra(side, position) }], extra: { comparison: { id, side, position } } });
  });
}
// deterministic noise of about +-1%, different per position
const noise = (position) => 1 + 0.01 * Math.sin(position * 7.3);
const run = (root) => {
  let out = '';
  assert.equal(main(['--results-dir', root], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  for (const l of out.split('\n')) assert.ok(l.length <= 120, `over 120 columns: ${l}`);
  return out;
};

// simulate(trials, drift, {outlier}) -> the comparisons' drift tests: ORDER's 8 positions, side a
// 1.5x side b, the total drift spread evenly from the first position to the last, each run
// scattered log-normally by POWER.noise; outlier: one run, at a random position, 30% off against
// the drift.
function simulate(trials, drift, { outlier = false } = {}) {
  const rng = new Rng(49, 13);
  const u = () => (rng.u32() + 0.5) / 2 ** 32;
  const gauss = () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
  const out = [];
  for (let t = 0; t < trials; t++) {
    const odd = 1 + Math.floor(u() * 8);
    const sides = { a: [], b: [] };
    ORDER.forEach((side, i) => {
      const position = i + 1;
      let y = Math.log(side === 'a' ? 1500 : 1000) + (Math.log(1 + drift) * (position - 1)) / 7 + POWER.noise * gauss();
      if (outlier && position === odd) y += (position > 4 ? -1 : 1) * Math.log(1.3);
      sides[side].push({ position, value: Math.exp(y) });
    });
    out.push(driftTest([sides.a, sides.b]));
  }
  return out;
}

test('drift test: finds a 10% drift over 8 positions in at least the power drift.js states, flags at most alpha with none', () => {
  assert.equal(POWER.positions, ORDER.length);
  const found = simulate(1000, POWER.drift).filter((t) => t.p < ALPHA).length / 1000;
  assert.ok(found >= POWER.power, `power ${found} < ${POWER.power}`);
  const alarms = simulate(2000, 0).filter((t) => t.p < ALPHA).length / 2000;
  assert.ok(alarms <= ALPHA, `false alarms ${alarms} > ${ALPHA}`);
  // exact: 4 runs a side are 4! x 4! orders
  const one = simulate(1, POWER.drift)[0];
  assert.equal(one.orders, 576);
  assert.equal(one.exact, true);
  assert.equal(one.n, 8);
});

test('drift test: one outlier does not reverse the trend\'s sign', () => {
  // every position, an outlier twice or half the run's value, on an exact 10% drift
  for (let odd = 1; odd <= 8; odd++) {
    for (const f of [0.5, 2]) {
      const g = { a: [], b: [] };
      ORDER.forEach((side, i) => g[side].push({ position: i + 1, value: (side === 'a' ? 1500 : 1000) * 1.1 ** (i / 7) * (i + 1 === odd ? f : 1) }));
      const t = driftTest([g.a, g.b]);
      assert.ok(t.slope > 0, `outlier x${f} at position ${odd}: slope ${t.slope}`);
    }
  }
  // with the simulation's noise: the sign holds in at least 95% of comparisons (least squares
  // reversed it in about 44%)
  const reversed = simulate(300, POWER.drift, { outlier: true }).filter((t) => t.slope < 0).length / 300;
  assert.ok(reversed <= 0.05, `sign reversed in ${reversed}`);
  assert.equal(theilSen([1, 2, 3], [0, 1, 2]), 1);
  assert.equal(driftTest([[{ position: 1, value: 1 }], [{ position: 2, value: 2 }]]), null, 'two runs: no test');
});

test('order: interleaved, sequential either way round, unknown without positions or times', () => {
  const r = (id, position, started_at = null) => ({ id, position, started_at });
  assert.equal(orderOf([r('c', 1), r('c', 4)], [r('c', 2), r('c', 3)]), 'interleaved');
  assert.equal(orderOf([r('c', 1), r('c', 2)], [r('c', 3), r('c', 4)]), 'sequential');
  assert.equal(orderOf([r('c', 3), r('c', 4)], [r('c', 1), r('c', 2)]), 'sequential', 'all of B before all of A');
  assert.equal(orderOf([r(null, null, at(1)), r(null, null, at(2))], [r(null, null, at(3))]), 'sequential');
  assert.equal(orderOf([r(null, null, at(5)), r(null, null, at(6))], [r(null, null, at(3))]), 'sequential');
  assert.equal(orderOf([r(null, null, at(1)), r(null, null, at(4))], [r(null, null, at(3))]), 'interleaved');
  assert.equal(orderOf([r(null, null)], [r(null, null, at(3))]), 'unknown');
});

test('an interleaved comparison without a trend keeps its verdict; with one it is drift, also where it was a tie', () => {
  const steady = tmpDir();
  comparison(steady, 'cmp-steady', (side, p) => (side === 'a' ? 1500 : 1000) * noise(p));
  const v1 = build(steady).experiments[0].sets[0].verdicts[0];
  assert.equal(v1.status, 'verdict', v1.sentence);
  assert.equal(v1.order, 'interleaved');
  assert.equal(v1.order_note, null);
  assert.equal(v1.drift.found, false);
  assert.match(v1.sentence, /^clients-1: a is 1\.(49|50|51)x b/);

  // Both sides gain 6% per position (a cache warming over the comparison).
  const drifting = tmpDir();
  comparison(drifting, 'cmp-drift', (side, p) => (side === 'a' ? 1500 : 1000) * 1.06 ** p * noise(p));
  const rep = build(drifting);
  const v2 = rep.experiments[0].sets[0].verdicts[0];
  assert.equal(v2.status, 'drift', v2.sentence);
  assert.equal(v2.verdict_before_drift, 'verdict');
  assert.match(v2.sentence, /^clients-1: drift, not a verdict: ops\/s moves with the runs' order \(\+[56]\.\d% per position, p [=<] 0\.0\d+, 8 runs of a and b\)/);
  assert.equal(rep.summary.find((x) => x.point === 'clients-1').status, 'drift');
  const out = run(drifting);
  assert.match(out, /DRIFT, not a verdict/);
  assert.match(out, /drift: ops\/s moves with the runs' order \(\+[56]\.\d% per position/);

  // The same drift between two equal sides: the tie is drift too.
  const tie = tmpDir();
  comparison(tie, 'cmp-tie', (side, p) => 1000 * 1.06 ** p * noise(p + (side === 'a' ? 0 : 3)));
  const v3 = build(tie).experiments[0].sets[0].verdicts[0];
  assert.equal(v3.status, 'drift', v3.sentence);
  assert.equal(v3.verdict_before_drift, 'no-difference');
});

test('sides run one after the other give no verdict, only their ratio marked not interleaved', () => {
  const root = tmpDir();
  [1000, 1010, 990].forEach((r, i) => makeRun(root, { engine: 'b', stamp: `b${i}`, started_at: at(i), steps: [{ name: 'clients-1', ops: ops(r) }] }));
  [1500, 1510, 1490].forEach((r, i) => makeRun(root, { engine: 'a', stamp: `a${i}`, started_at: at(10 + i), steps: [{ name: 'clients-1', ops: ops(r) }] }));
  const rep = build(root);
  const v = rep.experiments[0].sets[0].verdicts[0];
  assert.equal(v.status, 'not-interleaved', v.sentence);
  assert.equal(v.order, 'sequential');
  assert.equal(v.ci, null);
  assert.ok(Math.abs(v.ratio - 1.5) < 0.01);
  assert.match(v.sentence, /^clients-1: no verdict: b ran before a \(ratio a\/b 1\.50, not interleaved/);
  const out = run(root);
  assert.match(out, /NO VERDICT: a\/b 1\.50, not interleaved/);
  assert.doesNotMatch(out, /a 1\.50x b/);
  assert.match(out, /order: not interleaved/);
});

test('the mark stays when runs are left out: order read on every run, and on the usable ones', () => {
  // A then B, and two of A's runs left out (the loader was the limit): still one after the other.
  const failedStep = { limited: true }; // the loader was the limit: left out of the verdict
  const seq2 = tmpDir();
  ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b'].forEach((side, i) => makeRun(seq2, { engine: side, stamp: `p${i + 1}`, started_at: at(i + 1), steps: [{ name: 'clients-1', ops: ops(side === 'a' ? 1500 : 1000), ...(side === 'a' && i < 2 ? failedStep : {}) }], extra: { comparison: { id: 'cmp-seq2', side, position: i + 1 } } }));
  const v = build(seq2).experiments[0].sets[0].verdicts[0];
  assert.equal(v.order, 'sequential');
  assert.equal(v.status, 'not-interleaved', v.sentence);
  assert.equal(v.usable.join(' '), '2 4');
  // every run of A left out: no verdict at all, and still marked
  const none = tmpDir();
  ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b'].forEach((side, i) => makeRun(none, { engine: side, stamp: `p${i + 1}`, started_at: at(i + 1), steps: [{ name: 'clients-1', ops: ops(side === 'a' ? 1500 : 1000), ...(side === 'a' ? failedStep : {}) }], extra: { comparison: { id: 'cmp-none', side, position: i + 1 } } }));
  const n = build(none).experiments[0].sets[0].verdicts[0];
  assert.equal(n.status, 'excluded');
  assert.equal(n.order, 'sequential');
  assert.match(n.order_note, /^not interleaved/);
  // Interleaved, but the usable runs are not: A's runs at positions 4, 5 and 8 left out.
  const mixed = tmpDir();
  comparison(mixed, 'cmp-mixed', (side) => (side === 'a' ? 1500 : 1000), (side, p) => (side === 'a' && p > 1 ? failedStep : {}));
  const inter = tmpDir();
  comparison(inter, 'cmp-i', (side) => (side === 'a' ? 1500 : 1000), (side, p) => (side === 'a' && p === 8 ? failedStep : {}));
  const w = build(mixed).experiments[0].sets[0].verdicts[0];
  assert.equal(w.order, 'sequential', 'usable: A at 1, B at 2 3 6 7');
  assert.match(w.order_note, /^not interleaved/);
  const x = build(inter).experiments[0].sets[0].verdicts[0];
  assert.equal(x.order, 'interleaved', 'usable: A at 1 4 5, B at 2 3 6 7');
});

test('a sequential set\'s trend is tested: each side against its own start order', () => {
  // the host warming over the whole set: 4% a run on both sides, A's four runs then B's
  const root = tmpDir();
  [0, 1, 2, 3].forEach((i) => makeRun(root, { engine: 'a', stamp: `a${i}`, started_at: at(i), steps: [{ name: 'clients-1', ops: ops(1000 * 1.04 ** i * noise(i)) }] }));
  [4, 5, 6, 7].forEach((i) => makeRun(root, { engine: 'b', stamp: `b${i}`, started_at: at(10 + i), steps: [{ name: 'clients-1', ops: ops(900 * 1.04 ** i * noise(i)) }] }));
  const v = build(root).experiments[0].sets[0].verdicts[0];
  assert.equal(v.status, 'not-interleaved');
  assert.equal(v.drift.found, true, JSON.stringify(v.drift.test));
  assert.ok(v.drift.test.sides.every((x) => x > 2), `per side ${v.drift.test.sides}% per position`);
  assert.match(v.sentence, /; drift: ops\/s moves with the runs' order \(\+\d\.\d% per position/);
  assert.match(run(root), /drift: ops\/s moves with the runs' order/);
});
