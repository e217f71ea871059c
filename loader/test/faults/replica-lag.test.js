'use strict';
// scenarios/replica-lag.js through the runner: the real load over the real driver against
// mongo-java-server (standing in for mongos), replSetGetStatus scripted, member commands
// (fsyncLock, configureFailPoint) recorded by a Members stand-in, docker actions by the harness.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const replicaLag = require('../../src/faults/scenarios/replica-lag');
const tables = require('../../../common/tables');
const { runWith, scriptedMembers, mem, mongosClient } = require('./harness');

const mongos = mongosClient();

// lag of shard01-c = primary's optimeDate - its own (seconds)
const set = (cLag, { cState = 'SECONDARY', primary = 'shard01-a' } = {}) => ({
  term: 1,
  members: ['shard01-a', 'shard01-b', 'shard01-c'].map((n) => (n === 'shard01-c' ? mem(n, cState, 100 - cLag) : mem(n, n === primary ? 'PRIMARY' : 'SECONDARY', 100))),
});
const params = (extra) => ({ method: 'fsync', threshold: '3s', rate: '200', 'baseline-seconds': '0', 'heal-seconds': '5', 'fault-seconds': '5', ...extra });

// members: the scripted status plus a record of every admin command (fsync, failpoints)
function recording(statuses, { fail = {} } = {}) {
  const m = scriptedMembers(statuses);
  m.commands = [];
  m.admin = async (host, cmd) => {
    const name = Object.keys(cmd)[0];
    if (name === 'serverStatus') return {}; // the watch's flow-control look, not a fault
    m.commands.push(`${host} ${name}${cmd.mode ? ` ${cmd.mode}` : ''}`);
    if (fail[name]) throw Object.assign(new Error(fail[name].message), { code: fail[name].code });
    return { ok: 1 };
  };
  return m;
}
const run = (p, statuses, { fail, ...opts } = {}) => {
  const members = recording(statuses, { fail });
  return runWith(replicaLag, p, { statuses, ...opts, extra: { context: { members, mongos } } })
    .then((r) => ({ ...r, members }));
};

test('fsync: load, lock on the member itself, lag reaches the threshold, unlock, back under 2 s: PASS', async () => {
  const before = await mongos().db('lab_fault').collection('load').countDocuments().catch(() => 0);
  const r = await run(params(), [set(0), set(0), set(5), set(1)]);
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(r.members.commands, ['shard01-c fsync', 'shard01-c fsyncUnlock']);
  assert.deepEqual(r.asked, []);
  assert.equal(r.summary.result, true);
  assert.equal(r.summary.complete, true);
  assert.match(r.summary.verdict, /^PASS: replica-lag shard01-c via fsync: peak lag 5\.0 s \(threshold 3 s\) reached; after heal 1\.0 s/);
  assert.equal(r.summary.evidence.peak_lag_seconds, 5);
  assert.equal(r.summary.evidence.flow_control_engaged, false);
  for (const f of ['step-lag-fault.json', 'step-lag-heal.json', 'timeline.ndjson']) assert.ok(fs.existsSync(path.join(r.dir, f)), f);
  // the load really wrote through the driver (upserts over the fixed key space)
  assert.ok(r.lines.some((l) => /^load: stopped after [1-9]\d* documents, 0 failed batches$/.test(l)), r.lines.join('\n'));
  assert.ok((await mongos().db('lab_fault').collection('load').countDocuments()) > before);
});

test('without --member: the default member if SECONDARY, else another secondary', async () => {
  const cPrimary = set(0, { cState: 'PRIMARY', primary: 'none' });
  const r = await run(params(), [cPrimary, cPrimary, { term: 1, members: [mem('shard01-a', 'SECONDARY', 95), mem('shard01-b', 'SECONDARY', 100), mem('shard01-c', 'PRIMARY', 100)] }]);
  assert.ok(r.lines.includes('member: shard01-a (SECONDARY, seen from shard01-a)'), r.lines.join('\n'));
  assert.equal(r.members.commands[0], 'shard01-a fsync');
});

test('a member that is not a SECONDARY: exit 2, nothing slowed, no folder', async () => {
  const r = await run(params({ member: 'shard01-a' }), [set(0)]);
  assert.equal(r.code, 2);
  assert.deepEqual(r.members.commands, []);
  assert.deepEqual(fs.readdirSync(r.root), []);
  assert.ok(r.lines.some((l) => l.includes('shard01-a is not a SECONDARY now; pick one that is')), r.lines.join('\n'));
});

test('the lag never reaches the threshold: still healed, verdict FAIL (exit 1)', async () => {
  const r = await run(params({ 'fault-seconds': '0' }), [set(0), set(0), set(1)]);
  assert.equal(r.code, 1);
  assert.deepEqual(r.members.commands, ['shard01-c fsync', 'shard01-c fsyncUnlock']);
  assert.equal(r.summary.result, false);
  assert.match(r.summary.verdict, /^FAIL: .*NOT reached/);
});

test('the fault cannot be applied: undone anyway, complete:false with why, never PASS', async () => {
  const r = await run(params(), [set(0)], { fail: { fsync: { message: 'fsyncLock not supported' } } });
  assert.equal(r.code, 1);
  assert.deepEqual(r.members.commands, ['shard01-c fsync', 'shard01-c fsyncUnlock']);
  assert.equal(r.summary.complete, false);
  assert.match(r.summary.why, /could not apply fsync to shard01-c .*try --method failpoint/);
  assert.notEqual(r.summary.result, true);
});

test('failpoint: rsSyncApplyStop alwaysOn then off on the member; netem: asked of bash (slow, heal)', async () => {
  const fp = await run(params({ method: 'failpoint', member: 'shard01-b' }), [set(0), set(0), { term: 1, members: [mem('shard01-a', 'PRIMARY', 100), mem('shard01-b', 'SECONDARY', 90), mem('shard01-c', 'SECONDARY', 100)] }, set(0)]);
  assert.equal(fp.code, 0, fp.lines.join('\n'));
  assert.deepEqual(fp.members.commands, ['shard01-b configureFailPoint alwaysOn', 'shard01-b configureFailPoint off']);
  const ne = await run(params({ method: 'netem' }), [set(0), set(0), set(4), set(0)]);
  assert.equal(ne.code, 0, ne.lines.join('\n'));
  assert.deepEqual(ne.asked, ['netem-slow shard01-c 100ms 64kbit', 'netem-heal shard01-c']);
  assert.deepEqual(ne.members.commands, []);
});

test('SIGTERM while the lag builds: unlocked, load stopped, summary complete:false, exit 130', async () => {
  const r = await run(params({ 'fault-seconds': '30' }), [set(0)], { signalAfterMs: 1500 });
  assert.equal(r.code, 130, r.lines.join('\n'));
  assert.deepEqual(r.members.commands, ['shard01-c fsync', 'shard01-c fsyncUnlock']);
  assert.equal(r.summary.complete, false);
  assert.equal(r.summary.why, 'interrupted (SIGTERM)');
  assert.ok(r.lines.some((l) => /^load: stopped after/.test(l)));
});

test('SIGTERM during the watch tick that sees the threshold: the watch\'s undo is refused (stopped), the heal unlocks', async () => {
  // the tick's replSetGetStatus is slow (a member slow to answer) and the stop comes while it is
  // out; the tick then meets the threshold and the watch goes on to undo, which the stopped run
  // refuses (runner.js bodyContext): the lock must stay recorded as in force for the heal to undo
  const statuses = [set(0), set(0), set(5), set(1)];
  const members = recording(statuses);
  let signals;
  let calls = 0;
  const status = members.status;
  members.status = async () => {
    if (++calls === 3) { signals.emit('SIGTERM', 'SIGTERM'); await new Promise((r) => setTimeout(r, 200)); }
    return status();
  };
  const r = await runWith(replicaLag, params(), { statuses, withSignals: (s) => { signals = s; },
    extra: { context: { members, mongos } } });
  assert.equal(calls >= 3, true, r.lines.join('\n'));
  assert.equal(r.code, 130, r.lines.join('\n'));
  assert.deepEqual(members.commands, ['shard01-c fsync', 'shard01-c fsyncUnlock'], r.lines.join('\n'));
  assert.equal(r.summary.heal_error, undefined, r.lines.join('\n'));
});

test('check: member, method, the engine\'s fault_methods, threshold, rate, whole seconds', () => {
  const env = { engine: tables.engine('wiredtiger'), shard: tables.shardSet() };
  const ok = (p) => replicaLag.check(params(p), env);
  ok({});
  assert.throws(() => ok({ member: 'shard02-a' }), /unknown member 'shard02-a' \(choose one of: shard01-a shard01-b shard01-c\)/);
  assert.throws(() => ok({ method: 'pause' }), /unknown --method 'pause' \(choose one of: fsync failpoint netem\)/);
  assert.throws(() => ok({ threshold: 'soon' }), /--threshold 'soon' is not a duration/);
  assert.throws(() => ok({ threshold: '90' }), /--threshold '90' is not a duration \(use a number and a unit/);
  assert.throws(() => ok({ threshold: '2s' }), /--threshold must be at least 3s/);
  ok({ threshold: '3.5s' });
  assert.throws(() => ok({ rate: '0' }), /--rate must be a whole number >= 1 \(got '0'\)/);
  assert.throws(() => ok({ 'heal-seconds': '1.5' }), /--heal-seconds must be a whole number \(got '1.5'\)/);
  const noFsync = { ...env, engine: { ...env.engine, fault_methods: 'failpoint,netem' } };
  assert.throws(() => replicaLag.check(params(), noFsync), /--method fsync does not apply to engine wiredtiger \(its fault_methods: failpoint,netem\)/);
});

test('--dry-run: the plan; netem asks exactly slow and heal; no folder, nothing slowed', async () => {
  const r = await run(params({ method: 'netem', member: 'shard01-a', threshold: '1m' }), [set(0, { primary: 'shard01-b' })], { dryRun: true });
  assert.equal(r.code, 0);
  assert.ok(r.lines.some((l) => l.includes('member: shard01-a (must be SECONDARY now, checked live); method: netem; threshold: 60 s')), r.lines.join('\n'));
  assert.deepEqual(r.asked, ['netem-slow shard01-a 100ms 64kbit', 'netem-heal shard01-a']);
  assert.deepEqual(r.members.commands, []);
  assert.deepEqual(fs.readdirSync(r.root), []);
});

test('two fault runs started in the same second never share a results folder (the experiments\' writer)', () => {
  const { openFaultRun } = require('../../src/faults/run-folder');
  const root = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'lab-fault-runs-'));
  const at = new Date(Date.UTC(2026, 0, 1));
  const a = openFaultRun({ root, scenario: 'replica-lag', engine: 'wiredtiger', params: {}, plan: [], startedAt: at });
  const b = openFaultRun({ root, scenario: 'replica-lag', engine: 'wiredtiger', params: {}, plan: [], startedAt: at });
  a.close(); b.close();
  assert.notEqual(a.dir, b.dir);
  assert.deepEqual(fs.readdirSync(path.dirname(a.dir)).filter((f) => f !== 'latest').sort(), ['20260101T000000Z', '20260101T000000Z-2']);
});
