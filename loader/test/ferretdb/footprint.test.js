'use strict';
// The footprint on FerretDB v1.24.2 (the suite's real server nobody here wrote): its collStats
// returns its table's pages for both size and storageSize (373.6 and 503 bytes per document
// where the BSON is about 238), so the loader's logical size must be the documents' BSON, which
// this test measures itself by reading the collection as raw BSON; and FerretDB is outside the
// table of meanings (common/meanings.js), so its collStats storage is no on-disk figure.
// Runs only in the FerretDB suite (test/suites/45-ferretdb.sh sets MONGODB_URI).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { MongoClient } = require('mongodb');
const { runLoader, tmpResults, runsOf } = require('../support/loader');

let results;
test.before(() => { results = tmpResults(); });
test.after(() => fs.rmSync(results, { recursive: true, force: true }));

test("FerretDB: logical bytes per document are the documents' BSON, not its table's pages; its collStats storage is not called on-disk", async () => {
  assert.ok(process.env.MONGODB_URI, 'MONGODB_URI names the FerretDB server (test/suites/45-ferretdb.sh starts it)');
  const r = await runLoader(['experiment2', '--uri', process.env.MONGODB_URI, '--results-dir', results, '--metrics-port', '0', '--progress-interval', '1s',
    '--preload-docs', '200', '--clients', '1', '--duration', '2s']);
  assert.equal(r.code, 0, r.stderr);
  const label = fs.readdirSync(`${results}/experiment2`)[0];
  const [s] = runsOf(results, 'experiment2', label);
  const client = new MongoClient(process.env.MONGODB_URI, { serverSelectionTimeoutMS: 10000 });
  let docs;
  try {
    docs = await client.db('lab').collection('seed004').find({}, { raw: true }).toArray();
  } finally {
    await client.close();
  }
  const bson = Math.round((docs.reduce((a, d) => a + d.length, 0) / docs.length) * 10) / 10;
  const end = s.footprint.end;
  assert.equal(end.documents, docs.length);
  assert.equal(end.bytes_per_doc.logical, bson, `logical ${end.bytes_per_doc.logical} against the BSON this test measured, ${bson}`);
  assert.equal(end.quantities.logical, 'bson_bytes');
  assert.equal(end.quantities.engine_storage, null, 'FerretDB is no engine of the table: its collStats storage is no known quantity');
  assert.equal(end.bytes_per_doc.on_disk_with_indexes, null);
  // What FerretDB's own size says, beside: not the BSON (its table's pages), so never used as it.
  if (end.data_bytes !== null) assert.notEqual(Math.round(end.data_bytes / end.documents), Math.round(bson), 'FerretDB size is its storage, not the BSON (if this fails, FerretDB changed: re-read its collStats)');
});
