'use strict';
// What a server says about itself: vendor fields of buildInfo, FerretDB's
// backend line, restarts from two process readings, and what a product documents as ignored.
// The replies below are the servers' own: FerretDB v1.24.2's buildInfo and startupWarnings as
// .tools/bin/ferretdb answered them (suite 45-ferretdb checks them live), Percona's psmdbVersion.
const test = require('node:test');
const assert = require('node:assert/strict');
const { vendorsOf, ignoredBy, FERRETDB_POWERED } = require('../src/server/products');
const { restartFacts, processStart } = require('../src/server/describe');

test('vendorsOf: psmdbVersion, ferretdbVersion and any other <product>Version key; never version or gitVersion', () => {
  assert.deepEqual(vendorsOf({ version: '8.0.4', gitVersion: 'abc', psmdbVersion: '8.0.4-2' }), [{ product: 'psmdb', field: 'psmdbVersion', version: '8.0.4-2' }]);
  assert.deepEqual(vendorsOf({ version: '7.0.42', gitVersion: 'unknown', ferretdbVersion: 'v1.24.2', ferretdbFeatures: {} }), [{ product: 'ferretdb', field: 'ferretdbVersion', version: 'v1.24.2' }]);
  assert.deepEqual(vendorsOf({ version: '7.0.0', acmedbVersion: '2.1' }).map((v) => v.product), ['acmedb'], 'a product no table knows is still told apart');
  assert.deepEqual(vendorsOf({ version: '8.0.4', gitVersion: 'abc', javascriptEngine: 'mozjs' }), [], "MongoDB's own build names no vendor");
});

test("FerretDB's startupWarnings line: the backend once a database is open, none before", () => {
  assert.deepEqual(FERRETDB_POWERED.exec('Powered by FerretDB v1.24.2 and SQLite 3.46.0.').slice(1), ['v1.24.2', 'SQLite', '3.46.0']);
  assert.deepEqual(FERRETDB_POWERED.exec('Powered by FerretDB v1.24.2 and PostgreSQL 16.4.').slice(1), ['v1.24.2', 'PostgreSQL', '16.4']);
  assert.deepEqual(FERRETDB_POWERED.exec('Powered by FerretDB v1.24.2.').slice(1), ['v1.24.2', undefined, undefined]);
});

test('restartFacts: same pid and start within 2 s is one process; a new pid or a moved start is a restart; a missing reading is unknown', () => {
  const a = processStart({ pid: 10, uptimeMillis: 5000, localTime: new Date('2026-01-01T00:00:05Z') });
  assert.deepEqual(a, { pid: 10, uptime_s: 5, started_at: '2026-01-01T00:00:00.000Z' });
  assert.equal(restartFacts(a, { pid: 10, started_at: '2026-01-01T00:00:01.000Z' }).restarted_during_run, false);
  assert.equal(restartFacts(a, { pid: 11, started_at: '2026-01-01T00:00:00.000Z' }).restarted_during_run, true);
  assert.equal(restartFacts(a, { pid: 10, started_at: '2026-01-01T00:01:00.000Z' }).restarted_during_run, true, 'a container restart may reuse the pid');
  assert.equal(restartFacts(a, null).restarted_during_run, null);
});

test('ignoredBy: FerretDB ignores j and w>1/majority; w:1 and w:0 ask nothing it ignores; MongoDB and Percona ignore nothing', () => {
  const ferret = { vendors: [{ product: 'ferretdb', version: 'v1.24.2' }] };
  assert.match(ignoredBy(ferret, { w: 1, j: true }), /^server ignores j: FerretDB ignores writeConcern/);
  assert.match(ignoredBy(ferret, { w: 'majority', j: false }), /^server ignores w: /);
  assert.match(ignoredBy(ferret, { w: 2, j: false }), /^server ignores w: /);
  assert.equal(ignoredBy(ferret, { w: 1, j: false }), null);
  assert.equal(ignoredBy(ferret, { w: 0, j: false }), null);
  assert.equal(ignoredBy({ vendors: [{ product: 'psmdb', version: '8.0.4-2' }] }, { w: 1, j: true }), null);
  assert.equal(ignoredBy({ vendors: [] }, { w: 'majority', j: true }), null);
});

test('serverLine names the product a build names (FerretDB and its backend), else the version; ignoresUnsatisfiableW only where w is ignored on a standalone', () => {
  const { serverLine } = require('../src/server/server-line');
  const { ignoresUnsatisfiableW } = require('../src/server/products');
  const ferret = { version: '7.0.42', vendors: [{ product: 'ferretdb', field: 'ferretdbVersion', version: 'v1.24.2' }], backend: { name: 'SQLite', version: '3.46.0' } };
  assert.equal(serverLine(ferret, { kind: 'standalone' }), 'server FerretDB v1.24.2 (MongoDB 7.0.42 compatible, backend SQLite 3.46.0) (standalone), storage engine not reported');
  assert.equal(serverLine({ version: '8.0.4' }, { kind: 'mongos' }, 'wiredTiger'), 'server 8.0.4 (mongos), storage engine wiredTiger');
  const standalone = { kind: 'standalone', members: 1 };
  assert.match(ignoresUnsatisfiableW(ferret, { w: 2 }, standalone), /^FerretDB ignores w: it acknowledges w:2 on a standalone/);
  assert.equal(ignoresUnsatisfiableW(ferret, { w: 'majority' }, standalone), null, "majority on a standalone is MongoDB's w:1 too");
  assert.equal(ignoresUnsatisfiableW({ version: '8.0.4', vendors: [] }, { w: 2 }, standalone), null, 'MongoDB refuses it: its own reason stands');
  assert.equal(ignoresUnsatisfiableW(ferret, { w: 2 }, { kind: 'replica_set_member', members: 3 }), null);
});
