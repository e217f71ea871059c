'use strict';
// A run during which the server crashed and came back is no sample of one server: the real loader
// reads against mongo-java-server, which is killed (SIGKILL) and started again on the same port
// while the step runs. The driver rides through (its reads retry once the server is back), so
// without the end-of-run reading the run would pass as complete. It must end incomplete, exit 1
// (compare --resume runs a position again unless its run exited 0), with one line saying why.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { startServer } = require('./support/server');
const { startLoader, tmpResults, latestRun } = require('./support/loader');
const { checkSummary } = require('./support/summary-schema');

test('a server killed and restarted during a step: incomplete, exit 1, the restart said in one line', { timeout: 120000 }, async () => {
  let server = await startServer();
  const { port } = server;
  const results = tmpResults();
  try {
    const l = startLoader(['experiment3', '--uri', server.uri, '--preload-docs', '200', '--clients', '1', '--duration', '6s', '--rate', '100',
      '--server-selection-timeout', '20s', '--results-dir', results, '--metrics-port', '0', '--engine', 'crashed', '--progress-interval', '1s']);
    await l.waitFor(/step 1\/1 \(1 client\): [1-9]\d*\/6 s/);
    server.kill();
    server = await startServer({ port });
    const r = await l.done;
    assert.equal(r.code, 1, r.stderr);
    const { summary } = latestRun(results, 'experiment3', 'crashed');
    checkSummary(summary);
    assert.equal(summary.complete, false, 'a run across two server processes is not complete');
    assert.equal(summary.server.restarted_during_run, true);
    assert.notEqual(summary.server.process_at_end.pid, summary.server.process_start.pid);
    assert.match(summary.reason, /^the server restarted during the run \(pid \d+ -> \d+\): not a sample of one server process/);
    assert.doesNotMatch(summary.reason, /lost the server/, 'the server answered: it was not lost');
    const said = r.stderr.split('\n').filter((x) => /^error: the server restarted during the run/.test(x));
    assert.equal(said.length, 1, r.stderr);
    assert.ok(said[0].length <= 120, `over 120 columns: ${said[0]}`);
  } finally {
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});
