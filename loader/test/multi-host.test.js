'use strict';
// --uri naming several hosts, one of them down: the one down is named with its cause and the
// one that answered is not blamed (it was called "connection refused" with the dead one, or told
// that the timeout was too short and to raise it).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { startServer } = require('./support/server');
const { tmpResults } = require('./support/loader');

const BIN = path.join(__dirname, '..', 'bin', 'lab-loader.js');

test('a URI with a live server and a dead host: the dead host named as refused, the live one as answering, no advice to raise the timeout', async () => {
  const server = await startServer();
  const results = tmpResults();
  try {
    const live = `127.0.0.1:${server.port}`;
    const r = spawnSync(process.execPath, [BIN, 'experiment1', '--uri', `mongodb://${live},127.0.0.1:1/`, '--docs', '10',
      '--server-selection-timeout', '3s', '--metrics-port', '0', '--results-dir', results], { encoding: 'utf8' });
    const err = r.stderr.replace(/\n {2}/g, ' ');
    assert.equal(r.status, 1, err);
    assert.match(err, /connection refused by 127\.0\.0\.1:1: nothing listens there/);
    assert.doesNotMatch(err, new RegExp(`refused by [^:]*${live}`), 'the live host is not called refused');
    assert.match(err, new RegExp(`${live} answered, but no server could be used`));
    assert.doesNotMatch(err, /raise it/);
  } finally {
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});
