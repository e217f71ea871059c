'use strict';
// The suite's MONGODB_URI mode: a test that holds only on the test server
// names the deviation it depends on (support/server.js dependsOn, support/server-lines.js
// DEVIATIONS) and is skipped under MONGODB_URI with it; testServer() gives that server's host and
// port; serve-line.js plays another MongoDB-compatible server (a server line through the shim).
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');
const { MongoClient } = require('mongodb');
const { dependsOn, testServer } = require('./support/server');
const { DEVIATIONS, BEHAVIOURS } = require('./support/server-lines');

function withUri(uri, fn) {
  const was = process.env.MONGODB_URI;
  if (uri === undefined) delete process.env.MONGODB_URI; else process.env.MONGODB_URI = uri;
  try {
    return fn();
  } finally {
    if (was === undefined) delete process.env.MONGODB_URI; else process.env.MONGODB_URI = was;
  }
}

test('dependsOn: runs on the test server, skipped under MONGODB_URI naming each deviation; an unknown id is an error', () => {
  assert.equal(withUri(undefined, () => dependsOn('no-storage-engine')), false);
  const why = withUri('mongodb://db.example:27017/', () => dependsOn('no-storage-engine', 'error-codes'));
  assert.match(why, /^depends on the test server's deviation 'no-storage-engine' \(/);
  assert.ok(why.includes(DEVIATIONS['no-storage-engine'].test_server) && why.includes("deviation 'error-codes'"), why);
  assert.throws(() => dependsOn('no-such-deviation'), /no test-server deviation 'no-such-deviation'/);
});

test('testServer under MONGODB_URI: the URI as given, its first host and port, nothing to stop', async () => {
  for (const [uri, host, port] of [
    ['mongodb://u:p@db.example:27018,b:1/?replicaSet=x', 'db.example', 27018],
    ['mongodb://10.0.0.5/', '10.0.0.5', 27017],
    ['mongodb://[::1]:27019/', '::1', 27019],
  ]) {
    const s = await withUri(uri, () => testServer());
    assert.deepEqual([s.uri, s.external, s.host, s.port, s.kill], [uri, true, host, port, null], uri);
  }
});

test('serve-line.js: a standalone line that answers as mongod does where the test server does not', async () => {
  const p = spawn(process.execPath, [path.join(__dirname, 'support', 'serve-line.js'), 'mongod-8.0-standalone'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((r) => p.on('exit', r));
  try {
    const uri = await new Promise((resolve, reject) => {
      readline.createInterface({ input: p.stdout }).on('line', (l) => { if (l.startsWith('URI ')) resolve(l.slice(4)); });
      p.on('exit', (c) => reject(new Error(`serve-line.js exited ${c}`)));
    });
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10000 });
    try {
      const status = await client.db('admin').command({ serverStatus: 1 });
      assert.equal(status.storageEngine.name, 'wiredTiger', 'deviation no-storage-engine corrected');
      await assert.rejects(client.db('t').collection('c').insertOne({ a: 1 }, { writeConcern: { w: 2 } }),
        (e) => e.code === BEHAVIOURS['w-above-1-refused-standalone'].answer.refuse.code, 'deviation w-above-1-on-standalone corrected');
    } finally {
      await client.close();
    }
    p.kill('SIGTERM');
    assert.equal(await exited, 0);
  } finally {
    p.kill('SIGKILL');
  }
  const bad = spawn(process.execPath, [path.join(__dirname, 'support', 'serve-line.js'), 'no-such-line'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  bad.stderr.on('data', (d) => { err += d; });
  assert.equal(await new Promise((r) => bad.on('exit', r)), 2);
  assert.match(err, /^error: unknown server line 'no-such-line' \(choose from: /);
});
