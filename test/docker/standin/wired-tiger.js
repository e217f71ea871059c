'use strict';
// The storage-engine sections of a stand-in member's serverStatus, in the shape a real mongod 8.0
// on WiredTiger reports them (serverStatus.wiredTiger.cache, .checkpoint; serverStatus.queues.execution,
// where 7.0+ report the execution tickets that wiredTiger.concurrentTransactions held before), so
// that the real mongodb_exporter emits the series the dashboards query (mongodb_ss_wt_cache_*,
// mongodb_ss_wt_checkpoint_progress_state, mongodb_ss_wt_concurrentTransactions_* by txn_rw:
// dashboards/metrics-catalog). The figures are modelled from the member's own load, not measured:
// bytes written fill the cache up to the configured maximum (--wiredTigerCacheSizeGB, else 8.0's
// default, half of (RAM - 1 GB), at least 256 MB: src/mongo/db/storage/wiredtiger/wiredtiger_global_options.cpp),
// dirty bytes grow until a checkpoint every 60 s (syncdelay) cleans them, reads read pages in, and a
// cache over 80 % (eviction_target) evicts. DIFFERENCES.md says so.
const os = require('node:os');

const PAGE = 4096;
const CHECKPOINT_EVERY_MS = 60000; // storage.syncPeriodSecs, 60 by default
const CHECKPOINT_TAKES_MS = 1000;
const TICKETS = 128; // execution tickets per kind: 7.0+'s ceiling (executionControlConcurrentTransactions)

function newWiredTiger(opts) {
  const gb = Number(opts.parsed && opts.parsed.wiredTigerCacheSizeGB);
  const max = Number.isFinite(gb) && gb > 0
    ? Math.round(gb * 1073741824)
    : Math.max(256 * 1048576, Math.round((os.totalmem() - 1073741824) / 2));
  const s = { inCache: 0, dirty: 0, readIn: 0, writtenOut: 0, evictedModified: 0, evictedUnmodified: 0,
    lastCheckpoint: Date.now(), out: { read: 0, write: 0 } };

  function checkpoint(now) {
    if (now - s.lastCheckpoint < CHECKPOINT_EVERY_MS) return;
    s.writtenOut += Math.ceil(s.dirty / PAGE);
    s.dirty = 0;
    s.lastCheckpoint = now;
  }
  function evict() {
    const target = 0.8 * max;
    while (s.inCache > target) {
      const take = Math.min(s.inCache - target, 64 * PAGE);
      const modified = s.dirty > 0 ? Math.min(take, s.dirty) : 0;
      s.evictedModified += Math.ceil(modified / PAGE);
      s.evictedUnmodified += Math.ceil((take - modified) / PAGE);
      s.writtenOut += Math.ceil(modified / PAGE);
      s.dirty -= modified;
      s.inCache -= take;
    }
  }

  return {
    // wrote(bytes) / read(): what an operation did; begin(kind) -> end(): a ticket held meanwhile
    wrote(bytes) { s.inCache += bytes; s.dirty += bytes; checkpoint(Date.now()); evict(); },
    read() { s.readIn += 1; s.inCache += PAGE; evict(); },
    begin(kind) { s.out[kind] += 1; let done = false; return () => { if (!done) { done = true; s.out[kind] -= 1; } }; },
    sections() {
      const now = Date.now();
      checkpoint(now);
      const running = now - s.lastCheckpoint < CHECKPOINT_TAKES_MS && s.writtenOut > 0;
      const tickets = (kind) => ({ out: s.out[kind], available: TICKETS - s.out[kind], totalTickets: TICKETS });
      return {
        wiredTiger: {
          uri: 'statistics:',
          cache: {
            'bytes currently in the cache': Math.round(s.inCache),
            'maximum bytes configured': max,
            'tracked dirty bytes in the cache': Math.round(s.dirty),
            'pages read into cache': s.readIn,
            'pages written from cache': s.writtenOut,
            'modified pages evicted': s.evictedModified,
            'unmodified pages evicted': s.evictedUnmodified,
          },
          // WiredTiger 8.0: the phase of the running checkpoint, 0 when none runs
          checkpoint: { 'progress state': running ? 1 : 0 },
        },
        queues: { execution: { write: tickets('write'), read: tickets('read') } },
      };
    },
  };
}

module.exports = { newWiredTiger };
