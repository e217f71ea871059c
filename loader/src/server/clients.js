'use strict';
// How the loader opens connections: one function, so the worker clients, the preload client and
// the bench all use the same driver settings (the same for every engine).
const fs = require('node:fs');
const { driver } = require('./driver-line');

function readSecret(file) {
  // Trailing newline stripped: `openssl rand ... > file` and editors both add one.
  return fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
}

// clientOptions(conn, config, extra): conn = { uri, username, password, serverSelectionTimeoutMs,
// driverLine, retryWrites }; driverLine (set by connect.js after the server's first hello, src/server/driver-line.js)
// names the `mongodb` release the client is built from, the current one when absent.
// maxPoolSize 1: a client is one connection, like one mongo shell in the seed; a second pooled
// connection would let one "client" run operations in parallel.
function clientOptions(conn, config, extra = {}) {
  const o = {
    serverSelectionTimeoutMS: conn.serverSelectionTimeoutMs,
    connectTimeoutMS: Math.min(conn.serverSelectionTimeoutMs, 10000),
    maxPoolSize: 1,
    minPoolSize: 1,
    appName: 'lab-loader',
    // The driver's defaults, written out because they change what is measured: a retried read
    // or write after a failover is one operation with a long latency, as an application sees it.
    // retryWrites is false where the server line refuses them (conn.retryWrites, decided by
    // src/server/retry-writes.js from the engines table or the server's report).
    retryReads: true,
    retryWrites: conn.retryWrites !== false,
    ...extra,
  };
  if (config) {
    o.writeConcern = config.writeConcern;
    o.readPreference = config.readPreference;
    o.readConcern = { level: config.readConcern };
  }
  if (conn.password !== undefined) {
    o.auth = { username: conn.username, password: conn.password };
    // admin, unless --uri says authSource= (an option object would override the URI's own).
    if (!/[?&]authSource=/i.test(conn.uri)) o.authSource = 'admin';
  }
  return o;
}

// newClient(conn, config, extra) -> a MongoClient of conn.driverLine. It remembers how it was made
// (REOPEN), so that connect.js can rebuild it on an older line with the same settings.
const REOPEN = Symbol('lab.reopen');
function newClient(conn, config, extra) {
  const { MongoClient } = driver(conn.driverLine);
  const client = new MongoClient(conn.uri, clientOptions(conn, config, extra));
  Object.defineProperty(client, REOPEN, { value: { conn, remake: () => newClient(conn, config, extra) } });
  return client;
}

// Errors after which a client cannot go on: the server is gone (killed, network cut) or was never
// there. Anything else (a write error, a duplicate key) is counted as outcome "error" per op.
const FATAL = new Set(['MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoServerSelectionError',
  'MongoNotConnectedError', 'MongoTopologyClosedError', 'MongoServerClosedError', 'MongoPoolClosedError']);
function isFatal(e) {
  return Boolean(e && FATAL.has(e.name));
}

module.exports = { readSecret, clientOptions, newClient, isFatal, REOPEN };
