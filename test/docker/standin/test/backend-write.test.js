'use strict';
// The stand-in's writes to its FerretDB backend (backend-write.js) against the real FerretDB
// v1.24.2 the image runs: an upsert by a numeric _id goes as an insert first (FerretDB scans the
// whole collection for a numeric _id that matches nothing), and every batch's reply and result
// are those of its statements sent one at a time, in order, which is what the update means.
const test = require('node:test');
const assert = require('node:assert/strict');
const { backendWrite, upsertDocument, BACKEND_UPDATE_SLICE } = require('../backend-write');
const { startFerret } = require('./harness');

let ferret;
let backend;
const sent = []; // the command names backendWrite sent, in order

test.before(async () => { ferret = await startFerret(27390, 'backend-write'); backend = ferret.backend; });
test.after(() => { if (ferret) ferret.stop(); });

const recording = () => ({
  request: (body, opts) => { sent.push(Object.keys(body)[0]); return backend.request(body, opts); },
});
const all = async (coll) => (await backend.request({ find: coll, filter: {}, sort: { _id: 1 }, $db: 'bw' })).cursor.firstBatch;
const seed = async (coll, docs) => { if (docs.length) await backend.request({ insert: coll, documents: docs, $db: 'bw' }); };

// oneByOne(coll, body): the reply the batch means, from its statements sent alone, in order
async function oneByOne(coll, body) {
  const out = { n: 0, nModified: 0, ok: 1 };
  for (let i = 0; i < body.updates.length; i += 1) {
    const r = await backend.request({ update: coll, updates: [body.updates[i]], ordered: true, $db: 'bw' });
    out.n += r.n || 0;
    out.nModified += r.nModified || 0;
    for (const u of r.upserted || []) (out.upserted = out.upserted || []).push({ index: i, _id: u._id });
    for (const w of r.writeErrors || []) (out.writeErrors = out.writeErrors || []).push({ index: i, code: w.code });
    if (r.writeErrors && r.writeErrors.length && body.ordered !== false) break;
  }
  return out;
}
const shape = (r) => ({ n: r.n, nModified: r.nModified, ok: r.ok, upserted: r.upserted,
  writeErrors: r.writeErrors && r.writeErrors.map((w) => ({ index: w.index, code: w.code })) });

// same(name, seedDocs, updates, ordered): the batch through backendWrite on one collection and
// one statement at a time on another, from the same documents: same reply, same documents
async function same(name, seedDocs, updates, ordered) {
  await seed(`${name}_batch`, seedDocs);
  await seed(`${name}_alone`, seedDocs);
  sent.length = 0;
  const got = await backendWrite(recording(), { update: `${name}_batch`, updates, ordered, $db: 'bw' });
  const want = await oneByOne(`${name}_alone`, { updates, ordered });
  assert.deepEqual(shape(got), shape(want));
  assert.deepEqual(await all(`${name}_batch`), await all(`${name}_alone`));
  return got;
}

const set = (id, fields, upsert = true) => ({ q: { _id: id }, u: { $set: fields }, upsert, multi: false });

test('fresh numeric upserts go to FerretDB as one insert, never as the update that scans', async () => {
  const r = await same('fresh', [], Array.from({ length: 10 }, (_, i) => set(i, { pad: 'x'.repeat(100), at: i })), false);
  assert.equal(r.upserted.length, 10);
  assert.deepEqual(sent, ['insert']);
});

test('an unordered batch of new, taken and repeated _ids, string _ids and other updates means what one by one means', async () => {
  const updates = [set(1, { a: 1 }), set(2, { a: 2 }), set(1, { b: 1 }), set('s', { a: 3 }), { q: { _id: 2 }, u: { $inc: { n: 1 } }, upsert: true },
    set(9, { a: 9 }, false), { q: { _id: 7 }, u: { $set: { 'x.y': 1 } }, upsert: true }, set(5, { a: 5 })];
  await same('mixed', [{ _id: 5, a: 0 }], updates, false);
  assert.ok(sent.includes('insert') && sent.includes('update'));
});

test('an ordered batch stops at its first error; nothing after it is written', async () => {
  const updates = [set(1, { a: 1 }), { q: { _id: 2 }, u: { $inc: { s: 1 } }, upsert: true }, set(3, { a: 3 }),
    set(4, { a: 4 })];
  const r = await same('ordered', [{ _id: 2, s: 'text' }], updates, true);
  assert.equal(r.writeErrors.length, 1);
  assert.equal(r.writeErrors[0].index, 1);
  assert.deepEqual((await all('ordered_batch')).map((d) => d._id), [1, 2]);
});

test(`more than ${BACKEND_UPDATE_SLICE} statements go in slices with their batch's indexes`, async () => {
  const inc = (i) => ({ q: { _id: i }, u: { $inc: { n: 1 } }, upsert: true });
  const updates = Array.from({ length: 2 * BACKEND_UPDATE_SLICE + 7 }, (_, i) => (i % 3 ? set(i, { a: i }) : inc(i)));
  const seedDocs = Array.from({ length: 40 }, (_, i) => ({ _id: i * 2, n: 0 }));
  await same('sliced', seedDocs, updates, false);
  await same('sliced_ordered', seedDocs, updates, true);
});

test('upsertDocument: the document 8.0 inserts, its fields in name order; null where mongod must decide', () => {
  assert.deepEqual(Object.keys(upsertDocument({ q: { _id: 3 }, u: { $set: { z: 1, b: 2 }, $setOnInsert: { m: 0 } }, upsert: true })), ['_id', 'b', 'm', 'z']);
  for (const s of [
    { q: { _id: 3 }, u: { $set: { a: 1 } } }, // not an upsert
    { q: { _id: 's' }, u: { $set: { a: 1 } }, upsert: true }, // a string _id is fast already
    { q: { _id: 3, k: 1 }, u: { $set: { a: 1 } }, upsert: true },
    { q: { _id: 3 }, u: { $inc: { a: 1 } }, upsert: true },
    { q: { _id: 3 }, u: { a: 1 }, upsert: true }, // a replacement
    { q: { _id: 3 }, u: [{ $set: { a: 1 } }], upsert: true }, // a pipeline
    { q: { _id: 3 }, u: { $set: { 'a.b': 1 } }, upsert: true },
    { q: { _id: 3 }, u: { $set: { a: 1 }, $setOnInsert: { a: 2 } }, upsert: true },
    { q: { _id: 3 }, u: { $set: { a: 1 } }, upsert: true, multi: true },
  ]) assert.equal(upsertDocument(s), null, JSON.stringify(s));
});
