'use strict';
// A TCP proxy between the driver and the test server that changes one byte of the first large
// server reply (a wire message of at least minBytes): the middle byte, which in a reply carrying
// GridFS chunks lies inside a chunk's data (a chunk document is ~60 bytes of fields around 255 KiB
// of data). OP_MSG carries no checksum unless asked, so the driver accepts the reply: the bytes a
// GridFS download returns differ from those stored, as a faulty disk or memory would make them.
const net = require('node:net');

async function corruptingProxy(upstreamPort, { minBytes = 1 << 20 } = {}) {
  const state = { flipped: 0 };
  const sockets = new Set();
  const server = net.createServer((client) => {
    const up = net.connect(upstreamPort, '127.0.0.1');
    for (const s of [client, up]) { sockets.add(s); s.on('error', () => {}); s.on('close', () => sockets.delete(s)); }
    client.on('close', () => up.destroy());
    up.on('close', () => client.destroy());
    client.pipe(up);
    // Server to client: whole messages (each starts with its int32 little-endian length).
    let pending = Buffer.alloc(0);
    up.on('data', (data) => {
      pending = pending.length ? Buffer.concat([pending, data]) : data;
      while (pending.length >= 4) {
        const len = pending.readInt32LE(0);
        if (pending.length < len) break;
        const msg = Buffer.from(pending.subarray(0, len));
        if (!state.flipped && len >= minBytes) {
          msg[len >> 1] ^= 0xff;
          state.flipped += 1;
        }
        client.write(msg);
        pending = pending.subarray(len);
      }
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    uri: `mongodb://127.0.0.1:${server.address().port}/`,
    state,
    close: () => new Promise((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }),
  };
}

module.exports = { corruptingProxy };
