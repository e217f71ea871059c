'use strict';
// The server's own description for summary.json: version, storage engine and topology exactly as
// the server reports them. Anything the server does not answer is recorded as not reported (with
// the error), never filled in: mongo-java-server, for one, has no storageEngine in serverStatus
// and no listShards.
async function tryCommand(admin, cmd) {
  try {
    return { ok: true, value: await admin.command(cmd) };
  } catch (e) {
    return { ok: false, error: `${e.codeName || e.name}: ${e.message}` };
  }
}

async function describe(client) {
  const admin = client.db('admin');
  const out = { server: {}, topology: {} };
  const build = await tryCommand(admin, { buildInfo: 1 });
  const status = await tryCommand(admin, { serverStatus: 1 });
  out.server.version = build.ok ? build.value.version : status.ok ? status.value.version ?? null : null;
  if (build.ok && build.value.gitVersion) out.server.git_version = build.value.gitVersion;
  if (status.ok && status.value.storageEngine) {
    out.server.storage_engine = status.value.storageEngine; // { name, supportsCommittedReads, persistent, ... }
  } else {
    out.server.storage_engine = null;
    out.server.storage_engine_note = status.ok
      ? 'serverStatus has no storageEngine field (mongos, or a server that does not report it)'
      : `serverStatus failed: ${status.error}`;
  }
  if (status.ok) out.server.process = status.value.process ?? null;
  // hello (MongoDB >= 4.4.2, 5.0+); isMaster on servers that predate it or do not implement it.
  let hello = await tryCommand(admin, { hello: 1 });
  if (!hello.ok) hello = await tryCommand(admin, { isMaster: 1 });
  if (hello.ok) {
    const h = hello.value;
    out.topology.kind = h.msg === 'isdbgrid' ? 'mongos' : h.setName ? 'replica_set_member' : 'standalone';
    for (const k of ['msg', 'setName', 'hosts', 'primary', 'me', 'maxWireVersion']) {
      if (h[k] !== undefined) out.topology[k === 'setName' ? 'set_name' : k === 'maxWireVersion' ? 'max_wire_version' : k] = h[k];
    }
  } else {
    out.topology.kind = 'unknown';
    out.topology.error = hello.error;
  }
  if (out.topology.kind === 'mongos') {
    const shards = await tryCommand(admin, { listShards: 1 });
    if (shards.ok) out.topology.shards = shards.value.shards.map((s) => ({ id: s._id, host: s.host, state: s.state }));
    else out.topology.shards_error = shards.error;
  }
  return out;
}

module.exports = { describe };
