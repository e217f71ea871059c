'use strict';
// --uri runs are filed under the engine the server reports, never under a default: the engines
// table's name for a known engine (wiredTiger -> wiredtiger), the reported name otherwise,
// the product a vendor field names (FerretDB's ferretdbVersion, engine_source "product"), else
// "unknown-<version>" (engine_source "none") when the server reports none, never its process (the
// executable's file name); --engine LABEL is recorded as
// given with the server's word beside it. mongo-java-server reports what LAB_STORAGE_ENGINE says
// (test/support/LabMongoServer.java), as mongod reports its own.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { startServer, UNREPORTED_ENGINE_FOLDER } = require('./support/server');
const { runLoader, tmpResults, latestRun } = require('./support/loader');
const { checkSummary } = require('./support/summary-schema');

async function labelled(storageEngine, extra = []) {
  const server = await startServer({ storageEngine });
  const root = tmpResults();
  try {
    const r = await runLoader(['experiment1', '--uri', server.uri, '--docs', '20', '--results-dir', root, '--metrics-port', '0', ...extra]);
    assert.equal(r.code, 0, r.stderr);
    const engines = fs.readdirSync(`${root}/experiment1`);
    assert.equal(engines.length, 1, `one engine folder: ${engines}`);
    const { summary } = latestRun(root, 'experiment1', engines[0]);
    checkSummary(summary);
    assert.equal(summary.engine, engines[0], 'the folder and the summary agree');
    return { r, summary };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    await server.stop();
  }
}

test('server reports wiredTiger, no --engine: filed under the table name wiredtiger, source server', async () => {
  const { summary } = await labelled('wiredTiger');
  assert.equal(summary.engine, 'wiredtiger');
  assert.equal(summary.engine_source, 'server');
  assert.equal(summary.engine_reported, 'wiredTiger');
});

test('server reports inMemory: inmemory (the engines table maps it)', async () => {
  const { summary } = await labelled('inMemory');
  assert.equal(summary.engine, 'inmemory');
  assert.equal(summary.engine_source, 'server');
});

test('server reports an engine the table does not know: its own name', async () => {
  const { summary } = await labelled('rocksdb');
  assert.equal(summary.engine, 'rocksdb');
  assert.equal(summary.engine_source, 'server');
});

test('server reports no storage engine: unknown and what it does report, source none (never a made-up wiredtiger)', async () => {
  const { summary } = await labelled(null);
  assert.equal(summary.engine, `unknown-${summary.server.version}`);
  assert.equal(summary.server.process, 'java', 'the process is recorded, not used as the label');
  assert.equal(summary.engine, UNREPORTED_ENGINE_FOLDER);
  assert.equal(summary.engine_source, 'none');
  assert.equal(summary.engine_reported, null);
});

test('two servers that report no storage engine, two versions: two folders, never one shared "unknown"', async () => {
  const versions = [{ server: '7.0.0', wire: 21 }, { server: '6.0.0', wire: 17 }];
  const root = tmpResults();
  try {
    for (const version of versions) {
      const server = await startServer({ version });
      try {
        const r = await runLoader(['experiment1', '--uri', server.uri, '--docs', '20', '--results-dir', root, '--metrics-port', '0']);
        assert.equal(r.code, 0, r.stderr);
      } finally {
        await server.stop();
      }
    }
    assert.deepEqual(fs.readdirSync(`${root}/experiment1`).sort(), ['unknown-6.0.0', 'unknown-7.0.0']);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('--engine any label: recorded as given, the server\'s word beside it', async () => {
  const { r, summary } = await labelled('wiredTiger', ['--engine', 'atlas-m10']);
  assert.equal(summary.engine, 'atlas-m10');
  assert.equal(summary.engine_source, 'flag');
  assert.equal(summary.engine_reported, 'wiredTiger');
  assert.match(r.stderr, /labelled 'atlas-m10' \(--engine\) and the server reports storage engine 'wiredTiger'/);
});

test('--engine wiredtiger on a server reporting an engine no row runs: the note says where the results are filed, never "labelled wiredtiger"', async () => {
  const { r, summary } = await labelled('standin', ['--engine', 'wiredtiger']);
  assert.equal(summary.engine, 'standin');
  assert.doesNotMatch(r.stderr, /labelled 'wiredtiger'/);
  assert.match(r.stderr.replace(/\n {2}/g, ' '), /note: the server reports storage engine 'standin', which no engine of the table runs: results are filed under 'standin', not under 'wiredtiger' \(--engine\)/);
});

test('--engine naming a table engine on a server that reports an engine no row runs: filed under the server\'s word', () => {
  const { engineLabel } = require('../src/server/engine-label');
  const standin = engineLabel({ flag: 'wiredtiger', reported: 'standin', server: { vendors: [{ product: 'standin', version: '1' }] } });
  assert.deepEqual(standin, { engine: 'standin', source: 'server', reported: 'standin', row: null, rowFrom: null },
    'the Docker suite\'s stand-in is never filed as wiredtiger, nor given its row');
  assert.equal(engineLabel({ flag: 'rocksdb', reported: 'wiredTiger' }).engine, 'rocksdb', 'another engine of the table: the label stands, engine_reported beside it');
  assert.equal(engineLabel({ flag: 'wiredtiger', reported: 'wiredTiger' }).source, 'flag', 'the engine it names: the flag stands');
  assert.equal(engineLabel({ flag: 'wiredtiger', reported: null }).source, 'flag', 'a server that reports nothing (mongos alone, FerretDB): the flag stands');
  assert.equal(engineLabel({ flag: 'atlas-m10', reported: 'standin' }).engine, 'atlas-m10', 'a label of the user\'s own, not a table engine: kept');
});

test('two rows reporting the same engine (wiredtiger, percona-wt): the vendor field tells the builds apart; the old lines map to theirs', () => {
  const { engineLabel } = require('../src/server/engine-label');
  const label = (reported, vendor) => engineLabel({ reported, server: { vendors: vendor ? [{ product: vendor, version: 'x' }] : [] } }).engine;
  assert.equal(label('wiredTiger', null), 'wiredtiger', "MongoDB's build");
  assert.equal(label('wiredTiger', 'psmdb'), 'percona-wt', "Percona's build of the same engine (buildInfo psmdbVersion)");
  assert.equal(label('inMemory', 'psmdb'), 'inmemory');
  assert.equal(label('mmapv1', null), 'mmapv1');
  assert.equal(label('rocksdb', 'psmdb'), 'rocksdb');
  assert.equal(label('inMemory', null), 'inmemory', 'no row runs this build: the first row of the engine names it');
});

test('the Percona 8.0 inMemory shim line (psmdbVersion) is filed under inmemory, its product recorded', async () => {
  const server = await startServer({ line: 'psmdb-8.0-inmemory-replset' });
  const root = tmpResults();
  try {
    const r = await runLoader(['experiment1', '--uri', server.uri, '--docs', '20', '--results-dir', root, '--metrics-port', '0']);
    assert.equal(r.code, 0, r.stderr);
    const { summary } = latestRun(root, 'experiment1', 'inmemory');
    assert.equal(summary.server.product, 'psmdb 8.0.4-2');
    assert.deepEqual(summary.server.vendors, [{ product: 'psmdb', field: 'psmdbVersion', version: '8.0.4-2' }]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    await server.stop();
  }
});

// The engines table's row is chosen once per run, by the folder's rule, and every reader takes it:
// Percona's WiredTiger (psmdbVersion, the percona-wt row) under --uri without --engine must be
// percona-wt in the folder, in storage.engine_row and in the retry-writes decision's source, not
// the first row that runs wiredTiger (wiredtiger) in the last two.
test('a --uri run of Percona\'s WiredTiger without --engine: one row (percona-wt) in the folder, storage and retry_writes', async () => {
  const server = await startServer({ line: 'psmdb-8.0-wiredtiger-replset' });
  const root = tmpResults();
  try {
    const r = await runLoader(['experiment2', '--uri', server.uri, '--results-dir', root, '--metrics-port', '0',
      '--preload-docs', '100', '--clients', '1', '--duration', '1s', '--progress-interval', '1s']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(fs.readdirSync(`${root}/experiment2`), ['percona-wt'], 'the folder');
    const { summary } = latestRun(root, 'experiment2', 'percona-wt');
    checkSummary(summary);
    assert.equal(summary.engine, 'percona-wt');
    assert.equal(summary.storage.engine_row, 'percona-wt', 'summary.json storage.engine_row');
    assert.equal(summary.retry_writes.source, 'server: storage engine wiredTiger (engines table row percona-wt)', 'retry_writes');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    await server.stop();
  }
});
