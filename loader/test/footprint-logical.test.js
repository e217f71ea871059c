'use strict';
// src/server/footprint.js logical bytes per document: the documents read as raw BSON, every one up to
// SCAN_ALL (20000), else a sample of 1000 ($sample, or the first 1000 where $sample is refused),
// each way said in logical_method. Documents of one BSON size make every way give that size.
// Real driver, over TCP to mongo-java-server, or to the server MONGODB_URI names.
const test = require('node:test');
const assert = require('node:assert/strict');
const { MongoClient, BSON, Collection } = require('mongodb');
const { testServer } = require('./support/server');
const { measure } = require('../src/server/footprint');

let server;
let client;
test.before(async () => {
  server = await testServer();
  client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 10000 });
  await client.connect();
});
test.after(async () => {
  await client.close();
  await server.stop();
});

// n documents of one BSON size each (x padded to 6 digits): that size.
async function fill(collection, n) {
  const col = client.db('lab').collection(collection);
  await col.drop().catch(() => {});
  const docs = Array.from({ length: n }, (_, i) => ({ _id: i, x: String(i).padStart(6, '0'), y: 'a'.repeat(100) }));
  for (let i = 0; i < n; i += 5000) await col.insertMany(docs.slice(i, i + 5000));
  return BSON.calculateObjectSize(docs[0]);
}

test('up to 20000 documents: every one is read', async () => {
  const size = await fill('small', 300);
  const f = await measure(client, { database: 'lab', collection: 'small' }, 'end');
  assert.equal(f.documents, 300, JSON.stringify(f));
  assert.equal(f.bytes_per_doc.logical, size);
  assert.equal(f.logical_method, 'every document');
});

test('above 20000 documents: a sample of 1000, said', async () => {
  const size = await fill('large', 20001);
  const f = await measure(client, { database: 'lab', collection: 'large' }, 'end');
  assert.equal(f.documents, 20001, JSON.stringify(f));
  assert.equal(f.bytes_per_doc.logical, size);
  assert.match(f.logical_method, /^(a random sample of 1000 \(\$sample\)|the first 1000 documents \(\$sample refused\))$/);
});

test('above 20000 documents where the server refuses $sample: the first 1000, said', async () => {
  const size = await fill('refused', 20001);
  // The server's own refusal: the collection's aggregate sends a stage no server knows.
  const refusing = { db: (name) => {
    const db = client.db(name);
    const collection = db.collection.bind(db);
    db.collection = (n) => {
      const col = collection(n);
      col.aggregate = (pipeline, options) => Collection.prototype.aggregate.call(col, [{ $noSuchStage: {} }], options);
      return col;
    };
    return db;
  } };
  const f = await measure(refusing, { database: 'lab', collection: 'refused' }, 'end');
  assert.equal(f.bytes_per_doc.logical, size, JSON.stringify(f));
  assert.equal(f.logical_method, 'the first 1000 documents ($sample refused)');
});
