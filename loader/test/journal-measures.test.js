'use strict';
// experiments/journal.yaml's cases say what they measure on each engine: the
// real loader against the shim's server lines (support/server-lines.js): MMAPv1's j:true is a
// group-commit wait (dur.cpp), WiredTiger's and MongoRocks' an fsync of their journal / WAL, and
// on inMemory (no journal) nothing applies.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { startServer } = require('./support/server');
const { runLoader, tmpResults, runsOf } = require('./support/loader');

let results;
test.before(() => { results = tmpResults(); });
test.after(() => fs.rmSync(results, { recursive: true, force: true }));

async function journalOn(line, engine) {
  const server = await startServer({ line });
  try {
    const r = await runLoader(['journal', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--engine', engine,
      '--docs', '2000', '--batch', '500', '--commit-intervals', '1', '--progress-interval', '1s']);
    assert.equal(r.code, 0, r.stderr);
    const s = runsOf(results, 'journal', engine).at(-1);
    return Object.fromEntries(s.cases.map((c) => [c.name, c]));
  } finally {
    await server.stop();
  }
}

const EXPECT = [
  ['mongod-4.0-mmapv1-replset', 'mmapv1', /^group commit wait/, /mmap_v1\/dur\.cpp/],
  ['mongod-8.0-wiredtiger-replset', 'wiredtiger', /^journal fsync/, /wiredtiger_session_cache\.cpp/],
  ['psmdb-3.6-rocksdb-replset', 'rocksdb', /^WAL fsync/, /rocks_durability_manager\.cpp/],
];

for (const [line, engine, jTrue, source] of EXPECT) {
  test(`${engine}: every case says what it measures; j:true is the engine's own wait, cited`, async () => {
    const cases = await journalOn(line, engine);
    assert.deepEqual(Object.keys(cases), ['j:false', 'j:true', 'j:false interval=1ms']);
    assert.match(cases['j:true'].measures, jTrue);
    assert.match(cases['j:true'].measures_source, source);
    assert.match(cases['j:false'].measures, /^acknowledged from memory: no wait for the journal/);
    assert.match(cases['j:false interval=1ms'].measures, /every 1 ms/);
    for (const c of Object.values(cases)) assert.ok(c.measures_source, `${c.name}: measures_source`);
  });
}

test('inMemory: no journal, every case says so', async () => {
  const cases = await journalOn('psmdb-8.0-inmemory-replset', 'inmemory');
  for (const c of Object.values(cases)) assert.match(c.measures, /^not applicable: no journal/, c.name);
});

// The journal-off case (--members-journal off, passed by ./run.sh journal after restarting the
// shard members with --nojournal where compose/engines.tsv nojournal says yes): it runs only when
// the members report storage.journal.enabled false (getCmdLineOpts, the shim's cmdline-journal row).
test('MMAPv1 members restarted with --nojournal: the journal-off case alone, no journal, measured; members that journal: not run, said why', async () => {
  const server = await startServer({ line: 'mongod-4.0-mmapv1-replset' });
  const run = () => runLoader(['journal', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--engine', 'mmapv1',
    '--docs', '2000', '--batch', '500', '--members-journal', 'off', '--progress-interval', '1s']);
  try {
    let r = await run();
    assert.equal(r.code, 1, r.stderr); // its only case was not run: no step measured
    assert.match(r.stderr, /error: no step measured: no case ran \(journal off: the members run with a journal/);
    let s = runsOf(results, 'journal', 'mmapv1').at(-1);
    assert.deepEqual(s.cases.map((c) => c.name), ['journal off']);
    assert.match(s.cases[0].unsupported, /^the members run with a journal/);
    server.shim.state.nojournal = true; // what ./run.sh's restart with --nojournal does
    r = await run();
    assert.equal(r.code, 0, r.stderr);
    s = runsOf(results, 'journal', 'mmapv1').at(-1);
    const c = s.cases[0];
    assert.equal(c.name, 'journal off');
    assert.deepEqual(c.parameters.write_concern, { w: 1, j: false });
    assert.equal(c.journal, false);
    assert.match(c.journal_source, /storage\.journal\.enabled false/);
    assert.match(c.measures, /^no journal/);
    assert.equal(c.ops.insert.docs, 2000);
    assert.equal(c.documents.arrived, 2000);
  } finally {
    await server.stop();
  }
});
