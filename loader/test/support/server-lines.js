'use strict';
// What the tests' server answers, per server line: the one table of behaviours the wire shim
// (wire-shim.js) plays in front of mongo-java-server, each with the source it was read in, and
// the one table of mongo-java-server's own deviations from MongoDB. Tests read these tables;
// they never hard-code a test-server quirk as MongoDB's behaviour (issue 28).
//
// A behaviour is data plus a small predicate: `when(cmd, line)` on the parsed command (body =
// the command document, moreToCome = an unacknowledged write) and `answer` as MongoDB gives it:
//   refuse: { code, codeName, errmsg }      the command fails (ok: 0), nothing is executed
//   writeConcernError: { code, codeName, errmsg }  executed, acknowledged with ok: 1 and this
//                                           writeConcernError beside the write's result
//   reply(cmd, line, state)                 answered by the shim itself (a command the test
//                                           server lacks but the line has)
// Sources: mongodb/mongo at the line's release tag unless said (paths as in that repository).

const WRITES = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify']);
const isWrite = (cmd) => WRITES.has(cmd.name);
const wc = (cmd) => (cmd.body && cmd.body.writeConcern) || {};
const wNumber = (cmd) => (typeof wc(cmd).w === 'number' ? wc(cmd).w : null);

const BEHAVIOURS = {
  'retryable-writes-refused-mmapv1': {
    what: 'MMAPv1 (4.0) refuses any command carrying a txnNumber, which the driver attaches to every retryable write',
    source: 'mongodb/mongo r4.0.28 src/mongo/db/initialize_operation_session_info.cpp (initializeOperationSessionInfo: uassert on supportsDocLocking())',
    when: (cmd) => cmd.body.txnNumber !== undefined,
    answer: { refuse: { code: 20, codeName: 'IllegalOperation', errmsg: 'Transaction numbers are only allowed on storage engines that support document-level locking' } },
  },
  'retryable-writes-refused-fcv34': {
    what: 'a 3.6 shard held at featureCompatibilityVersion 3.4 refuses retryable writes',
    source: 'mongodb/mongo r3.6.23 src/mongo/db/initialize_operation_session_info.cpp (SessionsCommandFCV34Status("Retryable writes"), src/mongo/db/logical_session_id_helpers.cpp)',
    when: (cmd, line, state) => cmd.body.txnNumber !== undefined && state.fcv === '3.4',
    answer: { refuse: { code: 72, codeName: 'InvalidOptions', errmsg: 'Retryable writes is not supported when featureCompatibilityVersion is 3.4. See http://dochub.mongodb.org/core/3.6-feature-compatibility.' } },
  },
  'fcv-upgrade-refused-rocksdb': {
    what: 'MongoRocks on Percona 3.6 stays at featureCompatibilityVersion 3.4 and refuses the upgrade to 3.6 (addShard sends it)',
    source: "Percona Server for MongoDB 3.6 docs, mongorocks.html ('storage engine does not support upgrading featureCompatibilityVersion to 3.6'); mongodb/mongo r3.6.23 src/mongo/db/s/config/sharding_catalog_manager_shard_operations.cpp (addShard sends setFeatureCompatibilityVersion)",
    when: (cmd) => cmd.name === 'setFeatureCompatibilityVersion' && cmd.body.setFeatureCompatibilityVersion === '3.6',
    answer: { refuse: { code: 2, codeName: 'BadValue', errmsg: 'storage engine does not support upgrading featureCompatibilityVersion to 3.6' } },
  },
  'fcv-set': {
    what: 'setFeatureCompatibilityVersion to a version the line accepts, and getParameter featureCompatibilityVersion',
    source: 'mongodb/mongo r3.6.23 src/mongo/db/commands/set_feature_compatibility_version_command.cpp, feature_compatibility_version_command_parser.cpp ("3.4" or "3.6"); getParameter reply { featureCompatibilityVersion: { version } }',
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
    source: "mongodb/mongo src/mongo/db/write_concern.cpp validateWriteConcern: BadValue \"cannot use 'w' > 1 when a host is not replicated\" (r4.0.28 and r8.0 alike)",
    when: (cmd, line) => isWrite(cmd) && !line.replSet && wNumber(cmd) > 1,
    answer: { refuse: { code: 2, codeName: 'BadValue', errmsg: "cannot use 'w' > 1 when a host is not replicated" } },
  },
  'j-refused-without-journal': {
    what: 'j:true is refused where the storage engine is not durable (no journal: Percona inMemory)',
    source: "mongodb/mongo src/mongo/db/write_concern.cpp validateWriteConcern: BadValue \"cannot use 'j' option when a host does not have journaling enabled\" (StorageEngine::isDurable() false)",
    when: (cmd, line) => isWrite(cmd) && wc(cmd).j === true && !line.journal,
    answer: { refuse: { code: 2, codeName: 'BadValue', errmsg: "cannot use 'j' option when a host does not have journaling enabled" } },
  },
  'w-above-members-unsatisfiable': {
    what: 'a replica set executes a write whose w exceeds its data-bearing members, then answers a writeConcernError',
    source: 'mongodb/mongo r8.0 src/mongo/db/repl/replication_coordinator_impl.cpp _checkIfWriteConcernCanBeSatisfied_inlock: UnsatisfiableWriteConcern (100) "Not enough data-bearing nodes"',
    when: (cmd, line) => isWrite(cmd) && line.replSet && wNumber(cmd) > line.replSet.members,
    answer: { writeConcernError: { code: 100, codeName: 'UnsatisfiableWriteConcern', errmsg: 'Not enough data-bearing nodes' } },
  },
  'journal-commit-interval': {
    what: 'journalCommitInterval is a runtime server parameter (1-500 ms) on every line the lab runs',
    source: 'mongodb/mongo r8.0 src/mongo/db/storage/storage_parameters.idl (journalCommitInterval, gte 1, lte 500); r4.0.28 src/mongo/db/storage/mmap_v1/mmap_v1_options.cpp / storage_options.cpp',
    when: (cmd) => (cmd.name === 'setParameter' || cmd.name === 'getParameter') && cmd.body.journalCommitInterval !== undefined,
    answer: {
      reply(cmd, line, state) {
        if (!line.journal) return { ok: 0, code: 72, codeName: 'InvalidOptions', errmsg: 'attempted to set unrecognized parameter [journalCommitInterval], use help:true to see options ' };
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

// A server line: what its hello (hello: the command exists, 4.4.2+; older lines answer isMaster only), buildInfo and serverStatus say, and which behaviours it has.
// replSet: the shim plays a replica set of `members` data-bearing members (one primary port and
// members - 1 secondary ports, all in front of the same test server). sessions: hello carries
// logicalSessionTimeoutMinutes (3.6+ replica-set members and mongos: the driver then sends
// txnNumber with retryable writes, mongodb 6.x lib/utils.js supportsRetryableWrites).
const COMMON = ['w-above-1-refused-standalone', 'j-refused-without-journal', 'w-above-members-unsatisfiable', 'journal-commit-interval'];
const LINES = {
  'mongod-8.0-standalone': {
    version: '8.0.4', wire: 25, hello: true, storageEngine: { name: 'wiredTiger', supportsCommittedReads: true, persistent: true },
    journal: true, replSet: null, sessions: true, fcv: '8.0', fcvAccepts: ['7.0', '8.0'], behaviours: COMMON,
  },
  'mongod-8.0-wiredtiger-replset': {
    version: '8.0.4', wire: 25, hello: true, storageEngine: { name: 'wiredTiger', supportsCommittedReads: true, persistent: true },
    journal: true, replSet: { name: 'rs0', members: 3 }, sessions: true, fcv: '8.0', fcvAccepts: ['7.0', '8.0'], behaviours: COMMON,
  },
  'psmdb-8.0-inmemory-replset': {
    version: '8.0.4-2', wire: 25, hello: true, storageEngine: { name: 'inMemory', supportsCommittedReads: true, persistent: false },
    journal: false, replSet: { name: 'rs0', members: 3 }, sessions: true, fcv: '8.0', fcvAccepts: ['7.0', '8.0'],
    buildInfo: { psmdbVersion: '8.0.4-2' }, behaviours: COMMON,
  },
  'mongod-4.0-mmapv1-replset': {
    version: '4.0.28', wire: 7, storageEngine: { name: 'mmapv1', supportsCommittedReads: false, persistent: true },
    journal: true, replSet: { name: 'rs0', members: 3 }, sessions: true, fcv: '4.0', fcvAccepts: ['3.6', '4.0'],
    behaviours: ['retryable-writes-refused-mmapv1', ...COMMON],
  },
  'psmdb-3.6-rocksdb-replset': {
    version: '3.6.23-13.0', wire: 6, storageEngine: { name: 'rocksdb', supportsCommittedReads: true, persistent: true },
    journal: true, replSet: { name: 'rs0', members: 3 }, sessions: true, fcv: '3.4', fcvAccepts: ['3.4', '3.6'],
    buildInfo: { psmdbVersion: '3.6.23-13.0' },
    behaviours: ['retryable-writes-refused-fcv34', 'fcv-upgrade-refused-rocksdb', 'fcv-set', ...COMMON],
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

function deviationOf(id) {
  if (!DEVIATIONS[id]) throw new Error(`no test-server deviation '${id}' in loader/test/support/server-lines.js`);
  return DEVIATIONS[id];
}

function lineOf(name) {
  const line = LINES[name];
  if (!line) throw new Error(`unknown server line '${name}' (loader/test/support/server-lines.js: ${Object.keys(LINES).join(', ')})`);
  return { name, ...line };
}

module.exports = { BEHAVIOURS, LINES, DEVIATIONS, lineOf, deviationOf };
