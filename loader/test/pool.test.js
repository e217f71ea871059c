'use strict';
// The pool's flush protocol with a real worker thread whose event loop is blocked past the 2 s
// flush wait, as a GridFS download's one huge reply blocks it on mongo-java-server: the counts in
// its late reply must reach a later flush, not be dropped (the worker has already reset them).
const test = require('node:test');
const assert = require('node:assert/strict');
const { Worker } = require('node:worker_threads');
const { WorkerPool, warmCommands, WARM_COMMANDS, THREAD_WARM_COMMANDS } = require('../src/run/pool');

// A thread that answers flushes like src/run/worker.js: 5 ok ops per flush, and the first answer
// only after blocking its event loop for 2.6 s (longer than the pool waits).
const BLOCKING_WORKER = `
const { parentPort } = require('node:worker_threads');
let first = true;
parentPort.on('message', (m) => {
  if (m.type !== 'flush') return;
  if (first) { first = false; Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2600); }
  parentPort.postMessage({ type: 'interval', seq: m.seq, ops: { insert: { ok: 5 } }, self: { worker: 0 } });
});`;

test('a reply that misses its flush is handed to the next flush, not lost', async () => {
  const pool = new WorkerPool({ conn: null, config: null, on: {} });
  const worker = new Worker(BLOCKING_WORKER, { eval: true });
  const entry = { worker, index: 0, clientIds: [0], closed: false };
  worker.on('message', (m) => pool.onMessage(entry, m));
  pool.workers.push(entry);
  try {
    const first = await pool.flush();
    assert.equal(first.length, 0, 'the blocked worker cannot answer within the 2 s wait');
    const second = await pool.flush();
    assert.deepEqual(second.map((r) => r.seq), [1, 2], 'the late reply to flush 1, then the reply to flush 2');
    assert.deepEqual(second.map((r) => r.self.late === true), [true, false], 'the late one is marked for the timeline');
    const ok = [...first, ...second].reduce((n, r) => n + r.ops.insert.ok, 0);
    assert.equal(ok, 10, 'every op the worker counted is in some flush');
    assert.equal((await pool.flush()).length, 1, 'a late reply is handed over once');
  } finally {
    await worker.terminate();
  }
});

test('setup pings: 50 a client up to 16 on a thread, then about 800 in all, never none', () => {
  for (const n of [1, 6, 16]) assert.equal(warmCommands(n), WARM_COMMANDS, `${n} clients`);
  for (const n of [17, 100, 500, 999, 1000, 5000]) {
    const each = warmCommands(n);
    assert.ok(each >= 1, `${n} clients: each opens its pooled connection with at least one`);
    assert.ok(each * n >= THREAD_WARM_COMMANDS, `${n} clients: the thread's command path gets its ${THREAD_WARM_COMMANDS}`);
    assert.ok(each * n < THREAD_WARM_COMMANDS + n, `${n} clients: ${each} each is no more than that needs`);
  }
});
