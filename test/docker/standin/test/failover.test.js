'use strict';
// A failover as 8.0 plays it: the old primary, killed with a w:1 write the others never had,
// comes back, rolls that write back (ROLLBACK, then SECONDARY) and holds what the new primary
// took meanwhile. Run by test/docker.sh; alone: node --test test/docker/standin/test/failover.test.js
const test = require('node:test');
const assert = require('node:assert');
const { Cluster, labFlags, waitFor } = require('./harness');

const shardFlags = labFlags('shard');

// threeMemberSet(c): the shard's three members started with the lab's flags and initiated (a 3 s
// election timeout), then waited for until every one is PRIMARY or SECONDARY (an initial sync
// needs its sync source). -> { members, clients (direct, one each), hello(i), p (the primary) }
async function threeMemberSet(c) {
  const members = [];
  for (let i = 0; i < 3; i += 1) members.push(await c.start('mongod', shardFlags));
  const clients = await Promise.all(members.map((m) => c.client(m)));
  const hello = (i) => clients[i].db('admin').command({ hello: 1 });
  await clients[0].db('admin').command({ replSetInitiate: { _id: 'shard01', settings: { electionTimeoutMillis: 3000 }, members: members.map((m, i) => ({ _id: i, host: m.host })) } });
  const p = await waitFor('a primary', async () => { for (let i = 0; i < 3; i += 1) if ((await hello(i)).isWritablePrimary) return i + 1; return 0; }, 15000) - 1;
  await waitFor('every member PRIMARY or SECONDARY', async () => {
    for (let i = 0; i < 3; i += 1) { const h = await hello(i); if (!h.isWritablePrimary && !h.secondary) return false; }
    return true;
  }, 15000);
  return { members, clients, hello, p };
}

test('an old primary back after a failover rolls back the write only it had', async (t) => {
  const c = new Cluster(28260);
  t.after(() => c.stop());
  const { members, clients, hello, p } = await threeMemberSet(c);
  const others = [0, 1, 2].filter((i) => i !== p);
  await clients[p].db('suite').collection('f').insertOne({ _id: 'before' }, { writeConcern: { w: 'majority' } });
  // the others stop applying (fsyncLock), so the next w:1 write reaches the old primary only
  for (const i of others) await clients[i].db('admin').command({ fsync: 1, lock: true });
  await clients[p].db('suite').collection('f').insertOne({ _id: 'lost' }, { writeConcern: { w: 1 } });
  await new Promise((r) => setTimeout(r, 1500)); // the member saves its last applied entry each second
  members[p].signal('SIGKILL');
  await members[p].exited;
  for (const i of others) await clients[i].db('admin').command({ fsyncUnlock: 1 });
  const q = await waitFor('a new primary', async () => { for (const i of others) if ((await hello(i)).isWritablePrimary) return i + 1; return 0; }, 20000) - 1;
  await clients[q].db('suite').collection('f').insertOne({ _id: 'after' }, { writeConcern: { w: 'majority', wtimeout: 10000 } });
  const back = await c.start('mongod', shardFlags, { port: members[p].port });
  const cb = await c.client(back);
  await waitFor('the old primary SECONDARY again, holding the new primary\'s write', async () => (await cb.db('admin').command({ hello: 1 })).secondary
    && (await cb.db('suite').collection('f').countDocuments({ _id: 'after' })) === 1, 20000);
  assert.match(back.log(), /Starting rollback/);
  const ids = (await cb.db('suite').collection('f').find({}).toArray()).map((d) => d._id).sort();
  assert.deepStrictEqual(ids, ['after', 'before'], 'the old primary kept a write the set never had, or lost one it had');
});

// A retryable write sent to a primary that has just stepped down: 8.0 answers NotWritablePrimary
// with the RetryableWriteError label (src/mongo/db/error_labels.cpp), and the official driver,
// whose view of the set is still the old one (no heartbeat since), retries once on the primary it
// then finds. Without the label the write fails "not primary" where 8.0's succeeds.
test('a retryable write to a primary that just stepped down succeeds on the driver\'s one retry', async (t) => {
  const c = new Cluster(28300);
  t.after(() => c.stop());
  const { members, clients, p } = await threeMemberSet(c);
  // heartbeats every 10 s (the driver's default): the write right after the step-down finds the
  // driver's view still the old one, as a write through mongos right after a failover does
  const set = await c.setClient(members, 'shard01');
  const coll = set.db('suite').collection('retry');
  await coll.insertOne({ _id: 'before' });
  await clients[p].db('admin').command({ replSetStepDown: 60 });
  await coll.insertOne({ _id: 'after the step-down' });
  assert.strictEqual(await coll.countDocuments({}), 2);
});
