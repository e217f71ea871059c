'use strict';
// The server's side of a run (runner.js): connecting from the main thread, what the server is
// (its description, the engine label, retryable writes, storage facts), the server record, the
// collection's footprint around the steps, and at the end whether the server restarted. It sees the
// run only through the context it is given, not the Run itself:
//   conn (clients.js newClient's), config, opts (the flags it reads: uri, username,
//   serverSelectionTimeoutMs, engine, profile, journalPath, oplogMb), log, untilStopped(promise),
//   stopReason() (null while the run goes on), stop(reason, code).
// The run reads back client, description, connection, engineReported, retryWrites, storage,
// serverRecord and footprint for summary.json.
const { setTimeout: sleep } = require('node:timers/promises');
const { REPO_ROOT } = require('../experiment/config');
const { newClient } = require('../server/clients');
const { describe, backendOf, serverProcessNow, restartFacts, restartReason } = require('../server/describe');
const retryWrites = require('../server/retry-writes');
const { storageFacts } = require('../server/storage-facts');
const { serverLine } = require('../server/server-line');
const { connect } = require('../server/connect');
const { connectionFacts } = require('../server/connection-facts');
const { engineLabel } = require('../server/engine-label');
const footprint = require('../server/footprint');
const { redactUri } = require('../results/summary');
const { startServerRecord } = require('../server-record');

class ServerSession {
  constructor(ctx) {
    this.ctx = ctx;
  }

  // connect() -> false when the run was stopped meanwhile. Once from the main thread: fail fast
  // and clearly when the server is not there.
  async connect() {
    const { conn, config, opts, log, untilStopped, stopReason } = this.ctx;
    log(`connecting to ${redactUri(opts.uri)} (server selection timeout ${opts.serverSelectionTimeoutMs / 1000}s)`);
    this.client = newClient(conn, config, { maxPoolSize: 4, minPoolSize: 0 });
    // may switch driver line (src/server/driver-line.js)
    const connected = await untilStopped(connect(this.client, { timeoutMs: opts.serverSelectionTimeoutMs,
      username: opts.username }));
    if (stopReason()) return false;
    this.client = connected;
    this.connection = connectionFacts(this.client);
    const description = await untilStopped(describe(this.client,
      (uri) => newClient({ ...conn, uri, serverSelectionTimeoutMs: 5000 }, null, { minPoolSize: 0 })));
    if (stopReason()) return false;
    this.description = description;
    return true;
  }

  // readBackend: a product whose backend is named only once a database is open (FerretDB on a
  // fresh server, src/server/products.js), asked again after the setup created the collection.
  async readBackend() {
    Object.assign(this.description.server, await backendOf(this.client.db('admin'), this.description.server));
  }

  // label() -> engine-label.js's label for --engine and what the server reports.
  label() {
    const { description } = this;
    const flag = this.ctx.opts.engine;
    // A mongos stores nothing and reports no engine: its shards' members do (describe.js asks
    // them), and that is the engine the run measured when every shard names the same one.
    const shardEngines = [...new Set((description.topology.shards || []).map((sh) => sh.storage_engine?.name)
      .filter(Boolean))];
    this.reported = description.server.storage_engine?.name
      ?? (shardEngines.length === 1 ? shardEngines[0] : undefined);
    const label = engineLabel({ flag, reported: this.reported, server: description.server, repoRoot: REPO_ROOT });
    this.engineReported = label.reported;
    return label;
  }

  // serverLine(): names FerretDB, Percona (src/server/server-line.js).
  serverLine() {
    return serverLine(this.description.server, this.description.topology, this.reported);
  }

  // noteLabel(label): the label is the user's word (./run.sh passes --engine); say so when the
  // server disagrees (labels may extend the name: "wiredtiger-tuned" for a server reporting
  // "wiredTiger"). A table engine's name on a server reporting an engine no row runs is not the
  // label at all: the results go under the server's word (src/engine-label.js), and the note says that.
  noteLabel(label) {
    const { opts, log } = this.ctx;
    const { reported } = this;
    if (opts.engine && label.engine !== opts.engine) {
      log(`note: the server reports storage engine '${reported}', which no engine of the table runs: results are filed under '${label.engine}', not under '${opts.engine}' (--engine)`);
    } else if (opts.engine && reported && !opts.engine.toLowerCase().startsWith(reported.toLowerCase())) {
      log(`note: results are labelled '${opts.engine}' (--engine) and the server reports storage engine '${reported}' (recorded beside it as engine_reported)`);
    }
  }

  // settle(label): retryable writes per server line (src/server/retry-writes.js: off where the
  // line refuses them), and the oplog, preallocation, the image's platform against the host's
  // (src/server/storage-facts.js).
  async settle(label) {
    const { conn, config, opts, log } = this.ctx;
    const { description } = this;
    this.retryWrites = retryWrites.decide({ row: label.row, rowFrom: label.rowFrom, description });
    this.client = await retryWrites.apply(this.client, { decision: this.retryWrites, conn, log,
      reopen: () => newClient(conn, config, { maxPoolSize: 4, minPoolSize: 0 }),
      timeoutMs: opts.serverSelectionTimeoutMs, username: opts.username });
    this.storage = storageFacts({ row: label.row, description, repoRoot: REPO_ROOT, inStack: Boolean(opts.profile),
      profile: opts.profile, journalPath: opts.journalPath, oplogMb: opts.oplogMb });
    if (this.storage.emulated) log(`note: the ${this.storage.engine_row} image is built for ${this.storage.image_platform} only and this host is ${this.storage.host_platform}: the members run under emulation (recorded in summary.json storage.emulated)`);
  }

  // startRecord(dir): the server's side of the run: each member once a second, its own
  // connections, from here to the end (src/server-record/; summary.json server_record,
  // server.ndjson). A record that cannot start (its file cannot be created) is said and the run
  // goes on.
  startRecord(dir) {
    const { conn, log } = this.ctx;
    try {
      this.serverRecord = startServerRecord({ conn, description: this.description, client: this.client, dir, log });
    } catch (e) {
      log(`server record: not started (${e.code || e.message}); the run goes on without server.ndjson`);
    }
  }

  // measureFootprint(phase): the collection's footprint (src/server/footprint.js), bounded so a
  // hung server cannot hold the run here.
  measureFootprint(phase) {
    const { config, untilStopped } = this.ctx;
    const storageEngine = this.description?.server?.storage_engine?.name ?? null;
    return untilStopped(Promise.race([footprint.measure(this.client, config, phase, { storageEngine }),
      sleep(10000).then(() => ({ phase, error: 'collStats did not answer within 10 s' }))]));
  }

  // whyLost(reason): a client's connection failed for good (src/server/clients.js isFatal). "Lost
  // the server" only when the server does not answer now (2 s); one that answers as a new process
  // restarted; one that answers as the same process stayed up (its backend, a proxy or the
  // network failed the client): each stops the run with what happened.
  async whyLost(reason) {
    const { stop } = this.ctx;
    const now = this.client ? await Promise.race([serverProcessNow(this.client), sleep(2000).then(() => null)]) : null;
    if (!now) return stop(`lost the server: ${reason}`, 1);
    const facts = restartFacts(this.description?.server?.process_start, now);
    if (facts.restarted_during_run) {
      Object.assign(this.description.server, facts);
      return stop(`${restartReason(this.description.server)}; ${reason}`, 1);
    }
    return stop(`the server stayed up (it answers, pid ${now.pid}) but a client's connection failed: ${reason}`, 1);
  }

  // stopRecord: the record stops first at the end: its last second is the run's last, and its
  // clients close here.
  async stopRecord() {
    if (this.serverRecord) await this.serverRecord.stop();
  }

  // endChecks: a server restarted during the run (a new pid or start time) is said, not pooled
  // unnoticed: asked once more at the end, bounded at 2 s, when the run did not stop on a lost server.
  async endChecks() {
    const { stop, stopReason } = this.ctx;
    if (this.client && this.description && this.description.server && !stopReason()) {
      const end = await Promise.race([serverProcessNow(this.client), sleep(2000).then(() => null)]);
      Object.assign(this.description.server, restartFacts(this.description.server.process_start, end));
      // What it measured spans two server processes (a crash and a restart the driver rode
      // through): no sample of one server. Incomplete, exit 1: the report leaves it out of
      // verdicts and compare --resume runs it again.
      if (this.description.server.restarted_during_run) stop(restartReason(this.description.server), 1);
    }
    // A member the server record saw restart (a shard behind mongos, a replica-set member): the
    // same, named by its host (summary.json server_record.members[].restarts).
    const member = this.serverRecord && !stopReason() ? this.serverRecord.record.restarts()[0] : null;
    if (member) stop(`${member.role} member ${member.host} restarted during the run (pid ${member.from.pid} -> ${member.to.pid}): not a sample of one server process`, 1);
  }

  // footprintSummary(): summary.json footprint (src/server/footprint.js).
  footprintSummary() {
    return footprint.footprintSummary(this.ctx.config, this.footprint);
  }

  // close(): the main client, bounded at 3 s (closing against a dead or hung server can wait for
  // its timeout); null without a client.
  close() {
    return this.client ? Promise.race([this.client.close(true).catch(() => {}), sleep(3000)]) : null;
  }
}

module.exports = { ServerSession };
