'use strict';
// What the tests' server answers, per server line: the one table of behaviours the wire shim
// (wire-shim.js) plays in front of mongo-java-server, each with the source it was read in, and
// the one table of mongo-java-server's own deviations from MongoDB. Tests read these tables;
// they never hard-code a test-server quirk as MongoDB's behaviour.
//
// A behaviour is data plus a small predicate: `when(cmd, line)` on the parsed command (body =
// the command document, moreToCome = an unacknowledged write) and `answer` as MongoDB gives it:
//   refuse: { code, codeName, errmsg }      the command fails (ok: 0), nothing is executed
//   writeConcernError: { code, codeName, errmsg }  executed, acknowledged with ok: 1 and this
//                                           writeConcernError beside the write's result
//   reply(cmd, line, state)                 answered by the shim itself (a command the test
//                                           server lacks but the line has)
// Sources, read 2026-11-24 (the upstream repositories are over the fetch limit, so through copies
// at named commits): 8.0 = upstream r8.0.10 in y123456yz/reading-and-annotate-mongodb-8.0 @3936b75
// (dir mongo-r8.0.10/); 4.0 = psmdb-4.0.19-12 @7ac6600 and 3.6 = psmdb-3.6.19-7.0 @d79c818 in
// zaorangyang/percona-server-mongodb-annotation (Percona tags that merge upstream r4.0.19 and
// r3.6.19); MongoRocks = percona/mongo-rocks @dd080d2 (pinned by psmdb-3.6.19); drivers = the
// installed mongodb 7.8.0 / 6.16.0 / 6.9.0. Paths are as in mongodb/mongo.

const WRITES = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify']);
const isWrite = (cmd) => WRITES.has(cmd.name);
const wc = (cmd) => (cmd.body && cmd.body.writeConcern) || {};
const wNumber = (cmd) => (typeof wc(cmd).w === 'number' ? wc(cmd).w : null);

// storeRefuses(cmd, state): inMemory's store (state.store = { bytes, oplogBytes, data, oplog }, set
// by a test; none: unlimited). A replicated write occupies its size in the data and as much again
// in the oplog, a capped collection that keeps at most oplogBytes; a write that would take the two
// past the store's bytes is refused, else counted. cmd.bytes: the request's size on the wire.
function storeRefuses(cmd, state) {
  const s = state.store;
  if (!s) return false;
  const oplog = Math.min(s.oplog + cmd.bytes, s.oplogBytes);
  if (s.data + cmd.bytes + oplog > s.bytes) return true;
  s.data += cmd.bytes;
  s.oplog = oplog;
  return false;
}

const BEHAVIOURS = {
  'retryable-writes-refused-mmapv1': {
    what: 'MMAPv1 (4.0) refuses any command carrying a txnNumber, which the driver attaches to every retryable write',
    source: '4.0 src/mongo/db/initialize_operation_session_info.cpp initializeOperationSessionInfo (after the replica-set check), supportsDocLocking from service_entry_point_common.cpp; mmap_v1_engine.h supportsDocLocking() false. A command error (ok: 0). The drivers turn code 20 into MMAPv1_RETRY_WRITES_ERROR_MESSAGE (6.x only on the retry pass, 7.8 on any attempt)',
    when: (cmd) => cmd.body.txnNumber !== undefined,
    answer: { refuse: { code: 20, codeName: 'IllegalOperation', errmsg: 'Transaction numbers are only allowed on storage engines that support document-level locking' } },
  },
  'retryable-writes-refused-fcv34': {
    what: 'a 3.6 mongod held at featureCompatibilityVersion 3.4 refuses retryable writes (mongos may still send them: it advertises sessions until its next sessions refresh after a downgrade)',
    source: '3.6 src/mongo/db/logical_session_id_helpers.cpp SessionsCommandFCV34Status, checked first in initialize_operation_session_info.cpp; the link is kDochubLink (feature_compatibility_version_command_parser.h), the space before the final period is in the source',
    when: (cmd, line, state) => cmd.body.txnNumber !== undefined && state.fcv === '3.4',
    answer: { refuse: { code: 72, codeName: 'InvalidOptions', errmsg: 'Retryable writes is not available in featureCompatibilityVersion 3.4. See http://dochub.mongodb.org/core/3.6-feature-compatibility .' } },
  },
  'fcv-upgrade-refused-rocksdb': {
    what: 'MongoRocks on Percona 3.6 stays at featureCompatibilityVersion 3.4 and refuses the upgrade to 3.6 (addShard sends it)',
    source: 'Percona-only code (PSMDB-197): psmdb-3.6.19 src/mongo/db/commands/set_feature_compatibility_version_command.cpp, percona/mongo-rocks src/rocks_engine.h isFcv36Supported() false; a fresh MongoRocks set starts at 3.4 (FeatureCompatibilityVersion::setIfCleanStartup). addShard sends the config servers\' own FCV (3.6 src/mongo/s/catalog/sharding_catalog_manager_shard_operations.cpp)',
    when: (cmd) => cmd.name === 'setFeatureCompatibilityVersion' && cmd.body.setFeatureCompatibilityVersion === '3.6',
    answer: { refuse: { code: 20, codeName: 'IllegalOperation', errmsg: 'storage engine does not support upgrading featureCompatibilityVersion to 3.6' } },
  },
  'fcv-set': {
    what: 'setFeatureCompatibilityVersion to a version the line accepts, and getParameter featureCompatibilityVersion',
    source: '3.6 src/mongo/db/commands/set_feature_compatibility_version_command.cpp, feature_compatibility_version_command_parser.cpp ("3.4" or "3.6"); getParameter reply { featureCompatibilityVersion: { version } }',
    when: (cmd) => cmd.name === 'setFeatureCompatibilityVersion' || (cmd.name === 'getParameter' && cmd.body.featureCompatibilityVersion !== undefined),
    answer: {
      reply(cmd, line, state) {
        if (cmd.name === 'getParameter') return { featureCompatibilityVersion: { version: state.fcv }, ok: 1 };
        const v = cmd.body.setFeatureCompatibilityVersion;
        if (!line.fcvAccepts.includes(v)) {
          return { ok: 0, code: 2, codeName: 'BadValue', errmsg: `Invalid command argument. Expected '${line.fcvAccepts.join("' or '")}', found ${v} in: ${JSON.stringify(cmd.body)}.` };
        }
        state.fcv = v;
        return { ok: 1 };
      },
    },
  },
  'w-above-1-refused-standalone': {
    what: "a standalone (not replicated) refuses w > 1 before executing the write",
    source: "src/mongo/db/write_concern.cpp validateWriteConcern, 8.0 (!isReplSet()) and 4.0/3.6 (modeNone) alike; extractWriteConcern runs before the command (service_entry_point_common.cpp), so a command error. w: 'majority' on a standalone is accepted",
    when: (cmd, line) => isWrite(cmd) && !line.replSet && wNumber(cmd) > 1,
    answer: { refuse: { code: 2, codeName: 'BadValue', errmsg: "cannot use 'w' > 1 when a host is not replicated" } },
  },
  'j-refused-without-journal': {
    what: 'j:true is refused where the storage engine keeps no journal (Percona inMemory: WiredTigerKVEngine with ephemeral=true)',
    source: "src/mongo/db/write_concern.cpp validateWriteConcern: 8.0 tests isEphemeral(), 4.0/3.6 !isDurable(); a command error. inMemory's ephemeral flag: percona-server-mongodb src/mongo/db/storage/inmemory/inmemory_init.cpp (read at psmdb-4.0.19 and a post-8.0 commit; the 8.0 branch itself not read)",
    when: (cmd, line) => isWrite(cmd) && wc(cmd).j === true && !line.journal,
    answer: { refuse: { code: 2, codeName: 'BadValue', errmsg: "cannot use 'j' option when a host does not have journaling enabled" } },
  },
  'w-above-members-unsatisfiable': {
    what: 'a replica set executes a write whose w exceeds its data-bearing members, then answers a writeConcernError',
    source: '8.0 src/mongo/db/repl/repl_set_config.cpp checkIfWriteConcernCanBeSatisfied (w > getNumDataBearingMembers(): every member but arbiters, hidden and delayed included), reached from replication_coordinator_impl.cpp _awaitReplication after the write; a writeConcernError in an ok: 1 reply (commands.cpp appendCommandWCStatus). 4.0 names code 100 CannotSatisfyWriteConcern',
    when: (cmd, line) => isWrite(cmd) && line.replSet && wNumber(cmd) > line.replSet.members,
    answer: { writeConcernError: { code: 100, codeName: 'UnsatisfiableWriteConcern', errmsg: 'Not enough data-bearing nodes' } },
  },
  'repl-set-get-config': {
    what: "replSetGetConfig lists every member; data-bearing = members that are not arbiterOnly (hidden and delayed count: hello's hosts + passives omit them, so hello only bounds the count from below)",
    source: "manual 'replSetGetConfig' (8.0); 8.0 src/mongo/db/repl/topology_coordinator.cpp (hello skips hidden and delayed members), repl_set_config.cpp getNumDataBearingMembers; a standalone answers NoReplicationEnabled (76) from repl_set_commands.cpp checkReplEnabledForCommand (message not read)",
    when: (cmd) => cmd.name === 'replSetGetConfig',
    answer: {
      reply(cmd, line, state) {
        if (!line.replSet) return { ok: 0, code: 76, codeName: 'NoReplicationEnabled', errmsg: 'not running with --replSet' };
        const members = state.hosts.map((host, i) => ({ _id: i, host,
          arbiterOnly: false, buildIndexes: true, hidden: false, priority: 1, secondaryDelaySecs: 0, votes: 1 }));
        // state.wcFieldAbsent (set by a test): a stored config without the field, which means
        // true (manual "Replica Set Configuration": the default with protocolVersion 1).
        const wc = state.wcFieldAbsent ? {}
          : { writeConcernMajorityJournalDefault: state.wcMajorityJournalDefault ?? true };
        return { config: { _id: line.replSet.name, version: state.configVersion || 1, term: 1, members,
          protocolVersion: 1, ...wc }, ok: 1 };
      },
    },
  },
  'cmdline-journal': {
    what: 'getCmdLineOpts reports storage.journal.enabled false for a mongod started with --nojournal (state.nojournal: a test restarts the members so)',
    source: 'mongodb/mongo src/mongo/db/mongod_options.cpp canonicalizeMongodOptions: --nojournal sets storage.journal.enabled false (read in 3.x/4.x-era versions); manual "getCmdLineOpts" (parsed: the options as parsed)',
    when: (cmd) => cmd.name === 'getCmdLineOpts',
    answer: {
      reply(cmd, line, state) {
        return { argv: ['mongod', ...(state.nojournal ? ['--nojournal'] : [])], parsed: { storage: { journal: { enabled: line.journal && !state.nojournal } } }, ok: 1 };
      },
    },
  },
  'inmemory-store-full': {
    what: 'inMemory keeps all data, the oplog included, inside --inMemorySizeGB: a write that would pass it fails with WT_CACHE_FULL (state.store, set by a test, is the store: storeRefuses)',
    source: 'manual "In-Memory Storage Engine", Memory Use (all data, oplog included, must fit in inMemorySizeGB, else WT_CACHE_FULL); WiredTiger dist/api_err.py WT_CACHE_FULL -31807 "operation would overflow cache" (in-memory only); mongodb/mongo src/mongo/db/storage/wiredtiger/wiredtiger_util.cpp wtRCToStatus_slow: uassert(ErrorCodes::ExceededMemoryLimit, "<rc>: <wiredtiger_strerror(rc)>") for WT_CACHE_FULL (read in 4.x-era and post-8.0 copies; a command error); Percona inMemory = WiredTiger in_memory=true (percona-server-mongodb src/mongo/db/storage/inmemory/inmemory_init.cpp)',
    when: (cmd, line, state) => isWrite(cmd) && storeRefuses(cmd, state),
    answer: { refuse: { code: 146, codeName: 'ExceededMemoryLimit', errmsg: '-31807: WT_CACHE_FULL: operation would overflow cache' } },
  },
  'repl-set-reconfig': {
    what: 'replSetReconfig with a config whose version is above the current one: writeConcernMajorityJournalDefault taken from it (absent: true)',
    source: 'manual "replSetReconfig" and "Replica Set Configuration" (writeConcernMajorityJournalDefault, default true with protocolVersion 1); 4.0 has no safe reconfig (4.4+ waits for the config to commit), src/mongo/db/repl/replication_coordinator_impl.cpp processReplSetReconfig r4.0.x; the version check\'s code 103 NewReplicaSetConfigurationIncompatible (its message not read)',
    when: (cmd, line) => cmd.name === 'replSetReconfig' && Boolean(line.replSet),
    answer: {
      reply(cmd, line, state) {
        const cfg = cmd.body.replSetReconfig || {};
        if (!(cfg.version > (state.configVersion || 1))) return { ok: 0, code: 103, codeName: 'NewReplicaSetConfigurationIncompatible', errmsg: `version field value of ${cfg.version} is not above the current config's ${state.configVersion || 1}` };
        state.configVersion = cfg.version;
        state.wcMajorityJournalDefault = cfg.writeConcernMajorityJournalDefault !== false;
        state.wcFieldAbsent = !('writeConcernMajorityJournalDefault' in cfg); // the new config as stored
        return { ok: 1 };
      },
    },
  },
  'majority-never-without-journal': {
    what: 'members without a journal (state.nojournal) while writeConcernMajorityJournalDefault is true never satisfy w:majority: mongod waits for a journal write that never comes, until wtimeout (forever without one); the shim answers the wtimeout\'s writeConcernError at once. state.viaMongos (set by a test): a drop is treated as the config server\'s drop on the shard, sent with majority write concern (4.0: mongos -> _configsvrDropCollection -> the shard, cluster-wide majority)',
    source: 'the 4.0 startup warning quoted in SERVER-49428 ("...running without journaling enabled but the writeConcernMajorityJournalDefault option to the replica set config is set to true... must be set to false or w:majority write concerns will never complete"); DOCS-9367; manual "Replica Set Configuration" writeConcernMajorityJournalDefault; wtimeout\'s error: 64 WriteConcernFailed "waiting for replication timed out", errInfo.wtimeout true (manual "Write Concern", wtimeout)',
    when: (cmd, line, state) => Boolean(state.nojournal) && state.wcMajorityJournalDefault !== false && (wc(cmd).w === 'majority' || (Boolean(state.viaMongos) && cmd.name === 'drop')),
    answer: { writeConcernError: { code: 64, codeName: 'WriteConcernFailed', errmsg: 'waiting for replication timed out', errInfo: { wtimeout: true } } },
  },
  'journal-commit-interval': {
    what: 'journalCommitInterval is a runtime server parameter (1-500 ms) on every line the lab runs, a global one: an engine without a journal (inMemory) accepts it too. It reads 100 on 8.0 and 0 on 4.0 and 3.6 when not given at startup (0 = the engine\'s default: MMAPv1 100 ms, or 30 with the journal on its own disk; WiredTiger 4.0 and MongoRocks 100), and 0 cannot be set back (line.journalCommitInterval: what a fresh member reads)',
    source: '8.0 src/mongo/db/storage/storage_parameters.idl (set_at startup and runtime, gte 1, lte kMaxJournalCommitIntervalMs = 500, storage_options.h); 4.0/3.6 src/mongo/db/storage/storage_options.h (journalCommitIntervalMs has no initializer: 0), mongod_options.cpp (stored only when --journalCommitInterval is given), the same 1..500 validator on set; 0 read as the default: 4.0 mmap_v1/dur.cpp, wiredtiger_session_cache.cpp and percona/mongo-rocks rocks_durability_manager (if (!ms) ms = 100) (the third source audit); an unknown parameter is 72 InvalidOptions "attempted to set unrecognized parameter [x], use help:true to see options " (commands/parameters.cpp)',
    when: (cmd) => (cmd.name === 'setParameter' || cmd.name === 'getParameter') && cmd.body.journalCommitInterval !== undefined,
    answer: {
      reply(cmd, line, state) {
        const was = state.journalCommitInterval;
        if (cmd.name === 'getParameter') return { journalCommitInterval: was, ok: 1 };
        const v = cmd.body.journalCommitInterval;
        if (!Number.isInteger(v) || v < 1 || v > 500) return { ok: 0, code: 2, codeName: 'BadValue', errmsg: `journalCommitInterval must be between 1 and 500, but attempted to set to: ${v}` };
        state.journalCommitInterval = v;
        return { was, ok: 1 };
      },
    },
  },
};

// A server line: what its hello (hello: the command exists, 4.4.2+; older lines answer isMaster
// only), buildInfo and serverStatus say, and which behaviours it has.
// replSet: the shim plays a replica set of `members` data-bearing members (one primary port and
// members - 1 secondary ports, all in front of the same test server). sessions: hello carries
// logicalSessionTimeoutMinutes, and the driver then sends txnNumber with retryable writes to a
// replica-set member or mongos (lib/utils.js supportsRetryableWrites, same in 6.9, 6.16, 7.8):
// true (4.0 appends it unconditionally, replication_info.cpp; 8.0 likewise), or 'fcv36' (a 3.6
// mongod only at featureCompatibilityVersion 3.6: 3.6 repl/replication_info.cpp).
// lacks (absent: none): the replica-lag methods (src/faults/scenarios/replica-lag.js methods) the
// line cannot perform, each with its source; compose/engines.tsv fault_methods is the rest
// (tables.test.js). None of these lines lacks one: fsyncLock is a command on every line (manual
// "fsyncLock"); rsSyncApplyStop, "Failpoint which stops the applier", is defined in
// src/mongo/db/repl/initial_syncer.cpp (read in 4.0-era and 6.x-era copies; 3.6 not read); netem
// is the Docker host's kernel, not the server's.
const COMMON = ['w-above-1-refused-standalone', 'j-refused-without-journal', 'w-above-members-unsatisfiable', 'repl-set-get-config', 'journal-commit-interval'];
// Recorded outputs behind each row's serverStatus, replSetGetStatus, collStats and dbStats
// (support/server-status-lines.js plays them; support/recorded/ holds the outputs, each citing its
// repository, path and commit; server-record-readings and server-record-recorded-lines check the
// loader's reading and the rows' shape against them):
//   8.0 rows    no public recorded 8.0, 7.0 or 6.0 output found. Searched (2026-11-27): percona/
//               mongodb_exporter exporter/testdata and its history (4.2.8, 3.6.20, and an "8.3"
//               file holding metrics.query only), DataDog/integrations-core mongo/tests/fixtures
//               (a 4.1.13 mongos serverStatus with hand-set values, 4.2-era replSetGetStatus),
//               open-telemetry/opentelemetry-collector-contrib mongodbreceiver testdata (4.0.25
//               with sections of later versions added, hand-made replSetGetStatus), netdata/
//               go.d.plugin modules/mongodb/testdata/v6.0.3 (a 6.0.3 reply re-serialised through
//               the collector's Go structs: renamed fields, only those the structs hold, so no
//               section's presence or absence can be read from it), and the code index for 8.0
//               section names (queues.execution, wiredTiger.checkpoint) in captured replies. The
//               nearest recording, 4.2.8 WiredTiger, backs their common sections.
//   inMemory    none public (same searches; Percona's exporter documents mongodb_ss_inMemory_* only).
//   MMAPv1      a recorded 3.0.2 standalone's serverStatus (no replSetGetStatus, collStats or
//               dbStats of an MMAPv1 server found).
//   MongoRocks  its 3.6 version's common sections and replSetGetStatus from a recorded 3.6.20
//               WiredTiger primary; no recorded `rocksdb` section, collStats or dbStats found (same
//               searches, plus find-by-content for its property and ticker names: only parsers'
//               struct definitions and Percona's jstest that asserts the 93 ticker names exist).
//   mongos      none recorded (DataDog's mongos serverStatus has hand-set values).
// dbStats on every row follows MongoDB's own jstests/core/dbstats.js (which fields each version
// and engine has) and collStats the recorded 3.6.20 collection's common fields, for want of a
// recorded dbStats or collStats of these rows.
const LINES = {
  'mongod-8.0-standalone': {
    version: '8.0.4', wire: 25, hello: true, storageEngine: { name: 'wiredTiger', supportsCommittedReads: true, persistent: true },
    journal: true, replSet: null, sessions: true, fcv: '8.0', fcvAccepts: ['7.0', '8.0'], behaviours: COMMON, journalCommitInterval: 100,
  },
  'mongod-8.0-wiredtiger-replset': {
    version: '8.0.4', wire: 25, hello: true, storageEngine: { name: 'wiredTiger', supportsCommittedReads: true, persistent: true },
    journal: true, replSet: { name: 'rs0', members: 3 }, sessions: true, fcv: '8.0', fcvAccepts: ['7.0', '8.0'], behaviours: COMMON, journalCommitInterval: 100,
  },
  // Percona's build of the same engine (the engines table's percona-wt): buildInfo psmdbVersion
  // is all that tells it from MongoDB's (products.js).
  'psmdb-8.0-wiredtiger-replset': {
    version: '8.0.4-2', wire: 25, hello: true, storageEngine: { name: 'wiredTiger', supportsCommittedReads: true, persistent: true },
    journal: true, replSet: { name: 'rs0', members: 3 }, sessions: true, fcv: '8.0', fcvAccepts: ['7.0', '8.0'],
    buildInfo: { psmdbVersion: '8.0.4-2' }, behaviours: COMMON, journalCommitInterval: 100,
  },
  'psmdb-8.0-inmemory-replset': {
    version: '8.0.4-2', wire: 25, hello: true, storageEngine: { name: 'inMemory', supportsCommittedReads: true, persistent: false },
    journal: false, replSet: { name: 'rs0', members: 3 }, sessions: true, fcv: '8.0', fcvAccepts: ['7.0', '8.0'],
    buildInfo: { psmdbVersion: '8.0.4-2' }, behaviours: [...COMMON, 'inmemory-store-full'], journalCommitInterval: 100,
  },
  'mongod-4.0-mmapv1-replset': {
    version: '4.0.28', wire: 7, storageEngine: { name: 'mmapv1', supportsCommittedReads: false, persistent: true },
    journal: true, replSet: { name: 'rs0', members: 3 }, sessions: true, fcv: '4.0', fcvAccepts: ['3.6', '4.0'],
    behaviours: ['retryable-writes-refused-mmapv1', 'cmdline-journal', 'repl-set-reconfig', 'majority-never-without-journal', ...COMMON], journalCommitInterval: 0,
  },
  'psmdb-3.6-rocksdb-replset': {
    version: '3.6.23-13.0', wire: 6, storageEngine: { name: 'rocksdb', supportsCommittedReads: true, persistent: true },
    journal: true, replSet: { name: 'rs0', members: 3 }, sessions: 'fcv36', fcv: '3.4', fcvAccepts: ['3.4', '3.6'],
    buildInfo: { psmdbVersion: '3.6.23-13.0' },
    behaviours: ['retryable-writes-refused-fcv34', 'fcv-upgrade-refused-rocksdb', 'fcv-set', ...COMMON], journalCommitInterval: 0,
  },
  // A mongos (the server record through a router): hello says msg 'isdbgrid' (manual
  // 'hello', mongos), serverStatus has process 'mongos' and no storageEngine, listShards and
  // serverStatus.sharding.configsvrConnectionString name what a test set in shim.state.shards /
  // shim.state.configsvr (support/server-status-lines.js). No write-concern behaviours: mongos
  // passes those to the shards.
  'mongos-8.0': {
    version: '8.0.4', wire: 25, hello: true, mongos: true, // no storageEngine: mongos stores nothing
    journal: true, replSet: null, sessions: true, fcv: '8.0', fcvAccepts: ['7.0', '8.0'], behaviours: [],
  },
};

// mongo-java-server 1.47.0 (the tests' server) where it is not MongoDB: what it does, what
// MongoDB does instead, and the evidence. loader/test/server-lines.test.js checks that each one
// still holds on the test server (a deviation that went away fails there, so this table cannot
// go stale silently); tests that depend on one name it (deviationOf) instead of hard-coding it.
const DEVIATIONS = {
  'w-above-1-on-standalone': {
    test_server: 'acknowledges w:2 and w:3 on a standalone as if they were w:1',
    mongodb: "refuses them: BadValue \"cannot use 'w' > 1 when a host is not replicated\" (behaviour w-above-1-refused-standalone)",
    shim_corrects: true,
  },
  'unacknowledged-write-connection': {
    test_server: 'does not honour OP_MSG moreToCome: w:0 writes may be answered or the connection dropped, so whether they arrive depends on timing',
    mongodb: 'executes the write and sends no reply on the same, open connection (manual "Write Concern", w: 0; wire protocol OP_MSG moreToCome)',
    shim_corrects: true,
  },
  'journal-commit-interval-unknown': {
    test_server: 'setParameter journalCommitInterval fails (no such parameter)',
    mongodb: 'a runtime parameter, 1-500 ms (behaviour journal-commit-interval)',
    shim_corrects: true,
  },
  'no-storage-engine': {
    test_server: 'serverStatus has no storageEngine field',
    mongodb: 'every mongod reports serverStatus.storageEngine { name, supportsCommittedReads, persistent } (manual serverStatus "storageEngine")',
    shim_corrects: true,
  },
  'standalone-only-hello': {
    test_server: 'hello never names a replica set (no setName, hosts, logicalSessionTimeoutMinutes as a member), so the driver never sends txnNumber',
    mongodb: "a replica-set member's hello carries setName, hosts, primary and logicalSessionTimeoutMinutes (manual 'hello')",
    shim_corrects: true,
  },
  'error-codes': {
    test_server: 'answers its own error codes for refusals MongoDB words otherwise (e.g. CommandNotFound 59 for parameters and commands it lacks)',
    mongodb: 'per line, as in the behaviours table; tests assert codes only from that table',
    shim_corrects: false,
  },
  'no-sharding-or-replication-commands': {
    test_server: 'has no listShards, replSetGetStatus, addShard',
    mongodb: 'mongos and replica-set members answer them',
    shim_corrects: false,
  },
};

// FerretDB v1.24.2 on SQLite (the suite's second real server, test/suites/45-ferretdb.sh) where
// it is not MongoDB, as the lab meets it. What FerretDB itself documents as ignored is product
// knowledge the loader acts on (src/server/products.js PRODUCTS.ferretdb.ignores: writeConcern w and j);
// the rest are facts the tests work around. loader/test/ferretdb/deviations.test.js checks that
// each still holds on the built server, so this table cannot go stale either.
const FERRETDB_DEVIATIONS = {
  'write-concern-ignored': {
    ferretdb: 'ignores writeConcern on insert, update, delete and findAndModify (v1.24.2 internal/handler/common/insert.go: `ferretdb:"writeConcern,ignored"`)',
    mongodb: 'honours w and j (manual "Write Concern")',
    lab: 'cases that ask them are recorded server_ignores and left out of verdicts (src/server/products.js)',
  },
  'no-expr-comparison': {
    ferretdb: 'a query with $expr comparing computed values fails: NotImplemented (238) "The operator $gt is not implemented yet"',
    mongodb: '$expr with aggregation expressions, 3.6+ (manual "$expr")',
    lab: 'tests count such documents on the client (experiments.test.js experiment2)',
  },
  'no-journal-commit-interval': {
    ferretdb: 'getParameter journalCommitInterval fails: InvalidOptions (72) "no option found to get"',
    mongodb: 'a runtime parameter, 1-500 ms (behaviour journal-commit-interval)',
    lab: "the journal experiment's interval cases are recorded unsupported with that answer",
  },
  'no-storage-engine': {
    ferretdb: 'serverStatus has no storageEngine field (its backend is named only in getLog startupWarnings)',
    mongodb: 'every mongod reports serverStatus.storageEngine',
    lab: 'filed under its product and backend (src/server/engine-label.js), engine_source product',
  },
  'standalone-only-hello': {
    ferretdb: 'hello never names a replica set (no setName, hosts): a standalone to the driver',
    mongodb: "a replica-set member's hello carries setName and hosts",
    lab: 'the write concerns above w:1 and majority are not applicable (not run), as on a MongoDB standalone',
  },
};

// The images of compose/engines.tsv (its image column), with what their own builds say
// (tables.test.js checks each row against its image):
//   vendor     who builds the server: docker-library's official `mongo` is MongoDB's own release;
//              percona/percona-server-mongodb is Percona Server for MongoDB
//   uid        the uid mongod runs as: docker-library/mongo Dockerfile (`useradd --uid 999 --system
//              --gid mongodb`); percona/percona-docker percona-server-mongodb.* (`useradd -u 1001 -r
//              -g 1001 ... mongodb`). A wrong uid leaves the keyfile copy (mode 400) unreadable
//   platforms  the platforms the tag is published for: docker-library/official-images library/mongo
//              (4.0 and 8.0: amd64 and arm64v8); percona/percona-docker has no aarch64 Dockerfile for
//              percona-server-mongodb-3.6; Percona's 8.0 tags carry an ARM64 digest beside the amd64
//              one (docs.percona.com percona-operator-for-mongodb images.html). On a Docker host:
//              docker manifest inspect IMAGE
const BOTH = ['linux/amd64', 'linux/arm64'];
const IMAGES = {
  'mongo:8.0': { vendor: 'MongoDB', uid: '999', platforms: BOTH },
  'mongo:4.0': { vendor: 'MongoDB', uid: '999', platforms: BOTH },
  'percona/percona-server-mongodb:8.0': { vendor: 'Percona Server for MongoDB', uid: '1001', platforms: BOTH },
  'percona/percona-server-mongodb:3.6': { vendor: 'Percona Server for MongoDB', uid: '1001', platforms: ['linux/amd64'] },
};

// JOURNAL_DIRS: where each storage engine keeps its journal under --dbpath, on a line with a
// journal (compose/engines.tsv journal_dir). WiredTiger and MMAPv1: <dbpath>/journal (manual
// "Journaling"); MongoRocks: <dbpath>/db/journal, RocksDB's write-ahead log (mongodb-partners/
// mongo-rocks rocks_init.cpp: the engine's path is dbpath + "/db"; rocks_engine.cpp: options.wal_dir
// = _path + "/journal").
const JOURNAL_DIRS = { wiredTiger: 'journal', mmapv1: 'journal', rocksdb: 'db/journal' };

// linesOf(row) -> [[name, line]]: the server lines a row of compose/engines.tsv is, by its storage
// engine and release line (a mongos line has no storage engine).
function linesOf(row) {
  return Object.entries(LINES).filter(([, l]) => l.storageEngine && l.storageEngine.name === row.server_engine && l.version.startsWith(`${row.server_line}.`));
}

function deviationOf(id) {
  if (!DEVIATIONS[id]) throw new Error(`no test-server deviation '${id}' in loader/test/support/server-lines.js`);
  return DEVIATIONS[id];
}

// Variants of a line: '<line>+<variant>' is the line with the variant's settings.
// checkpoint-stall: every 10 s the primary holds writes for 1 s and its serverStatus says a
// checkpoint runs meanwhile (wiredTiger.checkpoint['progress state'] 1, and one more 'total
// succeed number of checkpoints' when it ends), as seeds/004 saw TokuMX's rate drop at each
// checkpoint; stall-no-event: the same hold with nothing in serverStatus (a stall the server
// does not report). Played by wire-shim.js (stall windows) and server-status-lines.js.
const VARIANTS = {
  'checkpoint-stall': { stall: { everyMs: 10000, holdMs: 1000, checkpoint: true } },
  'stall-no-event': { stall: { everyMs: 10000, holdMs: 1000, checkpoint: false } },
  // The steady base line: no stall and no event in serverStatus (no application-thread eviction
  // moving with the writes), so a dip can only be the host's (stability-run.test.js).
  steady: { quiet: true },
};

function lineOf(full) {
  const [name, variant] = full.split('+');
  if (variant && !VARIANTS[variant]) throw new Error(`unknown line variant '${variant}' (loader/test/support/server-lines.js: ${Object.keys(VARIANTS).join(', ')})`);
  if (variant) return { ...lineOf(name), name: full, ...VARIANTS[variant] };
  const line = LINES[name];
  if (!line) throw new Error(`unknown server line '${name}' (loader/test/support/server-lines.js: ${Object.keys(LINES).join(', ')})`);
  return { name, ...line };
}

module.exports = { BEHAVIOURS, LINES, VARIANTS, DEVIATIONS, FERRETDB_DEVIATIONS, IMAGES, JOURNAL_DIRS, lineOf, linesOf,
  deviationOf };
