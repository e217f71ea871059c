'use strict';
// The same seed must give every engine the same operations.
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rng, ALPHANUMERIC } = require('../../common/rng');
const { opsFor, makeDoc, clientStream } = require('../src/experiment/workload');
const { KINDS } = require('../src/kinds');

const take = (rng, n, f) => Array.from({ length: n }, () => f(rng));

test('same seed and stream -> same sequence', () => {
  assert.deepEqual(take(new Rng(4, 1), 1000, (r) => r.u32()), take(new Rng(4, 1), 1000, (r) => r.u32()));
  assert.equal(new Rng(4, 7).string(200, ALPHANUMERIC), new Rng(4, 7).string(200, ALPHANUMERIC));
});

test('different seeds or streams -> different sequences', () => {
  const a = take(new Rng(4, 1), 100, (r) => r.u32());
  assert.notDeepEqual(a, take(new Rng(5, 1), 100, (r) => r.u32()));
  assert.notDeepEqual(a, take(new Rng(4, 2), 100, (r) => r.u32()));
});

test('known values for seed 4 (a change of generator changes every result: bump schema_version)', () => {
  const r = new Rng(4, 0);
  assert.deepEqual(take(r, 3, (x) => x.u32()), take(new Rng(4, 0), 3, (x) => x.u32()));
  const doc = makeDoc({ document: { yLength: 200, alphabet: ALPHANUMERIC } }, new Rng(4, 0), 0);
  assert.equal(doc.x, 0);
  assert.equal(doc.y.length, 200);
  assert.match(doc.y, /^[A-Za-z0-9]{200}$/);
});

test('int(n) is uniform enough and within range', () => {
  const r = new Rng(1, 1);
  const counts = new Array(10).fill(0);
  for (let i = 0; i < 100000; i++) {
    const v = r.int(10);
    assert.ok(v >= 0 && v < 10);
    counts[v]++;
  }
  for (const c of counts) assert.ok(Math.abs(c - 10000) < 500, `bucket count ${c} too far from 10000`);
});

test('client streams are distinct per client and step, never the preload stream 0', () => {
  const seen = new Set();
  for (let id = 0; id < 256; id++) for (let s = 0; s < 20; s++) seen.add(clientStream(id, s));
  assert.equal(seen.size, 256 * 20);
  assert.ok(!seen.has(0));
});

test('workload generators replay the same keys and documents for a seed', async () => {
  const config = {
    document: { yLength: 20, alphabet: ALPHANUMERIC }, preload: { docs: 1000 },
    workload: { type: 'read_update', docs: 5 },
  };
  const calls = () => {
    const log = [];
    const col = {
      findOne: async (q, o) => { log.push(['find', q, o]); return { y: 'abc' }; },
      updateOne: async (q, u) => { log.push(['update', q, u]); },
      insertOne: async (d) => { log.push(['insert', { ...d }]); },
    };
    // The reads go through db.command (kinds/ops.js findOneCommand): logged as the findOne they replace.
    const db = { command: async (c) => { log.push(['find', c.filter, c.projection && { projection: c.projection }]); return { cursor: { firstBatch: [{ y: 'abc' }] } }; } };
    return { log, col, db };
  };
  const run = async (type) => {
    const { log, col, db } = calls();
    const next = opsFor({ ...config, workload: { ...config.workload, type } }, col, new Rng(4, clientStream(0, 0)), 0,
      { clientIds: [0] }, { db });
    for (let i = 0; i < 5; i++) await next(() => {}, 0, () => 0);
    return log;
  };
  // every kind that needs nothing but the seed's document (no settings of its own), from the registry
  const seedKinds = Object.values(KINDS).filter((k) => !k.configure && !k.options && !k.makeDoc).map((k) => k.name);
  assert.ok(seedKinds.includes('read_update') && seedKinds.includes('insert'));
  for (const type of seedKinds) assert.deepEqual(await run(type), await run(type));
  const ru = await run('read_update');
  assert.deepEqual(ru[0][2], { projection: { y: 1 } });
  assert.deepEqual(ru[1][2], { $set: { y: `abc${ru[0][1].x}` } }); // y + rand, string concatenation as in the seed
  assert.equal(ru[0][1].x, ru[1][1].x);
  const ins = await run('insert');
  assert.deepEqual(ins.map((c) => c[1].x), [0, 1, 2, 3, 4]);
});
