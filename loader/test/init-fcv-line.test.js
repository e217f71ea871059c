'use strict';
// compose/init/lab.js's feature-compatibility step where a driver talks to a
// server line: the commands lab.js sends and the replies it reads, through the 3.6 driver line,
// against the wire shim's psmdb-3.6-rocksdb-replset line (mongo-java-server behind
// support/wire-shim.js). The whole init.js runs against a model cluster in
// compose/test/init-fcv.test.js.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { BEHAVIOURS } = require('./support/server-lines');
const { startServer } = require('./support/server');
const { driver } = require('../src/server/driver-line');

const DIR = path.resolve(__dirname, '..', '..', 'compose', 'init');
const REFUSED = BEHAVIOURS['fcv-upgrade-refused-rocksdb'].answer.refuse;

// Through a driver: the commands lab.js sends and the replies it reads, against the shim's 3.6
// MongoRocks line (mongo-java-server behind support/wire-shim.js).
test('psmdb-3.6-rocksdb line: lab.js\'s setFeatureCompatibilityVersion 3.4 is accepted and read back; 3.6 (what an unheld addShard sends) refused with the line\'s error, said in one line', async () => {
  const lab = vm.createContext({ print() {} });
  vm.runInContext(fs.readFileSync(path.join(DIR, 'lab.js'), 'utf8'), lab);
  const server = await startServer({ line: 'psmdb-3.6-rocksdb-replset' });
  const { MongoClient } = driver('mongodb-6.9');
  const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 10000, retryWrites: false });
  try {
    const admin = client.db('admin');
    // The command documents lab.js sends, recorded by a db that answers ok.
    const sent = [];
    lab.setFcv({ runCommand: (c) => { sent.push(JSON.parse(JSON.stringify(c))); return { ok: 1 }; } }, 'x', lab.LAB.holdFcv.rocksdb);
    assert.deepEqual(sent, [{ setFeatureCompatibilityVersion: '3.4' }]);
    assert.equal((await admin.command(sent[0])).ok, 1);
    const reply = await admin.command({ getParameter: 1, featureCompatibilityVersion: 1 });
    assert.equal(lab.fcvOf(JSON.parse(JSON.stringify(reply))), '3.4');
    assert.equal(server.shim.state.fcv, '3.4');
    // What 3.6's addShard sends a shard when the config servers were left at 3.6.
    const err = await admin.command({ setFeatureCompatibilityVersion: '3.6' }).then(() => null, (e) => e);
    assert.ok(err, 'the line refuses the upgrade');
    assert.equal(err.errmsg ?? err.message, REFUSED.errmsg);
    const failing = { runCommand: () => ({ ok: 0, code: err.code, codeName: err.codeName, errmsg: err.message }) };
    assert.throws(() => lab.setFcv(failing, 'shard01-a:27017', '3.6'),
      (e) => e.message === `featureCompatibilityVersion 3.6 refused by shard01-a:27017: ${REFUSED.errmsg}` && !e.message.includes('\n'));
    assert.equal(server.shim.stats.refused['fcv-upgrade-refused-rocksdb'], 1);
  } finally {
    await client.close();
    await server.stop();
  }
});
