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
  const r = await runWith(heal, { stopped: 'shard01-c', paused: '', netem: 'yes', timeout: '30' }, { statuses: [healthy] });
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(r.asked, ['rm-fault-load', 'up shard01-c', 'netem-heal shard01-a', 'netem-heal shard01-b', 'netem-heal shard01-c']);
  for (const m of ['shard01-a', 'shard01-b', 'shard01-c']) assert.ok(r.lines.includes(`${m}: failpoint rsSyncApplyStop off`), m);
  assert.match(r.summary.verdict, /^PASS: healed$/);
});

test('without netem nothing touches the sidecars; a failed step is reported, the rest still runs', async () => {
  const r = await runWith(heal, { stopped: 'shard01-a,shard01-b', paused: '', netem: 'no', timeout: '30' }, { statuses: [healthy], fail: { up: 1 } });
  assert.deepEqual(r.asked, ['rm-fault-load', 'up shard01-a', 'up shard01-b']);
  assert.match(r.summary.verdict, /healed \(these steps failed: up shard01-a \(exit 1\), up shard01-b \(exit 1\)\)/);
});

test('never healthy: FAIL naming resync', async () => {
  const r = await runWith(heal, { stopped: '', paused: '', netem: 'no', timeout: '0' }, { statuses: [recovering] });
  assert.equal(r.code, 1);
  assert.match(r.summary.verdict, /^FAIL: heal: the shard is not healthy .* \.\/run\.sh resync MEMBER --engine wiredtiger/);
});

// A primary that could see no majority steps down (8.0 topology_coordinator.cpp, "relinquishing
// primary"); with the others back, all three are SECONDARY until the election. That set takes no
// write: heal waits for its primary, and fails if none comes.
test('three SECONDARYs are not healed: heal waits for the election, and fails if no primary comes', async () => {
  const noPrimary = { members: [mem('shard01-a', 'SECONDARY'), mem('shard01-b', 'SECONDARY'), mem('shard01-c', 'SECONDARY')] };
  const twoPrimaries = { members: [mem('shard01-a', 'PRIMARY'), mem('shard01-b', 'PRIMARY'), mem('shard01-c', 'SECONDARY')] };
  const waited = await runWith(heal, { stopped: '', paused: '', netem: 'no', timeout: '30' }, { statuses: [noPrimary, noPrimary, noPrimary, noPrimary, healthy] });
  assert.equal(waited.code, 0, waited.lines.join('\n'));
  // 4 ticks with no primary, then the 3 healthy ticks in a row the watch asks for
  assert.equal(waited.lines.filter((l) => /\[heal\]/.test(l)).length, 7, waited.lines.join('\n'));
  for (const statuses of [[noPrimary], [twoPrimaries]]) {
    const r = await runWith(heal, { stopped: '', paused: '', netem: 'no', timeout: '3' }, { statuses });
    assert.equal(r.code, 1, r.lines.join('\n'));
    assert.match(r.summary.verdict, /^FAIL: heal: the shard is not healthy/);
  }
});

test('without --stopped/--paused/--netem the Docker facts are asked of bash (probes), before the plan', async () => {
  const r = await runWith(heal, { timeout: '30' }, { statuses: [healthy], extra: { outputs: { 'stopped-members': 'shard01-b\n', 'paused-members': 'shard01-c\n', 'netem-image': 'no\n' } } });
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(r.asked, ['stopped-members', 'paused-members', 'netem-image', 'rm-fault-load', 'up shard01-b', 'unpause shard01-c']);
  assert.ok(r.lines.some((l) => l.includes('start stopped shard members: shard01-b')), r.lines.join('\n'));
  assert.ok(r.lines.some((l) => l.includes('(skipped: the netem image was never built here')), r.lines.join('\n'));
});

test('a paused member is unpaused (up would leave it paused); what heal cannot undo is said in its plan', async () => {
  const r = await runWith(heal, { stopped: '', paused: 'shard01-b', netem: 'no', timeout: '30' }, { statuses: [healthy] });
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(r.asked, ['rm-fault-load', 'unpause shard01-b']);
  assert.ok(r.lines.some((l) => l.includes("cannot undo: volume-rm (the member's data is gone (./run.sh resync MEMBER copies it back))")), r.lines.join('\n'));
});

// The registry (src/faults/docker-ops.tsv) says for every action what heal does about it: each
// action heal can undo is undone on every member left in that state, and every other one is
// either harmless ("-") or said ("cannot: why"). A new action whose undo heal does not perform
// fails here (pause did: heal started stopped members but never unpaused one).
test('every Docker action of the registry is undone by heal, or the registry says it cannot be', () => {
  const { TABLE } = require('../../src/faults/protocol');
  const env = { shard: { hosts: ['shard01-a:27017', 'shard01-b:27017', 'shard01-c:27017'] } };
  const all = 'shard01-a,shard01-b,shard01-c';
  const { actions, lines } = heal.plan({ stopped: all, paused: all, netem: 'yes' }, env, {});
  const done = new Set(actions.map((a) => `${a.op} ${a.args.member ?? ''}`.trim()));
  let undone = 0;
  for (const [op, r] of Object.entries(TABLE).filter(([, x]) => x.kind === 'action')) {
    assert.ok(r.undo === '-' || r.undo.startsWith('cannot: ') || TABLE[r.undo], `${op}: undo '${r.undo}' is neither an op, "-" nor "cannot: why"`);
    if (r.undo === '-') continue;
    if (r.undo.startsWith('cannot: ')) {
      assert.ok(lines.includes(`cannot undo: ${op} (${r.undo.slice('cannot: '.length)})`), `${op}: heal's plan says it cannot undo it`);
      continue;
    }
    for (const m of ['shard01-a', 'shard01-b', 'shard01-c']) assert.ok(done.has(`${r.undo} ${m}`), `${op}: heal runs ${r.undo} on ${m}`);
    undone++;
  }
  assert.ok(undone >= 5, `only ${undone} actions undone`);
  assert.equal(lines.filter((l) => l.includes('does not know')).length, 0, lines.join('\n'));
});
