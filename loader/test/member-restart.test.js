'use strict';
// A member behind a mongos that restarts during the run: the router the loader talks to stays the
// same process, so only the server record's per-member readings (pid and start time every second,
// src/server-record/sampler.js) can see it. The shard (a replica-set line played by the wire shim
// in front of mongo-java-server) is killed and started again on the same port while the step runs;
// the run must end incomplete (exit 1), naming the member.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { startServer } = require('./support/server');
const { startLoader, tmpResults, latestRun } = require('./support/loader');

test('a shard member restarted behind mongos: the run is incomplete and names the member', { timeout: 120000 }, async () => {
  const shard = await startServer({ line: 'mongod-8.0-wiredtiger-replset' });
  const mongos = await startServer({ line: 'mongos-8.0' });
  const results = tmpResults();
  let again = null;
  try {
    mongos.shim.state.shards = `rs0/${shard.shim.hosts.join(',')}`;
    const l = startLoader(['experiment3', '--uri', mongos.uri, '--preload-docs', '200', '--clients', '1', '--duration', '6s',
      '--rate', '100', '--results-dir', results, '--metrics-port', '0', '--engine', 'routed', '--progress-interval', '1s']);
    await l.waitFor(/step 1\/1 \(1 client\): [1-9]\d*\/6 s/);
    const port = shard.backend.port;
    shard.backend.kill();
    again = await startServer({ port });
    const r = await l.done;
    assert.equal(r.code, 1, r.stderr);
    const { summary } = latestRun(results, 'experiment3', 'routed');
    assert.equal(summary.complete, false);
    assert.equal(summary.server.restarted_during_run, false, 'the router itself did not restart');
    const restarted = summary.server_record.members.filter((m) => m.restarts);
    assert.ok(restarted.length >= 1 && restarted.every((m) => m.role === 'shard'), JSON.stringify(summary.server_record.members));
    assert.match(summary.reason, /^shard member \S+ restarted during the run \(pid \d+ -> \d+\): not a sample of one server process$/);
  } finally {
    await Promise.all([mongos.stop(), shard.shim.close(), again ? again.stop() : null]);
    fs.rmSync(results, { recursive: true, force: true });
  }
});
