'use strict';
// The failover writers and the set checker end to end, over real TCP with the real driver, against
// the loader's test server (mongo-java-server, a single node: no replica set, no failover), or
// MONGODB_URI when set. Single node, no fault: every acknowledged write must be read back (all ok).
// Killing the in-memory server and starting an empty one on the same port is the checker's
// counter-test: every acknowledged write is then LOST, and the checker must say so.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { MongoClient } = require('mongodb');
const { testServer, startServer } = require('../support/server');
const setcheck = require('../../src/faults/setcheck');
const { checkSet } = require('../../src/faults/decisions');

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'lab-setcheck-'));

test('writers + majority read + checker, no fault: every id ok, nothing lost', async () => {
  const server = await testServer();
  const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
  try {
    await setcheck.reset(client);
    for (const w of ['1', 'majority']) {
      const history = path.join(tmp(), 'history.ndjson');
      const r = await setcheck.runWriters({ client, w, writers: 4, seconds: 1.5, maxWrites: 400,
        historyFile: history });
      assert.ok(r.attempted > 0);
      assert.equal(r.fail + r.info, 0, `no fault, no error (w:${w})`);
      const outcomes = setcheck.readHistory(history);
      assert.equal(outcomes.size, r.attempted);
      // The final read as it is, unfiltered: an id nobody attempted must be able to show up.
      const ids = await setcheck.finalRead(client);
      const c = checkSet(outcomes, ids);
      assert.equal(c.valid, true);
      assert.equal(c.okCount, r.attempted);
      assert.equal(c.lostCount, 0);
      assert.equal(c.unexpectedCount, 0);
      // ids are unique and increasing from 0: the interval string is one range
      assert.match(c.ok, /^#\{0\.\.\d+\}$/);
      // A document no writer attempted (here put there by hand, in the field a rollback gone
      // wrong or a second writer) is read back by the same final read and must fail the check.
      await client.db('lab_fault').collection('set').insertOne({ _id: r.attempted + 1000, at: new Date() });
      const u = checkSet(outcomes, await setcheck.finalRead(client));
      assert.equal(u.valid, false, 'an unexpected id fails the check');
      assert.equal(u.unexpectedCount, 1);
      assert.deepEqual(u.unexpected, [r.attempted + 1000]);
      assert.equal(u.lostCount, 0);
      await setcheck.reset(client);
    }
  } finally {
    await client.close();
    await server.stop();
  }
});

// waitForOutcome(history, pick, what): the history file's first line for which pick(outcome) holds,
// waited for at most 60 s (a busy host's first acknowledged write, or its first failure after the
// kill, can take seconds; a fixed 800 ms before the kill once saw none acknowledged).
async function waitForOutcome(history, pick, what) {
  for (let i = 0; i < 1200; i += 1) {
    const lines = fs.existsSync(history) ? fs.readFileSync(history, 'utf8').split('\n').filter(Boolean) : [];
    if (lines.some((l) => pick(JSON.parse(l).outcome))) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${what} within 60 s`);
}

test('counter-test: the server dies and comes back empty; the checker reports every acknowledged write lost',
  { skip: process.env.MONGODB_URI ? 'needs a server the test can kill' : false }, async () => {
    let server = await startServer();
    const port = server.port;
    const client = new MongoClient(server.uri,
      { serverSelectionTimeoutMS: 1000, connectTimeoutMS: 1000, socketTimeoutMS: 2000 });
    const history = path.join(tmp(), 'history.ndjson');
    let done = false;
    try {
      const writing = setcheck.runWriters({ client, w: '1', writers: 2, seconds: 120, maxWrites: 100000, historyFile: history,
        shouldStop: () => done });
      // some writes acknowledged before the kill, however long the host takes to get there
      await waitForOutcome(history, (o) => o === 'ok', 'write acknowledged before the kill');
      server.kill(); // SIGKILL: the in-memory backend's data is gone, like a restarted inMemory mongod
      await new Promise((r) => setTimeout(r, 500));
      server = await startServer({ port });
      await waitForOutcome(history, (o) => o !== 'ok', 'write failed or indeterminate after the kill');
      done = true;
      await writing;
      const outcomes = setcheck.readHistory(history);
      const acked = [...outcomes.values()].filter((o) => o === 'ok').length;
      const errors = [...outcomes.values()].filter((o) => o !== 'ok').length;
      assert.ok(acked > 0, 'some writes were acknowledged before the kill');
      assert.ok(errors > 0, 'the kill made some writes fail or end indeterminate');
      const ids = await setcheck.finalRead(client);
      const c = checkSet(outcomes, ids);
      assert.equal(c.valid, false);
      // everything acknowledged before the kill is lost; writes after the restart may be present
      assert.ok(c.lostCount > 0);
      assert.equal(c.unexpectedCount, 0);
      assert.equal(c.lostCount + c.okCount - c.recoveredCount, c.acknowledgedCount);
    } finally {
      done = true;
      await client.close();
      await server.stop();
    }
  });
