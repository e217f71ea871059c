'use strict';
// The server's side of each line, as the wire shim (wire-shim.js) plays it: serverStatus sections
// whose counters move with the operations that pass through the shim, replSetGetStatus, the
// oplog's first and last entry and its collStats, and collStats/dbStats per engine. Kept apart
// from server-lines.js (its behaviours table) so that each grows on its own; the field names and
// where they were read are in loader/src/server-record/fields.js, and what each engine's figures
// mean in common/meanings.js, which the sizes below follow (server-record-meanings.test.js checks
// the two against each other). The semantics follow recorded servers, each cited where it is played:
//   8.0 WiredTiger  opcounters, opcountersRepl, opLatencies, wiredTiger{cache, checkpoint,
//                   block-manager, log}, queues.execution, globalLock.currentQueue, flowControl,
//                   extra_info{page_faults, user_time_us, system_time_us}, network
//   8.0 inMemory    `inMemory` in place of `wiredTiger`, without log (no journal); its block
//                   manager writes about nothing, and it never checkpoints (Percona
//                   inmemory_init.cpp opens WiredTiger with checkpoint=(wait=0); WiredTiger refuses
//                   checkpoints in memory) nor makes application threads evict for dirty pages
//   4.0 MMAPv1      no wiredTiger, queues or flowControl (4.2+); backgroundFlushing; dur as the
//                   last 3 s window (dur.cpp DurStatsResetIntervalMillis); extra_info without CPU
//   3.6 MongoRocks  rocksdb{ properties as strings, counters (every RocksDB ticker: wal-bytes,
//                   stall-micros, ...), concurrentTransactions }; compaction-pending '1' while
//                   writes go on (its normal state under load); no flowControl; no extra_info CPU
// replSetGetStatus: optimeDate is the whole seconds of the optime; another member's optime is as
// of the last heartbeat (every 2 s: heartbeatIntervalMillis 2000); 4.4+ lines add
// lastAppliedWallTime to the millisecond (8.0 topology_coordinator.cpp prepareStatusResponse;
// recorded 4.2.8 replSetGetStatus, support/recorded/, has optimeDate in whole seconds and no
// member wall times). The oplog begins at the set's initiate (the shim's start) and is full only
// when a test fills it (fillOplog), as a fresh lab set is.
// Every rate here is a stand-in that moves with the traffic (so a test can see a rate follow the
// operations); none is a measurement of any engine.

const WRITE = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify']);
const READ = new Set(['find', 'aggregate', 'count', 'distinct']);

// counters(state, role): the member's running totals (created on first use).
function counters(state, role) {
  state.server ||= { members: {}, startedAt: Date.now(), lastWriteAt: Date.now(), held: {}, down: new Set() };
  const all = state.server.members;
  all[role] ||= { insert: 0, query: 0, update: 0, delete: 0, getmore: 0, command: 0,
    replInsert: 0, replUpdate: 0, replDelete: 0,
    readUs: 0, reads: 0, writeUs: 0, writes: 0, cmdUs: 0, cmds: 0, bytesIn: 0, bytesOut: 0, written: 0, read: 0 };
  return all[role];
}

// count(state, role, cmd, bytes, members): one command through member `role`'s port; a write on
// the primary (role 0) is also applied by every secondary (opcountersRepl, bytes written).
function count(state, role, cmd, bytes, members) {
  const c = counters(state, role);
  c.bytesIn += bytes;
  c.bytesOut += 200;
  const name = cmd.name;
  const docs = Array.isArray(cmd.body.documents) ? cmd.body.documents.length
    : Array.isArray(cmd.body.updates) ? cmd.body.updates.length
    : Array.isArray(cmd.body.deletes) ? cmd.body.deletes.length : 1;
  if (WRITE.has(name)) {
    const k = name === 'insert' ? 'insert' : name === 'delete' ? 'delete' : 'update';
    c[k] += docs; c.writes += 1; c.writeUs += 300; c.written += bytes * 3;
    state.server.lastWriteAt = Date.now();
    for (let r = 0; r < members; r++) {
      if (r === role) continue;
      const s = counters(state, r);
      s[`repl${k[0].toUpperCase()}${k.slice(1)}`] += docs;
      s.written += bytes * 3;
    }
  } else if (READ.has(name)) {
    c.query += 1; c.reads += 1; c.readUs += 200; c.read += 4096;
  } else if (name === 'getMore') {
    c.getmore += 1; c.reads += 1; c.readUs += 100;
  } else {
    c.command += 1; c.cmds += 1; c.cmdUs += 50;
  }
}

const ops = (c) => ({ insert: c.insert, query: c.query, update: c.update, delete: c.delete, getmore: c.getmore,
  command: c.command });
const lat = (c) => ({ reads: { latency: c.readUs, ops: c.reads }, writes: { latency: c.writeUs, ops: c.writes },
  commands: { latency: c.cmdUs, ops: c.cmds } });
const common = (c) => ({
  opcounters: ops(c),
  opcountersRepl: { insert: c.replInsert, query: 0, update: c.replUpdate, delete: c.replDelete,
    getmore: 0, command: 0 },
  opLatencies: lat(c),
  globalLock: { currentQueue: { total: 0, readers: 0, writers: 0 },
    activeClients: { total: 0, readers: 0, writers: 0 } },
  network: { bytesIn: c.bytesIn, bytesOut: c.bytesOut, numRequests: c.cmds + c.reads + c.writes },
});
const tickets = (c) => ({ read: { out: 0, available: 128, totalTickets: 128 },
  write: { out: c.writes % 2, available: 128 - (c.writes % 2), totalTickets: 128 } });
// quiet: a stall variant's line or the steady one (server-lines.js VARIANTS), whose serverStatus
// has no event but the one it plays: no application-thread eviction moving with the writes.
const wtCache = (c, quiet) => ({
  'bytes currently in the cache': 1048576 + c.written, 'tracked dirty bytes in the cache': c.written % 65536,
  'maximum bytes configured': 268435456, 'pages evicted by application threads': quiet ? 0 : Math.floor(c.written / 1e6),
});
const checkpoint = (c, sinceS, state) => {
  // A line variant whose checkpoint holds writes (server-lines.js VARIANTS): the checkpoint runs
  // while the hold lasts, and is counted once it has ended.
  const now = Date.now();
  const held = stallAt(state, now);
  const periodic = state.stalls && state.stalls.everyMs && state.stalls.checkpoint;
  return {
    'progress state': held && held.checkpoint ? 1 : 0,
    'most recent time (msecs)': 12,
    // the base line: one checkpoint a minute (WiredTiger's default 60 s), none of which stalls.
    'total succeed number of checkpoints': (periodic ? 0 : Math.floor(sinceS / 60)) + (state.stalls ? stallsEnded(state, now, true) : 0),
  };
};

// Stall windows: the periodic ones of a line variant, { everyMs, holdMs, checkpoint },
// counted from state.stalls.origin, each holding the last holdMs of its period; and one-off
// holds a test asked for (shim.holdWrites). stallAt(state, now) -> { from, to, checkpoint } | null.
function stallAt(state, now) {
  const st = state.stalls;
  if (!st) return null;
  for (const w of st.once) if (now >= w.from && now < w.to) return w;
  if (!st.everyMs) return null;
  const phase = (now - st.origin) % st.everyMs;
  if (phase < st.everyMs - st.holdMs) return null;
  const from = now - (phase - (st.everyMs - st.holdMs));
  return { from, to: from + st.holdMs, checkpoint: st.checkpoint };
}

// stallsEnded(state, now, checkpoint): how many windows (of that kind) have ended by now.
function stallsEnded(state, now, checkpoint) {
  const st = state.stalls;
  const periodic = st.everyMs && st.checkpoint === checkpoint ? Math.floor((now - st.origin) / st.everyMs) : 0;
  return periodic + st.once.filter((w) => w.checkpoint === checkpoint && w.to <= now).length;
}

// sections(line, state, role) -> what this member's serverStatus adds to the test server's reply.
function sections(line, state, role) {
  const c = counters(state, role);
  const sinceS = (Date.now() - state.server.startedAt) / 1000;
  const cpu = { page_faults: Math.floor(c.read / 65536) };
  const out = { ...common(c),
    ...(line.replSet ? { repl: { setName: line.replSet.name, ismaster: role === 0, secondary: role !== 0 } } : {}) };
  const engine = line.storageEngine ? line.storageEngine.name : null;
  // mongos: the common sections and the config servers it routes through (8.0
  // src/mongo/s/s_sharding_server_status.cpp; on a shard member db/s/sharding_server_status.cpp:93).
  if (line.mongos && state.configsvr) out.sharding = { configsvrConnectionString: state.configsvr };
  if (engine === 'wiredTiger' || engine === 'inMemory') {
    const memory = engine === 'inMemory';
    const wt = { cache: wtCache(c, memory || Boolean(line.quiet || (state.stalls && state.stalls.everyMs))), checkpoint: memory ? { 'progress state': 0, 'most recent time (msecs)': 0, 'total succeed number of checkpoints': 0 } : checkpoint(c, sinceS, state) };
    if (engine === 'wiredTiger') Object.assign(wt, { 'block-manager': { 'bytes written': c.written, 'bytes read': c.read }, log: { 'log bytes written': c.written / 3 } });
    // inMemory's block manager: its metadata only, a few KB however much is written.
    else wt['block-manager'] = { 'bytes written': 4096, 'bytes read': 0 };
    out[engine] = wt;
    out.queues = { execution: tickets(c) };
    out.flowControl = { enabled: true, targetRateLimit: 1000000000, timeAcquiringMicros: 0, locksPerKiloOp: 0,
      sustainerRate: 0, isLagged: Object.keys(state.server.held).length > 0, isLaggedCount: 0, isLaggedTimeMicros: 0 };
    out.extra_info = { note: 'fields vary by platform', user_time_us: Math.round(sinceS * 1e5 + c.writes * 50 + c.reads * 30), system_time_us: Math.round(sinceS * 2e4), page_faults: cpu.page_faults };
  } else if (engine === 'mmapv1') {
    out.backgroundFlushing = { flushes: Math.floor(sinceS / 60), total_ms: Math.floor(sinceS / 60) * 40,
      average_ms: 40, last_ms: 40, last_finished: new Date() };
    // dur: the previous 3 s window's totals; the shim spreads the bytes written so far evenly.
    const perS = sinceS > 0 ? c.written / sinceS : 0;
    out.dur = { commits: 30, journaledMB: (perS * 3) / 1e6, writeToDataFilesMB: (perS * 3) / 1e6, compression: 0.5,
      commitsInWriteLock: 0, earlyCommits: 0, timeMs: { dt: 3000, prepLogBuffer: 0, writeToJournal: 1,
        writeToDataFiles: 1, remapPrivateView: 0, commits: 2, commitsInWriteLock: 0 } };
    // extra_info: page_faults only, as recorded on 3.0.2 and 3.6.20 (support/recorded/): no CPU
    // time before 4.2, and no heap_usage_bytes either.
    out.extra_info = { note: 'fields vary by platform', page_faults: cpu.page_faults };
  } else if (engine === 'rocksdb') {
    out.rocksdb = {
      // compaction-pending: RocksDB's NeedsCompaction, true most of the time under writes.
      'num-immutable-mem-table': '0', 'mem-table-flush-pending': '0', 'compaction-pending': Date.now() - state.server.lastWriteAt < 2000 ? '1' : '0', 'background-errors': '0',
      'cur-size-all-mem-tables': '64MB',
      counters: { 'num-keys-written': c.insert + c.update + c.replInsert + c.replUpdate, 'num-keys-read': c.query, 'bytes-written': c.written, 'wal-bytes': Math.floor(c.written * 1.05), 'stall-micros': state.stallMicros || 0, 'flush-bytes-written': Math.floor(c.written / 2), 'compaction-bytes-read': 0, 'compaction-bytes-written': Math.floor(c.written / 4), 'block-cache-misses': 0, 'block-cache-hits': c.query },
      concurrentTransactions: tickets(c),
    };
    out.extra_info = { note: 'fields vary by platform', page_faults: cpu.page_faults }; // as the recorded 3.6.20
  }
  return out;
}

// replSetGetStatus as member `role` answers it. A member's applied time is the last write's
// (a secondary held back by `holdSecondary(role, s)` that many seconds less); the viewer sees its
// own exactly and the others' optimes as of the last heartbeat (every 2 s from the shim's start);
// a 4.4+ line adds each member's lastAppliedWallTime, which the primary has from the
// secondaries' position updates, to the millisecond. A member the test killed is "(not
// reachable/healthy)" with health 0 and optime 0 (manual "replSetGetStatus").
const HEARTBEAT_MS = 2000;
function replSetGetStatus(line, state, role, hosts) {
  counters(state, role);
  const now = Date.now();
  const applied = (i, at) => Math.min(at, state.server.lastWriteAt) - (state.server.held[i] || 0) * 1000;
  const lastHeartbeat = state.server.startedAt
    + Math.floor((now - state.server.startedAt) / HEARTBEAT_MS) * HEARTBEAT_MS;
  const wallTimes = line.wire >= 9;
  const members = hosts.map((host, i) => {
    if (state.server.down.has(i)) return { _id: i, name: host, health: 0, state: 8, stateStr: '(not reachable/healthy)', optime: { ts: ts(0), t: -1 }, optimeDate: new Date(0) };
    const at = applied(i, i === role ? now : lastHeartbeat);
    return {
      _id: i, name: host, health: 1, state: i === 0 ? 1 : 2, stateStr: i === 0 ? 'PRIMARY' : 'SECONDARY',
      optime: { ts: ts(Math.floor(at / 1000)), t: 1 }, optimeDate: new Date(Math.floor(at / 1000) * 1000),
      ...(wallTimes ? { lastAppliedWallTime: new Date(applied(i, now)),
        lastDurableWallTime: new Date(applied(i, now)) } : {}),
      ...(i === role ? { self: true } : { lastHeartbeat: new Date(lastHeartbeat), pingMs: 0 }),
    };
  });
  return { set: line.replSet.name, date: new Date(now), myState: role === 0 ? 1 : 2,
    heartbeatIntervalMillis: HEARTBEAT_MS, members, ok: 1 };
}

function ts(seconds) {
  const { Timestamp } = require('mongodb');
  return new Timestamp({ t: seconds, i: 1 });
}

// oplogFind: the first or last entry of local.oplog.rs. The first is the set's initiate (the
// shim's start) until a test fills the oplog (fillOplog(windowS): full, its first entry that
// many seconds before the last write); the last is the last write.
function oplogFind(cmd, state) {
  counters(state, 0);
  const dir = cmd.body.sort && cmd.body.sort.$natural;
  const full = state.server.oplogFullWindowS;
  const first = full ? state.server.lastWriteAt - full * 1000 : state.server.startedAt;
  const at = dir === -1 ? state.server.lastWriteAt : first;
  const { Long } = require('mongodb');
  return { cursor: { firstBatch: [{ ts: ts(Math.floor(at / 1000)) }], id: Long.fromNumber(0), ns: 'local.oplog.rs' }, ok: 1 };
}

// collStats of local.oplog.rs: maxSize (--oplogSize, 16 MB here) and its size so far, the bytes
// the primary wrote (full: maxSize), as a capped collection reports them (recorded 4.2.8: size
// 1865616, maxSize 16777216), with the fields a recorded 3.6.20 oplog's collStats has (no index:
// nindexes 0, totalIndexSize 0, indexSizes {}; avgObjSize).
const OPLOG_MAX = 16 * 1048576;
const isOplogStats = (cmd) => cmd.name === 'collStats' && cmd.body.collStats === 'oplog.rs' && cmd.body.$db === 'local';
function oplogStats(state) {
  const c = counters(state, 0);
  const size = state.server.oplogFullWindowS ? OPLOG_MAX : Math.min(OPLOG_MAX, Math.round(c.written / 3));
  const count = c.insert + c.update + c.delete;
  return { ns: 'local.oplog.rs', size, count, avgObjSize: count ? Math.floor(size / count) : 0, capped: true, max: -1, maxSize: OPLOG_MAX, storageSize: size, nindexes: 0, totalIndexSize: 0, indexSizes: {}, ok: 1 };
}

// collStats / dbStats as each line's engine reports what the test server holds, after the
// engines' sources (common/meanings.js engine_storage, each row cited): the test server's `size`
// is the documents' BSON; per engine:
//   wiredTiger  size = the BSON; storageSize = the files: compressed blocks (a stand-in 0.45 of
//               the BSON; the recorded 4.2.8 oplog's file is 0.18 of its size) plus one 4 KB block
//   inMemory    storageSize = the data size (an ephemeral engine: wiredtiger_record_store.cpp);
//               totalIndexSize = an estimate, average entry x entries (wiredtiger_util.cpp)
//   mmapv1      size = every record with its 16-byte header padded to a power of 2
//               (record_store_v1_base.cpp quantizeAllocationSpace); storageSize = the extents.
//               The shim sees only the collection's size and count, so it pads the average
//               record: near a power of 2 (240 B documents + 16 = 256) two runs of one experiment
//               can read 256 or 512 per record where real MMAPv1 pads each record on its own and
//               gives a mix; no test compares MMAPv1's storage across runs of the shim;
//               dbStats fileSize = preallocated files, 64 MB then 128 MB (4.0 defaults)
//   rocksdb     storageSize = max(size & ~255, 256) (rocks_record_store.cpp:373); totalIndexSize
//               = the index keys' bytes (rocks_index.cpp:661), as for an index created since the
//               member started (the shim never restarts; after a restart real MongoRocks starts
//               each index from its compressed SST files: rocks_index.cpp:565)
const pow2 = (n) => 2 ** Math.ceil(Math.log2(Math.max(32, n)));
const SIZES = {
  wiredTiger: (size, count) => ({ size, storageSize: Math.round(size * 0.45) + (count ? 4096 : 0),
    totalIndexSize: count * 12 + 4096 }),
  inMemory: (size, count) => ({ size, storageSize: size, totalIndexSize: count * 20 }),
  mmapv1: (size, count) => {
    const padded = count ? count * pow2(size / count + 16) : 0;
    return { size: padded, storageSize: padded + 8192, totalIndexSize: count * 40 + 8192, fileSize: 192 * 1048576 };
  },
  rocksdb: (size, count) => ({ size, storageSize: Math.max(size & ~255, 256),
    totalIndexSize: Math.max(count * 17, 1) }),
};
// Every engine of the table of meanings is played (a new row there needs its sizes here).
for (const e of require('../../../common/meanings').ENGINES) if (!SIZES[e]) throw new Error(`server-status-lines.js: no collStats sizes for ${e} (common/meanings.js)`);
const sizedCommand = (cmd) => cmd.name === 'collStats' || cmd.name === 'dbStats';
function sized(cmd, doc, line) {
  if (doc.ok !== 1 || !line.storageEngine) return doc; // mongos: the test server's own answer
  const count = cmd.name === 'collStats' ? doc.count : doc.objects;
  const size = cmd.name === 'collStats' ? doc.size : doc.dataSize;
  const k = SIZES[line.storageEngine.name](size, count);
  const out = { ...doc, storageSize: k.storageSize, totalIndexSize: k.totalIndexSize };
  if (cmd.name === 'collStats') collStatsShape(out, k, line);
  if (cmd.name === 'dbStats') dbStatsShape(out, k, line);
  return out;
}

// collStats's common fields as a recorded 3.6.20 collection's (support/recorded/: ns, count,
// size, avgObjSize, storageSize, capped, nindexes, totalIndexSize, indexSizes by index name);
// numExtents only on MMAPv1 (a WiredTiger collection has none in that recording; mongo-java-
// server answers it on every line). mongo-java-server's indexSize is not a collStats field.
function collStatsShape(out, k, line) {
  out.size = k.size;
  delete out.indexSize;
  if (line.storageEngine.name !== 'mmapv1') delete out.numExtents;
  out.capped = out.capped ?? false;
  out.indexSizes = { _id_: k.totalIndexSize };
}

// dbStats's fields per line, as MongoDB's own jstests/core/dbstats.js asserts them (mongodb/mongo):
// at @b6a71bf1 (the 3.6/4.0 era) storageSize, numExtents and indexSize on every engine, and
// extentFreeList {num, totalSize} on MMAPv1 only; at @05a0f8e9 (a 5.0+ tree) storageSize,
// totalSize and indexSize, and on persistent storage freeStorageSize, indexFreeStorageSize,
// totalFreeStorageSize (their sum), fsUsedSize and fsTotalSize. The index bytes are indexSize
// (dbStats never says totalIndexSize, collStats's name). fileSize: only MMAPv1 reports its files.
function dbStatsShape(out, k, line) {
  out.dataSize = k.size;
  out.indexSize = k.totalIndexSize;
  for (const f of ['totalIndexSize', 'fileSize', 'nsSizeMB', 'numExtents']) delete out[f];
  if (line.wire < 8) out.numExtents = 0; // before 4.2
  if (k.fileSize) {
    Object.assign(out, { fileSize: k.fileSize, nsSizeMB: 16, numExtents: 2,
      extentFreeList: { num: 0, totalSize: 0 } });
  }
  if (line.wire >= 9) { // 4.4+
    out.totalSize = out.storageSize + out.indexSize;
    if (line.storageEngine.persistent) {
      const fsStat = require('node:fs').statfsSync(require('node:os').tmpdir());
      Object.assign(out, { freeStorageSize: 0, indexFreeStorageSize: 0, totalFreeStorageSize: 0,
        fsUsedSize: (fsStat.blocks - fsStat.bfree) * fsStat.bsize, fsTotalSize: fsStat.blocks * fsStat.bsize });
    }
  }
}

// listShards as a mongos answers it: the shard a test named in state.shards ("rs0/h1,h2,h3").
function listShards(state) {
  const shards = state.shards ? [{ _id: state.shards.split('/')[0], host: state.shards, state: 1 }] : [];
  return { shards, ok: 1 };
}

const isOplogFind = (cmd) => cmd.name === 'find' && cmd.body.find === 'oplog.rs' && cmd.body.$db === 'local';

const isWrite = (cmd) => WRITE.has(cmd.name);

module.exports = { stallAt, isWrite, sections, count, replSetGetStatus, oplogFind, isOplogFind, isOplogStats,
  oplogStats, sizedCommand, sized, listShards, SIZES, OPLOG_MAX };
