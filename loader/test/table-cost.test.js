'use strict';
// The cost line: "cost: j:true: +12.8% docs/s against j:false" called a speed-up a
// cost. A change is printed with its sign; only a slow-down is a cost.
const test = require('node:test');
const assert = require('node:assert/strict');
const { formatTable, groupTable } = require('../src/results/table');

const lat = { count: 1, mean: 1000, p50: 1000, p90: 1000, p99: 1000, p999: 1000, max: 1000 };
const loader = { limited: false, reasons: [], contention: [] };
const kase = (index, name, change) => ({
  index, name, clients: 1, complete: true, measured_s: 10, loader,
  ops: { insert: { count: 10, errors: 0, ops_per_s: 1, docs_per_s: 1000, mb_per_s: 1, latency_us: lat } },
  ...(change === undefined ? {} : { relative_to_baseline: { baseline: 'j:false', docs_per_s_ratio: 1 + change / 100, change_percent: change } }),
});

test('a slow-down is a cost with its minus sign; a speed-up is "faster", not a cost', () => {
  const out = formatTable({ name: 'journal', engine: 'x', complete: true, steps: [kase(1, 'j:false'), kase(2, 'j:true', -34), kase(3, 'j:false interval=1ms', 12.8)] });
  assert.match(out, /^cost: 2 j:true: -34% docs\/s against j:false$/m);
  assert.match(out, /^faster: 3 j:false interval=1ms: \+12\.8% docs\/s against j:false \(no cost measured\)$/m);
  assert.doesNotMatch(out, /^cost: .*\+/m);
});

test('the group table: the median change, labelled by its sign', () => {
  const out = groupTable({ name: 'journal', engine: 'x', group: 'g', runs: [[kase(1, 'j:false'), kase(2, 'j:true', 10)], [kase(1, 'j:false'), kase(2, 'j:true', 14)]] });
  assert.match(out, /^faster: j:true: \+12% docs\/s against j:false \(median of 2; per repetition: 10, 14\) \(no cost measured\)$/m);
});

test('a table of ops that move bytes, not documents (gridfs): MiB/s beside MB/s, from the same bytes and measured time', () => {
  const bytes = 27.25 * 2 ** 20 * 10; // 27.25 MiB/s for 10 s: seeds/003's Ubuntu figure
  const step = { index: 1, name: 'upload', clients: 1, complete: true, measured_s: 10, loader,
    ops: { upload: { count: 100, errors: 0, ops_per_s: 10,
      mb_per_s: Math.round((bytes / 1e6 / 10) * 1000) / 1000, bytes, latency_us: lat } } };
  const out = formatTable({ name: 'gridfs', engine: 'x', complete: true, steps: [step] });
  const [head, row] = out.trim().split('\n').slice(1);
  assert.match(head, /\bdocs\/s +MB\/s +MiB\/s +p50 ms\b/);
  assert.match(row, /\b28\.574 +27\.25 +/);
  // documents (journal) keep the two columns they had
  assert.doesNotMatch(formatTable({ name: 'journal', engine: 'x', complete: true, steps: [kase(1, 'j:false')] }), /MiB\/s/);
});
