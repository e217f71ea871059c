'use strict';
// experiments/journal.yaml's cases say what they measure on each engine (issue 26 item 6): the
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
