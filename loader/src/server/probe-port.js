'use strict';
// probeHello('host:port', ms) -> what listens there, asked the way a MongoDB client asks: one
// plain TCP connection, one OP_MSG hello, the first bytes of the answer. The driver's own errors
// cannot tell these apart (an HTTP server closes the connection, a TLS server sends an alert,
// a plain server sent a TLS ClientHello waits, a healthy server under a 1 ms selection timeout
// is never asked): each got a message that blamed the wrong thing.
//   'mongodb'  an OP_MSG or OP_REPLY reply: a MongoDB server, speaking without TLS
//   'tls'      a TLS record (alert or handshake), or a port that closed on the plain hello and
//              completes a TLS handshake (mongod with requireTLS closes a plain connection)
//   'http'     "HTTP/" or an HTML page: a web server, the first line in `said`
//   'closed'   closed without a byte, or bytes of none of the above (`said`): not MongoDB
//   'silent'   nothing within ms
//   'none'     the connection itself failed (refused, no route: the driver's errors say it)
const net = require('node:net');
const tls = require('node:tls');
const { BSON } = require('mongodb');

const OP_MSG = 2013;
const OP_REPLY = 1;

function helloMessage() {
  const body = BSON.serialize({ hello: 1, $db: 'admin' });
  const len = 16 + 4 + 1 + body.length;
  const b = Buffer.alloc(len);
  b.writeInt32LE(len, 0);
  b.writeInt32LE(1, 4); // requestID
  b.writeInt32LE(0, 8); // responseTo
  b.writeInt32LE(OP_MSG, 12);
  b.writeUInt32LE(0, 16); // flagBits
  b.writeUInt8(0, 20); // section kind 0: the body
  body.copy(b, 21);
  return b;
}

function classify(bytes) {
  if (bytes.length >= 5 && (bytes[0] === 0x15 || bytes[0] === 0x16) && bytes[1] === 0x03) return { kind: 'tls' };
  const text = bytes.toString('latin1');
  // A status line, or (a request line it could not parse: HTTP/0.9 style) an HTML error page.
  if (/^(HTTP\/|<!DOCTYPE html|<html)/i.test(text)) return { kind: 'http', said: text.split(/\r?\n/)[0].slice(0, 60) };
  if (bytes.length >= 16) {
    const op = bytes.readInt32LE(12);
    if ((op === OP_MSG || op === OP_REPLY) && bytes.readInt32LE(8) === 1) return { kind: 'mongodb' };
  }
  return { kind: 'closed', said: bytes.length ? JSON.stringify(text.slice(0, 40)) : null };
}

function probeHello(address, ms = 2000) {
  const i = address.lastIndexOf(':');
  return new Promise((resolve) => {
    let got = Buffer.alloc(0);
    let connected = false;
    const s = net.connect({ host: address.slice(0, i).replace(/^\[|\]$/g, ''), port: Number(address.slice(i + 1)) });
    const done = (r) => { clearTimeout(t); s.destroy(); resolve(r); };
    const t = setTimeout(() => done(got.length ? classify(got) : { kind: connected ? 'silent' : 'none' }), ms);
    // Half-way without a byte: an end of line too. A MongoDB server answers the hello at once;
    // a web server reads a request line and answers it only at its end ("400 Bad Request").
    const nudge = setTimeout(() => { if (connected && !got.length) s.write('\r\n\r\n'); }, ms / 2);
    s.once('close', () => clearTimeout(nudge));
    s.once('connect', () => { connected = true; s.write(helloMessage()); });
    s.on('data', (d) => {
      got = Buffer.concat([got, d]);
      // Enough to tell: a whole message header, a TLS record header, or a line of text.
      if (got.length >= 16 || got.includes(0x0a)
        || (got[0] !== undefined && got[0] <= 0x16 && got.length >= 5)) done(classify(got));
    });
    s.once('end', () => done(got.length ? classify(got) : { kind: 'closed', said: null }));
    s.once('error', () => done(got.length ? classify(got) : { kind: connected ? 'closed' : 'none', said: null }));
  });
}

// tlsHandshake('host:port', ms) -> true when a TLS handshake completes there (any certificate:
// only whether the port speaks TLS is asked).
function tlsHandshake(address, ms) {
  const i = address.lastIndexOf(':');
  const host = address.slice(0, i).replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const s = tls.connect({ host, port: Number(address.slice(i + 1)), rejectUnauthorized: false,
      servername: net.isIP(host) ? undefined : host });
    const done = (ok) => { clearTimeout(t); s.destroy(); resolve(ok); };
    const t = setTimeout(() => done(false), ms);
    s.once('secureConnect', () => done(true));
    s.once('error', () => done(false));
  });
}

// probePort(address, ms): probeHello, and where the port closed on it or kept silent, whether it
// speaks TLS.
async function probePort(address, ms = 2000) {
  const found = await probeHello(address, ms);
  if ((found.kind === 'closed' && !found.said) || found.kind === 'silent') {
    if (await tlsHandshake(address, ms)) return { kind: 'tls' };
  }
  return found;
}

module.exports = { probePort };
