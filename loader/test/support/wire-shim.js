'use strict';
// The wire shim: a small TCP proxy in front of the tests' server (mongo-java-server, or any
// MONGODB_URI server) that answers as a given server line does, from the cited table in
// server-lines.js. It rewrites what a line announces (hello as a replica-set member, buildInfo,
// serverStatus.storageEngine), refuses what the line refuses before the test server sees it,
// adds the writeConcernError the line adds, and plays unacknowledged (w:0) writes as MongoDB does:
// executed, no reply, connection kept. Everything else passes through byte for byte.
//
// A replica-set line listens on one port per member: the first answers hello as the primary, the
// others as secondaries; all forward to the same test server (the data lives there once).
const net = require('node:net');
const wire = require('./wire');
const { BEHAVIOURS, lineOf } = require('./server-lines');
// The server's side (serverStatus sections, replSetGetStatus, the oplog's ends): its own file.
const serverSide = require('./server-status-lines');

const HELLO = new Set(['hello', 'isMaster', 'ismaster']);
const BUILD_INFO = new Set(['buildInfo', 'buildinfo']);

function commandOf(parsed) {
  if (!parsed.body) return null;
  if (parsed.header.opCode === wire.OP_QUERY && !/\.\$cmd$/.test(parsed.collection)) return null;
  let body = parsed.body;
  // A legacy OP_QUERY may wrap the command: { $query: { isMaster: 1 }, $readPreference: ... }.
  if (body.$query && typeof body.$query === 'object') body = body.$query;
  const name = Object.keys(body)[0];
  return { name, body, moreToCome: Boolean((parsed.flags || 0) & wire.MORE_TO_COME), bytes: parsed.header.length };
}

// startShim({ backendPort, backendHost, line }) -> { uri, hosts, ports, line, state, stats, close() }
// uri names every member and the set, as a user's replica-set URI does (or the one port of a
// standalone line). stats counts what the shim did, so a test can check it examined something.
async function startShim({ backendPort, backendHost = '127.0.0.1', line: lineName }) {
  const line = lineOf(lineName);
  const state = { fcv: line.fcv, journalCommitInterval: line.journalCommitInterval };
  // Stall windows (server-lines.js VARIANTS, shim.holdWrites): writes to the primary wait them out.
  state.stalls = { origin: Date.now(), once: [], ...(line.stall || {}) };
  const stats = { held: [], commands: 0, refused: {}, replied: {}, writeConcernErrors: {}, unacknowledged: 0,
    hellos: 0, txnNumbers: 0, statusAnswered: [] }; // statusAnswered[i]: replSetGetStatus answers by member i
  const members = line.replSet ? line.replSet.members : 1;
  const servers = [];
  const sockets = new Set();
  const memberSockets = []; // per member: its client sockets, for killMember
  for (let i = 0; i < members; i += 1) {
    const server = net.createServer((client) => serve(client, i));
    await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    servers.push(server);
  }
  const ports = servers.map((s) => s.address().port);
  const hosts = ports.map((p) => `127.0.0.1:${p}`);
  state.hosts = hosts;
  let nextRequestId = 1 << 30;

  function helloReply(doc, role, asked) {
    const out = { ...doc };
    delete out.compression; // the shim reads messages; it negotiates none
    delete out.topologyVersion; // no streaming hello: the shim answers one request at a time
    out.maxWireVersion = line.wire;
    if (line.sessions === true || (line.sessions === 'fcv36' && state.fcv === '3.6')) out.logicalSessionTimeoutMinutes = 30;
    else delete out.logicalSessionTimeoutMinutes;
    if (line.mongos) out.msg = 'isdbgrid'; // hello of a mongos (manual 'hello')
    if (line.replSet) {
      const primary = role === 0;
      Object.assign(out, { setName: line.replSet.name, setVersion: 1, hosts, primary: hosts[0], me: hosts[role],
        secondary: !primary });
      if (asked === 'hello') out.isWritablePrimary = primary;
      else out.ismaster = primary;
    }
    if (asked === 'hello') {
      // hello says isWritablePrimary where isMaster said ismaster (manual 'hello').
      if (out.isWritablePrimary === undefined) out.isWritablePrimary = out.ismaster !== false;
      delete out.ismaster;
    }
    return out;
  }

  function rewriteReply(doc, pending) {
    if (pending.kind === 'hello') return helloReply(doc, pending.role, pending.asked);
    if (pending.kind === 'buildInfo') {
      return { ...doc, version: line.version, versionArray: line.version.split(/[.-]/).slice(0, 4).map(Number), maxWireVersion: line.wire, ...(line.buildInfo || {}) };
    }
    if (pending.kind === 'serverStatus') {
      const out = { ...doc, version: line.version, process: line.mongos ? 'mongos' : 'mongod', storageEngine: line.storageEngine, ...serverSide.sections(line, state, pending.role) };
      if (!line.storageEngine) delete out.storageEngine; // mongos stores nothing
      return out;
    }
    if (pending.kind === 'sized') return serverSide.sized(pending.cmd, doc, line);
    if (pending.kind === 'writeConcernError' && doc.ok === 1) return { ...doc, writeConcernError: pending.error };
    return doc;
  }

  function serve(client, role) {
    sockets.add(client);
    (memberSockets[role] ||= new Set()).add(client);
    const backend = net.connect(backendPort, backendHost);
    sockets.add(backend);
    const fromClient = new wire.Splitter();
    const fromBackend = new wire.Splitter();
    const pending = new Map(); // requestId -> what to do with its reply
    // hold(msg, cmd): a write to the primary inside a stall window is sent when the window ends;
    // later messages of the connection wait behind it (no overtaking), as a server's queue does.
    let heldUntil = 0;
    const toBackend = (msg, cmd) => {
      const now = Date.now();
      const w = role === 0 && cmd && serverSide.isWrite(cmd) ? serverSide.stallAt(state, now) : null;
      if (w) {
        heldUntil = Math.max(heldUntil, w.to);
        if (!stats.held.some((x) => x.from === w.from)) {
          stats.held.push({ from: w.from, to: w.to, checkpoint: w.checkpoint });
        }
      }
      if (heldUntil > now) setTimeout(() => { if (!backend.destroyed) backend.write(msg); }, heldUntil - now);
      else backend.write(msg);
    };
    const closeBoth = () => { client.destroy(); backend.destroy(); sockets.delete(client); sockets.delete(backend); };
    client.on('error', closeBoth).on('close', closeBoth);
    backend.on('error', closeBoth).on('close', closeBoth);

    client.on('data', (chunk) => {
      for (const msg of fromClient.push(chunk)) {
        const parsed = wire.parse(msg);
        const cmd = commandOf(parsed);
        if (!cmd) { backend.write(msg); continue; }
        stats.commands += 1;
        if (cmd.body && cmd.body.txnNumber !== undefined) stats.txnNumbers += 1;
        const id = parsed.header.requestId;
        serverSide.count(state, role, cmd, msg.length, members);
        if (state.refused && state.refused.has(cmd.name)) {
          // refuseCommand: as a user without the privilege is answered (code 13, Unauthorized).
          client.write(wire.reply(parsed, { ok: 0, code: 13, codeName: 'Unauthorized', errmsg: `not authorized on admin to execute command { ${cmd.name}: 1 }` }, nextRequestId++));
          continue;
        }
        if ((line.replSet && (cmd.name === 'replSetGetStatus' || serverSide.isOplogFind(cmd) || serverSide.isOplogStats(cmd))) || (line.mongos && cmd.name === 'listShards')) {
          const doc = cmd.name === 'listShards' ? serverSide.listShards(state) : cmd.name === 'replSetGetStatus' ? serverSide.replSetGetStatus(line, state, role, hosts)
            : serverSide.isOplogStats(cmd) ? serverSide.oplogStats(state) : serverSide.oplogFind(cmd, state);
          stats.replied[cmd.name] = (stats.replied[cmd.name] || 0) + 1;
          if (cmd.name === 'replSetGetStatus') stats.statusAnswered[role] = (stats.statusAnswered[role] || 0) + 1;
          client.write(wire.reply(parsed, doc, nextRequestId++));
          continue;
        }
        const rule = line.behaviours.map((b) => [b, BEHAVIOURS[b]]).find(([, b]) => b.when(cmd, line, state));
        if (rule && (rule[1].answer.refuse || rule[1].answer.reply)) {
          const [name, b] = rule;
          const doc = b.answer.refuse ? { ok: 0, ...b.answer.refuse } : b.answer.reply(cmd, line, state);
          (b.answer.refuse ? stats.refused : stats.replied)[name] =
            ((b.answer.refuse ? stats.refused : stats.replied)[name] || 0) + 1;
          if (cmd.moreToCome) continue;
          const reply = wire.reply(parsed, doc, nextRequestId++);
          const delay = state.delayed?.get(cmd.name);
          if (delay) setTimeout(() => { if (!client.destroyed) client.write(reply); }, delay);
          else client.write(reply);
          continue;
        }
        if (rule) {
          stats.writeConcernErrors[rule[0]] = (stats.writeConcernErrors[rule[0]] || 0) + 1;
          pending.set(id, { kind: 'writeConcernError', error: rule[1].answer.writeConcernError });
        } else if (HELLO.has(cmd.name)) {
          stats.hellos += 1;
          pending.set(id, { kind: 'hello', role, asked: cmd.name });
        } else if (BUILD_INFO.has(cmd.name)) {
          pending.set(id, { kind: 'buildInfo' });
        } else if (cmd.name === 'serverStatus') {
          pending.set(id, { kind: 'serverStatus', role });
        } else if (serverSide.sizedCommand(cmd)) {
          pending.set(id, { kind: 'sized', cmd: { name: cmd.name } });
        }
        if (cmd.name === 'hello' && line.hello && parsed.header.opCode === wire.OP_MSG) {
          // hello exists from 4.4.2 (manual 'hello'); the test server knows only isMaster.
          const { hello, ...rest } = parsed.body;
          backend.write(wire.opMsg(id, 0, parsed.flags, { isMaster: hello, ...rest }, parsed.rest));
          continue;
        }
        if (cmd.moreToCome) {
          // MongoDB executes an unacknowledged write and sends nothing back; the test server is
          // asked for an acknowledged one, whose reply the shim swallows.
          stats.unacknowledged += 1;
          pending.set(id, { kind: 'swallow' });
          toBackend(wire.opMsg(id, 0, parsed.flags & ~wire.MORE_TO_COME,
            { ...parsed.body, writeConcern: { w: 1 } }, parsed.rest), cmd);
          continue;
        }
        toBackend(msg, cmd);
      }
    });

    backend.on('data', (chunk) => {
      for (const msg of fromBackend.push(chunk)) {
        const parsed = wire.parse(msg);
        const todo = pending.get(parsed.header.responseTo);
        pending.delete(parsed.header.responseTo);
        if (!todo) { client.write(msg); continue; }
        if (todo.kind === 'swallow') continue;
        client.write(parsed.body ? wire.rewrite(parsed, rewriteReply(parsed.body, todo)) : msg);
      }
    });
  }

  const query = line.replSet ? `?replicaSet=${line.replSet.name}` : '';
  return {
    uri: `mongodb://${hosts.join(',')}/${query}`,
    hosts,
    ports,
    line,
    state,
    stats,
    // killMember(i): member i stops answering (its port closed, its connections cut), as a
    // killed mongod does; the others report it unreachable in replSetGetStatus.
    killMember(i) {
      serverSide.count(state, i, { name: 'ping', body: {} }, 0, members); // its counters exist
      state.server.down.add(i);
      for (const c of memberSockets[i] || []) c.destroy();
      return new Promise((r) => servers[i].close(r));
    },
    // holdSecondary(i, seconds): member i's optime trails the primary's by that many seconds.
    holdSecondary(i, seconds) {
      serverSide.count(state, i, { name: 'ping', body: {} }, 0, members);
      if (seconds) state.server.held[i] = seconds;
      else delete state.server.held[i];
    },
    // holdWrites(ms, { checkpoint }): from now, the primary holds writes for ms (a one-off stall
    // window); checkpoint: its serverStatus says a checkpoint runs meanwhile.
    holdWrites(ms, { checkpoint = false } = {}) {
      const from = Date.now();
      state.stalls.once.push({ from, to: from + ms, checkpoint });
    },
    // fillOplog(windowS): the oplog has reached its maxSize, its first entry windowS before the
    // last write (a fresh set's oplog is not full: its first entry is the initiate).
    fillOplog(windowS) { serverSide.count(state, 0, { name: 'ping', body: {} }, 0, members); state.server.oplogFullWindowS = windowS; },
    // refuseCommand(name): every member answers it Unauthorized from now on.
    refuseCommand(name) { (state.refused ||= new Set()).add(name); },
    // delayAnswer(name, ms): a command the line answers itself (a behaviour's reply, as
    // replSetReconfig's) is done at once and answered ms later, as a server slow to reply is.
    delayAnswer(name, ms) { (state.delayed ||= new Map()).set(name, ms); },
    close() {
      for (const s of sockets) s.destroy();
      return Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    },
  };
}

module.exports = { startShim };
