'use strict';
// MMAPv1's journal-off case. With the shard members on --nojournal and the set's
// writeConcernMajorityJournalDefault true, w:majority never completes (SERVER-49428's 4.0 startup
// warning; DOCS-9367): through mongos the setup's drop reaches the shard with majority write
// concern, and the case failed. The shim's 4.0 MMAPv1 line plays it (majority-never-without-
// journal, repl-set-reconfig); state.viaMongos makes the shim treat a drop as the config server's
// drop on the shard, with majority write concern, as --via mongos does (the shim answers the
// wtimeout's error at once where mongod waits forever). The loader sets the field false before
// the setup and puts it back after the case.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { MongoClient } = require('mongodb-6.16'); // the driver line for 4.0 (engines.tsv driver_line)
const { startServer } = require('./support/server');
const { startLoader, runLoader, tmpResults, runsOf } = require('./support/loader');

let results;
test.before(() => { results = tmpResults(); });
test.after(() => fs.rmSync(results, { recursive: true, force: true }));

test('MMAPv1 without a journal: a w:majority drop never completes while writeConcernMajorityJournalDefault is true (the shim plays it)', async () => {
  const server = await startServer({ line: 'mongod-4.0-mmapv1-replset' });
  const client = new MongoClient(server.uri, { retryWrites: false, serverSelectionTimeoutMS: 10000 });
  try {
    server.shim.state.nojournal = true;
    const col = client.db('lab').collection('probe');
    await col.insertOne({ _id: 1 });
    await assert.rejects(col.insertOne({ _id: 2 }, { writeConcern: { w: 'majority', wtimeoutMS: 1000 } }), (e) => e.code === 64 && /waiting for replication timed out/.test(e.message));
    server.shim.state.viaMongos = true; // the config server's drop on the shard: majority
    await assert.rejects(col.drop(), (e) => e.code === 64);
    const { config } = await client.db('admin').command({ replSetGetConfig: 1 });
    assert.equal(config.writeConcernMajorityJournalDefault, true);
  } finally {
    await client.close();
    await server.stop();
  }
});

test('journal-off case on MMAPv1 with majority setup: writeConcernMajorityJournalDefault false for the case, put back after; measured, recorded', async () => {
  const server = await startServer({ line: 'mongod-4.0-mmapv1-replset' });
  try {
    server.shim.state.nojournal = true; // what ./run.sh's restart with --nojournal does
    server.shim.state.viaMongos = true; // ./run.sh journal --via mongos: the drops reach the shard with majority
    const seedClient = new MongoClient(server.uri, { retryWrites: false, serverSelectionTimeoutMS: 10000 });
    await seedClient.db('lab').collection('seed001').insertOne({ _id: 'left from an earlier run' });
    await seedClient.close();
    const r = await runLoader(['journal', '--uri', server.uri, '--repeat', '1', '--results-dir', results, '--metrics-port', '0', '--engine', 'mmapv1',
      '--docs', '2000', '--batch', '500', '--members-journal', 'off', '--progress-interval', '1s']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /writeConcernMajorityJournalDefault true -> false on the shard's set/);
    const s = runsOf(results, 'journal', 'mmapv1').at(-1);
    assert.deepEqual(s.cases.map((c) => c.name), ['journal off']);
    const c = s.cases[0];
    assert.equal(c.unsupported, undefined, c.unsupported);
    assert.equal(c.documents.arrived, 2000);
    assert.deepEqual([c.write_concern_majority_journal_default.before, c.write_concern_majority_journal_default.during],
      [true, false]);
    assert.equal(c.write_concern_majority_journal_default_restored, true);
    assert.equal(server.shim.state.wcMajorityJournalDefault, true, 'put back after the case');
    assert.equal(server.shim.stats.replied['repl-set-reconfig'], 2);
  } finally {
    await server.stop();
  }
});

// A set config that does not carry the field means true (the default with protocolVersion 1): the
// case must still set it false, or its w:majority setup never completes.
test('journal-off case: a set config without writeConcernMajorityJournalDefault is read as true and set false for the case', async () => {
  const server = await startServer({ line: 'mongod-4.0-mmapv1-replset' });
  try {
    server.shim.state.nojournal = true;
    server.shim.state.viaMongos = true;
    server.shim.state.wcFieldAbsent = true;
    const r = await runLoader(['journal', '--uri', server.uri, '--repeat', '1', '--results-dir', results, '--metrics-port', '0', '--engine', 'mmapv1',
      '--docs', '1000', '--batch', '500', '--members-journal', 'off', '--progress-interval', '1s']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /writeConcernMajorityJournalDefault true -> false on the shard's set/);
    const c = runsOf(results, 'journal', 'mmapv1').at(-1).cases[0];
    assert.equal(c.documents.arrived, 1000);
    assert.equal(c.write_concern_majority_journal_default.before, true);
    assert.equal(server.shim.stats.replied['repl-set-reconfig'], 2, 'set false for the case, put back after');
  } finally {
    await server.stop();
  }
});

// journalOffWatched(server, onSet): a journal-off run on the shim's 4.0 MMAPv1 set without a
// journal, via mongos, no server record (nothing else waits on the shim), each change of the set's
// writeConcernMajorityJournalDefault passed to onSet(from, to, loader) as the shim takes it
// -> { l (the loader), value() (the set's value now) }.
function journalOffWatched(server, onSet) {
  server.shim.state.nojournal = true;
  server.shim.state.viaMongos = true;
  const l = startLoader(['journal', '--uri', server.uri, '--repeat', '1', '--results-dir', results, '--metrics-port', '0', '--engine', 'mmapv1',
    '--docs', '1000', '--batch', '500', '--members-journal', 'off', '--server-record', 'off']);
  let v = true;
  Object.defineProperty(server.shim.state, 'wcMajorityJournalDefault', { get: () => v, set: (x) => { onSet(v, x, l); v = x; } });
  return { l, value: () => v };
}

// A stop while the setup's reconfig is out: the finish's put-back (afterRun) must wait for it, or
// it finds nothing set yet, and the reconfig's answer then leaves the set at false for every later
// run on the stack. The shim answers at once, so its answer is held 1.5 s here while the loader
// takes the SIGTERM and reaches its put-back.
test('SIGTERM while the setup sets writeConcernMajorityJournalDefault false: the put-back waits for the reconfig and sets it back', async () => {
  const server = await startServer({ line: 'mongod-4.0-mmapv1-replset' });
  try {
    const run = journalOffWatched(server, (from, to, l) => {
      if (from && !to) { l.proc.kill('SIGTERM'); server.shim.delayAnswer('replSetReconfig', 1500); }
    });
    const r = await run.l.done;
    assert.equal(r.code, 143, r.stderr);
    assert.equal(run.value(), true, `left false: ${r.stderr}`);
    assert.match(r.stderr, /journal off: writeConcernMajorityJournalDefault put back to true/);
  } finally {
    await server.stop();
  }
});

// A put-back the server does not answer within the finish's bound (runner.js AFTER_RUN_BOUND_MS,
// 10 s): the run stopped as the case began ends without it, and says so (the next run on the set
// would measure under it).
test('SIGTERM, then a put-back of writeConcernMajorityJournalDefault that outlives the finish\'s 10 s bound: the run ends and says so', async () => {
  const server = await startServer({ line: 'mongod-4.0-mmapv1-replset' });
  try {
    // the setup's reconfig (true -> false) brings the stop; the put-back's (false -> true) is done
    // and answered 12 s later
    const run = journalOffWatched(server, (from, to, l) => {
      if (from && !to) l.proc.kill('SIGTERM');
      if (!from && to) server.shim.delayAnswer('replSetReconfig', 12000);
    });
    const r = await run.l.done;
    assert.equal(r.code, 143, r.stderr);
    const said = r.stderr.replace(/\n +/g, ' '); // lines wrapped at the terminal's width
    assert.match(said, /warning: journal: putting back what the run changed on the server did not end within 10 s; check the server's settings before the next run/);
    assert.doesNotMatch(said, /put back to true/);
  } finally {
    await server.stop();
  }
});

// The same stop earlier, while the primary is being looked for (an unreachable member costs its
// server selection): the hook sees the run stopping and changes nothing (ctx.stopping()).
test('journalDefaultOff after the run began stopping: no reconfig, the reason held for the case', async () => {
  const { journalDefaultOff } = require('../src/kinds/durability/journal-majority');
  const server = await startServer({ line: 'mongod-4.0-mmapv1-replset' });
  const client = new MongoClient(server.uri, { retryWrites: false, serverSelectionTimeoutMS: 10000 });
  try {
    const held = await journalDefaultOff({ client, config: {}, log: () => {}, stopping: () => true,
      description: { topology: { kind: 'replica_set_member', hosts: server.shim.hosts } } });
    assert.equal(held.error, 'the run stopped before writeConcernMajorityJournalDefault was set false');
    assert.equal(server.shim.stats.replied['repl-set-reconfig'], undefined);
  } finally {
    await client.close();
    await server.stop();
  }
});
