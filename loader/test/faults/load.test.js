'use strict';
// src/faults/load.js over the real driver against mongo-java-server: paced to the rate, upserts
// over a fixed key space (the data stays bounded), stopped by its deadline or by shouldStop.
const test = require('node:test');
const assert = require('node:assert/strict');
const { MongoClient } = require('mongodb');
const { runLoad } = require('../../src/faults/load');
const { testServer } = require('../support/server');

test('paced upserts over a fixed key space (bounded data), stops by itself, then by shouldStop', async () => {
  const server = await testServer();
  const client = new MongoClient(server.uri);
  try {
    const lines = [];
    const t0 = Date.now();
    const r = await runLoad({ client, rate: 400, batch: 50, keys: 300, maxSeconds: 2, say: (l) => lines.push(l) });
    const secs = (Date.now() - t0) / 1000;
    assert.equal(r.failedBatches, 0);
    assert.ok(r.documents >= 400 && r.documents <= 400 * secs + 50, `${r.documents} documents in ${secs.toFixed(1)} s at rate 400`);
    assert.ok(lines.includes(`load: stopped after ${r.documents} documents, 0 failed batches`), lines.join('\n'));
    assert.equal(await client.db('lab_fault').collection('load').countDocuments(), 300); // the key space, not n
    let stop = false;
    setTimeout(() => { stop = true; }, 300);
    const t1 = Date.now();
    await runLoad({ client, rate: 400, batch: 50, keys: 300, maxSeconds: 30, shouldStop: () => stop });
    assert.ok(Date.now() - t1 < 2000, 'a stop is seen within a pacing step');
  } finally {
    await client.close();
    await server.stop();
  }
});
