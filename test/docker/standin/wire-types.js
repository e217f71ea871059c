'use strict';
// Reading a message's body for the stand-in, which passes documents on rather than reading them.
const { BSON } = require('./bson');
const wire = require('../../../loader/test/support/wire');

// Longs stay Longs (cursor ids, optime terms): a value read and sent on must keep its BSON type,
// and the driver refuses a cursor id that is not an int64.
const KEEP_TYPES = { promoteLongs: false };

// bodyOf(msg, parsed): an OP_MSG's kind-0 body read with KEEP_TYPES (wire.parse promotes).
function bodyOf(msg, parsed) {
  if (parsed.header.opCode !== wire.OP_MSG || !parsed.body) return parsed.body;
  let at = 20;
  for (;;) {
    const kind = msg[at];
    const size = msg.readInt32LE(at + 1);
    if (kind === 0) return BSON.deserialize(msg.subarray(at + 1, at + 1 + size), KEEP_TYPES);
    at += 1 + size;
  }
}

module.exports = { bodyOf, KEEP_TYPES };
