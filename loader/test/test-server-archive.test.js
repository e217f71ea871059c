'use strict';
// The tests' own server (support/server.js): a mongo-java-server start maps the class-data archive
// its first start made, which halves the CPU each of the suites' few hundred starts costs.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { startServer } = require('./support/server');

test('mongo-java-server starts from its class-data archive (the JVM maps it)', async () => {
  const server = await startServer({ storageEngine: 'wiredTiger' }); // always java, never FerretDB
  try {
    const archive = server.proc.spawnargs.find((a) => a.startsWith('-XX:SharedArchiveFile='))?.split('=')[1];
    assert.ok(archive, `started without an archive: ${server.proc.spawnargs.join(' ')}`);
    const mapped = fs.readFileSync(`/proc/${server.proc.pid}/maps`, 'utf8'); // names the file by its real path
    assert.ok(mapped.includes(fs.realpathSync(archive)), `the JVM did not map ${archive}`);
  } finally {
    await server.stop();
  }
});
