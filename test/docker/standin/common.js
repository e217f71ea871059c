'use strict';
// What the stand-in mongod and mongos share: identity (buildInfo, hello's fixed fields), the
// counters serverStatus reports, the oplog, and the translation of a client's command for the
// backend (FerretDB), which takes no session, transaction or cluster-time fields.
const fs = require('node:fs');
const os = require('node:os');
const { BSON } = require('./bson');

// The version the image stands in for (mongo:8.0: wire version 25, manual "Wire version"), and
// the stand-in's own name and version, a `<product>Version` field beside MongoDB's `version`
// as Percona's psmdbVersion and FerretDB's ferretdbVersion are (loader/src/server/products.js).
const STANDS_IN_FOR = { version: '8.0.0', versionArray: [8, 0, 0, 0], wire: 25 };
const STANDIN_VERSION = '1';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (msg) => process.stdout.write(`${new Date().toISOString()} standin: ${msg}\n`);
// logJson(id, ctx, msg, attr): a line in mongod 8.0's structured log format, for the lines the lab
// reads from a member's log (loader/src/faults/decisions.js parseLogLine); Timestamps as
// {"$timestamp": {t, i}}, as mongod writes them.
function logJson(id, ctx, msg, attr = {}) {
  const ts = (v) => (v && v._bsontype === 'Timestamp' ? { $timestamp: { t: Number(v.t ?? v.high), i: Number(v.i ?? v.low) } } : v);
  const plain = (v) => (v && typeof v === 'object' && !(v instanceof Date) && v._bsontype !== 'Timestamp'
    ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)])) : ts(v));
  process.stdout.write(`${JSON.stringify({ t: { $date: new Date().toISOString() }, s: 'I', c: 'REPL', id, ctx, msg, attr: plain(attr) })}\n`);
}

// keyOf(file): the keyfile as mongod 8.0 reads it, refusing what mongod refuses (it then exits
// at startup): any group or other permission bit ("permissions on <file> are too open",
// src/mongo/db/auth/security_file.cpp readSecurityFile), a character outside base64 once
// whitespace is stripped ("invalid char in key file <file>: <c>", the same function), and a key
// shorter than 6 or longer than 1024 characters (src/mongo/db/auth/security_key.cpp
// CredentialsGenerator::generate, kMinKeyLength/kMaxKeyLength, log id 20255 "Security key size
// is out range"). Throws with mongod's words.
function keyOf(file) {
  const mode = fs.statSync(file).mode;
  if (mode & 0o077) throw new Error(`permissions on ${file} are too open`);
  const key = fs.readFileSync(file, 'latin1').replace(/[\t\n\v\f\r ]+/g, '');
  const bad = /[^A-Za-z0-9+/=]/.exec(key);
  if (bad) throw new Error(`invalid char in key file ${file}: ${bad[0]}`);
  if (key.length < 6 || key.length > 1024) {
    throw new Error(`Security key size is out range: ${file} holds ${key.length} characters, must be between 6 and 1024`);
  }
  return key;
}

function newStats() {
  const counters = () => ({ insert: 0, query: 0, update: 0, delete: 0, getmore: 0, command: 0 });
  return {
    connections: { current: 0, totalCreated: 0 },
    network: { bytesIn: 0, bytesOut: 0, numRequests: 0 },
    opcounters: counters(),
    opcountersRepl: counters(),
  };
}

// MongoDB's opcounters (manual "serverStatus", opcounters): insert counts documents, update and
// delete count statements, query counts find commands, getmore getMore, command everything else.
function countWrite(c, name, body) {
  if (name === 'insert') c.insert += (body.documents || []).length;
  else if (name === 'update') c.update += (body.updates || []).length;
  else if (name === 'delete') c.delete += (body.deletes || []).length;
  else c.command += 1;
}
function countRead(c, name) {
  if (name === 'find') c.query += 1;
  else if (name === 'getMore') c.getmore += 1;
  else c.command += 1;
}

const NOT_FOR_BACKEND = new Set(['lsid', 'txnNumber', 'autocommit', 'startTransaction', '$clusterTime', 'writeConcern', 'readConcern', '$readPreference', 'apiVersion', 'apiStrict', 'apiDeprecationErrors']);
function forBackend(body, db) {
  const out = {};
  for (const [k, v] of Object.entries(body)) if (!NOT_FOR_BACKEND.has(k)) out[k] = v;
  out.$db = body.$db || db || 'admin';
  return out;
}
const oplogCommand = forBackend;

// targets(body, coll): the command's first field names this collection (find, collStats, ...).
function targets(body, coll) { return Object.values(body)[0] === coll; }

function helloBase(stats) {
  return {
    maxBsonObjectSize: 16777216, maxMessageSizeBytes: 48000000, maxWriteBatchSize: 100000,
    localTime: new Date(), logicalSessionTimeoutMinutes: 30, connectionId: stats.connections.totalCreated,
    minWireVersion: 0, maxWireVersion: STANDS_IN_FOR.wire, readOnly: false, ok: 1,
  };
}

function buildInfo() {
  return {
    version: STANDS_IN_FOR.version, gitVersion: 'lab-standin', standinVersion: STANDIN_VERSION,
    versionArray: STANDS_IN_FOR.versionArray, modules: [], allocator: 'system', javascriptEngine: 'none',
    sysInfo: 'deprecated', bits: 64, debug: false, maxBsonObjectSize: 16777216, storageEngines: ['standin'], ok: 1,
  };
}

function serverStatusBase(stats, started, processName) {
  const up = Date.now() - started;
  const mem = process.memoryUsage();
  return {
    host: os.hostname(), version: STANDS_IN_FOR.version, process: processName, pid: BSON.Long.fromNumber(process.pid),
    uptime: up / 1000, uptimeMillis: BSON.Long.fromNumber(up),
    uptimeEstimate: BSON.Long.fromNumber(Math.floor(up / 1000)),
    localTime: new Date(),
    asserts: { regular: 0, warning: 0, msg: 0, user: 0, rollovers: 0 },
    connections: { current: stats.connections.current, available: 838860 - stats.connections.current,
      totalCreated: stats.connections.totalCreated, active: stats.connections.current },
    network: { ...stats.network },
    opcounters: { ...stats.opcounters },
    mem: { bits: 64, resident: Math.round(mem.rss / 1048576), virtual: Math.round(mem.rss / 1048576), supported: true },
    extra_info: { note: 'fields vary by platform' },
    ok: 1,
  };
}

function hostInfo() {
  return {
    system: { currentTime: new Date(), hostname: os.hostname(), cpuAddrSize: 64,
      memSizeMB: BSON.Long.fromNumber(Math.round(os.totalmem() / 1048576)), numCores: os.cpus().length,
      cpuArch: os.arch() },
    os: { type: 'Linux', name: 'lab stand-in', version: os.release() }, extra: {}, ok: 1,
  };
}

// newOplog(sizeMB, applied) -> the member's oplog: entries (seq, ts, t, wall, cmd, size) after the
// last applied write it started with, bounded by --oplogSize as a capped collection is (the
// oldest entries leave first).
function newOplog(sizeMB, saved) {
  const maxBytes = Math.round(sizeMB * 1048576);
  const entries = [];
  let bytes = 0;
  let lastSec = 0;
  let inc = 0;
  const applied = saved && saved.seq > 0
    ? { seq: saved.seq, ts: saved.ts, t: saved.t, wall: saved.wall }
    : { seq: 0, ts: new BSON.Timestamp({ t: 0, i: 0 }), t: -1, wall: new Date(0) };
  function push(e) {
    entries.push(e);
    bytes += e.size;
    while (bytes > maxBytes && entries.length > 1) bytes -= entries.shift().size;
    Object.assign(applied, { seq: e.seq, ts: e.ts, t: e.t, wall: e.wall });
  }
  return {
    maxBytes,
    applied,
    append(cmd, term) {
      const now = Date.now();
      const sec = Math.floor(now / 1000);
      inc = sec === lastSec ? inc + 1 : 1;
      lastSec = sec;
      const e = { seq: applied.seq + 1, ts: new BSON.Timestamp({ t: sec, i: inc }), t: term, wall: new Date(now), cmd,
        size: BSON.calculateObjectSize(cmd) };
      push(e);
      return e;
    },
    replay(e) { push({ ...e, size: e.size || BSON.calculateObjectSize(e.cmd) }); },
    // after(seq, limit, maxBytes): the entries after seq, at most limit of them and, past the
    // first, no more than maxBytes in all: a reply of whole write commands must stay far below
    // the 16 MB a BSON document may hold (a large preload's 500 entries once made a reply that
    // could not be sent, and replication stopped).
    after(seq, limit, maxBytes = Infinity) {
      let i = entries.length;
      while (i > 0 && entries[i - 1].seq > seq) i -= 1;
      const out = [];
      let total = 0;
      for (; i < entries.length && out.length < limit; i += 1) {
        if (out.length > 0 && total + entries[i].size > maxBytes) break;
        out.push(entries[i]);
        total += entries[i].size;
      }
      return out;
    },
    firstSeq() { return entries.length ? entries[0].seq : applied.seq + 1; },
    first() { return entries.length ? entries[0] : null; },
    // entryAt(seq): the entry at that position, if the oplog still holds it
    entryAt(seq) { return entries.length ? entries[seq - entries[0].seq] : undefined; },
    // reset(at): an empty oplog whose last applied entry is at (after an initial sync or rollback)
    reset(at) {
      entries.length = 0;
      bytes = 0;
      Object.assign(applied, { seq: at.seq, ts: at.ts, t: at.t, wall: at.wall });
    },
    last() { return entries.length ? entries[entries.length - 1] : { seq: applied.seq }; },
    bytes() { return bytes; },
    count() { return entries.length; },
    appliedOut() { return { ts: applied.ts, t: applied.t, wall: applied.wall }; },
    // docs(dir, limit): the entries as local.oplog.rs shows them (ts, t, wall, op, ns, o); one
    // entry per write command, where MongoDB writes one per document.
    docs(dir, limit) {
      const list = dir < 0 ? entries.slice(-limit).reverse() : entries.slice(0, limit);
      return list.map((e) => {
        const name = Object.keys(e.cmd)[0];
        const op = { insert: 'i', update: 'u', delete: 'd' }[name] || 'c';
        return { ts: e.ts, t: BSON.Long.fromNumber(e.t), v: BSON.Long.fromNumber(2), op, ns: `${e.cmd.$db}.${op === 'c' ? '$cmd' : e.cmd[name]}`, wall: e.wall, o: { [name]: e.cmd[name] } };
      });
    },
  };
}

// parseArgs(argv) -> mongod/mongos options the stand-in uses, every flag kept for getCmdLineOpts.
function parseArgs(argv) {
  const o = { argv: ['mongod', ...argv], parsed: {}, setParameter: {}, port: 27017, oplogSizeMB: 990 };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const [flag, inline] = a.slice(2).split(/=(.*)/s);
    const takes = !['configsvr', 'shardsvr', 'bind_ip_all', 'nojournal', 'quiet'].includes(flag);
    const value = inline !== undefined ? inline : takes ? argv[++i] : true;
    if (flag === 'setParameter') { const [k, v] = String(value).split(/=(.*)/s); o.setParameter[k] = v; continue; }
    o.parsed[flag] = value;
    if (flag === 'port') o.port = Number(value);
    if (flag === 'replSet') o.replSet = value;
    if (flag === 'configsvr') o.configsvr = true;
    if (flag === 'shardsvr') o.shardsvr = true;
    if (flag === 'dbpath') o.dbpath = value;
    if (flag === 'keyFile') o.keyFile = value;
    if (flag === 'oplogSize') o.oplogSizeMB = Number(value);
    if (flag === 'configdb') o.configdb = value;
  }
  return o;
}

module.exports = {
  logJson, STANDS_IN_FOR, STANDIN_VERSION, sleep, log, keyOf, newStats, countWrite, countRead, forBackend, oplogCommand,
  targets, helloBase, buildInfo, serverStatusBase, hostInfo, newOplog, parseArgs,
};
