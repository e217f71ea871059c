'use strict';
// A connection from one stand-in process to another (a secondary to its sync source, mongos to a
// config server or shard member, a member to its backend): OP_MSG requests matched to replies by
// requestId. Between stand-ins the first message proves the keyfile (as a real cluster's internal
// authentication does with __system and the keyfile): an HMAC of a fixed text under the key.
const net = require('node:net');
const dns = require('node:dns');
const crypto = require('node:crypto');
const wire = require('../../../loader/test/support/wire');
const { bodyOf } = require('./wire-types');

function internalProof(key) {
  return crypto.createHmac('sha256', key).update('lab-standin internal').digest('base64');
}

// sharedLookup: net.connect's lookup, one dns.lookup in flight per name. In a Compose network a
// killed member's name no longer resolves, and getaddrinfo takes 10 s to say so (Docker's DNS
// forwards it and no answer comes) while holding one of libuv's 4 threads; a secondary retrying
// its dead sync source every few seconds held all four, and its own lookups of the living member
// (its ballot) and its file writes queued behind them: no election for a minute and more.
const lookups = new Map();
function sharedLookup(hostname, options, cb) {
  let p = lookups.get(hostname);
  if (!p) {
    p = new Promise((resolve) => dns.lookup(hostname, (err, address, family) => resolve({ err, address, family })));
    lookups.set(hostname, p);
    p.then(() => lookups.delete(hostname));
  }
  p.then(({ err, address, family }) => {
    if (err) cb(err);
    else if (options && options.all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  });
}

class Link {
  // target "host:port"; key: the keyfile text (null for the backend, which has no auth)
  constructor(target, key, { timeoutMs = 5000 } = {}) {
    this.target = target;
    this.key = key;
    this.timeoutMs = timeoutMs;
    this.sock = null;
    this.ready = null;
    this.pending = new Map();
    this.nextId = 1;
  }

  connect() {
    if (this.ready) return this.ready;
    const [host, port] = this.target.split(':');
    this.ready = new Promise((resolve, reject) => {
      const sock = net.connect({ host, port: Number(port), lookup: sharedLookup });
      const split = new wire.Splitter();
      sock.setNoDelay(true);
      // A connect to a container that was killed gets no answer at all (its address is gone: no
      // RST), and the kernel gives up only after its SYN retries, about two minutes; every request
      // to that host waited on it, a candidate's election among them, so a failover took a minute
      // and more where 8.0 elects within its election timeout. The connect is bounded as a request
      // is. fail() acts once per socket: the 'close' after an error must not clear a newer connect.
      let failed = false;
      const fail = (e) => {
        clearTimeout(connectTimer);
        if (failed) return;
        failed = true;
        this.sock = null;
        this.ready = null;
        for (const p of this.pending.values()) p.reject(e);
        this.pending.clear();
        reject(e);
      };
      const connectTimer = setTimeout(() => {
        sock.destroy();
        fail(Object.assign(new Error(`connection to ${this.target}: no answer within ${this.timeoutMs} ms`), { code: 6, codeName: 'HostUnreachable' }));
      }, this.timeoutMs);
      sock.once('error', fail);
      sock.once('close', () => fail(Object.assign(new Error(`connection to ${this.target} closed`), { code: 6, codeName: 'HostUnreachable' })));
      sock.on('data', (chunk) => {
        for (const msg of split.push(chunk)) {
          const parsed = wire.parse(msg);
          const p = this.pending.get(parsed.header.responseTo);
          if (!p) continue;
          this.pending.delete(parsed.header.responseTo);
          p.resolve(bodyOf(msg, parsed));
        }
      });
      sock.once('connect', async () => {
        clearTimeout(connectTimer);
        this.sock = sock;
        try {
          if (this.key) {
            const r = await this.send({ _standinAuth: 1, proof: internalProof(this.key), $db: 'admin' });
            if (r.ok !== 1) throw new Error(`internal authentication to ${this.target} refused: ${r.errmsg}`);
          }
          resolve(sock);
        } catch (e) { sock.destroy(); fail(e); }
      });
    });
    this.ready.catch(() => {});
    return this.ready;
  }

  send(body, { moreToCome = false } = {}) {
    const id = this.nextId++;
    const flags = moreToCome ? wire.MORE_TO_COME : 0;
    this.sock.write(wire.opMsg(id, 0, flags, body));
    if (moreToCome) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(Object.assign(new Error(`${Object.keys(body)[0]} to ${this.target}: no reply within ${this.timeoutMs} ms`), { code: 50, codeName: 'MaxTimeMSExpired' }));
      }, this.timeoutMs);
      this.pending.set(id, {
        resolve: (v) => { clearTimeout(timer); resolve(v); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
    });
  }

  // request(body) -> the reply document; throws on a network error or timeout.
  async request(body, opts) {
    await this.connect();
    return this.send(body, opts);
  }

  close() { if (this.sock) this.sock.destroy(); this.sock = null; this.ready = null; }
}

module.exports = { Link, internalProof };
