'use strict';
// Two loaders on one server and collection: only the second printed "another loader
// ... will interfere" and neither summary recorded it. Now both summaries record the overlap
// (which other run, when it started, whether it was there first or came during this one), and
// the first run says so at its end. Real processes, a real server.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { startLoader, runLoader, withServerAndResults, runsOf, unwrap } = require('./support/loader');
const { checkSummary } = require('./support/summary-schema');

let server;
let results;
withServerAndResults(test, (s, r) => { server = s; results = r; });

test('two loaders on the same server and collection: both summaries record the other run', async () => {
  const a = startLoader(['experiment2', '--uri', server.uri, '--preload-docs', '300', '--clients', '1', '--duration', '4s',
    '--rate', '100', '--results-dir', results, '--metrics-port', '0', '--engine', 'first', '--progress-interval', '1s']);
  await a.waitFor(/step 1\/1 \(1 client\): started/);
  const b = await runLoader(['experiment3', '--uri', server.uri, '--preload-docs', '300', '--clients', '1', '--duration', '1s',
    '--results-dir', results, '--metrics-port', '0', '--engine', 'second']);
  assert.equal(b.code, 0, b.stderr);
  const ra = await a.done;
  assert.equal(ra.code, 0, ra.stderr);
  const [first] = runsOf(results, 'experiment2', 'first');
  const [second] = runsOf(results, 'experiment3', 'second');
  checkSummary(first);
  checkSummary(second);
  const dirOf = (r) => /^results: (\S+)$/m.exec(r.stdout)[1];
  assert.equal(second.concurrent_runs.length, 1, JSON.stringify(second.concurrent_runs));
  assert.equal(second.concurrent_runs[0].pid, a.proc.pid);
  assert.equal(second.concurrent_runs[0].results, dirOf(ra));
  assert.equal(second.concurrent_runs[0].noticed, "at this run's start");
  assert.equal(first.concurrent_runs.length, 1, `the first run recorded nothing: ${JSON.stringify(first.concurrent_runs)}`);
  assert.equal(first.concurrent_runs[0].results, dirOf(b));
  assert.equal(first.concurrent_runs[0].noticed, 'started during this run');
  assert.ok(Date.parse(first.concurrent_runs[0].started_at) > Date.parse(first.started_at));
  assert.match(unwrap(ra.stderr), new RegExp(`^warning: another loader \\(pid \\d+, started \\S+, results ${dirOf(b).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\) started against the same server and lab\\.seed004 during this run: the two interfered`, 'm'));
  // A run alone records none.
  const alone = await runLoader(['experiment3', '--uri', server.uri, '--preload-docs', '300', '--clients', '1', '--duration', '1s',
    '--results-dir', results, '--metrics-port', '0', '--engine', 'alone']);
  assert.equal(alone.code, 0, alone.stderr);
  assert.deepEqual(runsOf(results, 'experiment3', 'alone')[0].concurrent_runs, []);
  assert.ok(fs.existsSync(path.dirname(dirOf(alone))));
});
