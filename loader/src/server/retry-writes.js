'use strict';
// Retryable writes, decided per server line before the first write. The driver's default
// (retryWrites true) attaches a txnNumber to every retryable write on any deployment whose hello
// carries logicalSessionTimeoutMinutes (3.6+ replica-set members and mongos: mongodb 6.16
// lib/utils.js supportsRetryableWrites, lib/operations/execute_operation.js). Two lines the lab
// runs refuse it, so with the default every write of the run fails:
//   - MMAPv1 (4.0): IllegalOperation (20) "Transaction numbers are only allowed on storage engines
//     that support document-level locking" (mongodb/mongo r4.0.28
//     src/mongo/db/initialize_operation_session_info.cpp);
//   - a 3.6 shard at featureCompatibilityVersion 3.4 (MongoRocks is held there: compose/engines.tsv
//     hold_fcv): SessionsCommandFCV34Status("Retryable writes") (same file at r3.6.x), while its
//     mongos still advertises sessions.
// The engines table says which engines cannot have them (retryable_writes); a --uri run without a
// known --engine decides from what the server reports: its featureCompatibilityVersion, and the
// row of its storage engine and build (the run's row, src/server/engine-label.js). summary.json
// retry_writes records the decision.
const { connect } = require('./connect');

// Retryable writes need featureCompatibilityVersion 3.6 or later (the 3.6 release's sessions).
const MIN_FCV = [3, 6];

function fcvBelowMin(fcv) {
  const m = /^(\d+)\.(\d+)/.exec(String(fcv || ''));
  if (!m) return false;
  const [maj, min] = [Number(m[1]), Number(m[2])];
  return maj < MIN_FCV[0] || (maj === MIN_FCV[0] && min < MIN_FCV[1]);
}

const refusedBy = (row) => `engines table: '${row.engine}' cannot take retryable writes: its shard refuses the txnNumber the driver attaches to them (${row.hold_fcv
  ? `held at featureCompatibilityVersion ${row.hold_fcv}, where a 3.6 shard refuses them`
  : `${row.server_engine} has no document-level locking`}; compose/engines.tsv retryable_writes)`;

// decide({ row, rowFrom, description }) -> { enabled, source, reason }. row, rowFrom: the run's
// engines-table row and what chose it (src/server/engine-label.js engineLabel). A row --engine named
// decides. Otherwise the server's report: an FCV below 3.6, then the row of its storage engine and
// build. No row (no table: the stack's loader image without compose/) and nothing known against
// them: enabled.
function decide({ row, rowFrom, description }) {
  const server = (description && description.server) || {};
  // A standalone: the driver sends no retryable writes whatever retryWrites says (they need a
  // replica set or a sharded cluster: manual "Retryable Writes", Prerequisites; the drivers'
  // supportsRetryableWrites requires a topology other than Single/standalone, mongodb 7.8
  // lib/utils.js). Recorded as off, and the client is kept as it is (nothing to switch off).
  if (description && description.topology && description.topology.kind === 'standalone') {
    return { enabled: false, source: 'server: standalone', effective: 'the driver sends none to a standalone',
      reason: 'a standalone takes no retryable writes (they need a replica set or a sharded cluster), so the driver sends none' };
  }
  const byRow = (source) => ({ enabled: row.retryable_writes, source,
    reason: row.retryable_writes ? null : refusedBy(row) });
  if (row && rowFrom === 'flag') return byRow(`engines table row ${row.engine}`);
  const fcv = server.feature_compatibility_version;
  if (fcvBelowMin(fcv)) {
    return { enabled: false, source: `server: featureCompatibilityVersion ${fcv}`,
      reason: `the server reports featureCompatibilityVersion ${fcv}; retryable writes need ${MIN_FCV.join('.')} or later (a 3.6 shard at 3.4 refuses their txnNumber)` };
  }
  if (row && rowFrom === 'server') return byRow(`server: storage engine ${row.server_engine} (engines table row ${row.engine})`);
  return { enabled: true, source: 'driver default (nothing known against them)', reason: null };
}

// apply(client, { decision, conn, reopen, timeoutMs, username, log }) -> the client to use: the
// same one when retryable writes stay on, else a new one (reopen()) built after conn.retryWrites
// is set to false, which the workers' clients are built from too (src/server/clients.js).
async function apply(client, { decision, conn, reopen, timeoutMs, username, log }) {
  conn.retryWrites = decision.enabled;
  if (decision.enabled || decision.effective) return client;
  log(`retryable writes off (retryWrites=false): ${decision.reason} [${decision.source}]`);
  await client.close().catch(() => {});
  return connect(reopen(), { timeoutMs, username });
}

module.exports = { decide, apply };
