'use strict';
// scenarios/heal.js through the runner: the docker steps from bash's facts, failpoints and
// fsyncUnlock on every member, the healthy watch, and that a failed step does not stop the rest.
const test = require('node:test');
const assert = require('node:assert/strict');
const heal = require('../../src/faults/scenarios/heal');
const { runWith, mem } = require('./harness');

const healthy = { members: [mem('shard01-a', 'PRIMARY'), mem('shard01-b', 'SECONDARY'), mem('shard01-c', 'SECONDARY')] };
const recovering = { members: [mem('shard01-a', 'PRIMARY'), mem('shard01-b', 'SECONDARY'), mem('shard01-c', 'RECOVERING')] };

test('stopped members up, netem off on every member, failpoints/fsync off on every member, healthy: PASS', async () => {
  const r = await runWith(heal, { stopped: 'shard01-c', netem: 'yes', timeout: '30' }, { statuses: [healthy] });
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(r.asked, ['rm-fault-load', 'up shard01-c', 'netem-heal shard01-a', 'netem-heal shard01-b', 'netem-heal shard01-c']);
  for (const m of ['shard01-a', 'shard01-b', 'shard01-c']) assert.ok(r.lines.includes(`${m}: failpoint rsSyncApplyStop off`), m);
  assert.match(r.summary.verdict, /^PASS: healed$/);
});

test('without netem nothing touches the sidecars; a failed step is reported, the rest still runs', async () => {
  const r = await runWith(heal, { stopped: 'shard01-a,shard01-b', netem: 'no', timeout: '30' }, { statuses: [healthy], fail: { up: 1 } });
  assert.deepEqual(r.asked, ['rm-fault-load', 'up shard01-a', 'up shard01-b']);
  assert.match(r.summary.verdict, /healed \(these steps failed: up shard01-a \(exit 1\), up shard01-b \(exit 1\)\)/);
});

test('never healthy: FAIL naming resync', async () => {
  const r = await runWith(heal, { stopped: '', netem: 'no', timeout: '0' }, { statuses: [recovering] });
  assert.equal(r.code, 1);
  assert.match(r.summary.verdict, /^FAIL: heal: the shard is not healthy .* \.\/run\.sh resync MEMBER --engine wiredtiger/);
});

test('without --stopped/--netem the Docker facts are asked of bash (probes), before the plan', async () => {
  const r = await runWith(heal, { timeout: '30' }, { statuses: [healthy], extra: { outputs: { 'stopped-members': 'shard01-b\n', 'netem-image': 'no\n' } } });
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(r.asked, ['stopped-members', 'netem-image', 'rm-fault-load', 'up shard01-b']);
  assert.ok(r.lines.some((l) => l.includes('start stopped shard members: shard01-b')), r.lines.join('\n'));
  assert.ok(r.lines.some((l) => l.includes('(skipped: the netem image was never built here')), r.lines.join('\n'));
});
