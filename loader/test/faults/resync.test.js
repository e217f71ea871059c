'use strict';
// scenarios/resync.js through the runner: order of the docker actions, the PRIMARY refusal, the
// heal of a half-done resync, the verdict from the watched state.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const resync = require('../../src/faults/scenarios/resync');
const { runWith, mem, scriptedMembers } = require('./harness');

const set = (c) => ({ term: 1, members: [mem('shard01-a', 'PRIMARY'), mem('shard01-b', 'SECONDARY'), mem('shard01-c', c)] });
// members(statuses, own): the set's view scripted, shard01-c's own view (its self entry) one of
// `own` per look, the last repeated
function members(statuses, own) {
  const m = scriptedMembers(statuses);
  let i = 0;
  m.selfStatus = async () => ({ myState: 2, members: [{ self: true, ...own[Math.min(i++, own.length - 1)] }] });
  return m;
}
const run = (params, statuses, own, opts = {}) => runWith(resync, params,
  { statuses, ...opts, extra: { context: { members: members(statuses, own) } } });

test('a secondary: stop, rm, volume-rm, up, then watched until SECONDARY; verdict true', async () => {
  const r = await run({ member: 'shard01-c', timeout: '60' }, [set('SECONDARY'), set('STARTUP2'), set('STARTUP2'), set('SECONDARY')], [{ stateStr: 'SECONDARY', uptime: 2 }]);
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(r.asked, ['stop shard01-c', 'rm shard01-c', 'volume-rm shard01-c', 'up shard01-c']);
  assert.equal(r.summary.result, true);
  assert.equal(r.summary.complete, true);
  assert.match(r.summary.verdict, /^PASS: resync shard01-c: SECONDARY again after initial sync \(\d+ s\), by its own replSetGetStatus \(its mongod up 2 s, started by the resync\)/);
  assert.ok(fs.existsSync(path.join(r.dir, 'step-resync.json')));
  assert.ok(r.dir.includes(path.join('fault-resync', 'wiredtiger')));
});

test('the PRIMARY: refused (exit 2) before any docker action and before any results folder', async () => {
  const r = await runWith(resync, { member: 'shard01-a', timeout: '60' }, { statuses: [set('SECONDARY')] });
  assert.equal(r.code, 2);
  assert.deepEqual(r.asked, []);
  assert.deepEqual(fs.readdirSync(r.root), []);
  assert.ok(r.lines.some((l) => l.includes('shard01-a is the PRIMARY; resync a secondary')));
});

test('the volume cannot be removed: the member is brought back up by heal; complete:false, verdict not true', async () => {
  const r = await runWith(resync, { member: 'shard01-c', timeout: '60' }, { statuses: [set('SECONDARY')], fail: { 'volume-rm': 1 } });
  assert.equal(r.code, 1);
  assert.deepEqual(r.asked, ['stop shard01-c', 'rm shard01-c', 'volume-rm shard01-c', 'up shard01-c']);
  assert.equal(r.summary.complete, false);
  assert.match(r.summary.why, /volume-rm/);
  assert.notEqual(r.summary.result, true);
});

test('never SECONDARY within the timeout: verdict false with the last state as evidence', async () => {
  const r = await runWith(resync, { member: 'shard01-c', timeout: '0' }, { statuses: [set('SECONDARY'), set('STARTUP2')] });
  assert.equal(r.code, 1);
  assert.equal(r.summary.result, false);
  assert.equal(r.summary.evidence.finalState, 'STARTUP2');
});

test('the set still shows the removed mongod SECONDARY (heartbeats), the member itself is the old process: never PASS', async () => {
  // the set's view says SECONDARY at once; shard01-c's own view: a mongod up for an hour, so not
  // the one the resync started
  const r = await run({ member: 'shard01-c', timeout: '3' }, [set('SECONDARY')], [{ stateStr: 'SECONDARY', uptime: 3600 }]);
  assert.equal(r.code, 1, r.lines.join('\n'));
  assert.equal(r.summary.result, false);
  assert.match(r.summary.verdict, /^FAIL: resync shard01-c: the set showed it SECONDARY, but it says SECONDARY, its mongod up 3600 s: not the member the resync started/);
  assert.equal(r.summary.evidence.own_view.uptimeSeconds, 3600);
  assert.ok(r.lines.some((l) => /shard01-c: the set shows it SECONDARY, but it says SECONDARY, its mongod up 3600 s .*watching on/.test(l)), r.lines.join('\n'));
});

test('the member in initial sync by its own view (STARTUP2) while the set shows it SECONDARY: watched on until it says SECONDARY', async () => {
  const r = await run({ member: 'shard01-c', timeout: '30' }, [set('SECONDARY')], [{ stateStr: 'STARTUP2', uptime: 1 }, { stateStr: 'SECONDARY', uptime: 2 }]);
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.equal(r.summary.result, true);
  assert.equal(r.summary.evidence.own_view.state, 'SECONDARY');
});
