'use strict';
// scenarios/failover.js through the runner: real writers and the real majority read over the real
// driver against mongo-java-server (standing in for mongos), replSetGetStatus scripted (a single
// test server has no replica set), docker actions recorded by the harness's peer.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const failover = require('../../src/faults/scenarios/failover');
const { runWith, mem, down, mongosClient } = require('./harness');

const mongos = mongosClient();

const aPrimary = { term: 1, members: [mem('shard01-a', 'PRIMARY'), mem('shard01-b', 'SECONDARY'), mem('shard01-c', 'SECONDARY')] };
const bPrimaryACut = { term: 2, members: [down('shard01-a'), mem('shard01-b', 'PRIMARY', 12), mem('shard01-c', 'SECONDARY', 12)] };
const bPrimaryAll = { term: 2, members: [mem('shard01-a', 'SECONDARY', 13), mem('shard01-b', 'PRIMARY', 13), mem('shard01-c', 'SECONDARY', 13)] };
const params = (extra) => ({ w: 'majority', how: 'kill', writers: '2', 'load-seconds': '0', 'failover-seconds': '5', ...extra });
const context = { mongos };

test('kill, w:majority: kill, new primary seen, start, checker over real writes, rollback listing; PASS', async () => {
  const r = await runWith(failover, params(), { statuses: [aPrimary, aPrimary, aPrimary, bPrimaryACut, bPrimaryAll], extra: { context, outputs: { 'ls-rollback': '' } } });
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(r.asked, ['kill shard01-a', 'start shard01-a', 'ls-rollback shard01-a']);
  assert.equal(r.summary.result, true);
  assert.equal(r.summary.evidence.failover.newPrimary, 'shard01-b');
  assert.equal(r.summary.evidence.counts.lost, 0);
  assert.ok(r.summary.evidence.counts.attempted > 0);
  // a healthy test server fails nothing: every attempted write is acknowledged and read back
  assert.equal(r.summary.evidence.counts.ok, r.summary.evidence.counts.attempted);
  assert.equal(r.summary.evidence.counts.acknowledged, r.summary.evidence.counts.attempted);
  assert.equal(r.summary.evidence.counts.unexpected, 0);
  assert.match(r.summary.verdict, /^PASS: failover w:majority: .*new primary shard01-b/);
  assert.ok(fs.statSync(path.join(r.dir, 'history.ndjson')).size > 0);
  for (const f of ['step-failover.json', 'step-recovery.json', 'step-caught-up.json', 'step-check.json']) assert.ok(fs.existsSync(path.join(r.dir, f)), f);
});

test('no new primary within the time: UNKNOWN (exit 1), the fault still undone', async () => {
  const r = await runWith(failover, params({ 'failover-seconds': '0' }), { statuses: [aPrimary], extra: { context } });
  assert.equal(r.code, 1);
  assert.equal(r.summary.result, 'unknown');
  assert.match(r.summary.verdict, /^UNKNOWN: .*NO failover observed \(primaries seen: shard01-a\)/);
  assert.ok(r.asked.includes('start shard01-a'));
});

test('partition (default): the old primary is cut off from exactly the other members, then healed', async () => {
  const r = await runWith(failover, params({ how: 'partition', w: '1' }), { statuses: [aPrimary, aPrimary, bPrimaryACut, bPrimaryAll], extra: { context } });
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(r.asked, ['netem-partition shard01-a shard01-b,shard01-c', 'netem-heal shard01-a', 'ls-rollback shard01-a']);
});

test('SIGTERM during the load: writers stopped, nothing to undo, summary complete:false, exit 130', async () => {
  const r = await runWith(failover, params({ 'load-seconds': '30' }), {
    statuses: [aPrimary],
    extra: { context },
    signalAfterMs: 1500,
  });
  assert.equal(r.code, 130, r.lines.join('\n'));
  assert.deepEqual(r.asked, []);
  assert.equal(r.summary.complete, false);
  assert.equal(r.summary.why, 'interrupted (SIGTERM)');
  assert.ok(r.lines.some((l) => /^writers: done: \d+ attempted/.test(l)));
});

test('usage: --w missing or wrong, --how unknown', () => {
  assert.throws(() => failover.check(params({ w: undefined })), /needs --w 1 or --w majority/);
  assert.throws(() => failover.check(params({ w: '2' })), /--w must be 1 or majority/);
  assert.throws(() => failover.check(params({ how: 'unplug' })), /--how must be partition or kill/);
});

test('SIGTERM while the primary is killed: heal starts it again before the summary', async () => {
  const r = await runWith(failover, params({ 'failover-seconds': '30' }), { statuses: [aPrimary], extra: { context }, signalAfterMs: 1500 });
  assert.equal(r.code, 130);
  assert.deepEqual(r.asked, ['kill shard01-a', 'start shard01-a']);
  assert.equal(r.summary.complete, false);
  assert.notEqual(r.summary.result, true);
});

test('--dry-run with the stack up: the plan names the live primary and asks for exactly its actions; no folder, no writes', async () => {
  const bPrimary = { term: 3, members: [mem('shard01-a', 'SECONDARY'), mem('shard01-b', 'PRIMARY'), mem('shard01-c', 'SECONDARY')] };
  const r = await runWith(failover, params({ how: 'partition', w: '1' }), { statuses: [bPrimary], extra: { context }, dryRun: true });
  assert.equal(r.code, 0);
  assert.ok(r.lines.includes('  primary now: shard01-b; write concern w:1; fault: partition'), r.lines.join('\n'));
  assert.deepEqual(r.asked, ['netem-partition shard01-b shard01-a,shard01-c', 'netem-heal shard01-b', 'ls-rollback shard01-b']);
  assert.deepEqual(fs.readdirSync(r.root), []);
});
