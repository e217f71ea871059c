'use strict';
// The listening side shared by the stand-in mongod and mongos: one connection at a time reads
// OP_MSG (and the legacy OP_QUERY a handshake may use), folds document sequences into the command,
// applies the authentication rules of a server started with --keyFile, and answers with whatever
// the role's handler returns. Requests on one connection are answered in order, as a server does.
const net = require('node:net');
const { BSON } = require('./bson');
const wire = require('../../../loader/test/support/wire');
const { Conversation, credentials, MECHS } = require('./scram');
const { internalProof } = require('./link');
const { bodyOf, KEEP_TYPES } = require('./wire-types');

// What a connection may run before it authenticates, with auth on (mongod --keyFile): the
// handshake, ping (the images' healthchecks ping without credentials), buildInfo and the SASL
// conversation itself (MongoDB marks these requiresAuth() false: hello_cmd, ping, buildinfo,
// sasl_commands.cpp).
const OPEN = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'buildInfo', 'buildinfo', 'saslStart', 'saslContinue', 'logout', 'endSessions', '_standinAuth']);

function error(code, codeName, errmsg) { return Object.assign(new Error(errmsg), { code, codeName }); }

// The errors after which a driver may retry a retryable write: error_codes.yml's RetriableError
// category (network errors, a primary gone or stepped down, a shutdown) that 8.0 labels
// RetryableWriteError (src/mongo/db/error_labels.cpp isRetryableWriteError: a command with a
// txnNumber, outside a transaction). The driver retries such a write once, selecting the server
// again (a mongos finds the shard's new primary): without the label a write through mongos
// right after a failover failed "not primary" where 8.0's succeeded on its retry.
const RETRYABLE_WRITE_CODES = new Set([6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436]);
// the retryable write commands (member.js WRITES is every command of its write path, DDL included)
const RETRYABLE_WRITE_COMMANDS = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify']);
function labelled(name, body, reply) {
  if (reply.ok !== 0 || !RETRYABLE_WRITE_COMMANDS.has(name)) return reply;
  if (body.txnNumber === undefined || body.autocommit !== undefined) return reply;
  if (!RETRYABLE_WRITE_CODES.has(reply.code) || (reply.errorLabels || []).includes('RetryableWriteError')) return reply;
  return { ...reply, errorLabels: [...(reply.errorLabels || []), 'RetryableWriteError'] };
}

// foldSequences(parsed): the command body with each kind-1 document sequence (insert's
// "documents", update's "updates", ...) put back as the array field it stands for.
function foldSequences(parsed) {
  const body = { ...parsed.body };
  for (const sec of parsed.rest || []) {
    const size = sec.readInt32LE(1);
    const end = 1 + size;
    const nameEnd = sec.indexOf(0, 5);
    const name = sec.toString('utf8', 5, nameEnd);
    const docs = [];
    let at = nameEnd + 1;
    while (at < end) {
      const len = sec.readInt32LE(at);
      docs.push(BSON.deserialize(sec.subarray(at, at + len), KEEP_TYPES));
      at += len;
    }
    body[name] = docs;
  }
  return body;
}

// What 8.0 still runs over the legacy OP_QUERY: the handshake and the authentication commands,
// nothing else (src/mongo/rpc/check_allowed_op_query_cmd.cpp checkAllowedOpQueryCommand: "hello",
// "isMaster", "ismaster", and the deprecated "_isSelf", "authenticate", "buildinfo", "buildInfo",
// "saslContinue", "saslStart"). Anything else fails with UnsupportedOpQueryCommand (352).
const OP_QUERY_ALLOWED = new Set(['hello', 'isMaster', 'ismaster', '_isSelf', 'authenticate', 'buildinfo', 'buildInfo', 'saslContinue', 'saslStart']);

// command(parsed) -> { name, db, body, moreToCome, opQuery } or null
function commandOf(parsed) {
  if (!parsed.body) return null;
  if (parsed.header.opCode === wire.OP_QUERY) {
    let body = parsed.body;
    if (body.$query && typeof body.$query === 'object') body = body.$query;
    return { name: Object.keys(body)[0], db: parsed.collection.split('.')[0], body, moreToCome: false, opQuery: true };
  }
  const body = foldSequences(parsed);
  return { name: Object.keys(body)[0], db: body.$db || 'admin', body, moreToCome: Boolean(parsed.flags & wire.MORE_TO_COME) };
}

// serve({ port, key, lookupUser, handle, stats }) -> net.Server
//   key: the keyfile text (internal authentication and __system's password)
//   lookupUser(db, user) -> async { 'SCRAM-SHA-1': creds, 'SCRAM-SHA-256': creds } or null
//   handle(conn, cmd) -> async reply document
function serve({ port, key, lookupUser, handle, stats }) {
  // __system's credentials from the keyfile: SCRAM-SHA-256 only. 8.0 generates no SCRAM-SHA-1
  // credentials from the key (src/mongo/db/auth/security_key.cpp, CredentialsGenerator::generate
  // fills credentials.scram_sha256 alone; SERVER-46399 removed SCRAM-SHA-1 for intra-cluster
  // authentication), so a SCRAM-SHA-1 login as __system fails with MechanismUnavailable.
  const system = { 'SCRAM-SHA-256': credentials('__system', key, 'SCRAM-SHA-256') };
  const credentialsOf = (db, user) => (user === '__system' && db === 'local' ? system : lookupUser(db, user));
  let nextConn = 1;
  let nextReply = 1;
  const server = net.createServer((sock) => {
    sock.setNoDelay(true);
    const conn = { id: nextConn++, users: [], internal: false, sasl: null, sock, state: {} };
    stats.connections.current += 1;
    stats.connections.totalCreated += 1;
    const split = new wire.Splitter();
    let chain = Promise.resolve();
    sock.on('data', (chunk) => {
      stats.network.bytesIn += chunk.length;
      for (const msg of split.push(chunk)) chain = chain.then(() => answer(conn, msg));
    });
    sock.on('error', () => {});
    sock.on('close', () => {
      stats.connections.current -= 1;
      if (conn.onClose) conn.onClose();
    });
  });

  async function answer(conn, msg) {
    const parsed = wire.parse(msg);
    parsed.body = bodyOf(msg, parsed);
    stats.network.numRequests += 1;
    const cmd = commandOf(parsed);
    if (!cmd) return;
    let reply;
    try {
      reply = await dispatch(conn, cmd);
    } catch (e) {
      reply = { ok: 0, errmsg: e.message, code: e.code ?? 1, codeName: e.codeName || 'InternalError' };
    }
    // a request sent with moreToCome (a w:0 write) has no reply: the backend's answer is null
    if (cmd.moreToCome || conn.sock.destroyed) return;
    reply = labelled(cmd.name, cmd.body, reply);
    const out = wire.reply(parsed, reply, nextReply++);
    stats.network.bytesOut += out.length;
    conn.sock.write(out);
  }

  async function dispatch(conn, cmd) {
    const { name, body } = cmd;
    if (cmd.opQuery && !OP_QUERY_ALLOWED.has(name)) {
      throw error(352, 'UnsupportedOpQueryCommand', `Unsupported OP_QUERY command: ${name}. The client driver may require an upgrade. For more details see https://dochub.mongodb.org/core/legacy-opcode-removal`);
    }
    if (name === '_standinAuth') {
      if (body.proof !== internalProof(key)) throw error(18, 'AuthenticationFailed', 'internal authentication failed: not the cluster keyfile');
      conn.internal = true;
      return { ok: 1 };
    }
    if (name === 'saslStart') return saslStart(conn, cmd);
    if (name === 'saslContinue') return saslContinue(conn, cmd);
    if (name === 'logout') { conn.users = []; return { ok: 1 }; }
    if (!OPEN.has(name) && !conn.internal && conn.users.length === 0) {
      throw error(13, 'Unauthorized', `Command ${name} requires authentication`);
    }
    const reply = await handle(conn, cmd);
    // hello's saslSupportedMechs ("db.user"): the mechanisms that user has credentials for, as
    // the server lists them (src/mongo/db/auth/sasl_mechanism_registry.cpp
    // advertiseMechanismNamesForUser); none for an unknown user.
    if ((name === 'hello' || name === 'isMaster' || name === 'ismaster') && typeof body.saslSupportedMechs === 'string' && reply && reply.ok === 1) {
      const [udb, ...rest] = body.saslSupportedMechs.split('.');
      const creds = await Promise.resolve(credentialsOf(udb, rest.join('.'))).catch(() => null);
      if (creds) reply.saslSupportedMechs = Object.keys(MECHS).filter((m) => creds[m]);
      else delete reply.saslSupportedMechs;
    }
    return reply;
  }

  async function saslStart(conn, { body, db }) {
    const text = Buffer.from(body.payload.buffer || body.payload).toString('utf8');
    const m = /^[ny],[^,]*,n=([^,]*),/.exec(text);
    const user = m ? m[1].replace(/=2C/g, ',').replace(/=3D/g, '=') : '';
    const creds = await credentialsOf(db, user);
    // A known user with no credentials for this mechanism (sasl_scram_server_conversation.cpp,
    // SaslSCRAMServerMechanism::_firstStep): MechanismUnavailable, 334.
    if (creds && MECHS[body.mechanism] && !creds[body.mechanism]) {
      throw error(334, 'MechanismUnavailable', `Unable to use ${body.mechanism} based authentication for user without any ${body.mechanism} credentials registered`);
    }
    const sasl = new Conversation(body.mechanism, () => (creds ? creds[body.mechanism] : null));
    const serverFirst = sasl.start(text);
    conn.sasl = { sasl, db, user };
    return { conversationId: 1, done: false, payload: new BSON.Binary(Buffer.from(serverFirst)), ok: 1 };
  }

  async function saslContinue(conn, { body }) {
    if (!conn.sasl) throw error(17, 'ProtocolError', 'No SASL session state found');
    const { sasl, db, user } = conn.sasl;
    const text = Buffer.from(body.payload.buffer || body.payload).toString('utf8');
    if (text === '') { conn.sasl = null; return { conversationId: 1, done: true, payload: new BSON.Binary(Buffer.alloc(0)), ok: 1 }; }
    const serverFinal = sasl.finish(text);
    conn.users.push({ user, db });
    if (user === '__system') conn.internal = true;
    // skipEmptyExchange (the driver's saslStart options): done at once.
    conn.sasl = null;
    return { conversationId: 1, done: true, payload: new BSON.Binary(Buffer.from(serverFinal)), ok: 1 };
  }

  server.listen(port, '0.0.0.0');
  return server;
}

module.exports = { labelled, serve, error, commandOf };
