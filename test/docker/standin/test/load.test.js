'use strict';
// The stand-in keeps serving under the loads the lab sends: an update batch of 100 and more
// matching statements (the fault load sends them; FerretDB alone never answers one), and a
// secondary far behind a large preload (its catch-up must come in replies a BSON document can
// hold). Run by test/docker.sh; alone: node --test test/docker/standin/test/load.test.js
const test = require('node:test');
const assert = require('node:assert');
const { Cluster, labFlags, waitFor } = require('./harness');

const shardFlags = labFlags('shard');

test('an update batch of 150 matching statements is answered, and a secondary 24 MB behind catches up', async (t) => {
  const c = new Cluster(28200);
  t.after(() => c.stop());
  const a = await c.start('mongod', shardFlags);
  const b = await c.start('mongod', shardFlags);
  const [ca, cb] = [await c.client(a), await c.client(b)];
  await ca.db('admin').command({ replSetInitiate: { _id: 'shard01', settings: { electionTimeoutMillis: 3000 }, members: [{ _id: 0, host: a.host }, { _id: 1, host: b.host, priority: 0 }] } });
  await waitFor('a primary', async () => (await ca.db('admin').command({ hello: 1 })).isWritablePrimary, 8000);
  const coll = ca.db('suite').collection('u');
  await coll.insertMany(Array.from({ length: 150 }, (_, i) => ({ _id: i, v: 0 })));
  const batch = Array.from({ length: 150 }, (_, i) => ({
    updateOne: { filter: { _id: i }, update: { $inc: { v: 1 } } },
  }));
  const r = await Promise.race([coll.bulkWrite(batch, { ordered: false }), new Promise((_, no) => setTimeout(() => no(new Error('no answer within 15 s')), 15000))]);
  assert.strictEqual(r.modifiedCount, 150);
  await waitFor('the secondary applied the batch', async () => (await cb.db('suite').collection('u').countDocuments({ v: 1 })) === 150, 15000);
  // The secondary stops applying (fsyncLock), 24 inserts of 1 MB each go by, then it resumes.
  await cb.db('admin').command({ fsync: 1, lock: true });
  const big = 'x'.repeat(1024 * 1024);
  for (let i = 0; i < 24; i += 1) await ca.db('suite').collection('big').insertOne({ _id: i, big });
  await cb.db('admin').command({ fsyncUnlock: 1 });
  await waitFor('the secondary caught up on 24 MB', async () => (await cb.db('suite').collection('big').countDocuments({})) === 24, 30000);
});
