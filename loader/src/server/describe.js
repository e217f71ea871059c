'use strict';
// The server's own description for summary.json: version, storage engine and topology exactly as
// the server reports them. Anything the server does not answer is recorded as not reported (with
// the error), never filled in: mongo-java-server, for one, has no storageEngine in serverStatus
// and no listShards.
// tryCommand(db, cmd) -> { ok: true, value } or { ok: false, error }: a command whose failure is a
// fact to record, not an error (also src/server/footprint.js's).
async function tryCommand(admin, cmd) {
  try {
    return { ok: true, value: await admin.command(cmd) };
  } catch (e) {
    return { ok: false, error: `${e.codeName || e.name}: ${e.message}` };
  }
}

const { vendorsOf, productOf } = require('./products');
const { sameProcess } = require('../../../common/process-start');

// connectTo(uri): a MongoClient with the run's credentials (used to reach shards).
async function describe(client, connectTo) {
  const admin = client.db('admin');
  const out = { server: {}, topology: {} };
  const build = await tryCommand(admin, { buildInfo: 1 });
  const status = await tryCommand(admin, { serverStatus: 1 });
  out.server.version = build.ok ? build.value.version : status.ok ? status.value.version ?? null : null;
  if (build.ok && build.value.gitVersion) out.server.git_version = build.value.gitVersion;
  // The build's vendor, where the server names one (src/server/products.js vendorsOf: every
  // `<product>Version` key, Percona's psmdbVersion, whose IDL was read at commit 4186e681 of the
  // 8.0 era, and FerretDB's ferretdbVersion among them; percona/mongodb_exporter
  // exporter/v1_compatibility.go tells the vendor apart the same way); MongoDB's own build has no
  // such field, so null says "not named", not "MongoDB". The report reads it (report/README.md: a
  // run's server identity), so MongoDB's and Percona's 8.0 are never pooled. product names the
  // first, as "psmdb 8.0.4-2", "ferretdb v1.24.2".
  out.server.vendors = build.ok ? vendorsOf(build.value) : [];
  out.server.product = out.server.vendors.length ? `${out.server.vendors[0].product} ${out.server.vendors[0].version}` : null;
  // The backend, where the product has one and reveals it (FerretDB: SQLite, PostgreSQL).
  Object.assign(out.server, await backendOf(admin, out.server));
  if (status.ok && status.value.storageEngine) {
    out.server.storage_engine = status.value.storageEngine; // { name, supportsCommittedReads, persistent, ... }
  } else {
    out.server.storage_engine = null;
    out.server.storage_engine_note = status.ok
      ? 'serverStatus has no storageEngine field (mongos, or a server that does not report it)'
      : `serverStatus failed: ${status.error}`;
  }
  // process: serverStatus.process is the executable's name (recorded, never used as a label);
  // process_start: this process's pid and start (localTime - uptime), to tell a restart apart.
  if (status.ok) {
    out.server.process = status.value.process ?? null;
    out.server.process_start = processStart(status.value);
  }
  // featureCompatibilityVersion, where the server answers it (mongod; not mongos, whose shards are
  // asked below): src/server/retry-writes.js reads it (a 3.6 shard at 3.4 refuses retryable writes).
  out.server.feature_compatibility_version = await fcvOf(admin);
  // hello (MongoDB >= 4.4.2, 5.0+); isMaster on servers that predate it or do not implement it.
  let hello = await tryCommand(admin, { hello: 1 });
  if (!hello.ok) hello = await tryCommand(admin, { isMaster: 1 });
  if (hello.ok) {
    const h = hello.value;
    out.topology.kind = h.msg === 'isdbgrid' ? 'mongos' : h.setName ? 'replica_set_member' : 'standalone';
    // passives (priority 0) and arbiters as hello lists them: the data-bearing members are hosts +
    // passives (hidden and delayed members are not listed), arbiters apart (src/kinds/durability/wc-topology.js).
    for (const k of ['msg', 'setName', 'hosts', 'passives', 'arbiters', 'primary', 'me', 'maxWireVersion']) {
      if (h[k] !== undefined) out.topology[k === 'setName' ? 'set_name' : k === 'maxWireVersion' ? 'max_wire_version' : k] = h[k];
    }
    if (out.topology.kind === 'replica_set_member') out.server.oplog_mb = await oplogMbOf(client);
  } else {
    out.topology.kind = 'unknown';
    out.topology.error = hello.error;
  }
  if (out.topology.kind === 'mongos') {
    const shards = await tryCommand(admin, { listShards: 1 });
    if (shards.ok) {
      out.topology.shards = shards.value.shards.map((s) => ({ id: s._id, host: s.host, state: s.state }));
      // mongos stores nothing, so its serverStatus has no storageEngine: ask each shard's members
      // (the data-bearing mongods) with the same credentials, as ./run.sh status does.
      for (const sh of out.topology.shards) Object.assign(sh, await describeShard(sh.host, connectTo));
      const first = out.topology.shards.find((sh) => sh.storage_engine);
      const withOplog = out.topology.shards.find((sh) => sh.oplog_mb);
      if (withOplog) out.server.oplog_mb = withOplog.oplog_mb;
      const withFcv = out.topology.shards.find((sh) => sh.feature_compatibility_version);
      if (!out.server.feature_compatibility_version && withFcv) {
        out.server.feature_compatibility_version = withFcv.feature_compatibility_version;
      }
      if (!out.server.storage_engine && first) {
        out.server.storage_engine = first.storage_engine;
        out.server.storage_engine_note = `reported by shard ${first.id} (mongos has no storage engine of its own)`;
      }
    } else {
      out.topology.shards_error = shards.error;
    }
  }
  return out;
}

// backendOf(admin, server) -> { backend, backend_note } for a product with a backend (products.js),
// else {}. Asked again after setup (runner.js) when the product names none before a database opens.
async function backendOf(admin, server) {
  return productOf(server)?.backend?.(admin) ?? {};
}

// processStart(serverStatus) -> { pid, uptime_s, started_at } or null: pid and uptime are in every
// mongod's and mongos's serverStatus (manual "serverStatus": pid, uptime, localTime) and in
// FerretDB's (msg_serverstatus.go); started_at is localTime - uptime, to the second.
function processStart(st) {
  const pid = st.pid !== undefined ? Number(st.pid) : null;
  // uptimeMillis where given (mongod, mongos, FerretDB): uptime alone is whole seconds on MongoDB.
  const uptimeMs = st.uptimeMillis !== undefined ? Number(st.uptimeMillis) : st.uptime !== undefined
    ? Number(st.uptime) * 1000 : null;
  if (pid === null && uptimeMs === null) return null;
  const local = st.localTime instanceof Date ? st.localTime.getTime() : null;
  const started = local !== null && uptimeMs !== null ? new Date(local - uptimeMs).toISOString() : null;
  return { pid, uptime_s: uptimeMs === null ? null : uptimeMs / 1000, started_at: started };
}

// serverProcessNow(client) -> processStart of the server now, or null when it does not answer.
async function serverProcessNow(client) {
  try {
    return processStart(await client.db('admin').command({ serverStatus: 1 }));
  } catch {
    return null;
  }
}

// restartFacts(atStart, atEnd) -> { process_at_end, restarted_during_run: true | false | null,
// restart_note }: null (not known) when either reading is missing.
function restartFacts(a, b) {
  if (!a || !b) return { process_at_end: b || null, restarted_during_run: null, restart_note: b ? 'no process reading at the start' : 'the server did not answer serverStatus at the end' };
  const restarted = !sameProcess(a, b); // common/process-start.js, the report's rule too
  return { process_at_end: b, restarted_during_run: restarted,
    ...(restarted ? { restart_note: `the server restarted during the run: pid ${a.pid} started ${a.started_at}, at the end pid ${b.pid} started ${b.started_at}` } : {}) };
}

// restartReason(server) -> the run's reason when the server restarted during it: one short line
// (the terminal's "incomplete run (...)"); the full readings are in server.restart_note.
function restartReason(server) {
  const a = server.process_start || {};
  const b = server.process_at_end || {};
  const which = a.pid !== b.pid ? `pid ${a.pid} -> ${b.pid}` : `pid ${a.pid}, started again ${b.started_at}`;
  return `the server restarted during the run (${which}): not a sample of one server process`;
}

// fcvOf(admin) -> the featureCompatibilityVersion string, or null when the server does not answer
// it. getParameter answers { featureCompatibilityVersion: { version: '3.4' } } from 3.6 on and a
// plain string on 3.4 (mongodb/mongo jstests/multiVersion/set_feature_compatibility_version.js of
// each line reads res.featureCompatibilityVersion.version, or res.featureCompatibilityVersion).
async function fcvOf(admin) {
  const r = await tryCommand(admin, { getParameter: 1, featureCompatibilityVersion: 1 });
  if (!r.ok) return null;
  const v = r.value.featureCompatibilityVersion;
  return typeof v === 'string' ? v : typeof v?.version === 'string' ? v.version : null;
}

// oplogMbOf(client) -> the replica-set member's oplog size in MB (collStats of local.oplog.rs,
// maxSize in bytes: what --oplogSize made it), or null when the server does not answer it.
async function oplogMbOf(client) {
  const r = await tryCommand(client.db('local'), { collStats: 'oplog.rs' });
  return r.ok && Number(r.value.maxSize) > 0 ? Math.round(Number(r.value.maxSize) / 1048576) : null;
}

// shardUri('shard01/shard01-a:27017,shard01-b:27017') -> mongodb://shard01-a:27017,shard01-b:27017/?replicaSet=shard01
function shardUri(host) {
  const m = /^([^/]+)\/(.+)$/.exec(host);
  return m ? `mongodb://${m[2]}/?replicaSet=${encodeURIComponent(m[1])}` : `mongodb://${host}/`;
}

async function describeShard(host, connectTo) {
  let c;
  try {
    c = connectTo(shardUri(host));
    await c.connect();
    const admin = c.db('admin');
    const status = await tryCommand(admin, { serverStatus: 1 });
    const out = { version: status.ok ? status.value.version ?? null : null,
      storage_engine: status.ok ? status.value.storageEngine ?? null : null,
      feature_compatibility_version: await fcvOf(admin), oplog_mb: await oplogMbOf(c) };
    if (!status.ok) out.error = status.error;
    return out;
  } catch (e) {
    return { storage_engine: null, error: `${e.name}: ${e.message}` };
  } finally {
    if (c) await c.close(true).catch(() => {});
  }
}

module.exports = { describe, shardUri, backendOf, processStart, serverProcessNow, restartFacts, restartReason,
  tryCommand };
