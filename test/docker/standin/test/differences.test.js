'use strict';
// DIFFERENCES.md is the one list of where the stand-in still differs from mongod 8.0. Each entry
// (a "## id" heading) has a check here that shows the difference is still there; an entry
// without a check, or a check without an entry, fails. Fixing a difference therefore fails its
// check until the entry leaves the list. Run by test/docker.sh; alone:
//   node --test test/docker/standin/test/differences.test.js
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { Cluster, labFlags, setFlag, waitFor } = require('./harness');

const DIR = path.join(__dirname, '..');
const listed = [...fs.readFileSync(path.join(DIR, 'DIFFERENCES.md'), 'utf8').matchAll(/^## (\S+)$/gm)].map((m) => m[1]);
const source = (f) => fs.readFileSync(path.join(DIR, f), 'utf8');

// Each check gets { admin, db, client, c, m } of a one-member set (the lab's shard flags, --oplogSize 1).
const CHECKS = {
  async 'oplog-per-command'({ db, client }) {
    const before = await client.db('local').command({ collStats: 'oplog.rs' });
    await db.collection('d').insertMany([{ a: 1 }, { a: 2 }, { a: 3 }]);
    const after = await client.db('local').command({ collStats: 'oplog.rs' });
    assert.strictEqual(after.count - before.count, 1, 'an insert of 3 documents made 3 entries: one per document now');
  },
  async 'reconfig-unvalidated'({ admin }) {
    const { config } = await admin.command({ replSetGetConfig: 1 });
    await admin.command({ replSetReconfig: { ...config, version: 1 } }); // 8.0: a higher version is required
  },
  async 'roles-unenforced'({ admin, c, m }) {
    await admin.command({ createUser: 'reader', pwd: 'reader-pass', roles: [{ role: 'read', db: 'suite' }] });
    const { MongoClient } = require(path.join(__dirname, '../../../../loader/node_modules/mongodb'));
    const r = new MongoClient(`mongodb://reader:reader-pass@${m.host}/?authSource=admin&directConnection=true`);
    c.clients.push(r);
    await r.db('suite').collection('d').insertOne({ by: 'reader' }); // 8.0: Unauthorized
  },
  async 'modelled-storage-engine'({ admin, db }) {
    const before = (await admin.command({ serverStatus: 1 })).wiredTiger.cache;
    await db.collection('wt').insertOne({ pad: 'x'.repeat(10000) });
    const s = await admin.command({ serverStatus: 1 });
    assert.strictEqual(s.storageEngine.name, 'standin');
    assert.ok(s.wiredTiger.cache['bytes currently in the cache'] > before['bytes currently in the cache'], 'the cache does not move with the load');
    assert.strictEqual(s.wiredTiger.cache['maximum bytes configured'], 0.25 * 1073741824, 'not --wiredTigerCacheSizeGB 0.25');
    assert.strictEqual(s.queues.execution.write.totalTickets, 128);
  },
  async 'oplog-truncated-at-once'({ db, client }) {
    const big = 'x'.repeat(200 * 1024);
    for (let i = 0; i < 12; i += 1) {
      await db.collection('big').insertOne({ big });
      const st = await client.db('local').command({ collStats: 'oplog.rs' });
      assert.ok(st.size <= st.maxSize, `oplog ${st.size} bytes over its ${st.maxSize}: truncated asynchronously now`);
    }
  },
  async 'no-secondary-index'({ db }) {
    await db.collection('ix').createIndex({ x: 1 });
    await db.collection('ix').insertMany([{ x: 1 }, { x: 2 }]);
    // a range on the indexed field: answered by FerretDB's scan (an equality is the stand-in's own)
    const e = await db.command({ explain: { find: 'ix', filter: { x: { $gte: 1 } } } });
    assert.strictEqual(e.filterPushdown, false, 'a range on an indexed field is looked up in the index now');
    assert.match(JSON.stringify(e.queryPlanner), /SCAN/, 'a range on an indexed field is looked up in the index now');
    assert.deepEqual((await db.collection('ix').findOne({ x: 2 }, { projection: { _id: 0 } })), { x: 2 });
  },
  async 'numeric-id-scan'({ db }) {
    await db.collection('ids').insertMany([{ _id: 5 }, { _id: 's' }]);
    const pushed = async (id) => (await db.command({ explain: { find: 'ids', filter: { _id: id } } })).filterPushdown;
    assert.strictEqual(await pushed('s'), true, 'a string _id is not looked up directly');
    assert.strictEqual(await pushed(5), false, 'a numeric _id is looked up directly now');
  },
  'no-rollback-files'() {
    assert.doesNotMatch(source('member.js'), /removed\.|rollback\//, 'member.js writes rollback files now');
  },
  'sync-holds-writes'() {
    assert.match(source('member.js'), /syncHolds\.set\(/, 'a copy no longer holds the source\'s writes');
  },
  'no-election-handoff'() {
    assert.doesNotMatch(source('member.js'), /replSetStepUp/, 'member.js hands the election off now');
  },
  'stale-against-primary-only'() {
    assert.match(source('member.js'), /r\.stale\) \{/, 'member.js decides "too stale" otherwise now');
    assert.match(source('member.js'), /const source = rs\.primary && rs\.primary !== me \? rs\.primary : null;/, 'a secondary syncs from another source now');
  },
};

test('DIFFERENCES.md and the checks name the same differences', () => {
  assert.deepStrictEqual([...listed].sort(), Object.keys(CHECKS).sort());
});

test('every listed difference is still there', async (t) => {
  const c = new Cluster(28240);
  t.after(() => c.stop());
  const m = await c.start('mongod', setFlag(setFlag(labFlags('shard'), 'oplogSize', 1), 'wiredTigerCacheSizeGB', 0.25));
  const client = await c.client(m);
  const admin = client.db('admin');
  await admin.command({ replSetInitiate: { _id: 'shard01', members: [{ _id: 0, host: m.host }] } });
  await waitFor('a primary', async () => (await admin.command({ hello: 1 })).isWritablePrimary, 8000);
  const db = client.db('suite');
  for (const id of listed) {
    if (!CHECKS[id]) continue;
    await t.test(id, () => CHECKS[id]({ admin, db, c, m, client }));
  }
});
