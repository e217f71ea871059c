'use strict';
// summary.json records where the loader ran: the cpusets lib/placement.sh chose (passed in by
// compose/loader.yml), whether loader and members shared CPUs, and the CPUs the loader process
// could actually use; null when the lab did not place it (--uri alone).
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { startServer } = require('./support/server');
const { runLoader, tmpResults, latestRun } = require('./support/loader');
const { checkSummary } = require('./support/summary-schema');
const { placementOf } = require('../src/run/placement');

test('placementOf: the lab\'s variables, or null', () => {
  assert.equal(placementOf({}, 4), null);
  assert.deepEqual(placementOf({ LAB_LOADER_CPUSET: '6-7', LAB_MEMBER_CPUSET: '0-5', LAB_CPUS_SHARED: 'no' }, 2),
    { loader_cpus: '6-7', member_cpus: '0-5', shared: false, loader_cpus_available: 2 });
  assert.equal(placementOf({ LAB_LOADER_CPUSET: '0-1', LAB_MEMBER_CPUSET: '0-1', LAB_CPUS_SHARED: 'yes' }, 2).shared, true);
});

test('a run records its placement in summary.json (shared, and the pinned CPU it really had)', async () => {
  assert.equal(spawnSync('taskset', ['-V']).status, 0, "taskset missing: run 'bash test/install-tools.sh'");
  const server = await startServer();
  try {
    const root = tmpResults();
    const base = ['experiment1', '--uri', server.uri, '--docs', '20', '--results-dir', root, '--metrics-port', '0'];
    const placed = await runLoader([...base, '--engine', 'placed'], {
      prefix: ['taskset', '-c', '0'],
      env: { LAB_LOADER_CPUSET: '0', LAB_MEMBER_CPUSET: '0', LAB_CPUS_SHARED: 'yes' },
    });
    assert.equal(placed.code, 0, placed.stderr);
    const { summary } = latestRun(root, 'experiment1', 'placed');
    checkSummary(summary);
    assert.deepEqual(summary.placement, { loader_cpus: '0', member_cpus: '0', shared: true, loader_cpus_available: 1 });
    const bare = await runLoader([...base, '--engine', 'bare'], { env: { LAB_CPUS_SHARED: '' } });
    assert.equal(bare.code, 0, bare.stderr);
    assert.equal(latestRun(root, 'experiment1', 'bare').summary.placement, null);
  } finally {
    await server.stop();
  }
});
