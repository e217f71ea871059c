'use strict';
// The bench's floor reads through its own findOne (bench/floors/find-one.js: the driver's public
// db.command), not the loader's findOneCommand, and the server gets the same find from both:
// the floor stays the floor of the loader's reads, and a change in the loader's path no longer
// moves its floor too. Seen through the driver's command monitoring against the test server.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { MongoClient } = require('mongodb');
const { testServer } = require('./support/server');
const { findOneCommand } = require('../src/kinds/ops');
const { floorFindOne } = require('../bench/floors/find-one');

test('the floors\' findOne sends the loader\'s find command, and no floor requires the loader\'s', async () => {
  const server = await testServer();
  const client = new MongoClient(server.uri, { monitorCommands: true, readConcern: { level: 'local' } });
  const sent = [];
  client.on('commandStarted', (e) => { if (e.commandName === 'find') sent.push(e.command); });
  try {
    const db = client.db('lab_floor_find');
    const col = db.collection('c');
    await col.insertOne({ x: 1, y: 'a' });
    const [loader, floor] = [findOneCommand(db, col), floorFindOne(db, col)];
    for (const projection of [undefined, { y: 1 }]) {
      assert.deepEqual((await floor({ x: 1 }, projection))?.y, (await loader({ x: 1 }, projection))?.y);
      assert.equal(await floor({ x: 2 }, projection), null);
    }
    const body = ({ lsid, $db, $clusterTime, $readPreference, ...rest }) => rest;
    assert.equal(sent.length, 6);
    assert.deepEqual(body(sent[1]), body(sent[0]), 'without projection');
    assert.deepEqual(body(sent[4]), body(sent[3]), 'with projection');
    await db.dropDatabase();
  } finally {
    await client.close();
    await server.stop();
  }
  const floors = path.join(__dirname, '..', 'bench', 'floors');
  for (const f of fs.readdirSync(floors)) assert.doesNotMatch(fs.readFileSync(path.join(floors, f), 'utf8'), /findOneCommand\(/, f);
});
