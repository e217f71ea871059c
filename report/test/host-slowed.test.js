'use strict';
// The shared-host rule in the report (common/host-slowed.js through common/step-exclusion.js):
// A/A runs that all saw other load on the loader's host; those where it made the loader late by a
// material share of the latency it measured are left out, the others are kept and decide the
// verdict. Before, every run with other load was left out.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir, makeRun } = require('./support/fixtures');
const { readAll } = require('../src/read');
const { buildReport } = require('../src/compare');

const busy = 'worker 0 event-loop delay p99 25 ms (> 20 ms) while the loader used 0.2 of 2 cores, other processes 1.8, steal 0: the host, not the loader';

// run(root, side, i, slowed): a run whose one step saw other load; the loader 25 ms late against
// operations of 2 ms (slowed) or 400 ms (not).
function run(root, side, i, slowed) {
  const dir = makeRun(root, { engine: side, stamp: `${side}${i}`, started_at: new Date(Date.parse('2026-11-01T00:00:00Z') + (i * 2 + (side === 'b' ? 1 : 0)) * 60000).toISOString(),
    steps: [{ name: 'clients-1', ops: { find: { rate: 1000 + i } } }] });
  const file = path.join(dir, 'summary.json');
  const s = JSON.parse(fs.readFileSync(file, 'utf8'));
  const p50 = slowed ? 2000 : 400000;
  s.steps[0].ops.find.latency_us = { ...s.steps[0].ops.find.latency_us, p50, p90: p50 * 2, p99: p50 * 3, p999: p50 * 4,
    mean: p50 };
  s.steps[0].loader = { ...s.steps[0].loader, contention: [busy],
    workers: [{ worker: 0, elu_mean: 0.5, eld_p99_ms_median: 25, eld_p99_ms_max: 40 }] };
  fs.writeFileSync(file, JSON.stringify(s, null, 2));
}

test('A/A runs on a busy host: the runs it slowed are left out, the ones it did not are kept', () => {
  const root = tmpDir();
  for (const side of ['a', 'b']) for (let i = 0; i < 4; i++) run(root, side, i, i === 3);
  const set = buildReport(readAll([root], {})).experiments[0].sets[0];
  const v = set.verdicts[0];
  assert.deepEqual(v.usable, [3, 3], v.sentence);
  assert.deepEqual(set.aggregates.map((x) => x.excluded), [{ shared_host: 1 }, { shared_host: 1 }]);
  assert.equal(v.order, 'interleaved');
  assert.ok(['verdict', 'no-difference'].includes(v.status), v.sentence);
  assert.match(set.aggregates[0].shared_host[0], /^the loader ran late by 25 ms \(event-loop delay p99\), 1250% of the fastest op's p50 2 ms/);
});
