'use strict';
// journalOf(ctx) -> { journal, journal_source }: whether this run's server journals (durability/index.js
// journalFacts), asked once per run and recorded on every durability case, so the comparison
// between engines shows inMemory's "no journal" beside its numbers.
const { engine } = require('../../../../common/tables');
const { journalFacts } = require('./index');

const perRun = new WeakMap(); // config object (one per run) -> facts

// engineRow(ctx) -> the run's row of the engines table, or null (none, or the table is absent
// outside the repository).
function engineRow(ctx) {
  try {
    return ctx.engine ? engine(ctx.engine) : null;
  } catch {
    return null;
  }
}

async function journalOf(ctx) {
  if (perRun.has(ctx.config)) return perRun.get(ctx.config);
  const row = engineRow(ctx);
  // getCmdLineOpts through mongos describes the router, not the shard members: not asked there.
  let cmdLine = null;
  if (!row && ctx.description?.topology?.kind !== 'mongos') {
    cmdLine = await ctx.client.db('admin').command({ getCmdLineOpts: 1 }).catch(() => null);
  }
  const facts = journalFacts({ row, storageEngine: ctx.description?.server?.storage_engine, cmdLine });
  perRun.set(ctx.config, facts);
  return facts;
}

// What a durability case measures on each storage engine: what an acknowledged write waits for.
// By the engine the shard reports (serverStatus storageEngine.name, or the engines table row's
// server_engine), then by the case's j. Sources (read in the versions named):
//   mmapv1: mongodb/mongo src/mongo/db/storage/mmap_v1/dur.cpp durThread (3.x/4.0-era version):
//     the durability thread waits in thirds of journalCommitIntervalMs (100 ms by default, 30 when
//     the journal is on another partition) and group-commits early when a j:true writer waits
//     (commitNotify.nWaiting()): a j:true write waits for the next group commit, up to about a
//     third of the interval, not for an fsync of its own;
//   wiredTiger: mongodb/mongo src/mongo/db/storage/wiredtiger/wiredtiger_session_cache.cpp
//     WiredTigerSessionCache::waitUntilDurable: log_flush("sync=on"), the journal written and
//     fsynced (3.x/4.0-era version; the same call on 8.0);
//   rocksdb: mongodb-partners/mongo-rocks src/rocks_durability_manager.cpp
//     RocksDurabilityManager::waitUntilDurable: SyncWAL(), the write-ahead log fsynced (read at
//     commit 21c8cf32 of the repository, not on its v3.6 branch);
//   inMemory: no journal; j:true is refused (support/server-lines.js j-refused-without-journal).
const J_TRUE = {
  mmapv1: { measures: 'group commit wait: each acknowledged batch waits for the durability thread\'s next group commit of the journal (it commits early for a waiting j:true write, within about a third of journalCommitInterval)', measures_source: 'mongodb/mongo src/mongo/db/storage/mmap_v1/dur.cpp durThread' },
  wiredTiger: { measures: 'journal fsync: each acknowledged batch waits for the WiredTiger journal (log) to be written and fsynced', measures_source: 'mongodb/mongo src/mongo/db/storage/wiredtiger/wiredtiger_session_cache.cpp WiredTigerSessionCache::waitUntilDurable (log_flush sync=on)' },
  rocksdb: { measures: 'WAL fsync: each acknowledged batch waits for RocksDB\'s write-ahead log to be fsynced', measures_source: 'mongodb-partners/mongo-rocks src/rocks_durability_manager.cpp RocksDurabilityManager::waitUntilDurable (SyncWAL)' },
};

// caseMeasures(ctx, { write_concern, journal_commit_interval_ms }) -> { measures, measures_source }
// for one case of this run's engine (null measures where the engine is not one of the above).
async function caseMeasures(ctx, params) {
  const facts = await journalOf(ctx);
  const row = engineRow(ctx);
  const name = (row && row.server_engine) || ctx.description?.server?.storage_engine?.name || null;
  if (params.members_journal === 'off') {
    return { measures: 'no journal: the members run with --nojournal, each batch is acknowledged from memory and nothing is journaled (seeds/001 "without --journal")', measures_source: 'mongodb/mongo src/mongo/db/db.cpp _initAndListen refuses --nojournal only for WiredTiger replica-set members (compose/engines.tsv nojournal)' };
  }
  if (facts.journal === false) {
    return { measures: 'not applicable: no journal, so j:true has nothing to wait for (refused where the engine has none) and j:false is an acknowledgement from memory', measures_source: facts.journal_source };
  }
  const wc = params.write_concern || {};
  if (wc.j) return J_TRUE[name] || { measures: null, measures_source: `no source read for storage engine ${name ?? '(not reported)'}` };
  const iv = params.journal_commit_interval_ms;
  return {
    measures: `acknowledged from memory: no wait for the journal, which is flushed in the background${iv ? ` every ${iv} ms (journalCommitInterval, set for the case)` : ' (journalCommitInterval, 100 ms by default)'}`,
    measures_source: 'the write concern (j:false: no wait); the background flush runs every journalCommitInterval (support/server-lines.js journal-commit-interval)',
  };
}

module.exports = { journalOf, caseMeasures };
