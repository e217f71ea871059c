'use strict';
// The fault tool on every engine of compose/engines.tsv: a scenario that cannot work on an engine
// refuses in one line naming why, before anything runs; the tool's own connections use the
// engine's driver line, so it can talk to the old server lines (MongoDB 3.6 and 4.0) at all.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const tables = require('../../../common/tables');
const { Members, mongosClient } = require('../../src/faults/cluster');
const { startServer } = require('../support/server');
const { linesOf } = require('../support/server-lines');

const BIN = path.join(__dirname, '../../bin/lab-fault.js');
const run = (...args) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 30000, input: '' });

test('failover refuses, in one line and exit 2, on an engine without reliable majority reads; the others pass its check', () => {
  const engines = tables.engines();
  assert.ok(engines.some((e) => !e.majority_reads), 'an engine without majority reads (mmapv1)');
  for (const e of engines) {
    const r = run('run', 'failover', '--engine', e.engine, '--w', 'majority', '--dry-run');
    if (e.majority_reads) {
      assert.doesNotMatch(r.stderr, /does not apply to engine/, `${e.engine}: ${r.stderr}`);
    } else {
      assert.equal(r.status, 2, `${e.engine}: ${r.stderr}`);
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0], new RegExp(`^error: fault failover does not apply to engine ${e.engine}: .*readConcern majority.*majority_reads: no\\)$`));
      assert.equal(r.stdout, '', 'no plan printed, nothing started');
    }
  }
});

// The tool's member and mongos clients on the engine's driver line, against mongo-java-server
// announcing that engine's server line; the current line is refused by the same server.
// The wire version is the one support/server-lines.js cites for the row's server line.
for (const e of tables.engines().filter((x) => x.driver_line !== 'mongodb')) {
  const [[, { wire }]] = linesOf(e);
  test(`fault tool clients for ${e.engine} (MongoDB ${e.server_line}, wire ${wire}) use ${e.driver_line}`, async () => {
    const srv = await startServer({ version: { server: `${e.server_line}.0`, wire } });
    const host = srv.uri.replace(/^mongodb:\/\//, '').replace(/\/$/, '');
    const members = new Members([host], { driverLine: e.driver_line });
    const mongos = mongosClient({ mongos: host, driverLine: e.driver_line, serverSelectionTimeoutMS: 3000 });
    const current = new Members([host], {});
    try {
      assert.equal((await members.admin(host, { ping: 1 })).ok, 1);
      assert.equal((await mongos.db('admin').command({ ping: 1 })).ok, 1);
      await assert.rejects(current.admin(host, { ping: 1 }), /wire version/, 'the current driver line refuses this server');
    } finally {
      await members.close();
      await current.close();
      await mongos.close();
      await srv.stop();
    }
  });
}
