'use strict';
// The per-line field map of server.ndjson: each recorded field, where serverStatus has it on each
// server line the lab runs, and where that name was read. A field is read from the first path a
// member's reply has; a member that has none of them does not report it, and the field is absent
// from its lines (listed once in summary.json server_record.absent), never written as 0.
//
// kind: counter = cumulative since the process started: written as a per-second rate (the
//         difference of two samples over their interval); a counter that went down (a restart)
//         leaves that second absent.
//       gauge   = the value at the sample (bytes in cache, tickets out, state).
//       window  = MMAPv1 `dur`: the totals of the durability thread's last closed window (3 s,
//         `timeMs.dt` long), not cumulative: written as that window's per-second rate.
//
// Sources, read 2026-11-26 (git trees named exactly; "8.0" = upstream r8.0.10 in
// y123456yz/reading-and-annotate-mongodb-8.0 @a03a682f, dir mongo-r8.0.10/; WiredTiger names =
// its src/third_party/wiredtiger/src/support/stat.c "<group>: <name>", which MongoDB's
// wiredTiger section splits into wiredTiger.<group>["<name>"]; "3.6 rocks" = percona/mongo-rocks
// @dd080d2, the commit psmdb-3.6.19 pins; "mmapv1" = mongodb/mongo src/mongo/db/storage/mmap_v1
// at the index's commits 6dcdd23 (data_file_sync.cpp) and 9df91ed (dur.cpp): 3.x-era trees, as
// r4.0.28 itself could not be read here; MMAPv1 was frozen after 3.6 and removed in 4.2).
// The 4.0 WiredTiger and 3.6 common sections (opcounters, network, globalLock) carry the same
// names as 8.0; those lines were not read for them separately.

const FIELDS = [
  // opcounters: 8.0 src/mongo/db/stats/counters.cpp OpCounters::getObj (insert, query, update,
  // delete, getmore, command), section "opcounters" (commands/server_status_command.cpp:226).
  ...['insert', 'query', 'update', 'delete', 'getmore', 'command'].map((f) => ({
    key: `ops.${f}`, kind: 'counter', paths: [['opcounters', f]], unit: 'per second',
  })),
  // opcountersRepl: what a secondary applied (same OpCounters class, section "opcountersRepl").
  ...['insert', 'update', 'delete'].map((f) => ({
    key: `repl_ops.${f}`, kind: 'counter', paths: [['opcountersRepl', f]], unit: 'per second',
  })),
  // opLatencies: 8.0 src/mongo/db/stats/operation_latency_histogram.cpp (kNames commands, reads,
  // writes, transactions; each { latency (µs, cumulative), ops }), section "opLatencies"
  // (stats/latency_server_status_section.cpp:88). Recorded as µs of latency per second and ops
  // per second; mean latency of the second = latency_us / ops.
  ...['reads', 'writes', 'commands'].flatMap((f) => [
    { key: `latency.${f}_us`, kind: 'counter', paths: [['opLatencies', f, 'latency']], unit: 'µs per second' },
    { key: `latency.${f}_ops`, kind: 'counter', paths: [['opLatencies', f, 'ops']], unit: 'per second' },
  ]),
  // WiredTiger (8.0 stat.c; Percona's inMemory reports the same WiredTiger statistics under
  // serverStatus.inMemory, the section mongodb_exporter names mongodb_ss_inMemory_*:
  // shared/reference/monitoring.md): cache
  { key: 'wt.cache_bytes', kind: 'gauge', paths: [['wiredTiger', 'cache', 'bytes currently in the cache'], ['inMemory', 'cache', 'bytes currently in the cache']], unit: 'bytes' }, // stat.c:1476
  { key: 'wt.cache_dirty_bytes', kind: 'gauge', paths: [['wiredTiger', 'cache', 'tracked dirty bytes in the cache'], ['inMemory', 'cache', 'tracked dirty bytes in the cache']], unit: 'bytes' }, // stat.c:1651
  { key: 'wt.cache_max_bytes', kind: 'gauge', paths: [['wiredTiger', 'cache', 'maximum bytes configured'], ['inMemory', 'cache', 'maximum bytes configured']], unit: 'bytes' }, // stat.c:1603
  { key: 'wt.app_evicted_pages', kind: 'counter', paths: [['wiredTiger', 'cache', 'pages evicted by application threads']], unit: 'per second' }, // stat.c:1617; not on inMemory (below)
  // inMemory reports the same statistics, but never checkpoints (Percona inmemory_init.cpp opens
  // WiredTiger with checkpoint=(wait=0); WiredTiger refuses a checkpoint in memory) and never makes
  // application threads evict for dirty pages (WiredTiger cache_inline.h: in-memory trees are not
  // evicted for dirtiness): its checkpoint and application-eviction statistics are not read, so
  // they are absent on that line rather than a 0 that a rule could read as "none this second".
  // checkpoints. 8.0: "checkpoint: progress state" (stat.c:1714; 0 = WT_CHECKPOINT_STATE_INACTIVE,
  // include/checkpoint.h:13; set while one runs, txn/txn_ckpt.c), "checkpoint: most recent time
  // (msecs)" (stat.c:1693), "checkpoint: total succeed number of checkpoints" (stat.c:1723).
  // 4.0's WiredTiger names them "transaction: transaction checkpoint currently running",
  // "transaction: transaction checkpoint most recent time (msecs)" and "transaction: transaction
  // checkpoints" (removed by WT-11171, shared/reference/monitoring.md): read in WiredTiger
  // stat.c copies of the 3.x/4.x era the code index holds (not the r4.0.28 tree itself).
  { key: 'wt.checkpoint_running', kind: 'gauge', paths: [['wiredTiger', 'checkpoint', 'progress state'], ['wiredTiger', 'transaction', 'transaction checkpoint currently running']], unit: '0 = none running', running: true },
  { key: 'wt.checkpoint_last_ms', kind: 'gauge', paths: [['wiredTiger', 'checkpoint', 'most recent time (msecs)'], ['wiredTiger', 'transaction', 'transaction checkpoint most recent time (msecs)']], unit: 'ms' },
  { key: 'wt.checkpoints', kind: 'counter', paths: [['wiredTiger', 'checkpoint', 'total succeed number of checkpoints'], ['wiredTiger', 'transaction', 'transaction checkpoints']], unit: 'per second' },
  // block manager and log: stat.c:1458 "block-manager: bytes written", :1455 "block-manager:
  // bytes read", :1879 "log: log bytes written".
  { key: 'wt.block_written_bytes', kind: 'counter', paths: [['wiredTiger', 'block-manager', 'bytes written'], ['inMemory', 'block-manager', 'bytes written']], unit: 'bytes per second' },
  { key: 'wt.block_read_bytes', kind: 'counter', paths: [['wiredTiger', 'block-manager', 'bytes read'], ['inMemory', 'block-manager', 'bytes read']], unit: 'bytes per second' },
  { key: 'wt.log_written_bytes', kind: 'counter', paths: [['wiredTiger', 'log', 'log bytes written']], unit: 'bytes per second' },
  // tickets. 8.0: section "queues" (db/admission/queues_server_status_section.cpp:71), execution
  // .{read,write}.{out,available,totalTickets} (ticketholder_manager.cpp:217-223,
  // util/concurrency/ticketholder.cpp:99-101); 4.0 WiredTiger: wiredTiger.concurrentTransactions
  // (same names); 3.6 rocks: rocksdb.concurrentTransactions (rocks_engine.cpp:277-293
  // appendGlobalStats, appended to the "rocksdb" section). MMAPv1 has none.
  ...['read', 'write'].flatMap((rw) => ['out', 'available'].map((f) => ({
    key: `tickets.${rw}_${f}`, kind: 'gauge', unit: 'tickets',
    paths: [['queues', 'execution', rw, f], ['wiredTiger', 'concurrentTransactions', rw, f], ['rocksdb', 'concurrentTransactions', rw, f], ['inMemory', 'concurrentTransactions', rw, f]],
  }))),
  // globalLock.currentQueue.{readers,writers}: every line (manual serverStatus "globalLock").
  { key: 'queue.readers', kind: 'gauge', paths: [['globalLock', 'currentQueue', 'readers']], unit: 'operations' },
  { key: 'queue.writers', kind: 'gauge', paths: [['globalLock', 'currentQueue', 'writers']], unit: 'operations' },
  // flowControl (4.2+; so 8.0 only): storage/flow_control.cpp:242-252.
  { key: 'flow.enabled', kind: 'gauge', paths: [['flowControl', 'enabled']] },
  { key: 'flow.target_rate_limit', kind: 'gauge', paths: [['flowControl', 'targetRateLimit']], unit: 'tickets per second' },
  { key: 'flow.is_lagged', kind: 'gauge', paths: [['flowControl', 'isLagged']] },
  { key: 'flow.time_acquiring_us', kind: 'counter', paths: [['flowControl', 'timeAcquiringMicros']], unit: 'µs per second' },
  // MMAPv1: backgroundFlushing (data_file_sync.cpp DataFileSync::generateSection: flushes,
  // total_ms, average_ms, last_ms, last_finished; empty while the thread is not running) ...
  { key: 'mmapv1.flushes', kind: 'counter', paths: [['backgroundFlushing', 'flushes']], unit: 'per second' },
  { key: 'mmapv1.flush_ms', kind: 'counter', paths: [['backgroundFlushing', 'total_ms']], unit: 'ms per second' },
  { key: 'mmapv1.last_flush_ms', kind: 'gauge', paths: [['backgroundFlushing', 'last_ms']], unit: 'ms' },
  // ... and dur (dur.cpp DurSSS "dur", Stats::S::_asObj: commits, journaledMB, writeToDataFilesMB
  // = bytes / 1e6 of the previous window; DurStatsResetIntervalMillis = 3000; timeMs.dt = that
  // window's length in ms). Empty without a journal.
  { key: 'mmapv1.dur_commits', kind: 'window', paths: [['dur', 'commits']], unit: 'per second' },
  { key: 'mmapv1.journaled_bytes', kind: 'window', scale: 1e6, paths: [['dur', 'journaledMB']], unit: 'bytes per second' },
  { key: 'mmapv1.data_file_bytes', kind: 'window', scale: 1e6, paths: [['dur', 'writeToDataFilesMB']], unit: 'bytes per second' },
  // MongoRocks: rocks_server_status.cpp, section "rocksdb". The properties are strings
  // (GetProperty, sizes through PrettyPrintBytes "64MB"); the "counters" object holds RocksDB
  // tickers as numbers, present when storage.rocksdb.counters is true (its default:
  // rocks_global_options.cpp:79-83; rocks_engine.cpp:194). Ticker names: rocks_server_status.cpp:73-86.
  { key: 'rocks.bytes_written', kind: 'counter', paths: [['rocksdb', 'counters', 'bytes-written']], unit: 'bytes per second' },
  // Every RocksDB ticker is in counters, "rocksdb." dropped and dots made dashes (percona/mongo-rocks
  // v3.6 @e8912ab src/rocks_server_status.cpp initTickersToNames): WAL_FILE_BYTES "wal-bytes" (bytes
  // written to the WAL file) and STALL_MICROS "stall-micros" (time writers were stalled). bytes-written
  // above is BYTES_WRITTEN, the logical bytes of Puts, not file writes (common/meanings.js).
  { key: 'rocks.wal_bytes', kind: 'counter', paths: [['rocksdb', 'counters', 'wal-bytes']], unit: 'bytes per second' },
  { key: 'rocks.stall_micros', kind: 'counter', paths: [['rocksdb', 'counters', 'stall-micros']], unit: 'µs per second' },
  { key: 'rocks.flush_bytes_written', kind: 'counter', paths: [['rocksdb', 'counters', 'flush-bytes-written']], unit: 'bytes per second' },
  { key: 'rocks.compaction_bytes_written', kind: 'counter', paths: [['rocksdb', 'counters', 'compaction-bytes-written']], unit: 'bytes per second' },
  { key: 'rocks.compaction_bytes_read', kind: 'counter', paths: [['rocksdb', 'counters', 'compaction-bytes-read']], unit: 'bytes per second' },
  { key: 'rocks.block_cache_misses', kind: 'counter', paths: [['rocksdb', 'counters', 'block-cache-misses']], unit: 'per second' },
  { key: 'rocks.block_cache_hits', kind: 'counter', paths: [['rocksdb', 'counters', 'block-cache-hits']], unit: 'per second' },
  { key: 'rocks.compaction_pending', kind: 'gauge', number: true, paths: [['rocksdb', 'compaction-pending']] },
  { key: 'rocks.mem_table_flush_pending', kind: 'gauge', number: true, paths: [['rocksdb', 'mem-table-flush-pending']] },
  // extra_info: 8.0 util/processinfo_linux.cpp:935-946 user_time_us, system_time_us (getrusage),
  // page_faults (ru_majflt). The 3.x-era Linux text has page_faults and heap_usage_bytes only, so
  // on 4.0 and 3.6 expect CPU time absent (then server CPU per 1,000 ops is null with that reason).
  { key: 'proc.page_faults', kind: 'counter', paths: [['extra_info', 'page_faults']], unit: 'per second' },
  { key: 'proc.cpu_user_us', kind: 'counter', paths: [['extra_info', 'user_time_us']], unit: 'µs per second' },
  { key: 'proc.cpu_system_us', kind: 'counter', paths: [['extra_info', 'system_time_us']], unit: 'µs per second' },
  // network: 8.0 db/stats/counters.cpp:180-181 bytesIn, bytesOut (section "network",
  // server_status_servers.cpp:85).
  { key: 'net.bytes_in', kind: 'counter', paths: [['network', 'bytesIn']], unit: 'bytes per second' },
  { key: 'net.bytes_out', kind: 'counter', paths: [['network', 'bytesOut']], unit: 'bytes per second' },
];

// valueAt(doc, path) -> the value, or undefined when any level is missing. BSON Long/Double
// wrappers (the 6.x drivers' promoteLongs off, never set here) are turned into numbers.
function valueAt(doc, path) {
  let v = doc;
  for (const p of path) {
    if (v === null || typeof v !== 'object' || !(p in v)) return undefined;
    v = v[p];
  }
  if (v && typeof v === 'object' && typeof v.toNumber === 'function') return v.toNumber();
  return v;
}

// read(field, status) -> { value, path } from the first path the reply has, or null. A value
// that is not a number (a rocksdb property that could not be read: "<error> ...") counts as
// not reported; booleans are kept as 0/1 for gauges (flowControl.isLagged).
function read(field, status) {
  for (const path of field.paths) {
    let v = valueAt(status, path);
    if (v === undefined) continue;
    if (typeof v === 'boolean') v = v ? 1 : 0;
    if (typeof v === 'string' && field.number && /^-?\d+(\.\d+)?$/.test(v)) v = Number(v);
    if (typeof v !== 'number' || !Number.isFinite(v)) return null;
    return { value: v, path: path.join('.') };
  }
  return null;
}

module.exports = { FIELDS, read, valueAt };
