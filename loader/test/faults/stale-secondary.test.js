'use strict';
// scenarios/stale-secondary.js through the runner: the real load over the real driver against
// mongo-java-server (standing in for mongos), replSetGetStatus and oplog windows scripted (a single
// test server has neither), docker actions (stop, start, logs) recorded by the harness's peer.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const stale = require('../../src/faults/scenarios/stale-secondary');
const tables = require('../../../common/tables');
const { runWith, scriptedMembers, mem, down, mongosClient } = require('./harness');

const mongos = mongosClient();

const set = (c) => ({ term: 1, members: [mem('shard01-a', 'PRIMARY'), mem('shard01-b', 'SECONDARY'), c === 'down' ? down('shard01-c') : mem('shard01-c', c)] });
// mongodb/mongo bgsync.cpp LOGV2_ERROR(21126, ...) as an 8.0 mongod prints it (see decisions.test.js)
const LINE_21126 = '{"t":{"$date":"2026-11-21T08:00:02.000+00:00"},"s":"E","c":"REPL","id":21126,"ctx":"BackgroundSync","msg":"Too stale to catch up. Entering maintenance mode.","attr":{"lastOpTimeFetched":{"ts":{"$timestamp":{"t":1000,"i":7}},"t":1},"earliestOpTimeSeen":{"ts":{"$timestamp":{"t":2000,"i":1}},"t":1}}}';
const params = (extra) => ({ 'oplog-size-mb': '16', rate: '200', 'baseline-seconds': '0', 'roll-seconds': '3', 'restart-seconds': '3', 'settle-seconds': '0', 'settle-looks': '3', ...extra });

// members: scripted status, shard01-c's own view (selfStatus), oplog windows whose oldest entry is
// `first` (past the stopped member's optime when first > 1000)
function cluster(statuses, { first = 2000, selfState = 'RECOVERING', infoMessage = 'Could not find member to sync from' } = {}) {
  const m = scriptedMembers(statuses);
  const win = (h) => ({ member: h.split(':')[0], host: m.resolve(h), first: { t: first, i: 1 }, last: { t: 1000, i: 9 }, maxSizeMB: 16 });
  m.window = async (h) => win(h);
  m.windows = async (hs) => hs.map(win);
  m.selfStatus = async () => ({ myState: 3, optimes: { appliedOpTime: { ts: { t: 1000, i: 7 }, t: 1 } },
    members: [{ self: true, stateStr: selfState, infoMessage, optime: { ts: { t: 1000, i: 7 }, t: 1 } }] });
  return m;
}
const run = (p, statuses, { members = cluster(statuses), outputs = {}, ...opts } = {}) => runWith(stale, p,
  { statuses, ...opts, extra: { outputs, context: { members, mongos } } });

test('stop, roll past, start, log with 21126, RECOVERING: PASS with the evidence', async () => {
  const r = await run(params(), [set('SECONDARY'), set('SECONDARY'), set('down'), set('down'), set('RECOVERING')], { outputs: { logs: `some line\n${LINE_21126}\n` } });
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(r.asked.map((a) => a.split(' ').slice(0, 2).join(' ')), ['stop shard01-c', 'start shard01-c', 'logs shard01-c']);
  assert.match(r.asked[2], /^logs shard01-c \d{4}-\d\d-\d\dT[\d:.]+Z$/);
  assert.equal(r.summary.result, true);
  assert.equal(r.summary.complete, true);
  assert.match(r.summary.verdict, /^PASS: stale-secondary: shard01-c is RECOVERING and logged "Too stale to catch up" \(id 21126\)/);
  assert.equal(r.summary.evidence.too_stale, true);
  assert.equal(r.summary.evidence.info_message, 'Could not find member to sync from');
  assert.deepEqual(r.summary.evidence.optime_before_stop, { t: 1000, i: 7 });
  assert.deepEqual(r.summary.evidence.optime_bound, { t: 1000, i: 9 });
  assert.match(fs.readFileSync(path.join(r.dir, 'shard01-c.log'), 'utf8'), /"id":21126/);
  for (const f of ['step-optime-before-stop.json', 'step-optime.json', 'step-stale-past.json', 'step-stale-state.json', 'step-evidence.json']) assert.ok(fs.existsSync(path.join(r.dir, f)), f);
  assert.ok(r.lines.includes('recover shard01-c by initial sync: ./run.sh resync shard01-c --engine wiredtiger'), r.lines.join('\n'));
  assert.ok(r.lines.some((l) => /^load: stopped after [1-9]\d* documents, 0 failed batches$/.test(l)), r.lines.join('\n'));
});

test('the log is read again (settle-looks times) while it has no too-stale line, then FAIL', async () => {
  const r = await run(params(), [set('SECONDARY'), set('SECONDARY'), set('down'), set('RECOVERING')], { outputs: { logs: 'nothing yet\n' } });
  assert.equal(r.asked.filter((a) => a.startsWith('logs ')).length, 3);
  assert.equal(r.code, 1);
  assert.equal(r.summary.result, false);
  assert.match(r.summary.verdict, /^FAIL: stale-secondary: shard01-c is RECOVERING, too-stale log line NOT seen/);
});

test('the oplogs never roll past its optime: FAIL (not stale), the member still started', async () => {
  const statuses = [set('SECONDARY'), set('SECONDARY'), set('down'), set('SECONDARY')];
  const r = await run(params({ 'roll-seconds': '0' }), statuses, { members: cluster(statuses, { first: 500, selfState: 'SECONDARY' }) });
  assert.equal(r.code, 1);
  assert.ok(r.asked.includes('stop shard01-c') && r.asked.includes('start shard01-c'));
  assert.equal(r.summary.evidence.rolled_past, false);
  assert.match(r.summary.verdict, /^FAIL: stale-secondary: the healthy members' oplogs never rolled past shard01-c's last optime/);
});

test('an engine that keeps no data (engines.tsv keeps_data): initial sync is the expected outcome, said so', async () => {
  const statuses = [set('SECONDARY'), set('SECONDARY'), set('down'), set('SECONDARY')];
  const r = await run(params(), statuses, { engine: 'inmemory', members: cluster(statuses, { selfState: 'SECONDARY' }), outputs: { logs: '{"t":{"$date":"2026-11-21T08:00:00.000+00:00"},"s":"I","c":"INITSYNC","id":21164,"ctx":"ReplCoordExtern-0","msg":"Starting initial sync attempt","attr":{"attemptNumber":1}}\n' } });
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.match(r.summary.verdict, /^PASS: not applicable: stale-secondary on inmemory: shard01-c restarted with no data/);
  assert.equal(r.asked.filter((a) => a.startsWith('logs ')).length, 1, 'SECONDARY: no more looks');
});

test('SIGTERM while the oplogs roll: the stopped member is started again, summary complete:false, exit 130', async () => {
  const statuses = [set('SECONDARY'), set('SECONDARY'), set('down')];
  const r = await run(params({ 'roll-seconds': '30' }), statuses, { members: cluster(statuses, { first: 500 }), signalAfterMs: 1500 });
  assert.equal(r.code, 130, r.lines.join('\n'));
  assert.deepEqual(r.asked, ['stop shard01-c', 'start shard01-c']);
  assert.equal(r.summary.complete, false);
  assert.equal(r.summary.why, 'interrupted (SIGTERM)');
  assert.notEqual(r.summary.result, true);
  assert.equal(r.summary.evidence.member, 'shard01-c');
});

test('a member that is not a SECONDARY: exit 2, nothing stopped, no folder', async () => {
  const r = await run(params({ member: 'shard01-a' }), [set('SECONDARY')]);
  assert.equal(r.code, 2);
  assert.deepEqual(r.asked, []);
  assert.deepEqual(fs.readdirSync(r.root), []);
});

test('check and --dry-run: member and oplog size refused in one line; the plan asks stop, start, logs; inmemory explained', async () => {
  const env = { engine: tables.engine('wiredtiger'), shard: tables.shardSet() };
  assert.throws(() => stale.check(params({ member: 'mongos' }), env), /unknown member 'mongos'/);
  assert.throws(() => stale.check(params({ 'oplog-size-mb': 'tiny' }), env), /--oplog-size-mb must be a whole number >= 1 \(got 'tiny'\)/);
  const r = await run(params({ member: 'shard01-b' }), [set('SECONDARY')], { dryRun: true, engine: 'inmemory' });
  assert.equal(r.code, 0);
  assert.deepEqual(r.asked.map((a) => a.split(' ').slice(0, 2).join(' ')), ['stop shard01-b', 'start shard01-b', 'logs shard01-b']);
  assert.ok(r.lines.some((l) => l.includes('inmemory: a restarted member has no data at all, so it initial-syncs by itself')), r.lines.join('\n'));
  assert.ok(r.lines.some((l) => l.includes('./run.sh resync shard01-b --engine inmemory')));
  assert.deepEqual(fs.readdirSync(r.root), []);
});
