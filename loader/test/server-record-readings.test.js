'use strict';
// The loader's reading of each server line, checked against recorded outputs and against the
// server's own definitions, one rule per test so that a wrong reading fails by name:
//  - a recorded 4.2.8 primary (percona/mongodb_exporter's test data, support/recorded/) read
//    through fields.js gives exactly the recorded values, section by section;
//  - the 8.0 ticket path (queues.execution.<read|write>.<out|available>);
//  - a counter that did not move is a rate of 0, not a restart;
//  - a line's interval_s is the seconds between the member's two readings;
//  - lag is the primary's view wherever the line says "seen by primary";
//  - a file size of 0 is no size.
const test = require('node:test');
const assert = require('node:assert/strict');
const { Timestamp } = require('mongodb');
const { FIELDS, read } = require('../src/server-record/fields');
const { readStatus, lineValues } = require('../src/server-record/delta');
const { ServerRecord } = require('../src/server-record/sampler');
const { replOf } = require('../src/server-record/repl');
const footprint = require('../src/server/footprint');

const { recorded } = require('./support/recorded');

test('a recorded 4.2.8 WiredTiger primary: every field the map names is read with the recorded value', () => {
  const rec = recorded('mongod-4.2.8-wiredtiger-primary.json');
  const s = rec.serverStatus;
  const { values } = readStatus(s);
  const expect = {
    'ops.insert': s.opcounters.insert, 'ops.update': s.opcounters.update, 'ops.command': s.opcounters.command,
    'repl_ops.insert': s.opcountersRepl.insert,
    'latency.writes_us': s.opLatencies.writes.latency, 'latency.writes_ops': s.opLatencies.writes.ops,
    'wt.cache_bytes': s.wiredTiger.cache['bytes currently in the cache'],
    'wt.cache_dirty_bytes': s.wiredTiger.cache['tracked dirty bytes in the cache'],
    'wt.cache_max_bytes': s.wiredTiger.cache['maximum bytes configured'],
    'wt.app_evicted_pages': s.wiredTiger.cache['pages evicted by application threads'],
    'wt.checkpoint_running': 0,
    'wt.checkpoint_last_ms': s.wiredTiger.transaction['transaction checkpoint most recent time (msecs)'],
    'wt.checkpoints': s.wiredTiger.transaction['transaction checkpoints'],
    'wt.block_written_bytes': s.wiredTiger['block-manager']['bytes written'],
    'wt.log_written_bytes': s.wiredTiger.log['log bytes written'],
    'tickets.read_available': s.wiredTiger.concurrentTransactions.read.available,
    'tickets.write_out': s.wiredTiger.concurrentTransactions.write.out,
    'flow.is_lagged': 0, 'flow.time_acquiring_us': s.flowControl.timeAcquiringMicros,
    'proc.cpu_user_us': s.extra_info.user_time_us, 'proc.cpu_system_us': s.extra_info.system_time_us, 'proc.page_faults': s.extra_info.page_faults,
    'net.bytes_in': s.network.bytesIn,
  };
  for (const [k, v] of Object.entries(expect)) assert.equal(values[k], v, `${k}: read ${values[k]}, recorded ${v}`);
  // Nothing read that the recording does not have (no MMAPv1, MongoRocks or 8.0 queues).
  for (const k of Object.keys(values)) assert.ok(!/^(mmapv1|rocks)\./.test(k), k);
  // Its replSetGetStatus: optimeDate in whole seconds, no member wall times (4.4+), so the lag is
  // the heartbeat optime's, with its floor; its oplog (size 1865616 of maxSize 16777216) is not full.
  const st = rec.replSetGetStatus;
  for (const m of st.members) assert.equal(m.optimeDate.getTime() % 1000, 0);
  assert.equal(st.heartbeatIntervalMillis, 2000);
  const view = replOf(st, st.members[0].name);
  for (const m of st.members.filter((x) => x.stateStr === 'SECONDARY')) assert.deepEqual(view.lagOf(m.name), { lagSeconds: 0, source: 'optimeDate', floor_s: 2 });
  const { FULL_AT } = require('../src/server-record/repl');
  assert.ok(rec.oplogStats.size < FULL_AT * rec.oplogStats.maxSize, 'a 16 MB oplog holding 1.9 MB is not full');
});

test('8.0 tickets: queues.execution.<read|write>.<out|available> (8.0 queues_server_status_section.cpp, ticketholder.cpp)', () => {
  // The 8.0 section's shape as its source builds it: execution.{read,write} each
  // { out, available, totalTickets, ... } (the literal paths monitoring tools read on 8.0).
  const status = { queues: { execution: { read: { out: 3, available: 125, totalTickets: 128 },
    write: { out: 7, available: 121, totalTickets: 128 } } } };
  const { values } = readStatus(status);
  assert.deepEqual([values['tickets.read_out'], values['tickets.read_available'], values['tickets.write_out'], values['tickets.write_available']], [3, 125, 7, 121]);
  for (const f of FIELDS.filter((x) => x.key.startsWith('tickets.'))) assert.ok(read(f, status), `${f.key} read on 8.0`);
});

test('a counter that did not move is a rate of 0 that second, not a restart', () => {
  const s = (n) => ({ opcounters: { insert: n, query: 5 }, wiredTiger: { 'block-manager': { 'bytes written': 4096 } } });
  const a = { at: 0, ...readStatus(s(10)) };
  const b = { at: 1000, ...readStatus(s(10)) };
  const v = lineValues(a, b);
  assert.deepEqual(v.gaps, []);
  assert.equal(v.fields.ops.insert, 0);
  assert.equal(v.fields.ops.query, 0);
  assert.equal(v.fields.wt.block_written_bytes, 0);
});

// A ServerRecord with no members of its own: writeLine is fed readings by hand (options: its
// clock and interval).
function bareRecord(options = {}) {
  const out = [];
  const rec = new ServerRecord({ conn: { uri: 'mongodb://127.0.0.1:1' }, description: null, seedHosts: [], out: { write: (l) => out.push(l) }, log: () => {},
    ...options });
  return { rec, out };
}
// a member as addMember makes one, without its client's connection (close does nothing)
const handMember = (host) => ({ host, role: 'standalone', set: null, prev: null, reported: new Set(), lines: 0, missed: 0,
  client: { close: async () => {} } });

test("interval_s is the seconds between a member's two readings; a step's totals are rates x that", () => {
  const { rec, out } = bareRecord();
  const m = { host: 'a:1', role: 'standalone', set: null, prev: null, reported: new Set(), lines: 0 };
  const status = (n) => ({ opcounters: { insert: n } });
  rec.writeLine(m, { at: 10000, status: status(0) }, null, 10000);
  rec.writeLine(m, { at: 11000, status: status(100) }, null, 11000);
  rec.writeLine(m, { at: 13500, status: status(600) }, null, 13500);
  assert.deepEqual(out.map((l) => l.interval_s), [null, 1, 2.5]);
  const { stepFacts } = require('../src/server-record/step-facts');
  assert.equal(stepFacts(rec.series, 10000, 13500).write_cost.docs_written, 600, 'the documents the server counted, over the step');
});

// A tick whose timer fired a whole interval late (a saturated host) leaves that interval without a
// line for every member: it is a missed second in summary.json, not a hole nothing declares.
test('an interval a late tick skipped is a missed second for every member', async () => {
  let clock = 0;
  const { rec } = bareRecord({ now: () => clock });
  rec.members.push(handMember('a:1'), handMember('b:1'));
  rec.sampleMember = async () => ({ at: clock, status: { opcounters: { insert: 0 } } });
  rec.startedAt = 0;
  // Ticks due at 1 s, 2 s, 3 s, 4 s, 5 s: the one due at 3 s fired 0.6 s late (its own interval
  // still), the one due at 4 s fired 1.1 s late (in the 5 s interval), so 4 s has no line.
  for (const t of [1000, 2000, 3600, 5100, 6000]) { clock = t; await rec.sweep(); }
  assert.deepEqual(rec.summary().members.map((m) => [m.lines, m.missed_s]), [[5, 1], [5, 1]]);
});

// A killed member's next command fails only when server selection gives up (2 s), after the
// 900 ms its second allows: the failure is still said, once, and its answering again too.
test('a member whose failure comes after its second was given up: "did not answer" is still said', async () => {
  const said = [];
  const { rec } = bareRecord({ log: (l) => said.push(l) });
  rec.members.push({ ...handMember('a:1'), busy: false, failing: null });
  let fail = true;
  rec.readMember = () => new Promise((resolve, reject) => setTimeout(() => (fail
    ? reject(Object.assign(new Error('Server selection timed out after 2000 ms'), { name: 'MongoServerSelectionError' }))
    : resolve({ at: Date.now(), status: { opcounters: { insert: 0 } } })), 1200));
  assert.equal(await rec.sampleMember(rec.members[0]), null, 'the second is given up at 900 ms');
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual(said, ['server record: a:1 did not answer (MongoServerSelectionError: Server selection timed out after 2000 ms); its seconds are absent until it answers']);
  fail = false;
  await rec.sampleMember(rec.members[0]);
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual(said.slice(1), ['server record: a:1 answers again']);
});

// stop() closes the members' clients, and the driver fails a command still out as closed: a member
// that hung keeps its own failure as last_error, not the close, and nothing is said after the stop.
test('a command the record\'s own stop ends: not the member\'s failure, nothing said after the stop', async () => {
  const said = [];
  const { rec } = bareRecord({ log: (l) => said.push(l) });
  let closeIt;
  const member = { ...handMember('a:1'), busy: false, failing: 'MongoNetworkTimeoutError: connection timed out',
    client: { close: async () => closeIt() } };
  rec.members.push(member);
  rec.readMember = () => new Promise((resolve, reject) => {
    closeIt = () => reject(Object.assign(new Error('Operation interrupted because client was closed'), { name: 'MongoClientClosedError' }));
  });
  assert.equal(await rec.sampleMember(member), null, 'the second is given up at 900 ms');
  await rec.stop();
  await new Promise((r) => setImmediate(r));
  assert.equal(rec.summary().members[0].last_error, 'MongoNetworkTimeoutError: connection timed out');
  assert.deepEqual(said, []);
});

// A timer may fire a little before its time by the wall clock: that tick still belongs to its own
// interval, so no interval holds two lines (one of them a rate over a millisecond) and none is empty.
test('a timer that fires early waits for its tick: one line per interval', async () => {
  let calls = 0; // every other reading of the clock is 5 ms behind, as a timer firing early sees it
  const { rec, out } = bareRecord({ intervalMs: 100, now: () => Date.now() - (calls++ % 2 ? 5 : 0) });
  rec.members.push(handMember('a:1'));
  rec.sampleMember = async () => ({ at: rec.now(), status: { opcounters: { insert: 0 } } });
  rec.start();
  await new Promise((r) => setTimeout(r, 650));
  await rec.stop();
  // The interval of each line by its own time (t), the reading that found its tick due: a reading
  // taken apart from it, on this clock, fell 5 ms before its tick on a busy host (slots 6 and 6).
  const slots = out.map((l) => Math.floor((Date.parse(l.t) - rec.startedAt) / 100));
  assert.ok(slots.length >= 4, `ticks: ${slots}`);
  assert.equal(new Set(slots).size, slots.length, `one tick per interval: ${slots}`);
});

test('lag labelled "seen by primary" is the primary\'s view of that secondary, not its own', () => {
  const { rec, out } = bareRecord();
  const t = Date.UTC(2026, 0, 1, 12, 0, 10);
  const member = (name, state, at, self) => ({ name, stateStr: state,
    optime: { ts: new Timestamp({ t: Math.floor(at / 1000), i: 1 }), t: 1 },
    optimeDate: new Date(Math.floor(at / 1000) * 1000), ...(self ? { self: true } : {}) });
  // The primary sees b 7 s behind; b, from its last heartbeat of the primary, thinks itself 1 s behind.
  const primaryStatus = { members: [member('a:1', 'PRIMARY', t, true), member('b:1', 'SECONDARY', t - 7000)] };
  const ownStatus = { members: [member('a:1', 'PRIMARY', t - 6000), member('b:1', 'SECONDARY', t - 7000, true)] };
  const primary = { repl: replOf(primaryStatus, 'a:1') };
  const m = { host: 'b:1', role: 'shard', set: 'rs', prev: null, reported: new Set(), lines: 0 };
  rec.writeLine(m, { at: t, status: null, repl: replOf(ownStatus, 'b:1') }, primary, t);
  assert.equal(out[0].repl.lag_seen_by, 'primary');
  assert.equal(out[0].repl.lag_s, 7);
  // With no primary answering, the member's own view, said so.
  rec.writeLine(m, { at: t, status: null, repl: replOf(ownStatus, 'b:1') }, null, t);
  assert.equal(out[1].repl.lag_s, 1);
  assert.match(out[1].repl.lag_seen_by, /itself/);
});

test('footprint: a file size of 0 (a line without data files) is no size, and says so', async () => {
  const docs = [{ _id: 1, x: 'abc' }, { _id: 2, x: 'defg' }];
  const fake = (dbStats) => ({
    db: () => ({
      command: async (cmd) => {
        if (cmd.collStats) return { ok: 1, count: 2, size: 60, storageSize: 4096, totalIndexSize: 4096 };
        if (cmd.dbStats) return { ok: 1, ...dbStats };
        throw new Error('unexpected');
      },
      collection: () => ({
        find: () => ({ toArray: async () => docs, [Symbol.asyncIterator]: async function* () { yield* docs; } }),
        aggregate: () => ({ toArray: async () => docs }),
      }),
    }),
  });
  const zero = await footprint.measure(fake({ fileSize: 0 }), { database: 'lab', collection: 'c' }, 'end');
  assert.equal(zero.file_bytes, null);
  assert.ok(zero.not_reported.some((n) => /fileSize/.test(n)), JSON.stringify(zero));
  const some = await footprint.measure(fake({ fileSize: 201326592 }), { database: 'lab', collection: 'c' }, 'end');
  assert.equal(some.file_bytes, 201326592);
});

test('3.6/4.0 opcounters wrap together past 2^30 (counters.cpp _checkWrap): said as a wrap, not a restart', () => {
  const s = (insert, query) => ({ opcounters: { insert, query, update: 5, delete: 0, getmore: 0, command: 9 },
    extra_info: { page_faults: 3 } });
  const a = { at: 0, ...readStatus(s(2 ** 30 + 10, 500)) };
  const b = { at: 1000, ...readStatus(s(40, 3)) };
  const v = lineValues(a, b);
  assert.equal(v.fields.ops, undefined, 'no opcounter rate the second of the wrap');
  assert.equal(v.fields.proc.page_faults, 0, 'other counters go on');
  assert.deepEqual(v.gaps, ['opcounters wrapped (3.6/4.0 set all six to 0 when one passes 2^30): their rates are left out this second']);
  // Below 2^30 a fall is still a restart.
  const c = lineValues({ at: 0, ...readStatus(s(5000, 500)) }, b);
  assert.match(c.gaps[0], /went down \(the process restarted\?\)/);
});
