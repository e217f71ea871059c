'use strict';
// FerretDB v1.24.2 on SQLite, the suite's second real server (test/suites/45-ferretdb.sh starts it
// and sets MONGODB_URI; support/ferretdb.js): every experiment the lab has that the MONGODB_URI
// mode does not already run end to end (experiments.test.js runs experiment1-3 there), at tiny
// scale, without --engine, then the report over all of them. What is checked is what a lab
// must ask of an independently written server:
//   - it is filed under what it says about itself: buildInfo ferretdbVersion and the backend its
//     startupWarnings name (ferretdb-v1.24.2-sqlite-<version>), never its executable's name;
//   - what FerretDB documents as ignored (writeConcern w and j, src/server/products.js) is measured but
//     recorded as "server ignores", never costed, and left out of the report's verdicts;
//   - the counts are right: read back from the server.
// Runs only in that suite (it needs MONGODB_URI to be a FerretDB: checked first, a clear failure
// otherwise).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { suiteClient } = require('../support/ferretdb');
const path = require('node:path');
const { runLoader, tmpResults, runsOf } = require('../support/loader');
const { main: report } = require('../../../report/src/cli');

let client;
let results;
let label;
test.before(async () => {
  client = await suiteClient();
  results = tmpResults();
});
test.after(async () => {
  await client?.close();
  if (results) fs.rmSync(results, { recursive: true, force: true });
});

const common = () => ['--uri', process.env.MONGODB_URI, '--results-dir', results, '--metrics-port', '0', '--progress-interval', '1s'];
const only = (experiment) => {
  const engines = fs.readdirSync(path.join(results, experiment));
  assert.equal(engines.length, 1, `one folder: ${engines}`);
  return engines[0];
};

test('writeconcern: filed under ferretdb-v1.24.2-sqlite-*, the +j case recorded as ignored by the server', async () => {
  const r = await runLoader(['writeconcern', ...common(), '--ops', '40', '--repeat', '1', '--write-concerns', 'w:1,w:1+j,majority']);
  assert.equal(r.code, 0, r.stderr);
  label = only('writeconcern');
  assert.match(label, /^ferretdb-v1\.24\.2-sqlite-\d+\.\d+\.\d+$/);
  const [s] = runsOf(results, 'writeconcern', label);
  assert.equal(s.engine_source, 'product');
  assert.deepEqual(s.server.vendors, [{ product: 'ferretdb', field: 'ferretdbVersion', version: 'v1.24.2' }]);
  assert.equal(s.server.backend.name, 'SQLite');
  assert.equal(s.server.restarted_during_run, false);
  assert.equal(s.retry_writes.enabled, false, 'a standalone: no retryable writes recorded');
  const byName = Object.fromEntries(s.cases.map((c) => [c.name, c]));
  assert.equal(byName['w:1'].server_ignores, undefined, 'w:1 asks nothing FerretDB ignores');
  assert.match(byName['w:1+j'].server_ignores, /^server ignores j: FerretDB ignores writeConcern/);
  // FerretDB answers hello as a standalone: majority is not run there (wc-topology.js), as on a
  // MongoDB standalone.
  assert.match(byName.majority.not_applicable, /standalone/);
  for (const c of [byName['w:1'], byName['w:1+j']]) assert.equal(c.documents.arrived, c.documents.sent, `${c.name}: every acknowledged insert arrived`);
  assert.match(r.stdout, /^server ignores j: 2 w:1\+j: measured, never a verdict/m);
});

test('journal: j:true ignored by the server, no cost against j:false; the interval cases refused by it are lines', async () => {
  const r = await runLoader(['journal', ...common(), '--docs', '2000', '--batch', '500', '--commit-intervals', '1', '--repeat', '1', '--cost-min-time', '1ms']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(only('journal'), label, 'the same server, the same folder name');
  const [s] = runsOf(results, 'journal', label);
  const [base, j, iv] = s.cases;
  assert.equal(base.server_ignores, undefined);
  assert.match(j.server_ignores, /^server ignores j: /);
  assert.equal(j.relative_to_baseline, undefined, 'no cost of a journal FerretDB does not wait for');
  assert.equal(j.cost_not_computed, 'server ignores j: no cost against j:false');
  assert.match(iv.unsupported, /journalCommitInterval/, 'FerretDB has no journalCommitInterval');
  assert.equal(await client.db('lab').collection('seed001').countDocuments({}), 2000, "the last case's documents are all there");
});

test('gridfs and ycsb-a: complete, filed under the same name', async () => {
  const g = await runLoader(['gridfs', ...common(), '--file-size', '1MiB', '--repeat', '1']);
  assert.equal(g.code, 0, g.stderr);
  assert.equal(only('gridfs'), label);
  const y = await runLoader(['ycsb-a', ...common(), '--records', '200', '--fields', '2', '--field-length', '10', '--threads', '1', '--duration', '1s']);
  assert.equal(y.code, 0, y.stderr);
  assert.equal(only('ycsb-a'), label);
  for (const e of ['gridfs', 'ycsb-a']) assert.equal(runsOf(results, e, label)[0].complete, true, e);
});

test('the report: the ignored cases are left out of verdicts, shown as "server ignores it"', () => {
  let out = '';
  assert.equal(report(['--results-dir', results, '--experiment', 'writeconcern'], { stdout: { write: (x) => { out += x; } }, stderr: process.stderr }), 0);
  const rep = JSON.parse(fs.readFileSync(path.join(fs.realpathSync(path.join(results, 'report', 'latest')), 'report.json'), 'utf8'));
  // Every per-side aggregate of a point (report/src/compare.js aggregate: { point, excluded, ... }).
  const aggregates = [];
  const walk = (x) => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') {
      if (typeof x.point === 'string' && x.excluded && typeof x.excluded === 'object') aggregates.push(x);
      Object.values(x).forEach(walk);
    }
  };
  walk(rep.experiments);
  const ignored = aggregates.filter((a) => a.excluded.server_ignores);
  assert.ok(ignored.length >= 1 && ignored.every((a) => /w:1\+j/.test(a.point)), `w:1+j excluded as ignored: ${JSON.stringify(aggregates.map((a) => [a.point, a.excluded]))}`);
  assert.ok(aggregates.some((a) => a.point.includes('w:1') && !a.point.includes('+j') && !Object.keys(a.excluded).length), 'w:1 stays a measurement');
});
