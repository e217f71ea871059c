'use strict';
// The stand-in mongod: a replica-set member whose documents live in a real server (FerretDB on
// SQLite, in --dbpath), and whose replica-set behaviour is played here, after MongoDB's manual
// ("Replica Set Members", "replSetGetStatus", "Write Concern", "fsync", "Replica Set Oplog"):
//  - replSetInitiate first sends each proposed member a heartbeat (the quorum check), stores the
//    config and sends it on; every member becomes SECONDARY, and a primary is elected only after
//    the election timeout (settings.electionTimeoutMillis, 10 s) plus a random offset, by a
//    majority of votes for the candidate with the newest oplog (a one-member set elects at once).
//  - A primary that hears from no majority for the election timeout steps down.
//  - Writes go to the primary only (NotWritablePrimary elsewhere). Each successful write command
//    is recorded in the primary's oplog, bounded by --oplogSize MB like a capped collection.
//  - Secondaries pull the oplog from the primary (a long poll, as the oplog fetcher's awaitData
//    cursor) and apply each entry to their own FerretDB; lag is what they have not applied yet.
//    fsyncLock and the failpoint rsSyncApplyStop stop applying (fetching and heartbeats go on);
//    a secondary whose next entry has left the primary's oplog turns RECOVERING, "too stale".
//  - w:<n> and w:"majority" wait until that many members have applied the write (wtimeout gives
//    WriteConcernFailed, code 64, as a writeConcernError); j is accepted.
//  - A find by equality on one indexed field is answered from an index this member keeps beside
//    FerretDB, which would scan for it (equality-index.js); every write to the data passes it.
// Where it still differs from mongod 8.0, point by point: DIFFERENCES.md beside this file
// (test/docker/standin/test/differences.test.js keeps that list true). It names itself in
// buildInfo (standinVersion), so a run against it is never taken for an engine's.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { EventEmitter } = require('node:events');
const { BSON } = require('./bson');
const { Link } = require('./link');
const { serve, error } = require('./session');
const { credentials, MECHS } = require('./scram');
const common = require('./common');
const { backendWrite } = require('./backend-write');
const { ferretArgs, ferretLink } = require('./ferret');
const { newEqualityIndex } = require('./equality-index');
const { newWiredTiger } = require('./wired-tiger');

const WRITES = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify', 'create', 'drop', 'dropDatabase', 'createIndexes', 'dropIndexes', 'collMod', 'renameCollection']);
// secondsOf(ts): a BSON Timestamp's seconds (as stored, or after a round trip between members)
const secondsOf = (ts) => (ts ? Number(ts.t ?? ts.high ?? 0) : 0);
const STATE_NUM = { STARTUP: 0, PRIMARY: 1, SECONDARY: 2, RECOVERING: 3, STARTUP2: 5, DOWN: 8, ROLLBACK: 9 };
// What an initial sync or a rollback copies from the sync source, and what it replaces here:
// every database but local, config and admin, and of the stand-in's own database the replicated
// collections (users, the router's shard registry), never this member's replica-set state.
const COPIED = (db, coll) => !['local', 'config', 'admin'].includes(db) && !(db === 'standin' && coll === 'replset');
// The most oplog bytes one pull reply carries (past its first entry): far below the 16 MB of a
// BSON document, as the oplog fetcher's batches are (src/mongo/db/repl/oplog_fetcher.cpp asks
// for batches that fit one 16 MB reply).
const PULL_REPLY_BYTES = 4 * 1024 * 1024;
const INSERT_GROUP_MAX = 64; // src/mongo/db/repl/insert_group.cpp kInsertGroupMaxBatchCount
// FerretDB's port inside the member's container (loopback only); another for several members on one host.
const BACKEND_PORT = Number(process.env.STANDIN_BACKEND_PORT || 37017);

// insertGroup(entries, at): the entries from `at` applied as one write: consecutive
// single-document inserts into one collection, at most INSERT_GROUP_MAX, grouped into one insert
// as 8.0's oplog applier groups them (src/mongo/db/repl/insert_group.cpp); any other entry alone.
// Applied one by one, each entry is a transaction of the member's FerretDB; grouped, a run of
// single-document inserts (the failover's set checker writes one document a write, from two
// writers) costs one.
function insertGroup(entries, at) {
  const single = (e) => typeof e.cmd.insert === 'string' && Array.isArray(e.cmd.documents) && e.cmd.documents.length === 1 &&
    Object.keys(e.cmd).every((k) => ['insert', 'documents', 'ordered', '$db'].includes(k));
  const first = entries[at];
  let end = at + 1;
  if (single(first)) {
    while (end < entries.length && end - at < INSERT_GROUP_MAX && single(entries[end]) &&
      entries[end].cmd.insert === first.cmd.insert && entries[end].cmd.$db === first.cmd.$db) end += 1;
  }
  return entries.slice(at, end);
}

async function startMember(opts) {
  const key = common.keyOf(opts.keyFile);
  const stats = common.newStats();
  const wt = newWiredTiger(opts);
  const documents = { deleted: 0, inserted: 0, returned: 0, updated: 0 }; // serverStatus.metrics.document
  const me = `${os.hostname()}:${opts.port}`;
  const started = Date.now();
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const params = { ...opts.setParameter };
  const testCommands = params.enableTestCommands === '1' || params.enableTestCommands === 'true';

  // ---- the backend: FerretDB on SQLite under --dbpath, loopback only
  const dir = path.join(opts.dbpath, 'standin-ferretdb');
  fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
  const ferret = spawn('ferretdb', ferretArgs(dir, BACKEND_PORT),
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DO_NOT_TRACK: '1' } });
  ferret.on('exit', (code, sig) => { common.log(`backend FerretDB exited (${code ?? sig}); stopping`); process.exit(1); });
  const backend = await ferretLink(BACKEND_PORT);
  const store = (coll) => ({
    async get(id) {
      const r = await backend.request({ find: coll, filter: { _id: id }, limit: 1, $db: 'standin' });
      return r.ok === 1 ? r.cursor.firstBatch[0] || null : null;
    },
    async all(filter = {}) {
      const r = await backend.request({ find: coll, filter, $db: 'standin' });
      return r.ok === 1 ? r.cursor.firstBatch : [];
    },
  });
  // Every write to the member's data goes through applyWrite, so the stand-in's own index
  // (equality-index.js: FerretDB scans for any filter but _id) stays true.
  const equalityIndex = newEqualityIndex(backend);
  async function applyWrite(body) {
    equalityIndex.before(body);
    try { return await backendWrite(backend, body); } finally { equalityIndex.after(body); }
  }
  const replsetStore = store('replset');
  const usersStore = store('users');

  // ---- replica-set state
  const rs = {
    cfg: null,
    term: 0,
    role: opts.replSet ? 'STARTUP' : 'STANDALONE',
    primary: null, // host:port of the primary as last known
    lastPrimaryContact: 0,
    stepDownUntil: 0,
    stale: false,
    fcv: '8.0',
    locked: 0,
    failpoints: new Set(),
    cfgAt: 0, // when this member got its config: the election timer runs from here
    primarySince: 0,
    votedFor: { term: -1, host: null },
    electionOffset: 0,
    views: new Map(), // host -> { seq, wall, ts, lastSeen, state } (the primary's and heartbeats' view)
  };
  const saved = await replsetStore.get('state');
  if (saved) {
    rs.cfg = saved.cfg || null;
    rs.term = Number(saved.term || 0);
    rs.fcv = saved.fcv || rs.fcv;
  }
  const oplog = common.newOplog(opts.oplogSizeMB, saved && saved.applied);
  if (rs.cfg) { rs.role = 'SECONDARY'; rs.cfgAt = Date.now(); }
  // A member that starts with no data at all (a new member, or one whose data volume resync
  // removed) copies the set's data before it serves as a secondary: initial sync, STARTUP2.
  rs.needsSync = saved ? null : 'initial';

  // The state last written, so that an idle member's once-a-second save writes nothing: each save
  // is an upsert in FerretDB's SQLite, and nine idle members saving every second were most of an
  // idle stack's CPU (the Docker suite prints that figure, test/docker/lifecycle.sh).
  let savedKey = null;
  const stateKey = () => JSON.stringify([rs.cfg, rs.term, rs.fcv, oplog.applied.seq, oplog.applied.t]);
  async function saveState() {
    const key = stateKey();
    await backend.request({ update: 'replset', updates: [{ q: { _id: 'state' }, u: { _id: 'state', cfg: rs.cfg, term: rs.term, fcv: rs.fcv, applied: oplog.applied }, upsert: true }], $db: 'standin' });
    savedKey = key;
  }
  setInterval(() => { if (stateKey() !== savedKey) saveState().catch(() => {}); }, 1000).unref();

  const peers = new Map();
  const linkTo = (host) => {
    if (!peers.has(host)) peers.set(host, new Link(host, key, { timeoutMs: 3000 }));
    return peers.get(host);
  };
  const memberHosts = () => (rs.cfg ? rs.cfg.members.map((m) => m.host) : []);
  const others = () => memberHosts().filter((h) => h !== me);
  const majority = () => Math.floor(memberHosts().length / 2) + 1;
  const isPrimary = () => rs.role === 'PRIMARY';
  const electionTimeoutMs = () => Number((rs.cfg && rs.cfg.settings && rs.cfg.settings.electionTimeoutMillis) || 10000);
  // The random part of each election timer: up to 15 % of the timeout
  // (src/mongo/db/repl/replication_coordinator_impl_elect_v1.cpp _getElectionOffsetUpperBound,
  // randomizedElectionOffsetRatio 0.15), so that the members do not all stand at once.
  const newElectionOffset = () => Math.floor(Math.random() * 0.15 * electionTimeoutMs());
  rs.electionOffset = newElectionOffset();

  function become(role, why) {
    if (rs.role === role) return;
    common.log(`${me}: ${rs.role} -> ${role}${why ? ` (${why})` : ''}`);
    rs.role = role;
    if (role === 'PRIMARY') { rs.primary = me; rs.primarySince = Date.now(); }
    else if (rs.primary === me) rs.primary = null;
    events.emit('role');
  }

  // ---- writes on the primary: record, then wait for the write concern
  async function record(cmd, db) {
    const entry = oplog.append(common.oplogCommand(cmd, db), rs.term);
    events.emit('oplog');
    return entry;
  }

  function appliedBy(seq) {
    let n = oplog.applied.seq >= seq ? 1 : 0;
    for (const h of others()) { const v = rs.views.get(h); if (v && v.seq >= seq) n += 1; }
    return n;
  }

  async function waitConcern(wc, seq) {
    if (!wc || wc.w === undefined || wc.w === 0 || wc.w === 1) return null;
    const need = wc.w === 'majority' ? majority() : Number(wc.w);
    if (!Number.isFinite(need)) return { code: 79, codeName: 'UnknownReplWriteConcern', errmsg: `unrecognized write concern mode: ${wc.w}` };
    if (need > memberHosts().length) return { code: 100, codeName: 'UnsatisfiableWriteConcern', errmsg: 'Not enough data-bearing nodes' };
    const deadline = wc.wtimeout > 0 ? Date.now() + Number(wc.wtimeout) : Infinity;
    const term = rs.term;
    while (appliedBy(seq) < need) {
      // A primary that steps down while a write waits answers it so
      // (src/mongo/db/repl/replication_coordinator_impl.cpp, awaitReplication: PrimarySteppedDown).
      if (!isPrimary() || rs.term !== term) return { code: 189, codeName: 'PrimarySteppedDown', errmsg: 'Primary stepped down while waiting for replication' };
      if (Date.now() >= deadline) return { code: 64, codeName: 'WriteConcernFailed', errmsg: 'waiting for replication timed out', errInfo: { wtimeout: true } };
      await new Promise((r) => { const t = setTimeout(r, 50); events.once('applied', () => { clearTimeout(t); r(); }); });
    }
    return null;
  }

  async function write(cmd, name) {
    if (!isPrimary()) throw error(10107, 'NotWritablePrimary', 'not primary');
    // fsyncLock blocks writes, and so does a member's copy for initial sync or rollback
    while (rs.locked > 0 || writesHeld()) await new Promise((r) => { const t = setTimeout(r, 200); events.once('unlocked', () => { clearTimeout(t); r(); }); });
    if (!isPrimary()) throw error(10107, 'NotWritablePrimary', 'not primary');
    const body = common.forBackend(cmd.body, cmd.db);
    let reply;
    let entry = null;
    writesInFlight += 1;
    const ticket = wt.begin('write');
    try {
      reply = await applyWrite(body);
      wt.wrote(BSON.calculateObjectSize(body));
      if (reply.ok === 1 && name === 'insert') documents.inserted += reply.n || 0;
      if (reply.ok === 1 && name === 'update') documents.updated += reply.nModified || 0;
      if (reply.ok === 1 && name === 'delete') documents.deleted += reply.n || 0;
      const changed = reply.ok === 1 && !(Array.isArray(reply.writeErrors) && reply.n === 0 && name !== 'update');
      common.countWrite(stats.opcounters, name, cmd.body);
      if (changed) entry = await record(body, cmd.db);
    } finally { writesInFlight -= 1; ticket(); }
    if (!entry) return reply;
    const wce = await waitConcern(cmd.body.writeConcern, entry.seq);
    if (wce) reply.writeConcernError = wce;
    return reply;
  }

  // A member copying this one's data (initial sync, rollback) holds its writes until it is done,
  // so that the copy and the oplog point it starts from agree (8.0 applies the oplog fetched
  // during the copy idempotently instead: DIFFERENCES.md). The copying member renews its hold each
  // second; a hold not renewed for 5 s (the member stopped or gone) ends by itself.
  const syncHolds = new Map(); // member -> until
  let writesInFlight = 0; // past the hold, not yet in the oplog: a copy begins once they are
  function writesHeld() {
    for (const [m, until] of syncHolds) if (until < Date.now()) syncHolds.delete(m);
    return syncHolds.size > 0;
  }

  // ---- users (stored in standin.users, replicated as writes)
  async function lookupUser(db, user) {
    const doc = await usersStore.get(`${db}.${user}`);
    return doc ? doc.credentials : null;
  }

  async function userCommand(cmd) {
    const { name, body, db } = cmd;
    if (name === 'usersInfo') {
      const want = typeof body.usersInfo === 'object' ? body.usersInfo : { user: body.usersInfo, db };
      const docs = await usersStore.all(want.user ? { _id: `${want.db || db}.${want.user}` } : {});
      const users = docs.map((d) => ({ _id: d._id, userId: d.userId, user: d.user, db: d.db, roles: d.roles,
        mechanisms: Object.keys(d.credentials) }));
      return { users, ok: 1 };
    }
    const user = body[name];
    const id = `${db}.${user}`;
    const existing = await usersStore.get(id);
    if (name === 'createUser' && existing) throw error(51003, 'Location51003', `User "${user}@${db}" already exists`);
    if (name !== 'createUser' && !existing) throw error(11, 'UserNotFound', `User ${user}@${db} not found`);
    let doc;
    if (name === 'dropUser') doc = null;
    else {
      doc = existing ? { ...existing } : { _id: id, userId: new BSON.Binary(require('node:crypto').randomBytes(16), 4), user, db, roles: [] };
      if (body.roles) doc.roles = body.roles;
      if (body.pwd !== undefined) {
        doc.credentials = {};
        for (const mech of Object.keys(MECHS)) doc.credentials[mech] = credentials(user, String(body.pwd), mech);
      }
    }
    const update = doc
      ? { update: 'users', updates: [{ q: { _id: id }, u: doc, upsert: true }], $db: 'standin', writeConcern: body.writeConcern }
      : { delete: 'users', deletes: [{ q: { _id: id }, limit: 1 }], $db: 'standin', writeConcern: body.writeConcern };
    const r = await write({ body: update, db: 'standin' }, doc ? 'update' : 'delete');
    if (r.ok !== 1) return r;
    return r.writeConcernError ? { ok: 1, writeConcernError: r.writeConcernError } : { ok: 1 };
  }

  // ---- what a member says about itself
  // the last applied optime as hello and replSetGetStatus report it ({ ts, t: NumberLong })
  const appliedOpTime = () => ({ ts: oplog.applied.ts, t: BSON.Long.fromNumber(oplog.applied.t) });
  function helloReply(body) {
    const h = common.helloBase(stats);
    if (!opts.replSet) return { ...h, isWritablePrimary: true, ismaster: true };
    if (!rs.cfg) return { ...h, isWritablePrimary: false, ismaster: false, secondary: false, isreplicaset: true, info: 'Does not have a valid replica set config' };
    Object.assign(h, {
      isWritablePrimary: isPrimary(), ismaster: isPrimary(), secondary: rs.role === 'SECONDARY',
      setName: rs.cfg._id, setVersion: rs.cfg.version || 1, hosts: memberHosts(), me,
      electionId: isPrimary() ? new BSON.ObjectId(Buffer.from(`7fffffff${String(rs.term).padStart(16, '0')}`, 'hex')) : undefined,
      lastWrite: { opTime: appliedOpTime(), lastWriteDate: oplog.applied.wall, majorityOpTime: appliedOpTime(),
        majorityWriteDate: oplog.applied.wall },
    });
    if (rs.primary && rs.role !== 'STARTUP') h.primary = rs.primary;
    if (rs.cfg.configsvr) h.configsvr = 2;
    if (body && body.saslSupportedMechs) h.saslSupportedMechs = Object.keys(MECHS);
    for (const k of Object.keys(h)) if (h[k] === undefined) delete h[k];
    return h;
  }

  function memberStatus(host) {
    const selfView = host === me;
    const m = rs.cfg.members.find((x) => x.host === host);
    const v = selfView ? { ...oplog.applied, state: rs.role, lastSeen: Date.now() } : rs.views.get(host);
    const alive = v && Date.now() - v.lastSeen < 10000;
    const state = alive ? v.state : 'DOWN';
    const out = {
      _id: m._id, name: host, health: alive ? 1 : 0, state: STATE_NUM[state] ?? 0, stateStr: alive ? state : '(not reachable/healthy)',
      uptime: selfView ? Math.floor((Date.now() - started) / 1000) : 0,
      optime: { ts: v ? v.ts : new BSON.Timestamp({ t: 0, i: 0 }), t: BSON.Long.fromNumber(v ? v.t : -1) },
      // the optime's timestamp, whole seconds (replSetGetStatus builds optimeDate from the
      // optime's Timestamp secs: src/mongo/db/repl/topology_coordinator.cpp prepareStatusResponse)
      optimeDate: new Date(secondsOf(v && v.ts) * 1000),
      lastAppliedWallTime: v ? v.wall : new Date(0),
      lastDurableWallTime: v ? v.wall : new Date(0),
      syncSourceHost: state === 'SECONDARY' ? rs.primary || '' : '',
      configVersion: rs.cfg.version || 1, configTerm: rs.term,
    };
    if (selfView) out.self = true;
    else {
      out.lastHeartbeat = new Date(v ? v.lastSeen : 0);
      out.lastHeartbeatRecv = out.lastHeartbeat;
      out.pingMs = BSON.Long.fromNumber(0);
    }
    if (selfView && rs.stale) { out.infoMessage = 'could not find member to sync from'; out.lastHeartbeatMessage = 'too stale to catch up'; }
    return out;
  }

  function serverStatus() {
    const s = common.serverStatusBase(stats, started, 'mongod');
    if (opts.replSet && rs.cfg) {
      s.repl = { ...helloReply(), rbid: 1 };
    }
    s.storageEngine = { name: 'standin', supportsCommittedReads: true, persistent: true, readOnly: false, backupCursorOpen: false };
    Object.assign(s, wt.sections()); // modelled WiredTiger figures (wired-tiger.js)
    s.opcountersRepl = { ...stats.opcountersRepl };
    // 8.0's serverStatus sections the dashboards read: documents by operation (metrics.document),
    // the global lock's queue and active clients, and flow control (on every 4.2+ member; the
    // stand-in never throttles, so it is never lagged).
    const out = wt.sections().queues.execution;
    s.metrics = { document: { ...documents } };
    s.globalLock = {
      totalTime: BSON.Long.fromNumber((Date.now() - started) * 1000),
      currentQueue: { total: 0, readers: 0, writers: 0 },
      activeClients: { total: out.read.out + out.write.out, readers: out.read.out, writers: out.write.out },
    };
    s.flowControl = { enabled: true, targetRateLimit: 1000000000, timeAcquiringMicros: BSON.Long.fromNumber(0),
      locksPerKiloOp: 0, sustainerRate: 0, isLagged: false, isLaggedCount: 0,
      isLaggedTimeMicros: BSON.Long.fromNumber(0) };
    return s;
  }

  // getDiagnosticData's document, as a replica-set member's FTDC has it (the exporter reads
  // serverStatus, replSetGetStatus and the oplog's $collStats from it: mongodb_exporter
  // exporter/metrics.go prefixes "replSetGetStatus" -> rs, "local.oplog.rs.stats" -> oplog_stats).
  function diagnosticData() {
    const data = { start: new Date(), serverStatus: serverStatus() };
    if (opts.replSet && rs.cfg) {
      data.replSetGetStatus = replSetGetStatus();
      const st = oplogCommand({ name: 'collStats', body: {} });
      data['local.oplog.rs.stats'] = { ns: 'local.oplog.rs', localTime: new Date(), storageStats: { size: st.size, count: st.count, avgObjSize: st.count ? Math.round(st.size / st.count) : 0, storageSize: st.storageSize, capped: true, max: 0, maxSize: st.maxSize } };
    }
    data.end = new Date();
    return { data, ok: 1 };
  }

  // ---- internal protocol (between stand-in members)
  async function pull(body) {
    const from = body.me;
    rs.views.set(from, { seq: body.seq, ts: body.ts, t: body.t, wall: body.wall, state: body.state,
      lastSeen: Date.now() });
    events.emit('applied');
    if (!isPrimary()) return { ok: 0, code: 10107, codeName: 'NotWritablePrimary', errmsg: 'not primary' };
    if (body.seq < oplog.firstSeq() - 1) {
      const first = oplog.first();
      return { ok: 1, stale: true, term: rs.term, cfg: rs.cfg, earliest: first ? { ts: first.ts, t: first.t } : null };
    }
    // A member whose last entry this oplog does not hold, in the same term at the same place, has
    // writes this primary never had (an old primary back after a failover): it must roll back
    // (src/mongo/db/repl/rollback_impl.cpp; the oplog fetcher sees the divergence first).
    if (process.env.STANDIN_DEBUG) common.log(`pull from ${from}: seq ${body.seq} t ${body.t}; here first ${oplog.firstSeq()} last ${oplog.last().seq}`);
    if (body.seq > 0 && !body.peek) {
      const at = oplog.entryAt(body.seq);
      const diverged = body.seq > oplog.last().seq || (at && at.t !== body.t);
      if (diverged) return { ok: 1, rollback: true, term: rs.term, cfg: rs.cfg };
    }
    if (!body.peek && oplog.last().seq <= body.seq) {
      await new Promise((r) => { const t = setTimeout(r, 500); events.once('oplog', () => { clearTimeout(t); r(); }); });
    }
    const entries = body.peek ? [] : oplog.after(body.seq, 500, PULL_REPLY_BYTES);
    return { ok: 1, entries, term: rs.term, cfg: rs.cfg, views: viewsOut() };
  }

  function viewsOut() {
    const out = {};
    for (const [h, v] of rs.views) out[h] = v;
    out[me] = { ...oplog.applied, state: rs.role, lastSeen: Date.now() };
    return out;
  }

  // heartbeat(body): a heartbeat from another member (or init's quorum check). A heartbeat from a
  // set of another name is refused, never adopted (src/mongo/db/repl/topology_coordinator.cpp
  // prepareHeartbeatResponseV1: InconsistentReplicaSetNames, 185).
  function heartbeat(body) {
    if (!opts.replSet) return { ok: 0, code: 76, codeName: 'NoReplicationEnabled', errmsg: 'not running with --replSet' };
    if (body.setName !== undefined && body.setName !== opts.replSet) {
      return { ok: 0, code: 185, codeName: 'InconsistentReplicaSetNames', errmsg: `Our set name of ${opts.replSet} does not match name ${body.setName} reported by remote node` };
    }
    if (body.cfg && body.cfg._id === opts.replSet && (!rs.cfg || (body.cfg.version || 1) > (rs.cfg.version || 1))) {
      rs.cfg = body.cfg;
      rs.cfgAt = Date.now();
      if (rs.role === 'STARTUP') become(rs.needsSync ? 'STARTUP2' : 'SECONDARY', 'received the set config');
      saveState().catch(() => {});
    }
    if (body.term >= rs.term && body.primary && body.primary !== me) {
      if (isPrimary() && body.term > rs.term) become('SECONDARY', `a newer primary, ${body.primary}, term ${body.term}`);
      rs.term = body.term;
      rs.primary = body.primary;
      rs.lastPrimaryContact = Date.now();
    }
    return { ok: 1, setName: opts.replSet, state: rs.role, term: rs.term, seq: oplog.applied.seq, ...oplog.appliedOut(),
      cfgVersion: rs.cfg ? rs.cfg.version || 1 : 0 };
  }

  // vote(body): a candidate asks for this member's vote in body.term (protocol version 1,
  // src/mongo/db/repl/topology_coordinator.cpp processReplSetRequestVotes): one vote per term,
  // and only for a candidate whose last applied optime (term, then position) is not behind ours.
  function vote(body) {
    if (body.setName !== opts.replSet) return { ok: 0, code: 185, codeName: 'InconsistentReplicaSetNames', errmsg: `Our set name of ${opts.replSet} does not match name ${body.setName} reported by remote node` };
    const mine = oplog.applied;
    let reason = null;
    if (body.term < rs.term) reason = `candidate's term (${body.term}) is lower than mine (${rs.term})`;
    else if (rs.votedFor.term >= body.term && rs.votedFor.host !== body.candidate) reason = `already voted for another candidate (${rs.votedFor.host}) this term (${body.term})`;
    else if (body.t < mine.t || (body.t === mine.t && body.seq < mine.seq)) reason = 'candidate\'s data is staler than mine';
    if (body.term > rs.term) {
      rs.term = body.term;
      if (isPrimary()) become('SECONDARY', `a candidate, ${body.candidate}, stands in term ${body.term}`);
    }
    if (reason) return { ok: 1, term: rs.term, voteGranted: false, reason };
    rs.votedFor = { term: body.term, host: body.candidate };
    rs.lastPrimaryContact = Date.now(); // a vote given restarts our own election timer, as in 8.0
    return { ok: 1, term: rs.term, voteGranted: true, reason: '' };
  }

  // primary: heartbeats to every member each second (config, term, who is primary)
  setInterval(async () => {
    if (!isPrimary()) return;
    relinquishWithoutMajority();
    if (!isPrimary()) return;
    for (const h of others()) {
      linkTo(h).request({ _standinHeartbeat: 1, setName: opts.replSet, cfg: rs.cfg, term: rs.term, primary: me, $db: 'admin' })
        .then((r) => {
          if (r.ok !== 1) return;
          if (r.term > rs.term && isPrimary()) { rs.term = r.term; become('SECONDARY', `${h} is in a newer term, ${r.term}`); }
          const v = rs.views.get(h) || {};
          const seq = Math.max(v.seq ?? -1, r.seq);
          rs.views.set(h, { ...v, state: r.state, seq, ts: r.ts, t: r.t, wall: r.wall, lastSeen: Date.now() });
        })
        .catch(() => {});
    }
  }, 1000).unref();

  // A primary that has heard from no majority (itself included) within the election timeout steps
  // down (src/mongo/db/repl/topology_coordinator.cpp checkMemberTimeouts, log id 21809 "Can't see
  // a majority of the set, relinquishing primary"), so an isolated old primary refuses writes
  // (NotWritablePrimary) instead of acknowledging them for good.
  function relinquishWithoutMajority() {
    const timeout = electionTimeoutMs();
    const now = Date.now();
    if (now - rs.primarySince < timeout) return;
    const heard = 1 + others().filter((h) => {
      const v = rs.views.get(h);
      return v && now - v.lastSeen < timeout;
    }).length;
    if (heard >= majority()) return;
    common.log(`${me}: Can't see a majority of the set, relinquishing primary`);
    become('SECONDARY', `heard from ${heard} of ${memberHosts().length} members within ${timeout} ms`);
    rs.lastPrimaryContact = now;
  }

  // secondary: pull and apply; election when no primary is heard
  async function secondaryLoop() {
    for (;;) {
      if (rs.role === 'SECONDARY' || rs.role === 'RECOVERING') {
        try { await pullOnce(); } catch (e) { await common.sleep(200); }
        await maybeElect();
      } else if (rs.role === 'STARTUP2' || rs.role === 'ROLLBACK') {
        try { await copyFromSource(); } catch (e) { common.log(`${rs.needsSync} sync failed, trying again: ${e.message}`); await common.sleep(1000); }
      } else await common.sleep(200);
    }
  }

  async function pullOnce() {
    const source = rs.primary && rs.primary !== me ? rs.primary : null;
    if (!source) { await common.sleep(200); return; }
    const stopped = rs.locked > 0 || rs.failpoints.has('rsSyncApplyStop') || rs.stale;
    const r = await linkTo(source).request({ _standinPull: 1, me, state: rs.role, peek: stopped, ...oplog.appliedOut(), seq: oplog.applied.seq, $db: 'admin' });
    if (r.ok !== 1) { rs.primary = null; return; }
    rs.lastPrimaryContact = Date.now();
    if (r.term > rs.term) rs.term = r.term;
    for (const [h, v] of Object.entries(r.views || {})) if (h !== me) rs.views.set(h, v);
    if (r.rollback) {
      common.logJson(21593, 'BackgroundSync', 'Starting rollback due to fetcher error', { syncSource: source, lastOpTimeFetched: oplog.appliedOut() });
      rs.needsSync = 'rollback';
      become('ROLLBACK', `${source}'s oplog does not hold our last entry: our writes since are rolled back`);
      return;
    }
    if (r.stale) {
      if (!rs.stale) {
        // 8.0's two lines for it (sync_source_resolver.cpp 5579708, bgsync.cpp 21126), which the
        // lab's stale-secondary scenario reads from the member's log
        const fetched = oplog.appliedOut();
        const earliest = r.earliest || { ts: null, t: -1 };
        common.logJson(5579708, 'ReplCoordExtern-0', 'We are too stale to use candidate as a sync source', { candidate: source, lastOpTimeFetchedTimestamp: fetched.ts, remoteEarliestOpTimeTimestamp: earliest.ts });
        common.logJson(21126, 'BackgroundSync', 'Too stale to catch up. Entering maintenance mode', { lastOpTimeFetched: { ts: fetched.ts, t: fetched.t }, earliestOpTimeSeen: earliest });
        rs.stale = true;
        become('RECOVERING', 'too stale to catch up: the primary\'s oplog no longer holds the next entry');
      }
      await common.sleep(500);
      return;
    }
    const entries = r.entries || [];
    for (let at = 0; at < entries.length;) {
      if (rs.locked > 0 || rs.failpoints.has('rsSyncApplyStop')) break;
      const group = insertGroup(entries, at);
      const errors = await applyGroup(group);
      for (const e of group) {
        wt.wrote(e.size || 0);
        if (errors.has(e)) common.log(`apply ${Object.keys(e.cmd)[0]} (seq ${e.seq}) failed: ${errors.get(e)}`);
        common.countWrite(stats.opcountersRepl, Object.keys(e.cmd)[0], e.cmd);
        oplog.replay(e);
      }
      at += group.length;
    }
    if (stopped) await common.sleep(200);
  }

  // applyGroup(group) -> Map(entry -> why it failed): a group as one unordered insert (each of its
  // single-document inserts succeeds or fails alone, as applied one by one), any other entry as is.
  async function applyGroup(group) {
    const failed = new Map();
    if (group.length === 1) {
      const reply = await applyWrite(group[0].cmd);
      if (reply.ok !== 1) failed.set(group[0], reply.errmsg);
      return failed;
    }
    const { insert, $db } = group[0].cmd;
    const reply = await applyWrite({ insert, documents: group.map((e) => e.cmd.documents[0]), ordered: false, $db });
    if (reply.ok !== 1) for (const e of group) failed.set(e, reply.errmsg);
    for (const w of reply.writeErrors || []) failed.set(group[w.index], w.errmsg);
    return failed;
  }

  // maybeElect: with no primary heard for the election timeout plus this member's random offset
  // (from the config's arrival, or from the last contact with a primary), stand for election:
  // the next term, our own vote, and the others' (vote()); a majority makes this member PRIMARY
  // (src/mongo/db/repl/replication_coordinator_impl_elect_v1.cpp). A member that is too stale,
  // or stepped down and not yet free (replSetStepDown, replSetFreeze), does not stand.
  // copyFromSource: initial sync (an empty member) or rollback (an old primary's writes the set
  // never had): every copied collection (COPIED) replaced by the sync source's, then the oplog
  // applied from the point the copy began. 8.0 rolls back by recovering to a stable timestamp and
  // writes the removed documents to rollback files; here the member is copied whole instead, so
  // the same writes are gone and no file holds them (DIFFERENCES.md).
  async function copyFromSource() {
    const source = rs.primary && rs.primary !== me ? rs.primary : null;
    if (!source) { await common.sleep(200); return; }
    const kind = rs.needsSync;
    if (kind === 'initial') common.logJson(21173, 'ReplCoordExtern-1', 'Starting initial sync attempt', { syncSource: source });
    const link = new Link(source, key, { timeoutMs: 60000 });
    const renew = setInterval(() => { link.request({ _standinSyncHold: 1, me, $db: 'admin' }).catch(() => {}); }, 1000);
    try {
      equalityIndex.forgetAll(); // the copy below writes around applyWrite
      const begin = await link.request({ _standinSyncBegin: 1, me, $db: 'admin' });
      if (begin.ok !== 1) throw new Error(`${source}: ${begin.errmsg}`);
      for (const { db, coll } of await collectionsOf(backend)) {
        if (COPIED(db, coll)) await backend.request({ drop: coll, $db: db });
      }
      let docs = 0;
      for (const { db, coll } of await collectionsOf(link)) {
        if (!COPIED(db, coll)) continue;
        docs += await copyCollection(link, db, coll);
      }
      equalityIndex.forgetAll();
      oplog.reset(begin);
      rs.needsSync = null;
      rs.stale = false;
      if (kind === 'initial') common.logJson(21192, 'ReplCoordExtern-1', 'Initial sync done', { syncSource: source, documents: docs });
      else common.logJson(21612, 'BackgroundSync', 'Rollback complete', { syncSource: source, documents: docs });
      become('SECONDARY', `${kind === 'initial' ? 'initial sync' : 'rollback'} from ${source} done (${docs} documents)`);
      rs.lastPrimaryContact = Date.now();
      saveState().catch(() => {});
    } finally {
      clearInterval(renew);
      await link.request({ _standinSyncEnd: 1, me, $db: 'admin' }).catch(() => {});
      link.close();
    }
  }

  // collectionsOf(link) -> [{ db, coll }] of a server (this member's backend, or the sync source)
  async function collectionsOf(link) {
    const out = [];
    const dbs = await link.request({ listDatabases: 1, nameOnly: true, $db: 'admin' });
    for (const { name: db } of (dbs.ok === 1 && dbs.databases) || []) {
      const cs = await link.request({ listCollections: 1, nameOnly: true, $db: db });
      for (const c of (cs.ok === 1 && cs.cursor.firstBatch) || []) out.push({ db, coll: c.name });
    }
    return out;
  }

  async function copyCollection(link, db, coll) {
    const idx = await link.request({ listIndexes: coll, $db: db });
    const indexes = ((idx.ok === 1 && idx.cursor.firstBatch) || []).filter((i) => i.name !== '_id_').map(({ v, ns, ...i }) => i);
    await backend.request({ create: coll, $db: db });
    if (indexes.length) await backend.request({ createIndexes: coll, indexes, $db: db });
    let n = 0;
    let r = await link.request({ find: coll, filter: {}, batchSize: 1000, $db: db });
    for (;;) {
      if (r.ok !== 1) throw new Error(`copying ${db}.${coll}: ${r.errmsg}`);
      const batch = r.cursor.firstBatch || r.cursor.nextBatch || [];
      if (batch.length) {
        const w = await backend.request({ insert: coll, documents: batch, ordered: false, $db: db });
        if (w.ok !== 1) throw new Error(`copying ${db}.${coll}: ${w.errmsg}`);
        n += batch.length;
      }
      if (!r.cursor.id || Number(r.cursor.id) === 0) return n;
      r = await link.request({ getMore: r.cursor.id, collection: coll, batchSize: 1000, $db: db });
    }
  }

  async function maybeElect() {
    if (rs.role !== 'SECONDARY' || rs.stale || Date.now() < rs.stepDownUntil) return;
    const self = rs.cfg.members.find((m) => m.host === me);
    if (self && (self.priority === 0 || self.arbiterOnly)) return; // never electable
    const since = Math.max(rs.lastPrimaryContact, rs.cfgAt, started);
    if (Date.now() - since < electionTimeoutMs() + rs.electionOffset) return;
    await standForElection();
  }

  // gather(promises, enough): the replies so far (null for a failure) once enough(replies) holds
  // or every promise has settled. 8.0's elections end so (src/mongo/db/repl/vote_requester.cpp
  // VoteRequester::Algorithm::hasReceivedSufficientResponses: a newer term, a majority of votes,
  // or every member answered). Waiting for every answer, each election waited out a killed
  // member's link timeout (5 s) twice: the Docker suite's failover on a busy host (2026-12-02)
  // saw no primary in 90 s, and one a second after the killed member came back; most likely two
  // candidates, each waiting so, stood together again and again (the members' logs were lost).
  function gather(promises, enough) {
    return new Promise((resolve) => {
      const got = [];
      let left = promises.length;
      if (!left) resolve(got);
      for (const p of promises) {
        p.then((v) => v, () => null).then((v) => {
          got.push(v);
          left -= 1;
          if (!left || enough(got)) resolve(got);
        });
      }
    });
  }

  async function standForElection() {
    rs.electionOffset = newElectionOffset();
    // A primary one of the others can see: follow it instead. Asked of all at once, as 8.0's
    // dry-run election asks its votes (one after another, each unreachable member cost its link's
    // timeout), and ended as an election is (gather): on a primary, or on a majority's answers.
    const primaryReply = (x) => x && x.r.ok === 1 && x.r.state === 'PRIMARY';
    const seen = await gather(others().map((h) => linkTo(h).request({ _standinHeartbeat: 1, setName: opts.replSet, term: -1, $db: 'admin' })
      .then((r) => ({ h, r }))), (got) => got.some(primaryReply) || 1 + got.filter(Boolean).length >= majority());
    for (const x of seen) {
      if (primaryReply(x) && x.r.term >= rs.term) {
        rs.primary = x.h;
        rs.term = x.r.term;
        rs.lastPrimaryContact = Date.now();
        return;
      }
    }
    const term = rs.term + 1;
    rs.term = term;
    rs.votedFor = { term, host: me };
    const ballot = { _standinVote: 1, setName: opts.replSet, term, candidate: me, seq: oplog.applied.seq, t: oplog.applied.t, $db: 'admin' };
    const granted = (r) => r && r.ok === 1 && r.voteGranted;
    const answers = await gather(others().map((h) => linkTo(h).request(ballot)),
      (got) => got.some((r) => r && r.term > term) || 1 + got.filter(granted).length >= majority());
    const votes = 1 + answers.filter(granted).length;
    for (const r of answers) if (r && r.term > rs.term) rs.term = r.term;
    if (votes >= majority() && rs.role === 'SECONDARY' && rs.term === term) {
      become('PRIMARY', `elected in term ${term} with ${votes} of ${memberHosts().length} votes`);
      rs.lastPrimaryContact = Date.now();
      saveState().catch(() => {});
    } else {
      rs.lastPrimaryContact = Date.now(); // lost: wait another timeout before standing again
    }
  }
  secondaryLoop();

  // ---- commands
  async function handle(conn, cmd) {
    const { name, body } = cmd;
    switch (name) {
      case 'hello': case 'isMaster': case 'ismaster': return helloReply(body);
      case 'buildInfo': case 'buildinfo': return common.buildInfo();
      case 'ping': return { ok: 1 };
      case 'serverStatus': stats.opcounters.command += 1; return serverStatus();
      case 'getDiagnosticData': return diagnosticData();
      case 'getCmdLineOpts': return { argv: opts.argv, parsed: opts.parsed, ok: 1 };
      case 'getLog': return { totalLinesWritten: 0, log: [], ok: 1 };
      case 'hostInfo': return common.hostInfo();
      case 'connectionStatus': return { authInfo: { authenticatedUsers: conn.users, authenticatedUserRoles: [] }, ok: 1 };
      case 'getParameter': return getParameter(body);
      case 'setParameter': { const { setParameter, $db, ...rest } = body; Object.assign(params, rest); return { ok: 1 }; }
      case 'setFeatureCompatibilityVersion': rs.fcv = String(body.setFeatureCompatibilityVersion); await saveState(); return { ok: 1 };
      case 'createUser': case 'updateUser': case 'dropUser': case 'usersInfo': return userCommand(cmd);
      case '_standinUser': return { ok: 1, credentials: await lookupUser(body.db, body.user) };
      case '_standinPull': return pull(body);
      case '_standinHeartbeat': return heartbeat(body);
      case '_standinVote': return vote(body);
      // where a copy for initial sync or rollback begins: this member's last applied entry
      case '_standinSyncBegin':
        syncHolds.set(String(body.me), Date.now() + 5000);
        while (writesInFlight > 0) await common.sleep(20);
        return { ok: 1, seq: oplog.applied.seq, ts: oplog.applied.ts, t: oplog.applied.t, wall: oplog.applied.wall };
      case '_standinSyncHold': syncHolds.set(String(body.me), Date.now() + 5000); return { ok: 1 };
      case '_standinSyncEnd': syncHolds.delete(String(body.me)); events.emit('unlocked'); return { ok: 1 };
      case '_standinSetConfig': return heartbeat({ setName: body.cfg && body.cfg._id, cfg: body.cfg, term: body.term, primary: body.primary });
      // The shard's half of addShard: refused on a member started without --shardsvr
      // (src/mongo/db/s/shardsvr_add_shard_command.cpp ShardsvrAddShardCommand::typedRun, 50876).
      case '_addShard': case '_shardsvrAddShard':
        if (!opts.shardsvr) throw error(50876, 'Location50876', 'Cannot run addShard on a node started without --shardsvr');
        return { ok: 1 };
      case 'replSetGetStatus': return replSetGetStatus();
      case 'replSetGetConfig': if (!rs.cfg) throw error(94, 'NotYetInitialized', 'no replset config has been received'); return { config: rs.cfg, ok: 1 };
      case 'replSetInitiate': return initiate(body.replSetInitiate);
      case 'replSetReconfig': return reconfig(body.replSetReconfig);
      case 'replSetStepDown': {
        if (!isPrimary()) throw error(10107, 'NotWritablePrimary', 'not primary so can\'t step down');
        rs.stepDownUntil = Date.now() + 1000 * Number(body.replSetStepDown || 60);
        become('SECONDARY', 'replSetStepDown');
        rs.primary = null;
        return { ok: 1 };
      }
      case 'replSetFreeze': rs.stepDownUntil = Date.now() + 1000 * Number(body.replSetFreeze || 0); return { ok: 1 };
      case 'fsync':
        if (body.lock) { rs.locked += 1; return { info: 'now locked against writes, use db.fsyncUnlock() to unlock', lockCount: BSON.Long.fromNumber(rs.locked), seeAlso: 'http://dochub.mongodb.org/core/fsynccommand', ok: 1 }; }
        return { numFiles: 1, ok: 1 };
      case 'fsyncUnlock':
        // src/mongo/db/commands/fsync.cpp FSyncUnlockCommand: IllegalOperation (20) when not locked
        if (rs.locked === 0) throw error(20, 'IllegalOperation', 'fsyncUnlock called when not locked');
        rs.locked -= 1;
        if (rs.locked === 0) events.emit('unlocked');
        return { info: rs.locked ? 'fsyncUnlock completed' : 'fsyncUnlock completed', lockCount: BSON.Long.fromNumber(rs.locked), ok: 1 };
      case 'configureFailPoint': {
        if (!testCommands) throw error(59, 'CommandNotFound', 'no such command: \'configureFailPoint\'');
        const mode = body.mode;
        if (mode === 'off') rs.failpoints.delete(body.configureFailPoint); else rs.failpoints.add(body.configureFailPoint);
        return { count: BSON.Long.fromNumber(0), ok: 1 };
      }
      case 'currentOp': return { inprog: [], ok: 1 };
      case 'shutdown': setTimeout(() => stop(), 100); return { ok: 1 };
      default: break;
    }
    if (cmd.db === 'local' && common.targets(body, 'oplog.rs')) return oplogCommand(cmd);
    if (WRITES.has(name)) return write(cmd, name);
    common.countRead(stats.opcounters, name);
    const ticket = wt.begin('read');
    wt.read();
    try {
      const sent = common.forBackend(body, cmd.db);
      const reply = (name === 'find' && await equalityIndex.find(sent)) || await backend.request(sent, { moreToCome: cmd.moreToCome });
      const batch = reply && reply.cursor && (reply.cursor.firstBatch || reply.cursor.nextBatch);
      if (Array.isArray(batch)) documents.returned += batch.length;
      return reply;
    } finally { ticket(); }
  }

  function getParameter(body) {
    const out = { ok: 1 };
    let any = false;
    for (const k of Object.keys(body)) {
      if (k === 'getParameter' || k === '$db' || k.startsWith('$') || k === 'lsid') continue;
      any = true;
      if (k === 'featureCompatibilityVersion') out.featureCompatibilityVersion = { version: rs.fcv };
      else if (params[k] !== undefined) out[k] = params[k];
      else throw error(72, 'InvalidOptions', `no option found to get: ${k}`);
    }
    if (!any && body.getParameter !== '*') throw error(72, 'InvalidOptions', 'no option found to get');
    return out;
  }

  function replSetGetStatus() {
    if (!opts.replSet) throw error(76, 'NoReplicationEnabled', 'not running with --replSet');
    if (!rs.cfg) throw error(94, 'NotYetInitialized', 'no replset config has been received');
    return {
      set: rs.cfg._id, date: new Date(), myState: STATE_NUM[rs.role], term: BSON.Long.fromNumber(rs.term),
      syncSourceHost: rs.role === 'SECONDARY' ? rs.primary || '' : '', heartbeatIntervalMillis: BSON.Long.fromNumber(2000),
      majorityVoteCount: majority(), writeMajorityCount: majority(), votingMembersCount: memberHosts().length,
      writableVotingMembersCount: memberHosts().length,
      optimes: { lastCommittedOpTime: appliedOpTime(), appliedOpTime: appliedOpTime(),
        lastAppliedWallTime: oplog.applied.wall },
      members: memberHosts().map(memberStatus),
      // a member that fell off every sync source's oplog says so at the top level too
      // (topology_coordinator.cpp prepareStatusResponse: tooStale)
      ...(rs.stale ? { tooStale: true } : {}),
      ok: 1,
    };
  }

  async function initiate(cfg) {
    if (!opts.replSet) throw error(76, 'NoReplicationEnabled', 'This node was not started with replication enabled.');
    if (rs.cfg) throw error(23, 'AlreadyInitialized', 'already initialized');
    if (!cfg || cfg._id !== opts.replSet) throw error(93, 'InvalidReplicaSetConfig', `Attempting to initiate a replica set with name ${cfg && cfg._id}, but command line reports ${opts.replSet}; rejecting`);
    if (Boolean(cfg.configsvr) !== Boolean(opts.configsvr)) throw error(93, 'InvalidReplicaSetConfig', 'Nodes being used for config servers must be started with the --configsvr flag, and a config with configsvr: true');
    if (!cfg.members.some((m) => m.host === me)) throw error(93, 'InvalidReplicaSetConfig', `No host described in new configuration with {version: 1, term: 0} for replica set ${cfg._id} maps to this node`);
    await quorumCheck(cfg);
    rs.needsSync = null; // the initiating member's data is the set's
    rs.cfg = { version: 1, term: 0, ...cfg };
    rs.cfgAt = Date.now();
    await saveState();
    become('SECONDARY', 'initiated the set');
    // A one-member set elects itself at once; a larger one waits for the election timeout
    // (src/mongo/db/repl/replication_coordinator_impl.cpp _finishReplSetInitiate: only a
    // single-node set starts an election straight away).
    if (memberHosts().length === 1) await standForElection();
    for (const h of others()) linkTo(h).request({ _standinSetConfig: 1, cfg: rs.cfg, term: rs.term, $db: 'admin' }).catch(() => {});
    return { ok: 1 };
  }

  // quorumCheck(cfg): a heartbeat to every proposed member, as replSetInitiate's
  // (src/mongo/db/repl/check_quorum_for_config_change.cpp QuorumChecker::_tabulateHeartbeatResponse
  // and _onQuorumCheckComplete): a member of another set name vetoes (NewReplicaSetConfigurationIncompatible,
  // 103), one that already has a config too, and every member must answer (NodeNotFound, 74).
  async function quorumCheck(cfg) {
    const bad = [];
    for (const m of cfg.members) {
      if (m.host === me) continue;
      let r;
      try { r = await linkTo(m.host).request({ _standinHeartbeat: 1, setName: cfg._id, cfgVersion: 1, checkEmpty: true, term: 0, $db: 'admin' }); } catch (e) {
        bad.push(`${m.host} failed with ${e.message}`);
        continue;
      }
      if (r.code === 185) throw error(103, 'NewReplicaSetConfigurationIncompatible', `Our set name did not match that of ${m.host}`);
      if (r.ok !== 1) { bad.push(`${m.host} failed with ${r.errmsg}`); continue; }
      if (r.cfgVersion >= 1) throw error(103, 'NewReplicaSetConfigurationIncompatible', `Our config version of 1 is no larger than the version on ${m.host}, which is ${r.cfgVersion}`);
    }
    if (bad.length) throw error(74, 'NodeNotFound', `replSetInitiate quorum check failed because not all proposed set members responded affirmatively: ${bad.join(', ')}`);
  }

  async function reconfig(cfg) {
    if (!isPrimary() && !(cfg && cfg.force)) throw error(10107, 'NotWritablePrimary', 'replSetReconfig should only be run on a writable PRIMARY');
    rs.cfg = { ...cfg, version: (rs.cfg.version || 1) + 1 };
    await saveState();
    return { ok: 1 };
  }

  function oplogCommand({ name, body }) {
    if (name === 'collStats') {
      return { ns: 'local.oplog.rs', size: oplog.bytes(), count: oplog.count(), storageSize: oplog.bytes(), capped: true, max: 0, maxSize: oplog.maxBytes, ok: 1 };
    }
    if (name === 'find') {
      const dir = body.sort && body.sort.$natural === -1 ? -1 : 1;
      const limit = Math.abs(Number(body.limit || body.batchSize || 101)) || 101;
      return { cursor: { firstBatch: oplog.docs(dir, limit), id: BSON.Long.fromNumber(0), ns: 'local.oplog.rs' }, ok: 1 };
    }
    throw error(115, 'CommandNotSupported', `the stand-in answers find and collStats on local.oplog.rs, not ${name}`);
  }

  const server = serve({ port: opts.port, key, lookupUser, handle, stats });
  common.log(`stand-in mongod ${me} listening (replSet ${opts.replSet || '-'}${opts.configsvr ? ', configsvr' : ''}${opts.shardsvr ? ', shardsvr' : ''}; data in FerretDB under ${dir}; last applied entry ${oplog.applied.seq}, term ${oplog.applied.t})`);

  async function stop() {
    server.close();
    try { await saveState(); } catch { /* the backend may be gone */ }
    ferret.removeAllListeners('exit');
    ferret.kill('SIGTERM');
    setTimeout(() => process.exit(0), 3000).unref();
    ferret.once('exit', () => process.exit(0));
  }
  return { stop };
}

module.exports = { startMember, insertGroup, INSERT_GROUP_MAX };
