'use strict';
// A small authoritative DNS server on 127.0.0.1 (UDP) for mongodb+srv:// tests: the driver
// resolves _mongodb._tcp.NAME (SRV) and NAME (TXT) with node:dns (mongodb lib/connection_string.js
// resolveSRVRecord), and connects to each SRV target by name. Answers from a table; a name not in
// it gets NXDOMAIN (rcode 3), a name in it without records of the asked type NOERROR with no
// answer (node: ENODATA, which the driver takes as "no TXT options"). RFC 1035 4.1 (message),
// RFC 2782 (SRV rdata: priority, weight, port, target).
// The loader is pointed at it by test/support/dns-preload.js (--require in NODE_OPTIONS).
const dgram = require('node:dgram');

const TYPES = { A: 1, TXT: 16, SRV: 33 };

function encodeName(name) {
  const parts = name.replace(/\.$/, '').split('.').filter(Boolean);
  return Buffer.concat([...parts.map((p) => Buffer.concat([Buffer.from([p.length]), Buffer.from(p, 'ascii')])), Buffer.from([0])]);
}

function u16(n) { const b = Buffer.alloc(2); b.writeUInt16BE(n); return b; }
function u32(n) { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; }

function rdata(type, value) {
  if (type === 'A') return Buffer.from(value.split('.').map(Number));
  if (type === 'TXT') return Buffer.concat([Buffer.from([value.length]), Buffer.from(value, 'ascii')]);
  // SRV: { port, target }
  return Buffer.concat([u16(0), u16(0), u16(value.port), encodeName(value.target)]);
}

// records: { 'name.': { SRV: [{port, target}], TXT: ['replicaSet=rs0'], A: ['127.0.0.1'] } }
// (names lower case, without the trailing dot). Returns { port, queries, stop() }.
async function startDns(records) {
  const sock = dgram.createSocket('udp4');
  const queries = []; // "TYPE name" as asked, for tests to check what was looked up
  sock.on('message', (msg, rinfo) => {
    // Question: QNAME labels from offset 12, then QTYPE, QCLASS.
    let off = 12;
    const labels = [];
    while (msg[off] !== 0) { labels.push(msg.subarray(off + 1, off + 1 + msg[off]).toString('ascii')); off += msg[off] + 1; }
    const qEnd = off + 5;
    const qtype = msg.readUInt16BE(off + 1);
    const name = labels.join('.').toLowerCase();
    const type = Object.keys(TYPES).find((k) => TYPES[k] === qtype);
    queries.push(`${type || qtype} ${name}`);
    const entry = records[name];
    const answers = entry && type ? (entry[type] || []) : [];
    const rcode = entry ? 0 : 3;
    const header = Buffer.concat([msg.subarray(0, 2), u16(0x8400 | rcode),
      u16(1), u16(answers.length), u16(0), u16(0)]);
    const rrs = answers.map((v) => {
      const data = rdata(type, v);
      return Buffer.concat([Buffer.from([0xc0, 12]), u16(qtype), u16(1), u32(5), u16(data.length), data]);
    });
    sock.send(Buffer.concat([header, msg.subarray(12, qEnd), ...rrs]), rinfo.port, rinfo.address);
  });
  await new Promise((r) => sock.bind(0, '127.0.0.1', r));
  return { port: sock.address().port, queries, stop: () => new Promise((r) => sock.close(r)) };
}

module.exports = { startDns };
