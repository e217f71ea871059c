'use strict';
// MongoDB wire-protocol framing for the test shim (wire-shim.js): split a byte stream into
// messages, read and rebuild OP_MSG and the legacy OP_QUERY / OP_REPLY a handshake may use.
// Layouts: MongoDB manual "MongoDB Wire Protocol" (OP_MSG: flagBits, kind-0 body, kind-1
// document sequences; checksumPresent = bit 0, moreToCome = bit 1) and the Node driver's
// lib/cmap/commands.js (mongodb 7.8.0), which writes them.
const { BSON } = require('mongodb');

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
const CHECKSUM_PRESENT = 1;
const MORE_TO_COME = 2;

// Splitter: push(chunk) -> complete messages (Buffers), keeping a partial one for the next chunk.
class Splitter {
  constructor() { this.pending = Buffer.alloc(0); }
  push(chunk) {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const out = [];
    while (this.pending.length >= 4) {
      const len = this.pending.readInt32LE(0);
      if (this.pending.length < len) break;
      out.push(this.pending.subarray(0, len));
      this.pending = this.pending.subarray(len);
    }
    return out;
  }
}

function header(buf) {
  return { length: buf.readInt32LE(0), requestId: buf.readInt32LE(4), responseTo: buf.readInt32LE(8),
    opCode: buf.readInt32LE(12) };
}

// parse(buf) -> { header, flags, body, rest } for OP_MSG (rest: the raw kind-1 sections),
// { header, query } for OP_QUERY (body = the command), { header, docs } for OP_REPLY, or
// { header } for anything else (forwarded untouched).
function parse(buf) {
  const h = header(buf);
  if (h.opCode === OP_MSG) {
    const flags = buf.readUInt32LE(16);
    const end = buf.length - (flags & CHECKSUM_PRESENT ? 4 : 0);
    let at = 20;
    let body = null;
    const rest = [];
    while (at < end) {
      const kind = buf[at];
      if (kind === 0) {
        const size = buf.readInt32LE(at + 1);
        body = BSON.deserialize(buf.subarray(at + 1, at + 1 + size));
        at += 1 + size;
      } else {
        const size = buf.readInt32LE(at + 1);
        rest.push(buf.subarray(at, at + 1 + size));
        at += 1 + size;
      }
    }
    return { header: h, flags, body, rest };
  }
  if (h.opCode === OP_QUERY) {
    let at = 20;
    const nameEnd = buf.indexOf(0, at);
    const collection = buf.toString('utf8', at, nameEnd);
    at = nameEnd + 1 + 8; // numberToSkip, numberToReturn
    const size = buf.readInt32LE(at);
    return { header: h, collection, body: BSON.deserialize(buf.subarray(at, at + size)) };
  }
  if (h.opCode === OP_REPLY) {
    const size = buf.readInt32LE(36);
    return { header: h, body: BSON.deserialize(buf.subarray(36, 36 + size)) };
  }
  return { header: h };
}

function frame(requestId, responseTo, opCode, parts) {
  const payload = Buffer.concat(parts);
  const head = Buffer.alloc(16);
  head.writeInt32LE(16 + payload.length, 0);
  head.writeInt32LE(requestId, 4);
  head.writeInt32LE(responseTo, 8);
  head.writeInt32LE(opCode, 12);
  return Buffer.concat([head, payload]);
}

// opMsg(requestId, responseTo, flags, body, rest): an OP_MSG without a checksum (a rewritten
// message's checksum would be wrong; the driver sends none and accepts none missing).
function opMsg(requestId, responseTo, flags, body, rest = []) {
  const flagBuf = Buffer.alloc(4);
  flagBuf.writeUInt32LE(flags & ~CHECKSUM_PRESENT, 0);
  return frame(requestId, responseTo, OP_MSG, [flagBuf, Buffer.from([0]), BSON.serialize(body), ...rest]);
}

// opReply(requestId, responseTo, doc): the legacy reply to an OP_QUERY command (one document).
function opReply(requestId, responseTo, doc) {
  const fixed = Buffer.alloc(20); // responseFlags, cursorID (8), startingFrom, numberReturned
  fixed.writeInt32LE(1, 16);
  return frame(requestId, responseTo, OP_REPLY, [fixed, BSON.serialize(doc)]);
}

// reply(request, doc, requestId): the answer to a parsed request in its own protocol.
function reply(request, doc, requestId) {
  return request.header.opCode === OP_QUERY
    ? opReply(requestId, request.header.requestId, doc)
    : opMsg(requestId, request.header.requestId, 0, doc);
}

// rewrite(parsed, body): the same message with another body (OP_MSG or OP_REPLY).
function rewrite(parsed, body) {
  const h = parsed.header;
  if (h.opCode === OP_REPLY) return opReply(h.requestId, h.responseTo, body);
  return opMsg(h.requestId, h.responseTo, parsed.flags, body, parsed.rest);
}

module.exports = { Splitter, parse, reply, rewrite, opMsg, OP_MSG, OP_QUERY, OP_REPLY, MORE_TO_COME };
