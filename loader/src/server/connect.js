'use strict';
// First contact with the server: connect, and when that fails say why in one line naming what to
// check. The driver retries a refused or unresolvable seed until serverSelectionTimeoutMS; the
// first heartbeat already says what is wrong, so every seed failing for a reason that a retry will
// not change (refused, no such host, no route, wrong replica set) ends the wait at once.

const { REOPEN } = require('./clients');
const { lineForWire, tooOldMessage } = require('./driver-line');
const { probePort } = require('./probe-port');
const { durationText } = require('../text/duration');

class ConnectError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = 'Error';
    // refused | dns | srv | unreachable | timeout | silent | not-mongodb | tls | short-timeout | auth | replica-set
    // | server-too-old | other
    this.kind = kind;
  }
}

const ERRNO = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns', EAI_AGAIN: 'dns', EAI_NONAME: 'dns', EAI_FAIL: 'dns',
  EHOSTUNREACH: 'unreachable', ENETUNREACH: 'unreachable', EHOSTDOWN: 'unreachable', ENETDOWN: 'unreachable',
  ETIMEDOUT: 'timeout',
};
const DECISIVE = new Set(['refused', 'dns', 'unreachable', 'replica-set']);

// errno of a driver error: on the error itself, or on its cause chain.
function errnoOf(e) {
  for (let x = e, i = 0; x && i < 5; x = x.cause, i++) {
    if (typeof x.code === 'string' && ERRNO[x.code]) return x.code;
    const m = /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN|ETIMEDOUT)\b/.exec(x.message || '');
    if (m) return m[1];
  }
  return null;
}

function isAuthError(e) {
  for (let x = e, i = 0; x && i < 5; x = x.cause, i++) {
    if (x.code === 18 || x.codeName === 'AuthenticationFailed' || x.name === 'MongoAuthError' || x.name === 'MongoMissingCredentialsError') return true;
  }
  return false;
}

// hostKind(error) -> { kind, detail } for one host's failed heartbeat or connection.
function hostKind(e) {
  const errno = errnoOf(e);
  if (errno) return { kind: ERRNO[errno], errno };
  if (e && (e.name === 'MongoNetworkTimeoutError' || /timed out/i.test(e.message || ''))) return { kind: 'timeout' };
  if (isAuthError(e)) return { kind: 'auth' };
  return { kind: 'other' };
}

// message(kind, ...) -> the one line the user sees.
function describeFailure({ kind, host, hosts, replicaSet, reported, auth, timeoutText, detail }) {
  const where = host || hosts.join(',');
  switch (kind) {
    case 'refused':
      return `connection refused by ${where}: nothing listens there (is the server running, is the port in --uri right?)`;
    case 'dns':
      return `cannot resolve ${where.replace(/:\d+$/, '')} (DNS lookup failed): check the host name in --uri`;
    case 'unreachable':
      return `host ${where} is unreachable (no route to it): check the address in --uri and the network`;
    case 'timeout':
      return `no answer from ${where} within ${timeoutText} (host down, or a firewall drops the packets): check the address and --server-selection-timeout`;
    case 'silent':
      return `${where} accepted the TCP connection but sent no MongoDB reply within ${timeoutText}: something listens there that is not answering as a MongoDB server (another service, or a hung mongod)`;
    case 'replica-set':
      return `${where} is not a member of replica set '${replicaSet}' (it reports ${reported ? `replica set '${reported}'` : 'no replica set'}): check replicaSet= in --uri`;
    case 'auth':
      return `authentication failed for user '${auth.username}' (auth source '${auth.source}', mechanism ${auth.mechanism}): check --username, --password-file and where the user was created${detail ? ` (server: ${detail})` : ''}`;
    default:
      return `cannot reach the server at ${where} within ${timeoutText}: ${detail}`;
  }
}

// oneCause(base, seeds, failure): every seed failed alike: one ConnectError, naming the host when
// there is only one; eachCause(base, perHost, seeds): each seed's failure, in one line.
const oneCause = (base, seeds, f) => new ConnectError(f.kind, describeFailure({ ...base, ...f,
  host: seeds.length === 1 ? seeds[0] : null }));
const eachCause = (base, perHost, seeds) => seeds.map((s) => describeFailure({ ...base, ...perHost.get(s), host: s }))
  .join('; ');

// byProbe(seed, probe, { tls, timeoutText, timedOut }) -> { kind, message } from what a plain hello
// found at seed (src/server/probe-port.js), or null when it adds nothing to the driver's own error.
// timedOut: server selection ran out of time (a healthy server is then blamed on the timeout).
function byProbe(seed, probe, { tls, timeoutText, timedOut }) {
  switch (probe.kind) {
    case 'http':
      return { kind: 'not-mongodb', message: `${seed} is a web server, not MongoDB (it answered '${probe.said}'): check the host and port in --uri` };
    case 'closed':
      return { kind: 'not-mongodb', message: `${seed} closed the connection at MongoDB's hello ${probe.said ? `after sending ${probe.said}` : 'without a reply'}: it is not a MongoDB server: check the host and port in --uri` };
    case 'tls':
      return tls ? null : { kind: 'tls', message: `${seed} speaks TLS and --uri does not: add tls=true to --uri (and tlsCAFile=FILE when its certificate is not signed by a public authority)` };
    case 'mongodb':
      if (tls) return { kind: 'tls', message: `${seed} answers as a MongoDB server without TLS, and --uri asks for TLS (tls=true, or mongodb+srv://, which turns TLS on): add tls=false to --uri, or turn TLS on at the server` };
      if (timedOut) return { kind: 'short-timeout', message: `${seed} answers as a MongoDB server, but no server was selected within ${timeoutText}: --server-selection-timeout is too short for a first connection (TCP and the hello handshake): raise it (default 10s)` };
      return null;
    case 'silent':
      return timedOut ? { kind: 'silent', message: describeFailure({ kind: 'silent', host: seed, timeoutText }) } : null;
    default:
      return null;
  }
}

// The server answered its first hello with a wire version the client's driver line refuses.
class WireMismatch extends Error {
  constructor(address, wire) {
    super(`${address} reports wire version ${wire}`);
    this.address = address;
    this.wire = wire;
  }
}

// refusedWire(error) -> the server's maxWireVersion when the error is the driver refusing a server
// too old for its line, else null. Every line carried (6.9, 6.16, 7.x) refuses in its handshake
// (lib/cmap/connect.js checkSupportedServer) with a MongoCompatibilityError saying "Server at
// <host> reports maximum wire version <n>, but this version of the Node.js Driver requires at
// least <m>"; the monitor's hello fails with it, and server selection would wait out the whole
// timeout before reporting it, so the first such heartbeat decides.
function refusedWire(e) {
  if (!e || e.name !== 'MongoCompatibilityError') return null;
  const m = /reports maximum wire version (\d+)/.exec(e.message || '');
  return m ? Number(m[1]) : null;
}

// srvFailure(error, options) -> the one line for a mongodb+srv:// URI whose DNS records could not be
// used, or null. The driver looks up _<srvServiceName>._tcp.<srvHost> (SRV) and <srvHost> (TXT)
// in connect() and fills options.hosts from the SRV answer (mongodb lib/mongo_client.js connect,
// lib/connection_string.js resolveSRVRecord): hosts still empty after a failed connect() means the
// lookup itself failed (a DNS error: ENOTFOUND, ENODATA, ETIMEOUT, ...; or the driver refusing the
// records: a target outside the name's domain, no addresses, a bad TXT record).
function srvFailure(e, options) {
  if (!options.srvHost || (options.hosts || []).length) return null;
  const name = `_${options.srvServiceName || 'mongodb'}._tcp.${options.srvHost}`;
  const why = {
    ENOTFOUND: 'no such name in DNS', ENODATA: 'the name has no SRV record', ETIMEOUT: 'the DNS server did not answer',
    ECONNREFUSED: 'the DNS server refused the query', ESERVFAIL: 'the DNS server failed (SERVFAIL)',
  }[e && e.code] || (e && e.code ? e.code : `${e.name}: ${e.message}`);
  return `SRV lookup failed for ${name} (${why}): check the cluster's name in --uri and that this machine's DNS resolves it`;
}

// whyNotConnected(e, ...) -> the ConnectError for a connect() that failed with e: a refused login,
// an SRV lookup, or else the hosts' last errors (perHost) and what a plain hello finds at each seed.
async function whyNotConnected(e, { client, seeds, perHost, base, tls, timeoutMs, probeSeed }) {
  if (isAuthError(e)) return new ConnectError('auth', describeFailure({ ...base, kind: 'auth', detail: e.message }));
  const srv = srvFailure(e, client.options);
  if (srv) return new ConnectError('srv', srv);
  // Server selection timed out: the hosts' last errors say why.
  const seen = [...perHost.values()];
  const kinds = new Set(seen.map((h) => h.kind));
  const k = hostKind(e);
  // Several hosts, some failing and some not: the ones that fail are named with their cause, and
  // the others as answering but unused (a standalone among several seeds, which the driver drops,
  // or a set whose primary is the dead one). One refused host was blamed on every host, or the
  // answering one on a timeout too short.
  const failing = seeds.filter((s) => perHost.has(s));
  const answering = seeds.filter((s) => !perHost.has(s));
  if (failing.length && answering.length && !kinds.has('auth')) {
    return new ConnectError('other', `${eachCause(base, perHost, failing)}; ${answering.join(', ')} answered, but no server could be used within ${durationText(timeoutMs)}: with several hosts in --uri the driver takes only members of one replica set (replicaSet=NAME, its primary reachable) or mongos routers, never a standalone: name only the hosts that are up, or bring the others back`);
  }
  const timedOut = seen.length ? kinds.size === 1 && kinds.has('timeout') : k.kind === 'timeout';
  // A timeout, or an error with no errno: what a plain hello finds at each seed says which it
  // is (a web server, TLS on one side only, a healthy server and a timeout too short for it).
  if (timedOut || kinds.has('other') || (!seen.length && k.kind === 'other')) {
    for (const seed of seeds) {
      const found = byProbe(seed, await probeSeed(seed), { tls, timeoutText: durationText(timeoutMs), timedOut });
      if (found) return new ConnectError(found.kind, found.message);
    }
  }
  if (seen.length && kinds.size === 1 && !kinds.has('other')) return oneCause(base, seeds, seen[0]);
  return new ConnectError(k.kind === 'auth' ? 'auth' : 'other', describeFailure({ ...base, kind: k.kind === 'timeout' ? 'timeout' : 'other', detail: e.message }));
}

// connectOnce(client, opts) -> the server's maxWireVersion once connected (undefined if no
// heartbeat said it); rejects with a ConnectError, or a WireMismatch when the client's driver
// line refuses the server as too old.
async function connectOnce(client, { timeoutMs, username }) {
  // A mongodb+srv:// URI has its hosts once the SRV record is resolved (inside connect()).
  const seedList = () => (client.options.hosts || []).map((h) => h.toString());
  const replicaSet = client.options.replicaSet || null;
  const perHost = new Map(); // seed -> { kind, detail, reported }
  const cred = client.options.credentials;
  const auth = {
    username: cred?.username || username || '(none)',
    source: cred?.source || 'admin',
    mechanism: cred && cred.mechanism && cred.mechanism !== 'DEFAULT' ? cred.mechanism : 'negotiated, SCRAM-SHA-256 or SCRAM-SHA-1',
  };
  const base = { get hosts() { return seedList(); }, replicaSet, auth, timeoutText: durationText(timeoutMs) };
  let decide;
  const decided = new Promise((_, reject) => { decide = reject; });
  decided.catch(() => {});
  const settle = () => {
    const seeds = seedList();
    if (!seeds.length || !seeds.every((s) => perHost.has(s) && DECISIVE.has(perHost.get(s).kind))) return;
    const kinds = new Set(seeds.map((s) => perHost.get(s).kind));
    decide(kinds.size === 1 ? oneCause(base, seeds, perHost.get(seeds[0]))
      : new ConnectError('other', `no server in --uri can be used: ${eachCause(base, perHost, seeds)}`));
  };
  // A seed whose connection fails for no errno (closed, a TLS or protocol error): asked once with
  // a plain hello; a web server, a closed port or TLS on one side only decides at once (the
  // driver would retry it until the timeout, then name the wrong cause).
  const tls = Boolean(client.options.tls);
  const probed = new Map();
  const probeSeed = (seed) => {
    if (!probed.has(seed)) probed.set(seed, probePort(seed, Math.min(2000, Math.max(500, timeoutMs))));
    return probed.get(seed);
  };
  // decideByProbe(seed, when): what the probe finds at seed decides, where when(probe) says so.
  const decideByProbe = (seed, when) => probeSeed(seed).then((probe) => {
    const found = when(probe) ? byProbe(seed, probe, { tls, timeoutText: durationText(timeoutMs),
      timedOut: false }) : null;
    if (found) decide(new ConnectError(found.kind, found.message));
  });
  const onChange = (ev) => {
    const d = ev.newDescription;
    if (!d.error) return;
    const refused = refusedWire(d.error);
    if (refused !== null) { decide(new WireMismatch(ev.address, refused)); return; }
    if (!seedList().includes(ev.address)) return;
    const hk = hostKind(d.error);
    perHost.set(ev.address, { ...hk, detail: d.error.message });
    settle();
    if (hk.kind === 'other' && !isAuthError(d.error)) decideByProbe(ev.address, () => seedList().length === 1);
  };
  let wire;
  const onBeat = (ev) => {
    const r = ev.reply || {};
    if (typeof r.maxWireVersion === 'number') wire = r.maxWireVersion;
    if (!replicaSet || !seedList().includes(ev.connectionId)) return;
    if (r.setName !== replicaSet && !r.isdbgrid && r.msg !== 'isdbgrid') {
      perHost.set(ev.connectionId, { kind: 'replica-set', reported: r.setName || null });
      settle();
    }
  };
  client.on('serverDescriptionChanged', onChange);
  client.on('serverHeartbeatSucceeded', onBeat);
  // TLS asked of a server that speaks none: the TLS handshake waits out the whole timeout in
  // silence, so after a second without a connection a plain hello asks what is there.
  const tlsCheck = tls ? setTimeout(() => {
    for (const seed of seedList()) decideByProbe(seed, (probe) => probe.kind === 'mongodb');
  }, 1000).unref() : null;
  try {
    const connecting = client.connect();
    connecting.catch(() => {}); // the race below reports it; a client closed after a decision rejects here too
    await Promise.race([connecting, decided]);
    return wire;
  } catch (e) {
    if (e instanceof ConnectError || e instanceof WireMismatch) throw e;
    throw await whyNotConnected(e, { client, seeds: seedList(), perHost, base, tls, timeoutMs, probeSeed });
  } finally {
    clearTimeout(tlsCheck);
    client.off('serverDescriptionChanged', onChange);
    client.off('serverHeartbeatSucceeded', onBeat);
  }
}

// connect(client, { timeoutMs, username }) -> the connected client to use from now on: the same
// one, or, when the server's first hello shows a wire version the client's driver line refuses,
// a client with the same settings on the newest driver line that accepts it (src/server/driver-line.js).
// The choice is written into the client's conn (conn.driverLine, conn.serverWireVersion), which
// the worker threads and summary.json read. Rejects with a ConnectError: unreachable, refused
// credentials, ..., or a server older than every driver line the loader carries.
async function connect(client, opts) {
  const made = client[REOPEN];
  try {
    const wire = await connectOnce(client, opts);
    if (made && wire !== undefined) made.conn.serverWireVersion = wire;
    return client;
  } catch (e) {
    if (!(e instanceof WireMismatch) || !made) throw e instanceof WireMismatch ? new ConnectError('server-too-old', tooOldMessage(e.address, e.wire)) : e;
    await client.close().catch(() => {});
    const chosen = lineForWire(e.wire);
    if (!chosen) throw new ConnectError('server-too-old', tooOldMessage(e.address, e.wire));
    made.conn.driverLine = chosen.name;
    made.conn.serverWireVersion = e.wire;
    const next = made.remake();
    try {
      await connectOnce(next, opts);
    } catch (e2) {
      if (e2 instanceof WireMismatch) throw new ConnectError('other', `driver line ${chosen.name} refused ${e2.address} too (wire version ${e2.wire})`);
      throw e2;
    }
    return next;
  }
}

module.exports = { connect };
