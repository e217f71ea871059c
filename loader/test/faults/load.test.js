'use strict';
// src/faults/load.js over the real driver against mongo-java-server (or MONGODB_URI): paced to
// the rate, upserts over a fixed key space (the data stays bounded), stopped by its deadline or by
// shouldStop. How fast the server takes upserts is not the loader's doing: it is measured here,
// in the same run (an unpaced load of the same batches), and the rate the paced load must reach
// is the test's premise, declared and measured: where the server is slower the test says so and
// skips (150 documents in 2.7 s at rate 400 failed the old fixed ">= 400" on a slower server).
const test = require('node:test');
const assert = require('node:assert/strict');
const { MongoClient } = require('mongodb');
const { runLoad } = require('../../src/faults/load');
const { testServer } = require('../support/server');

const RATE = 400;
const BATCH = 50;
const KEYS = 300;

let server;
let client;
test.before(async () => {
  server = await testServer();
  client = new MongoClient(server.uri);
  await client.connect();
});
test.after(async () => {
  await client?.close();
  await server?.stop();
});

// capacity(): upserts per second and ms per batch of the same batches with no pacing (1 s).
async function capacity() {
  const t0 = Date.now();
  const r = await runLoad({ client, rate: 1e9, batch: BATCH, keys: KEYS, maxSeconds: 1 });
  const ms = Date.now() - t0;
  assert.equal(r.failedBatches, 0);
  return { perSecond: Math.round((r.documents * 1000) / ms), msPerBatch: (ms * BATCH) / r.documents };
}

test('paced: never above the rate, over a fixed key space (bounded data), stops by its deadline, then by shouldStop', async () => {
  const cap = await capacity();
  const lines = [];
  const t0 = Date.now();
  const r = await runLoad({ client, rate: RATE, batch: BATCH, keys: KEYS, maxSeconds: 2, say: (l) => lines.push(l) });
  const secs = (Date.now() - t0) / 1000;
  assert.equal(r.failedBatches, 0);
  assert.ok(r.documents > 0 && r.documents <= RATE * secs + BATCH, `${r.documents} documents in ${secs.toFixed(1)} s at rate ${RATE}`);
  // The deadline: the last batch begun before it ends within one batch of it (measured above).
  assert.ok(secs <= 2 + (3 * cap.msPerBatch + 200) / 1000, `stopped ${secs.toFixed(2)} s after start, deadline 2 s, ${cap.msPerBatch.toFixed(0)} ms per batch`);
  assert.ok(lines.includes(`load: stopped after ${r.documents} documents, 0 failed batches`), lines.join('\n'));
  assert.equal(await client.db('lab_fault').collection('load').countDocuments(), KEYS); // the key space, not n
  let stop = false;
  setTimeout(() => { stop = true; }, 300);
  const t1 = Date.now();
  await runLoad({ client, rate: RATE, batch: BATCH, keys: KEYS, maxSeconds: 30, shouldStop: () => stop });
  // seen within a pacing step (200 ms) or the batch in flight (its time measured in this run)
  const budget = 300 + 200 + 3 * cap.msPerBatch + 500;
  assert.ok(Date.now() - t1 < budget, `a stop is seen within a pacing step: ${Date.now() - t1} ms, budget ${budget.toFixed(0)} ms`);
});

test(`paced: reaches its rate (${RATE}/s) when the server can take it`, async (t) => {
  const cap = await capacity();
  // Premise: the server takes at least 1.5 x the rate unpaced, in this run.
  if (cap.perSecond < 1.5 * RATE) {
    t.skip(`premise not met: the server took ${cap.perSecond} upserts/s unpaced in this run, below 1.5 x the rate ${RATE}`);
    return;
  }
  const t0 = Date.now();
  const r = await runLoad({ client, rate: RATE, batch: BATCH, keys: KEYS, maxSeconds: 2 });
  const secs = (Date.now() - t0) / 1000;
  assert.ok(r.documents >= RATE * 2 * 0.75, `${r.documents} documents in ${secs.toFixed(1)} s at rate ${RATE} (server: ${cap.perSecond}/s unpaced)`);
});

// About ten writes a second at any rate, at most 100 documents a write: a low rate is a steady
// load, not a burst every few seconds.
test('the load writes about ten times a second: 5 documents a write at 50/s, 100 at 1,000/s and above', () => {
  const { batchFor } = require('../../src/faults/load');
  assert.deepEqual([1, 4, 50, 200, 1000, 2000, 1e6].map(batchFor), [1, 1, 5, 20, 100, 100, 100]);
});
