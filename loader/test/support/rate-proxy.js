'use strict';
// A TCP proxy in front of the test server that serves at most `rate` data commands a second,
// queueing the rest in arrival order: a server whose capacity is known exactly, so a test can
// check that the capacity search (src/experiment/sla.js) finds it. Only commands that do the workload's work
// are paced (find, update, insert, delete, aggregate, ...); the driver's handshake, monitoring
// and ping commands pass at once, so connecting 32 clients is not slowed.
//
// Pacing is a token bucket of `burst` tokens refilled at `rate` a second: up to `burst` commands
// arriving together pass at once (an open loop's clients may fire together), and over any second
// no more than rate + burst pass. Below `rate` a command waits for nothing; above it the queue,
// and every command's wait, grows for as long as the rate is offered. delayMs: every paced
// command also waits that long first (a server whose idle latency is at least delayMs).
const net = require('node:net');

const PACED = new Set(['find', 'update', 'insert', 'delete', 'aggregate', 'findAndModify', 'getMore', 'count']);

// commandOf(msg): the command name of an OP_MSG (opCode 2013) with a body section first:
// header (16 bytes), flagBits (4), section kind 0 (1), then the body's BSON: its length (4), the
// first element's type (1) and name (a C string). Anything else: null.
function commandOf(msg) {
  if (msg.length < 27 || msg.readInt32LE(12) !== 2013 || msg[20] !== 0) return null;
  const end = msg.indexOf(0, 26);
  return end > 26 ? msg.toString('latin1', 26, end) : null;
}

async function rateProxy(upstreamPort, { rate = Infinity, burst = 64, delayMs = 0 } = {}) {
  const state = { paced: 0, passed: 0, maxQueue: 0 };
  const sockets = new Set();
  let tokens = burst;
  let last = performance.now();
  const queue = []; // [send] in arrival order, across connections
  let timer = null;
  const refill = () => {
    const t = performance.now();
    tokens = Math.min(burst, tokens + ((t - last) / 1000) * rate);
    last = t;
  };
  const drain = () => {
    timer = null;
    refill();
    while (queue.length && tokens >= 1) {
      tokens -= 1;
      queue.shift()();
    }
    if (queue.length) timer = setTimeout(drain, Math.max(1, ((1 - tokens) / rate) * 1000));
  };
  const server = net.createServer((client) => {
    const up = net.connect(upstreamPort, '127.0.0.1');
    for (const s of [client, up]) { sockets.add(s); s.on('error', () => {}); s.on('close', () => sockets.delete(s)); }
    client.on('close', () => up.destroy());
    up.on('close', () => client.destroy());
    up.pipe(client);
    // Client to server: whole messages, in order per connection (one client has one in flight).
    let pending = Buffer.alloc(0);
    client.on('data', (data) => {
      pending = pending.length ? Buffer.concat([pending, data]) : data;
      while (pending.length >= 4) {
        const len = pending.readInt32LE(0);
        if (pending.length < len) break;
        const msg = Buffer.from(pending.subarray(0, len));
        pending = pending.subarray(len);
        if (!PACED.has(commandOf(msg))) { state.passed += 1; up.write(msg); continue; }
        state.paced += 1;
        const enqueue = () => {
          queue.push(() => up.write(msg));
          state.maxQueue = Math.max(state.maxQueue, queue.length);
          if (!timer) drain();
        };
        if (delayMs) setTimeout(enqueue, delayMs); else enqueue();
      }
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    uri: `mongodb://127.0.0.1:${server.address().port}/`,
    state,
    close: () => new Promise((r) => {
      clearTimeout(timer);
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}

module.exports = { rateProxy, commandOf };
