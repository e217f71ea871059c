'use strict';
// Unit tests of the fault scenarios' decisions against documents shaped like the real server's
// output. Source of every shape is cited above the fixture that copies it.
const test = require('node:test');
const assert = require('node:assert/strict');
const { Timestamp, BSON } = require('mongodb');

const { EJSON } = BSON;
const d = require('../../src/faults/decisions');
const v = require('../../src/faults/verdicts');

// replSetGetStatus from a primary, 4.4+ shape. Source: MongoDB manual "replSetGetStatus"
// (mongodb.com/docs/v6.0/reference/command/replSetGetStatus, example output: set, date, myState,
// term, heartbeatIntervalMillis, majorityVoteCount, writeMajorityCount, optimes.lastCommittedOpTime
// / lastCommittedWallTime, members[] with health, state, stateStr, optime {ts, t}, optimeDate).
// The unreachable member copies a 4.x rs.status() after `kill` of a member (public blog output:
// health 0, state 8, stateStr "(not reachable/healthy)", optime {ts: Timestamp(0, 0), t: -1},
// optimeDate ISODate("1970-01-01T00:00:00Z"), lastHeartbeatMessage "Connection refused",
// configVersion -1).
function statusDoc({ cLag = 0, bLag = 0, cDown = false, committedLag = 0, primaryName = 'shard01-a:27017' } = {}) {
  const now = Date.UTC(2026, 10, 21, 8, 0, 0);
  const at = (lagS) => ({ ts: new Timestamp({ t: (now - lagS * 1000) / 1000, i: 1 }), t: 3 });
  const member = (id, name, lagS, extra = {}) => ({
    _id: id,
    name,
    health: 1,
    state: name === primaryName ? 1 : 2,
    stateStr: name === primaryName ? 'PRIMARY' : 'SECONDARY',
    uptime: 600,
    optime: at(lagS),
    optimeDate: new Date(now - lagS * 1000),
    syncSourceHost: name === primaryName ? '' : primaryName,
    infoMessage: '',
    configVersion: 1,
    configTerm: 3,
    ...extra,
  });
  const down = {
    _id: 2,
    name: 'shard01-c:27017',
    health: 0,
    state: 8,
    stateStr: '(not reachable/healthy)',
    uptime: 0,
    optime: { ts: new Timestamp({ t: 0, i: 0 }), t: -1 },
    optimeDurable: { ts: new Timestamp({ t: 0, i: 0 }), t: -1 },
    optimeDate: new Date('1970-01-01T00:00:00Z'),
    optimeDurableDate: new Date('1970-01-01T00:00:00Z'),
    lastHeartbeatMessage: 'Connection refused',
    configVersion: -1,
  };
  return {
    set: 'shard01',
    date: new Date(now),
    myState: 1,
    term: 3,
    heartbeatIntervalMillis: 2000,
    majorityVoteCount: 2,
    writeMajorityCount: 2,
    votingMembersCount: 3,
    writableVotingMembersCount: 3,
    optimes: {
      lastCommittedOpTime: at(committedLag),
      lastCommittedWallTime: new Date(now - committedLag * 1000),
      appliedOpTime: at(0),
    },
    members: [
      member(0, 'shard01-a:27017', 0, { self: true }),
      member(1, 'shard01-b:27017', bLag),
      cDown ? down : member(2, 'shard01-c:27017', cLag),
    ],
    ok: 1,
  };
}

test('lag: primary optimeDate minus member optimeDate, in seconds', () => {
  const s = statusDoc({ cLag: 42 });
  assert.deepEqual(d.memberLag(s, 'shard01-c'), { member: 'shard01-c', state: 'SECONDARY', known: true, lagSeconds: 42 });
  assert.equal(d.memberLag(s, 'shard01-b:27017').lagSeconds, 0);
});

test('lag: an unreachable member (epoch-0 optimeDate, health 0) has unknown lag, not 56 years', () => {
  const l = d.memberLag(statusDoc({ cDown: true }), 'shard01-c');
  assert.equal(l.known, false);
  assert.equal(l.lagSeconds, null);
  assert.match(l.reason, /not reachable \(health 0, optimeDate 1970-01-01T00:00:00.000Z\)/);
  assert.equal(l.state, '(not reachable/healthy)');
});

test('lag: a member with an epoch-0 optimeDate is not reachable even when health says 1 (no position reported: STARTUP2, a fresh heartbeat)', () => {
  // The optimeDate alone must make it unknown: a check on health alone read 56 years of lag.
  const s = statusDoc({ cDown: true });
  s.members[2].health = 1;
  s.members[2].stateStr = 'STARTUP2';
  const l = d.memberLag(s, 'shard01-c');
  assert.equal(l.known, false);
  assert.equal(l.lagSeconds, null);
  assert.match(l.reason, /not reachable \(health 1, optimeDate 1970-01-01T00:00:00.000Z\)/);
  delete s.members[2].optimeDate;
  assert.equal(d.memberLag(s, 'shard01-c').known, false, 'no optimeDate at all: unknown too');
});

test('lag: no primary (election in progress) gives unknown lag with the reason', () => {
  const s = statusDoc({ cLag: 5 });
  s.members[0].stateStr = 'SECONDARY';
  s.members[0].state = 2;
  const l = d.memberLag(s, 'shard01-c');
  assert.equal(l.known, false);
  assert.match(l.reason, /no primary/);
});

test('lag: unknown member name is reported as such', () => {
  assert.equal(d.memberLag(statusDoc(), 'shard02-a').known, false);
});

test('lag: works on the Extended JSON form of the document too (mongosh --json / EJSON)', () => {
  const ej = EJSON.parse(EJSON.stringify(statusDoc({ cLag: 31 }), { relaxed: false }), { relaxed: true });
  // relaxed parse turns $date back into Date; exercise the {$date: ...} path explicitly as well
  const raw = JSON.parse(EJSON.stringify(statusDoc({ cLag: 31 }), { relaxed: true }));
  assert.equal(d.memberLag(ej, 'shard01-c').lagSeconds, 31);
  assert.equal(d.memberLag(raw, 'shard01-c').lagSeconds, 31);
});

test('pickStatusView: during a partition believe the majority side (higher term), not the cut-off old primary', () => {
  const old = statusDoc({ cLag: 0 }); // shard01-a sees itself PRIMARY in term 3
  const majority = statusDoc({ primaryName: 'shard01-b:27017' });
  majority.term = 4;
  majority.members[0].stateStr = '(not reachable/healthy)';
  majority.members[0].health = 0;
  majority.members[0].state = 8;
  const views = [{ from: 'shard01-a', status: old }, { from: 'shard01-b', status: majority }];
  assert.equal(d.pickStatusView(views).from, 'shard01-b');
  const noPrimary = statusDoc();
  noPrimary.members[0].stateStr = 'SECONDARY';
  noPrimary.members[0].state = 2;
  assert.equal(d.pickStatusView([{ from: 'shard01-c', status: noPrimary }]).from, 'shard01-c');
  assert.equal(d.pickStatusView([]), null);
});

test('memberStates: one entry per member with state and lag', () => {
  const st = d.memberStates(statusDoc({ cDown: true, bLag: 3 }));
  assert.deepEqual(Object.keys(st), ['shard01-a', 'shard01-b', 'shard01-c']);
  assert.equal(st['shard01-b'].lagSeconds, 3);
  assert.equal(st['shard01-c'].lagSeconds, null);
  assert.equal(st['shard01-c'].state, '(not reachable/healthy)');
});

// serverStatus().flowControl shape. Source: MongoDB manual "serverStatus" flowControl section and
// a public 2023 blog's db.serverStatus().flowControl output: {enabled: true, targetRateLimit:
// 1000000000, timeAcquiringMicros, locksPerKiloOp: 4, sustainerRate: 1000, isLagged: false,
// isLaggedCount: 19, isLaggedTimeMicros}. Default flowControlTargetLagSeconds is 10 (manual
// "Flow Control" / SERVER-112333).
const fcIdle = { enabled: true, targetRateLimit: 1000000000, timeAcquiringMicros: 134209790, locksPerKiloOp: 4,
  sustainerRate: 1000, isLagged: false, isLaggedCount: 19, isLaggedTimeMicros: 18991175 };

test('flow control: one lagging secondary of three keeps the majority current: not engaged', () => {
  const fc = d.interpretFlowControl({ flowControl: fcIdle, status: statusDoc({ cLag: 45, committedLag: 0 }) });
  assert.equal(fc.enabled, true);
  assert.equal(fc.isLagged, false);
  assert.deepEqual(fc.laggingSecondaries, ['shard01-c']);
  assert.equal(fc.expectEngaged, false);
  assert.equal(fc.majorityLagSeconds, 0);
  assert.match(fc.explanation, /not engaged: 1 lagging secondary/);
});

test('flow control: both secondaries lagging moves the commit point: engaged', () => {
  const s = statusDoc({ cLag: 45, bLag: 30, committedLag: 30 });
  const fc = d.interpretFlowControl({ flowControl: { ...fcIdle, isLagged: true, targetRateLimit: 250 }, status: s });
  assert.equal(fc.expectEngaged, true);
  assert.equal(fc.isLagged, true);
  assert.equal(fc.majorityLagSeconds, 30);
  assert.match(fc.explanation, /ENGAGED.*30 s > target 10 s.*targetRateLimit 250/);
  const pending = d.interpretFlowControl({ flowControl: fcIdle, status: s });
  assert.match(pending.explanation, /should engage/);
});

test('flow control: disabled is said plainly', () => {
  const fc = d.interpretFlowControl({ flowControl: { ...fcIdle, enabled: false }, status: statusDoc() });
  assert.match(fc.explanation, /disabled/);
});

// Oplog windows. Shapes: local.oplog.rs entries carry ts as a bson Timestamp (MongoDB manual
// "Replica Set Oplog"); db.getReplicationInfo() reports tFirst/tLast/timeDiff from the first and
// last entries (mongosh source, getReplicationInfo). The too-stale rule is sync_source_resolver.cpp
// (mongodb/mongo, log id 5579708): stale when lastOpTimeFetched.ts < remoteEarliestOpTime.ts.
test('Timestamp comparisons: seconds first, then increment, across all three shapes', () => {
  assert.ok(d.compareTs(new Timestamp({ t: 10, i: 5 }), { t: 10, i: 6 }) < 0);
  assert.ok(d.compareTs({ $timestamp: { t: 11, i: 0 } }, { t: 10, i: 999 }) > 0);
  assert.equal(d.compareTs({ ts: new Timestamp({ t: 7, i: 2 }), t: 1 }, { t: 7, i: 2 }), 0);
  // increments above 2^31 stay unsigned
  assert.ok(d.compareTs({ t: 1, i: 0x80000001 }, { t: 1, i: 2 }) > 0);
  assert.equal(d.tsString(new Timestamp({ t: 1790516087, i: 299 })), 'Timestamp(1790516087, 299)');
});

test('oplog window covers an optime when first <= optime', () => {
  const w = { member: 'shard01-a', first: new Timestamp({ t: 100, i: 3 }), last: new Timestamp({ t: 160, i: 1 }) };
  assert.equal(d.oplogCovers(w, { t: 100, i: 3 }), true); // the very entry is still there
  assert.equal(d.oplogCovers(w, { t: 120, i: 0 }), true);
  assert.equal(d.oplogCovers(w, { t: 100, i: 2 }), false); // one increment older: gone
  assert.equal(d.oplogCovers({ member: 'x' }, { t: 1, i: 1 }), null); // unknown: never guessed
  assert.equal(d.windowSeconds(w), 60);
});

test('rolledPast needs EVERY healthy member to have dropped the optime', () => {
  const stopped = { t: 1790516087, i: 299 }; // numbers from a real 8.0 run's 21126 line (below)
  const a = { member: 'shard01-a', first: { t: 1790516088, i: 64 }, last: { t: 1790516140, i: 1 } };
  const bStill = { member: 'shard01-b', first: { t: 1790516080, i: 1 }, last: { t: 1790516140, i: 1 } };
  const bPast = { member: 'shard01-b', first: { t: 1790516088, i: 64 }, last: { t: 1790516140, i: 1 } };
  assert.equal(d.rolledPast([a, bStill], stopped), false);
  assert.equal(d.rolledPast([a, bPast], stopped), true);
  assert.equal(d.rolledPast([a, { member: 'shard01-b' }], stopped), null);
  assert.equal(d.rolledPast([], stopped), null);
});

// Log lines. Source of the JSON shapes: mongodb/mongo src/mongo/db/repl/bgsync.cpp LOGV2_ERROR(21126,
// "Too stale to catch up. Entering maintenance mode. See http://dochub...", lastOpTimeFetched,
// earliestOpTimeSeen) and src/mongo/db/repl/sync_source_resolver.cpp LOGV2(5579708, "We are too stale
// to use candidate as a sync source...", candidate, lastOpTimeFetchedTimestamp,
// remoteEarliestOpTimeTimestamp, denylistDuration, denylistUntil); attribute values as printed by an
// 8.0 mongod in a public write-up of the same experiment (oplogSize 1, a stopped member).
const line21126 = '{"t":{"$date":"2026-09-27T13:35:46.953+00:00"},"s":"E","c":"REPL","id":21126,"ctx":"BackgroundSync","msg":"Too stale to catch up. Entering maintenance mode. See http://dochub.mongodb.org/core/resyncingaverystalereplicasetmember","attr":{"lastOpTimeFetched":{"ts":{"$timestamp":{"t":1790516087,"i":299}},"t":1},"earliestOpTimeSeen":{"ts":{"$timestamp":{"t":1790516088,"i":64}},"t":1}}}';
const line5579708 = '{"t":{"$date":"2026-09-27T13:35:46.953+00:00"},"s":"I","c":"REPL","id":5579708,"ctx":"ReplCoordExtern-0","msg":"We are too stale to use candidate as a sync source. Denylisting this sync source because our last fetched timestamp is before their earliest timestamp","attr":{"candidate":"shard01-b:27017","lastOpTimeFetchedTimestamp":{"$timestamp":{"t":1790516087,"i":299}},"remoteEarliestOpTimeTimestamp":{"$timestamp":{"t":1790516088,"i":64}},"denylistDurationMinutes":1,"denylistUntil":{"$date":"2026-09-27T13:36:46.953Z"}}}';
// seeds/004 (2013, MongoDB 2.4 text log)
const lineRS102 = 'Thu Aug 22 12:20:26.441 [rsBackgroundSync] replSet error RS102 too stale to catch up';

test('too-stale detection: JSON id 21126 with its optimes', () => {
  const p = d.parseLogLine(line21126);
  assert.equal(p.kind, 'too-stale');
  assert.equal(p.id, 21126);
  assert.deepEqual(p.lastOpTimeFetched, { t: 1790516087, i: 299 });
  assert.deepEqual(p.earliestOpTimeSeen, { t: 1790516088, i: 64 });
  assert.equal(p.at, '2026-09-27T13:35:46.953Z');
  // the two optimes themselves prove staleness by the server's own rule
  assert.equal(d.oplogCovers({ first: p.earliestOpTimeSeen }, p.lastOpTimeFetched), false);
});

test('too-stale detection: id 5579708 names the rejected candidate', () => {
  const p = d.parseLogLine(`shard01-c-1  | ${line5579708}`); // docker compose logs prefix
  assert.equal(p.kind, 'too-stale-candidate');
  assert.equal(p.candidate, 'shard01-b:27017');
  assert.deepEqual(p.earliestOpTimeSeen, { t: 1790516088, i: 64 });
});

test('too-stale detection: the 2.4-era RS102 text line (seeds/004)', () => {
  const p = d.parseLogLine(lineRS102);
  assert.equal(p.kind, 'too-stale');
  assert.equal(p.legacy, true);
});

test('too-stale detection: the 3.6/4.0 text line (mmapv1 and rocksdb engines)', () => {
  const p = d.parseLogLine('2026-11-23T01:00:00.000+0000 E REPL     [rsBackgroundSync] too stale to catch up -- entering maintenance mode');
  assert.equal(p.kind, 'too-stale');
  assert.equal(p.legacy, true);
  assert.equal(d.parseLogLine('2026-11-23T01:00:00.000+0000 I REPL     [rsBackgroundSync] Our newest OpTime : { ts: Timestamp(1, 1), t: 1 }'), null);
});

test('too-stale detection ignores other lines and reports initial sync', () => {
  const other = '{"t":{"$date":"2026-09-27T13:35:46.952+00:00"},"s":"W","c":"REPL","id":5579700,"ctx":"BackgroundSync","msg":"Oplog fetcher discovered we are too stale to sync from sync source. Denylisting sync source","attr":{"syncSource":"shard01-a:27017","denylistDurationMillis":60000}}';
  const init = '{"t":{"$date":"2026-09-27T13:35:52.950+00:00"},"s":"I","c":"INITSYNC","id":21164,"ctx":"ReplCoordExtern-1","msg":"Starting initial sync attempt","attr":{"initialSyncAttempt":1,"initialSyncMaxAttempts":10}}';
  assert.equal(d.parseLogLine(other), null);
  assert.equal(d.parseLogLine('not json at all'), null);
  assert.equal(d.parseLogLine('{"t": broken'), null);
  const ev = d.tooStaleEvidence([other, line5579708, line21126, 'x']);
  assert.equal(ev.tooStale, true);
  assert.equal(ev.candidateRejected, true);
  assert.equal(ev.lines.length, 2);
  const evInit = d.tooStaleEvidence([init]);
  assert.equal(evInit.tooStale, false);
  assert.equal(evInit.initialSync, true);
});

// Jepsen set checker. Source: jepsen-io/jepsen jepsen/src/jepsen/checker.clj `set`: lost = adds −
// final-read; unexpected = final-read − attempts; recovered = ok − adds; valid? = no lost and no
// unexpected; :ok printed with util/integer-interval-set-str ("#{0..53 55..56 58..59 61..146}").
test('set checker: every id classified ok / lost / unexpected / recovered', () => {
  const outcomes = new Map([
    [0, 'ok'], [1, 'ok'], [2, 'ok'], [3, 'ok'], // acknowledged
    [4, 'info'], [5, 'info'], // indeterminate: 4 present (recovered), 5 absent
    [6, 'fail'], // definite failure, absent: fine
    [7, 'ok'], // acknowledged, absent: LOST
  ]);
  const r = d.checkSet(outcomes, [0, 1, 2, 3, 4, 99]);
  assert.equal(r.valid, false);
  assert.deepEqual(r.lost, [7]);
  assert.deepEqual(r.unexpected, [99]);
  assert.deepEqual(r.recovered, [4]);
  assert.equal(r.ok, '#{0..4}');
  assert.equal(r.attemptCount, 8);
  assert.equal(r.acknowledgedCount, 5);
  assert.equal(r.indeterminateCount, 2);
  assert.equal(r.failedCount, 1);
  assert.deepEqual(r.failedButPresent, []);
});

test('set checker: all acknowledged and present is valid; a present definite failure is flagged', () => {
  const r = d.checkSet({ 0: 'ok', 1: 'ok', 2: 'fail' }, [0, 1, 2]);
  assert.equal(r.valid, true);
  assert.deepEqual(r.recovered, [2]);
  assert.deepEqual(r.failedButPresent, [2]);
  assert.throws(() => d.checkSet({ 0: 'maybe' }, []), /unknown outcome/);
});

test('interval set string like Jepsen', () => {
  assert.equal(d.intervalSetString([0, 1, 2, 5, 7, 8, 8]), '#{0..2 5 7..8}');
  assert.equal(d.intervalSetString([]), '#{}');
});

// Error classes: the Node driver's MongoServerSelectionError / MongoNetworkError /
// MongoWriteConcernError (mongodb package API docs); server codes from the manual's error codes
// list: NotWritablePrimary 10107, InterruptedDueToReplStateChange 11602.
test('write error classification: only "certainly not applied" is a failure', () => {
  assert.equal(d.classifyWriteError(null), 'ok');
  assert.equal(d.classifyWriteError({ name: 'MongoServerSelectionError' }), 'fail');
  assert.equal(d.classifyWriteError({ name: 'MongoServerError', code: 10107 }), 'fail');
  assert.equal(d.classifyWriteError({ name: 'MongoServerError', code: 133 }), 'fail'); // mongos: no primary to target
  assert.equal(d.classifyWriteError({ name: 'MongoNetworkError' }), 'info');
  assert.equal(d.classifyWriteError({ name: 'MongoNetworkTimeoutError' }), 'info');
  assert.equal(d.classifyWriteError({ name: 'MongoServerError', code: 11602 }), 'info');
  assert.equal(d.classifyWriteError({ name: 'MongoWriteConcernError', code: 64 }), 'info');
  assert.equal(d.classifyWriteError({ name: 'MongoBulkWriteError', code: 10107, writeConcernError: { code: 64 } }), 'info');
});

test('durations', () => {
  assert.equal(d.parseDuration('30s'), 30);
  assert.equal(d.parseDuration('2m'), 120);
  assert.equal(d.parseDuration('45'), 45);
  assert.equal(d.parseDuration('500ms'), 0.5);
  assert.equal(d.parseDuration('soon'), null);
});

test('verdicts: replica-lag', () => {
  const ok = v.replicaLagVerdict({ member: 'shard01-c', method: 'failpoint', thresholdSeconds: 30, peakLagSeconds: 33, healedLagSeconds: 0 });
  assert.equal(ok.pass, true);
  assert.match(ok.verdict, /^PASS: replica-lag shard01-c via failpoint: peak lag 33.0 s/);
  assert.equal(v.replicaLagVerdict({ member: 'm', method: 'netem', thresholdSeconds: 30, peakLagSeconds: 12, healedLagSeconds: 0 }).pass, false);
  assert.match(v.replicaLagVerdict({ member: 'm', method: 'fsync', thresholdSeconds: 30, peakLagSeconds: 31, healedLagSeconds: 0, flowControlEngaged: true }).verdict, /flow control ENGAGED/);
  assert.equal(v.replicaLagVerdict({ member: 'm', method: 'netem', thresholdSeconds: 30, peakLagSeconds: 40, healedLagSeconds: 5 }).pass, false);
});

test('verdicts: stale-secondary on wiredtiger and inmemory', () => {
  const ev = d.tooStaleEvidence([line21126]);
  assert.equal(v.staleSecondaryVerdict({ engine: 'wiredtiger', member: 'shard01-c', finalState: 'RECOVERING', evidence: ev, rolledPast: true }).pass, true);
  assert.equal(v.staleSecondaryVerdict({ engine: 'wiredtiger', member: 'shard01-c', finalState: 'SECONDARY', evidence: { tooStale: false }, rolledPast: true }).pass, false);
  assert.equal(v.staleSecondaryVerdict({ engine: 'wiredtiger', member: 'shard01-c', finalState: 'RECOVERING', evidence: ev, rolledPast: false }).pass, false);
  const im = v.staleSecondaryVerdict({ engine: 'inmemory', member: 'shard01-c', finalState: 'SECONDARY', evidence: { initialSync: true }, keepsData: false });
  assert.equal(im.pass, true);
  assert.match(im.verdict, /not applicable.*no data.*Starting initial sync attempt/);
});

test('verdicts: failover', () => {
  const clean = d.checkSet({ 0: 'ok', 1: 'info' }, [0]);
  assert.equal(v.failoverVerdict({ w: 'majority', check: clean }).pass, true);
  const lossy = d.checkSet({ 0: 'ok', 1: 'ok' }, [0]);
  assert.equal(v.failoverVerdict({ w: 'majority', check: lossy }).pass, false);
  const w1 = v.failoverVerdict({ w: 1, check: lossy, oldPrimary: 'shard01-a', rollbackFiles: ['/data/db/rollback/uuid/removed.2026-11-21T08-00-00.0.bson'] });
  assert.equal(w1.pass, true);
  assert.match(w1.verdict, /lost ids 1 .*rollback files on shard01-a: \/data\/db\/rollback\/uuid\/removed/);
  const im = v.failoverVerdict({ w: 1, check: lossy, oldPrimary: 'shard01-a', rollbackFiles: [], keepsData: false, how: 'kill' });
  assert.match(im.verdict, /restarted empty and initial-synced/);
});

test('verdicts: failover needs an observed new primary; without one clean is unknown, a loss still false', () => {
  const clean = d.checkSet({ 0: 'ok', 1: 'info' }, [0]);
  const lossy = d.checkSet({ 0: 'ok', 1: 'ok' }, [0]);
  const none = { observed: false, primariesSeen: ['shard01-a'] };
  const m = v.failoverVerdict({ w: 'majority', check: clean, failover: none });
  assert.equal(m.result, 'unknown');
  assert.equal(m.pass, false);
  assert.match(m.verdict, /^UNKNOWN: .*NO failover observed \(primaries seen: shard01-a\)/);
  assert.equal(v.failoverVerdict({ w: 'majority', check: lossy, failover: none }).result, false);
  assert.equal(v.failoverVerdict({ w: 1, check: lossy, failover: none }).result, 'unknown');
  const yes = v.failoverVerdict({ w: 'majority', check: clean, failover: { observed: true, newPrimary: 'shard01-b' } });
  assert.equal(yes.result, true);
  assert.match(yes.verdict, /new primary shard01-b/);
});
