'use strict';
// SCRAM-SHA-1 and SCRAM-SHA-256 as a MongoDB server speaks them (RFC 5802, RFC 7677; MongoDB's
// saslStart/saslContinue framing, manual "SCRAM"): the stand-in checks every password the lab's
// scripts, loader and exporters send, so a wrong or missing secret fails here as on a real server.
// Differences MongoDB defines: SCRAM-SHA-1 hashes the password as md5("<user>:mongo:<password>")
// hex before the salting (the "digest" step); SCRAM-SHA-256 takes the password as given (SASLprep
// matters only for non-ASCII, which the lab's generated secrets never contain).
const crypto = require('node:crypto');

const MECHS = {
  'SCRAM-SHA-1': { hash: 'sha1', bytes: 20, iterations: 10000 },
  'SCRAM-SHA-256': { hash: 'sha256', bytes: 32, iterations: 15000 },
};

const hmac = (hash, key, text) => crypto.createHmac(hash, key).update(text).digest();
const H = (hash, data) => crypto.createHash(hash).update(data).digest();

function mongoDigest(user, password) {
  return crypto.createHash('md5').update(`${user}:mongo:${password}`, 'utf8').digest('hex');
}

// credentials(user, password, mech, salt?) -> { iterationCount, salt (base64), storedKey, serverKey }
function credentials(user, password, mech, salt = crypto.randomBytes(16)) {
  const m = MECHS[mech];
  const secret = mech === 'SCRAM-SHA-1' ? mongoDigest(user, password) : password;
  const salted = crypto.pbkdf2Sync(secret, salt, m.iterations, m.bytes, m.hash);
  const clientKey = hmac(m.hash, salted, 'Client Key');
  return {
    iterationCount: m.iterations,
    salt: salt.toString('base64'),
    storedKey: H(m.hash, clientKey).toString('base64'),
    serverKey: hmac(m.hash, salted, 'Server Key').toString('base64'),
  };
}

// Conversation: one SCRAM exchange on one connection. start(payload) -> server-first text;
// finish(payload) -> server-final text, or throws AuthenticationFailed.
class Conversation {
  constructor(mech, lookup) {
    if (!MECHS[mech]) throw Object.assign(new Error(`Received authentication for mechanism ${mech} which is not enabled`), { code: 334, codeName: 'MechanismUnavailable' });
    this.mech = mech;
    this.lookup = lookup; // (user) -> credentials for this mechanism, or null
  }

  start(text) {
    const m = /^[ny],[^,]*,(n=([^,]*),r=([^,]*).*)$/.exec(text);
    if (!m) throw failed('malformed client-first message');
    this.clientFirstBare = m[1];
    this.user = m[2].replace(/=2C/g, ',').replace(/=3D/g, '=');
    this.creds = this.lookup(this.user);
    // An unknown user still gets a server-first message (a fake salt), as MongoDB does, so that
    // the reply does not say which users exist; the proof then fails.
    const c = this.creds || credentials(this.user, crypto.randomBytes(16).toString('hex'), this.mech);
    this.nonce = m[3] + crypto.randomBytes(18).toString('base64');
    this.serverFirst = `r=${this.nonce},s=${c.salt},i=${c.iterationCount}`;
    return this.serverFirst;
  }

  finish(text) {
    const m = /^(c=([^,]*),r=([^,]*)),p=(.*)$/.exec(text);
    if (!m || m[3] !== this.nonce || !this.creds) throw failed();
    const { hash } = MECHS[this.mech];
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${m[1]}`;
    const storedKey = Buffer.from(this.creds.storedKey, 'base64');
    const signature = hmac(hash, storedKey, authMessage);
    const proof = Buffer.from(m[4], 'base64');
    if (proof.length !== signature.length) throw failed();
    const clientKey = Buffer.from(proof.map((b, i) => b ^ signature[i]));
    if (!crypto.timingSafeEqual(H(hash, clientKey), storedKey)) throw failed();
    return `v=${hmac(hash, Buffer.from(this.creds.serverKey, 'base64'), authMessage).toString('base64')}`;
  }
}

function failed(why) {
  return Object.assign(new Error(why ? `Authentication failed: ${why}` : 'Authentication failed.'), { code: 18, codeName: 'AuthenticationFailed' });
}

module.exports = { Conversation, credentials, MECHS };
