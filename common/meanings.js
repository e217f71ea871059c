'use strict';
// The table of meanings: for each figure the server record and the report derive, what the
// server's field measures on each storage engine the lab runs, where that was read, and which
// quantity it is. Two runs' figures are put side by side (a ratio, a verdict) only where their
// quantity ids are equal; otherwise the report says in one line what each side counts.
// Read by the loader (src/server/footprint.js, src/server-record/step-facts.js, repl.js), the report
// (src/server-side.js) and the test server (loader/test/support/server-status-lines.js plays the
// engines' collStats as `collStats` below says and is checked against it).
//
// Keys are serverStatus.storageEngine.name as each line reports it. The lines (compose/engines.tsv):
//   wiredTiger  MongoDB 8.0 / Percona Server for MongoDB 8.0
//   inMemory    Percona Server for MongoDB 8.0 inMemory (WiredTiger in memory)
//   mmapv1      MongoDB 4.0 MMAPv1
//   rocksdb     Percona Server for MongoDB 3.6 MongoRocks
// Sources (read 2026-11-27): "mongo-rocks v3.6" = percona/mongo-rocks branch v3.6 @e8912ab;
// "8.0 topology_coordinator.cpp" = mongodb/mongo src/mongo/db/repl/topology_coordinator.cpp
// prepareStatusResponse (the r8.0 tree the code index holds); MMAPv1 = mongodb/mongo
// src/mongo/db/storage/mmap_v1 (3.x/4.0 trees: record_store_v1_base.cpp, record.h, dur.cpp,
// dur_recover.cpp); a recorded 4.2.8 primary = percona/mongodb_exporter
// exporter/testdata/get_diagnostic_data.json @12667a15 (loader/test/support/recorded/).

const ENGINES = ['wiredTiger', 'inMemory', 'mmapv1', 'rocksdb'];

const FIGURES = {
  // The documents' own size: measured by the loader on every line (src/server/footprint.js reads the
  // collection as raw BSON and sums the lengths), never taken from collStats `size`, which is a
  // different quantity per engine (below).
  logical: {
    what: "logical bytes per document (the documents' BSON, measured)",
    default: { quantity: 'bson_bytes', measures: "the documents' BSON size as stored and returned, summed by the loader over the collection (or a sample of it, said)", source: 'BSON spec: a document is length-prefixed; the driver hands raw documents over with `raw: true`' },
  },
  // collStats storageSize + totalIndexSize: what each engine calls the collection's storage.
  engine_storage: {
    what: 'collStats storageSize + totalIndexSize per document (end of run)',
    wiredTiger: { quantity: 'wt_file_bytes', measures: "the size of the collection's and its indexes' WiredTiger files: compressed blocks, free space in them included", source: '8.0 wiredtiger_record_store.cpp storageSize = the table\'s "block-manager: file size in bytes"; recorded 4.2.8 oplog collStats: storageSize 327680 = that file size, against size 1865616' },
    // An ephemeral engine reports no file: storageSize is the data size, each index an estimate.
    inMemory: { quantity: 'inmemory_data_and_index_estimate_bytes', measures: "the collection's data size (the documents' uncompressed BSON, as collStats size counts it) plus each index's estimate, its average inserted entry times its entries (inserts less removes): neither a file nor the memory held (WiredTiger's cache holds pages with their overhead)", source: '8.0 src/mongo/db/storage/wiredtiger/wiredtiger_record_store.cpp WiredTigerRecordStore::storageSize: `if (_isEphemeral) return dataSize(opCtx)`; wiredtiger_index.cpp WiredTigerIndex::getSpaceUsedBytes: ephemeral, WiredTigerUtil::getEphemeralIdentSize (wiredtiger_util.cpp): cursor insert bytes / inserts x (inserts - removes), "rough approximation of index size"; Percona src/mongo/db/storage/inmemory/inmemory_init.cpp opens WiredTigerKVEngine with ephemeral = true, in_memory=true' },
    mmapv1: { quantity: 'mmapv1_extent_bytes', measures: 'the extents allocated to the collection in its preallocated data files; each record padded to a power of 2', source: 'mmap_v1 record_store_v1_base.cpp storageSize (extents), record.h netLength; collection size sums the padded records' },
    // MongoRocks' index part restarts from the compressed files at each open: it moves across a
    // restart (down/up, a fault, a resync) with no workload change.
    rocksdb: { quantity: 'rocks_logical_bytes', moves_on_restart: true, measures: "the logical data size rounded down to 256 B, plus each index's running estimate: the compressed size of its SST files when the member last opened it, plus the key bytes inserted since, less those removed. An index created since the member started holds its keys' logical bytes (compression never shows); after a restart it starts again from the compressed files, so the figure drops with no workload change and shows compression only for what was on disk at that open", source: 'mongo-rocks v3.6 src/rocks_record_store.cpp:373 storageSize = max(dataSize & ~255, 256); src/rocks_index.cpp:554-565 RocksIndexBase::RocksIndexBase: _indexStorageSize = GetApproximateSizes(the index prefix range), RocksDB SST files (compressed) at open; :661, :893 insert adds and :761, :819, :925 unindex subtract the key size' },
  },
  // The member's data directory, du -sb after the run (lib/experiment.sh, Compose only): what the
  // engine occupies on disk, journal, oplog and preallocated files included, as seeds/004 measured.
  data_dir: {
    what: 'data directory bytes per document (largest shard member, du -sb)',
    default: { quantity: 'data_dir_bytes', measures: "everything under the member's --dbpath: data, indexes, journal or WAL, oplog, preallocated files", source: 'du -sb of /data/db (lib/experiment.sh experiment_data_dirs); seeds/004 measured du -sh of the whole directory' },
    inMemory: { quantity: null, measures: 'the data lives in memory; the directory holds only metadata', source: 'Percona inMemory: storage.inMemory, no data files' },
  },
  // Bytes that reach the disk per document written, from the engine's own counters.
  write_bytes: {
    what: 'bytes written to files per document written',
    wiredTiger: { quantity: 'file_write_bytes', parts: ['wt.block_written_bytes', 'wt.log_written_bytes'], measures: 'bytes written to the data files (block manager) and the journal (log)', source: 'WiredTiger src/support/stat.c "block-manager: bytes written", "log: log bytes written" (write calls to files)' },
    inMemory: { quantity: 'file_write_bytes', parts: ['wt.block_written_bytes'], measures: "bytes written to files by the block manager: about 0, the data is in memory", source: 'Percona inMemory reports WiredTiger statistics under serverStatus.inMemory; in memory the block manager writes no data file' },
    mmapv1: { quantity: 'mmapv1_journal_and_view_bytes', parts: ['mmapv1.journaled_bytes', 'mmapv1.data_file_bytes'], measures: 'journal bytes written, plus bytes copied into the mapped view of the data files (the kernel writes those later, counted nowhere); preallocation counted nowhere', source: 'mmap_v1 dur.cpp Stats journaledMB, writeToDataFilesMB; dur_recover.cpp / dur_writetodatafiles: a memcpy into the shared view, not a disk write' },
    rocksdb: { quantity: 'file_write_bytes', parts: ['rocks.wal_bytes', 'rocks.flush_bytes_written', 'rocks.compaction_bytes_written'], measures: 'bytes written to the WAL, by memtable flushes to SST files and by compaction', source: 'mongo-rocks v3.6 src/rocks_server_status.cpp: every RocksDB ticker, "rocksdb." dropped and dots made dashes (WAL_FILE_BYTES "wal-bytes", FLUSH_WRITE_BYTES, COMPACT_WRITE_BYTES); bytes-written (BYTES_WRITTEN) is the logical Put bytes, not file writes, so it is left out' },
  },
  // Bytes the shard member's container wrote to block devices, from its own cgroup, over the
  // loader's whole invocation (lib/block-writes.sh, Compose only), per document the loader wrote:
  // the kernel's count, the same on every engine (inMemory too: whatever it writes still counts).
  // Keyed by cgroup version, which decides what the kernel charges to the container.
  block_writes: {
    what: 'block-device bytes written per document written (largest shard member, its cgroup)',
    v2: { quantity: 'cgroup_block_write_bytes', measures: "bytes the member's container wrote to the disk holding its data directory (cgroup v2 io.stat wbytes of that device alone: a stacked device such as LVM, dm-crypt or md lists the same bytes again per layer): the kernel's writeback of its dirty pages is charged to it", source: 'Linux Documentation/admin-guide/cgroup-v2.rst, "Writeback": a page is charged to the cgroup that dirtied it; io.stat wbytes' },
    v1: { quantity: 'cgroup_v1_block_write_bytes', lower_bound: true, measures: "bytes the member's container itself submitted to the disk holding its data directory (cgroup v1 blkio Write of that device alone, counted on every kernel line through a write limit that never binds; a disk the kernel kept no count for is not counted, never 0), a lower bound: buffered writeback by the kernel's flusher threads is charged to the root cgroup", source: 'Linux Documentation/admin-guide/cgroup-v1/blkio-controller.rst blkio.throttle.io_service_bytes; cgroup-v2.rst: v1 charges writeback to the root cgroup (writes the process submits, e.g. through fsync, stay its own)' },
  },
  cpu: {
    what: 'server CPU ms per 1,000 operations',
    default: { quantity: 'process_cpu', measures: 'the mongod process\'s user + system CPU time (getrusage) over the operations it counted', source: '8.0 util/processinfo_linux.cpp extra_info user_time_us, system_time_us; absent on 4.0 and 3.6 (recorded 4.2.8 has them; the 3.x text has page_faults only)' },
  },
  lag: {
    what: 'worst secondary lag p99 (s)',
    // Chosen per run by what the line reports (src/server-record/repl.js), recorded as lag_source.
    lastAppliedWallTime: { quantity: 'applied_wall_ms', measures: "the primary's last applied wall time less the secondary's, to the millisecond", source: '8.0 topology_coordinator.cpp prepareStatusResponse: members[].lastAppliedWallTime (4.4+)' },
    optimeDate: { quantity: 'heartbeat_optime_s', floor_s: 2, measures: "the primary's optime less the secondary's optime as of its last heartbeat, in whole seconds: a healthy secondary reads 0-2 s (heartbeat every 2 s)", source: 'topology_coordinator.cpp: optimeDate = whole seconds of the heartbeat applied optime; heartbeatIntervalMillis 2000 (recorded 4.2.8 replSetGetStatus)' },
  },
  oplog_window: {
    what: 'oplog window (s)',
    default: { quantity: 'oplog_window_s', measures: 'last less first oplog entry: the time a secondary may fall behind and still catch up, once the oplog has reached its maxSize; before that it is the set\'s age', source: 'collStats local.oplog.rs size and maxSize (recorded 4.2.8: size 1865616 of maxSize 16777216, not yet full)' },
  },
};

// meaningOf(figure, key) -> the row for that engine (or lag source), the figure's default, or an
// "unknown" row (a server outside the table: its figure is no known quantity).
function meaningOf(figure, key) {
  const f = FIGURES[figure];
  if (!f) throw new Error(`no figure ${figure} in common/meanings.js`);
  return f[key] || f.default || { quantity: null, measures: `not in the table of meanings (${key || 'unknown server'})`, source: null };
}

// comparable(figure, quantities, engines) -> { same: true, quantity } when every run of both
// sides counted one quantity, else { same: false, why } with one line saying what each side
// counts. quantities: { side: [quantity id per run] }; engines: { side: [storage engine per run] }
// (optional), so a side is described by its own engine's row: one quantity id is several rows
// (file writes are WiredTiger's block manager and log, MongoRocks' WAL, flushes and compactions).
function comparable(figure, quantities, engines = {}) {
  const per = Object.entries(quantities).map(([side, qs]) => [side, [...new Set(qs)]]);
  const all = new Set(per.flatMap(([, qs]) => qs));
  if (all.size === 1 && ![...all][0]) return { same: false, why: `${FIGURES[figure].what}: not a known quantity on ${per.map(([s]) => s).join(' or ')}` };
  if (all.size === 1) return { same: true, quantity: [...all][0] };
  const say = (q, side) => {
    if (!q) return 'no known quantity';
    const own = (engines[side] || []).find((k) => FIGURES[figure][k]?.quantity === q);
    return own ? FIGURES[figure][own].measures : describe(q, figure);
  };
  return { same: false, why: `${FIGURES[figure].what}: not the same quantity, so no verdict: ${per.map(([side, qs]) => `${side} counts ${qs.map((q) => say(q, side)).join(' / ')}`).join('; ')}` };
}

// describe(quantity id, figure) -> its `measures` text: the first row with that id, the figure's
// own rows first.
function describe(quantity, figure) {
  for (const f of [FIGURES[figure], ...Object.values(FIGURES)].filter(Boolean)) for (const [k, row] of Object.entries(f)) if (k !== 'what' && row.quantity === quantity) return row.measures;
  return quantity;
}

module.exports = { ENGINES, FIGURES, meaningOf, comparable, describe };
