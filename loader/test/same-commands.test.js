'use strict';
// The loader's lean paths send the server the same commands as the seed's operations written the
// plain way (findOne, updateOne, insertOne): same command, filter, projection, limit, update,
// read concern and write concern, in the same order, on every driver line the loader carries.
// Observed with the driver's command monitoring (commandStarted) against mongo-java-server.
// Fields that differ by design and are dropped before comparing: $db (each path writes its own
// database, so that both see the same data), the inserted _id (a fresh ObjectId), and the
// session fields lsid/txnNumber/$clusterTime (mongo-java-server announces no sessions; on a real
// server both paths take an implicit session from the same pool).
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer } = require('./support/server');
const { newClient } = require('../src/server/clients');
const { lines } = require('../src/server/driver-line');
const { Rng } = require('../../common/rng');
const { opsFor, clientStream } = require('../src/experiment/workload');

const KEYS = 50;
const ITERATIONS = 20;
const config = {
  database: 'unused', collection: 'c', seed: 4,
  writeConcern: { w: 1 }, readPreference: 'primary', readConcern: 'local',
  document: { yLength: 12, alphabet: 'abcdef' }, preload: { docs: KEYS },
};

// The plain-driver reference for each kind: one iteration of the seed's shell loop.
const REFERENCE = {
  insert: (col, rng, state) => col.insertOne({ x: state.x++,
    y: rng.string(config.document.yLength, config.document.alphabet) }),
  read: (col, rng) => col.findOne({ x: rng.int(KEYS) }),
  read_update: async (col, rng) => {
    const x = rng.int(KEYS);
    const doc = await col.findOne({ x }, { projection: { y: 1 } });
    if (doc) await col.updateOne({ x }, { $set: { y: doc.y + x } });
  },
};

function normalise(cmd, line) {
  const c = { ...cmd };
  for (const k of ['$db', 'lsid', 'txnNumber', '$clusterTime']) delete c[k];
  // The 6.x lines' findOne adds batchSize 1 beside limit 1 and singleBatch (a no-op there); the
  // command path sends what the current line's findOne sends.
  if (c.find && line !== 'mongodb') delete c.batchSize;
  if (c.documents) c.documents = c.documents.map(({ _id, ...d }) => d);
  return JSON.parse(JSON.stringify(c));
}

async function commandsOf(uri, line, dbName, kind, drive) {
  const client = newClient({ uri, serverSelectionTimeoutMs: 5000, driverLine: line }, config,
    { monitorCommands: true });
  await client.connect();
  const db = client.db(dbName);
  const col = db.collection(config.collection);
  await col.drop().catch(() => {});
  await col.insertMany(Array.from({ length: KEYS }, (_, x) => ({ x, y: `y${x}` })));
  const seen = [];
  client.on('commandStarted', (e) => seen.push(e.command));
  await drive(col, db);
  await client.close();
  // endSessions: sent by client.close() on the 6.x lines, not by an operation.
  return seen.filter((c) => !c.endSessions).map((c) => normalise(c, line));
}

let server;
test.before(async () => { server = await startServer(); });
test.after(async () => { if (server) await server.stop(); });

for (const { name: line } of lines()) {
  for (const kind of Object.keys(REFERENCE)) {
    test(`${kind} on ${line}: the loader's commands equal findOne/updateOne/insertOne's`, async () => {
      const kindConfig = { ...config, workload: { type: kind, docs: 1e9 } };
      const step = { clientIds: [0], index: 0 };
      const loader = await commandsOf(server.uri, line, `same_${kind}_loader`, kind, async (col, db) => {
        const next = opsFor(kindConfig, col, new Rng(config.seed, clientStream(0, 0)), 0, step, { db });
        for (let i = 0; i < ITERATIONS; i++) await next(() => {}, 0, () => 0);
      });
      const plain = await commandsOf(server.uri, line, `same_${kind}_plain`, kind, async (col) => {
        const rng = new Rng(config.seed, clientStream(0, 0));
        const state = { x: 0 };
        for (let i = 0; i < ITERATIONS; i++) await REFERENCE[kind](col, rng, state);
      });
      assert.ok(plain.length >= ITERATIONS, `the reference sent ${plain.length} commands`);
      assert.deepEqual(loader, plain);
      // And the reads really carry what findOne sends (not merely the same mistakes twice).
      const find = plain.find((c) => c.find);
      if (find) {
        assert.equal(find.limit, 1);
        assert.equal(find.singleBatch, true);
        assert.deepEqual(find.readConcern, { level: 'local' });
      }
    });
  }
}

// The ycsb kind (YCSB-A on YCSB's records): each find it sends equals the one findOne sends for
// the same filter, on every line; its updates stay updateOne's own.
const { parse } = require('../src/cli/args');
const { load } = require('../src/experiment/config');
const { kind: kindOf } = require('../src/kinds');

for (const { name: line } of lines()) {
  test(`ycsb on ${line}: each find equals findOne's for the same _id`, async () => {
    const { config: yc } = load(parse([require('node:path').join(__dirname, '..', '..', 'experiments', 'ycsb-a.yaml'), '--records', '40', '--threads', '1', '--operations', '30']));
    const k = kindOf('ycsb');
    const drive = async (dbName, fn) => {
      const client = newClient({ uri: server.uri, serverSelectionTimeoutMs: 5000, driverLine: line }, yc,
        { monitorCommands: true });
      await client.connect();
      const db = client.db(dbName);
      const col = db.collection(yc.collection);
      await col.drop().catch(() => {});
      await col.insertMany(Array.from({ length: 40 }, (_, i) => k.makeDoc(yc, new Rng(yc.seed, 0), i)));
      const seen = [];
      client.on('commandStarted', (e) => seen.push(e.command));
      await fn(db, col);
      await client.close();
      return seen.filter((c) => !c.endSessions).map((c) => normalise(c, line));
    };
    const kindCmds = await drive('same_ycsb_kind', async (db, col) => {
      const next = opsFor(yc, col, new Rng(yc.seed, clientStream(0, 0)), 0, { clientIds: [0], index: 0 }, { db });
      while (await next(() => {}, 0, () => 0));
    });
    const finds = kindCmds.filter((c) => c.find);
    assert.ok(finds.length > 0 && kindCmds.some((c) => c.update), 'the mix sent finds and updates');
    const plain = await drive('same_ycsb_kind', async (db, col) => {
      for (const f of finds) await col.findOne(f.filter);
    });
    assert.deepEqual(finds, plain);
  });
}
