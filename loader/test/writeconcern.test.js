'use strict';
// experiments/writeconcern.yaml (seeds/000) through the real loader CLI and the real driver
// against mongo-java-server over TCP: every case runs in order with its own write concern, the
// counts add up per case, w:0's documents are counted after the case, and what this server cannot
// do is a line in the results, not a crash. mongo-java-server 1.47 is a standalone that ignores
// w and j, and refuses OP_MSG's moreToCome flag (the unacknowledged w:0 write) by closing the
// connection (MongoWireProtocolHandler: any flag but checksumPresent is "not supported"): the w:0
// case is the case this server really rejects, and it is recorded as unsupported, with 0 arrived.
// The cases a standalone cannot satisfy (w > 1, majority) are not run at all, whatever this server
// would answer; the shim's server lines (support/server-lines.js) stand in for a replica
// set of 3 and for an engine without a journal.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { MongoClient, MongoServerError } = require('mongodb');
const { runLoader, runLoaders, withServerAndResults, runsOf: runsUnder } = require('./support/loader');
const { checkSummary } = require('./support/summary-schema');
const { parseWriteConcerns, driverWriteConcern, describeError, journalFacts, dataMembers } = require('../src/kinds/durability');
const { groupTable, WHY_BOTH } = require('../src/results/table');
const { startServer, dependsOn } = require('./support/server');
const { BEHAVIOURS } = require('./support/server-lines');
const { kind, flagsOf } = require('../src/kinds');
// takes(name): the flags a kind's message lists, from its declaration (no list to keep here).
const takes = (name) => flagsOf(kind(name)).join(', ');

const CASES = ['w:0', 'w:1', 'w:1+j', 'w:2', 'w:2+j', 'majority', 'majority+j', 'w:3'];

let server;
let results;
withServerAndResults(test, (s, r) => { server = s; results = r; });

const runsOf = (engine) => runsUnder(results, 'writeconcern', engine);

const NOT_ON_A_STANDALONE = ['w:2', 'w:2+j', 'majority', 'majority+j', 'w:3'];

// The test server is a standalone whose w:0 answer depends on timing (server-lines.js DEVIATIONS):
// the shim lines below hold the same cases to MongoDB's documented behaviour.
test('every write concern of seeds/000 (and w:3) is a case; on a standalone w > 1 and majority are not applicable and not run; counts add up; w:0 is counted and, refused by this server, recorded', { skip: dependsOn('standalone-only-hello', 'unacknowledged-write-connection') }, async () => {
  const r = await runLoader(['writeconcern', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0',
    '--engine', 'wc', '--ops', '60', '--repeat', '2', '--progress-interval', '1s']);
  assert.equal(r.code, 0, r.stderr);
  const runs = runsOf('wc');
  assert.equal(runs.length, 2, 'one folder per repetition');
  for (const s of runs) {
    assert.equal(s.complete, true);
    checkSummary({ ...s, steps: s.cases }); // cases have the steps' entry shape
    assert.equal(s.steps, undefined, 'a matrix of cases writes cases, not steps');
    assert.deepEqual(s.cases.map((c) => c.name), CASES);
    assert.deepEqual(s.cases.map((c) => c.parameters.write_concern), parseWriteConcerns('x', CASES.join(',')).map((c) => c.write_concern));
    assert.deepEqual(s.parameters.params.cases.map((c) => c.name), CASES);
    assert.equal(s.parameters.params.wtimeout_ms, 5000, 'the file\'s bounded wtimeout');
    assert.equal(s.topology.kind, 'standalone');
    for (const c of s.cases.filter((x) => NOT_ON_A_STANDALONE.includes(x.name))) {
      // Not run: no operation, no documents, the reason with the manual page and the server source.
      assert.deepEqual(c.ops, {}, `${c.name}: not run`);
      assert.equal(c.documents, undefined);
      assert.match(c.not_applicable, c.parameters.write_concern.w === 'majority'
        ? /^majority on a standalone: .*write_concern\.cpp validateWriteConcern; manual "Write Concern", MongoDB 8\.0/
        : /^w:\d on a standalone: .*refuses w > 1 .*write_concern\.cpp validateWriteConcern; manual "Write Concern", MongoDB 8\.0/);
      assert.equal(c.unsupported, undefined);
    }
    for (const c of s.cases.filter((x) => ['w:1', 'w:1+j'].includes(x.name))) {
      assert.equal(c.not_applicable, undefined);
      assert.deepEqual(c.data_bearing, { kind: 'standalone', members: 1, exact: true, source: 'hello: not a replica set member' });
      assert.equal(c.parameters.wtimeout_ms, 5000);
      assert.equal(c.ops.insert.count, 60, `${c.name}: every insert acknowledged`);
      assert.equal(c.ops.insert.errors, 0);
      assert.deepEqual(c.documents, { sent: 60, arrived: 60, count_waited_ms: c.documents.count_waited_ms }, `${c.name}: sent = arrived`);
      assert.ok(c.ops.insert.ops_per_s > 0 && c.ops.insert.latency_us.p999 >= c.ops.insert.latency_us.p50);
      assert.equal(c.unsupported, undefined);
      assert.equal(c.latency_meaning, undefined);
    }
    const w0 = s.cases[0];
    assert.deepEqual(w0.parameters, { write_concern: { w: 0, j: false }, ops: 60, wtimeout_ms: null });
    assert.match(w0.latency_meaning, /hand it to the socket, not a server acknowledgement/);
    // What this server does with an unacknowledged write: closes the connection; nothing arrives.
    assert.match(w0.unsupported, /^the server closed the connection after an unacknowledged write \(.*(EPIPE|ECONNRESET|closed)/);
    assert.ok(w0.documents.sent >= 1, 'at least the first write was handed to the socket');
    assert.equal(w0.documents.arrived, 0);
    assert.equal(w0.documents.lost, w0.documents.sent);
    assert.ok(w0.ops.insert.errors >= 1, 'the write that found the connection closed is an error');
    // No storage engine reported, label not in the engines table: journal not known, and said so.
    assert.equal(w0.journal, null);
    assert.match(w0.journal_source, /not reported/);
  }
  // The collection holds exactly what arrived, case by case (ids case * 10^9 + i).
  const c = new MongoClient(server.uri);
  try {
    const col = c.db('lab').collection('seed000');
    assert.equal(await col.countDocuments({}), 2 * 60, 'w:1 and w:1+j only');
    assert.equal(await col.countDocuments({ _id: { $gte: 3e9 } }), 0, 'nothing of w:2 and after: not run');
    assert.deepEqual(Object.keys(await col.findOne({ _id: 1e9 })), ['_id', 'host', 'metric', 'value', 'tags'], 'the static document of the file');
  } finally {
    await c.close();
  }
  // Printed: the unsupported line per run, then the group table with fastest/median/slowest.
  assert.equal((r.stdout.match(/^unsupported: 1 w:0: the server closed the connection/gm) || []).length, 2);
  assert.match(r.stdout, /^writeconcern on wc: 2 repetitions \(group writeconcern-\d{8}T\d{6}Z-[0-9a-f]{6}\), per step and op/m);
  assert.match(r.stdout, /^step +op +runs +fastest ops\/s +median ops\/s +slowest ops\/s$/m);
  // 2/2, or 1/2 with the other repetition left out for load on the loader's host (a busy host: the
  // guard that leaves such a step out, not this test's subject), said on its line.
  const w1j = r.stdout.match(/^w:1\+j +insert +([12])\/2 +[\d.]+ +[\d.]+ +[\d.]+$/m);
  assert.ok(w1j, r.stdout);
  if (w1j[1] === '1') assert.match(r.stdout, /^left out: w:1\+j: repetition \d: other load on the loader's host/m);
  assert.match(r.stdout, /^majority\+j +- +0\/2/m);
  assert.equal((r.stdout.match(/^not applicable: \d w:3: w:3 on a standalone/gm) || []).length, 2, 'said once per run');
  assert.match(r.stdout, /^not applicable: w:3: w:3 on a standalone/m);
  assert.match(r.stderr, /w:2: not applicable here, not run: w:2 on a standalone/);
  assert.ok(r.stdout.replace(/\n {2}/g, " ").includes(WHY_BOTH));
  // wrapped within 120 columns (continuation lines indented by two spaces): joined again here
  assert.match(r.stdout.replace(/\n {2}/g, ' '), /^fastest: .*The seed: seeds\/000 ran each case 3 times and kept fastest \(Python timeit\)$/m);
  assert.match(r.stderr, /w:0: unsupported here: the server closed the connection/);
});

test('--write-concerns picks cases; --engine of a table engine records its journal column on every case', async () => {
  const r = await runLoader(['writeconcern', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0',
    '--engine', 'inmemory', '--ops', '5', '--repeat', '1', '--write-concerns', 'w:1,w:1+j', '--wtimeout', '2s', '--clients', '2']);
  assert.equal(r.code, 0, r.stderr);
  const [s] = runsOf('inmemory');
  assert.deepEqual(s.cases.map((c) => [c.name, c.clients, c.parameters.wtimeout_ms]), [['w:1', 2, 2000], ['w:1+j', 2, 2000]], 'one client count: the case keeps its name');
  const [w1, w1j] = s.cases;
  assert.equal(w1.ops.insert.count, 5, '--ops is per case, shared by its clients');
  assert.equal(w1.documents.arrived, 5);
  // The table says inmemory has no journal: j:true is not applicable there, and not run.
  assert.deepEqual(w1j.ops, {});
  assert.match(w1j.not_applicable, /^j:true asks for the on-disk journal and this engine keeps none/);
  for (const c of s.cases) {
    assert.equal(c.journal, false, 'compose/engines.tsv: inmemory has no journal');
    assert.match(c.journal_source, /engines\.tsv journal column of inmemory/);
  }
  assert.match(r.stdout, /^journal: NO/m);
});

test('bad input: exit 2, one line, nothing connects', async () => {
  const cases = [
    [['--write-concerns', 'w:1,fast'], /^error: --write-concerns: 'fast' is not a write concern \(w:N or majority, \+j for j:true/],
    [['--write-concerns', 'w:0+j'], /^error: --write-concerns: 'w:0\+j' is not a write concern \(an unacknowledged write cannot wait for the journal\)$/],
    [['--write-concerns', 'w:1,w:1'], /^error: --write-concerns: w:1 given twice$/],
    [['--ops', '0'], /^error: --ops: 0 is out of range 1\.\.100000000$/],
    [['--wtimeout', '5'], /^error: --wtimeout/],
    [['--wtimeout', '30s'], /^error: --wtimeout: 30s is over 10s \(a write waiting that long would trip the loader's --stall-timeout\)$/],
    [['--docs', '5'], new RegExp(`^error: --docs does not apply to writeconcern \\(its writeconcern workload takes ${takes('writeconcern')}\\)$`)],
  ];
  // an unreachable URI: a check that connected would fail differently (and slowly)
  const [ok, ...got] = await runLoaders([
    ['check', 'writeconcern', '--uri', 'mongodb://127.0.0.1:1/', '--write-concerns', 'w:0,w:5+j,majority'],
    ...cases.map(([args]) => ['check', 'writeconcern', '--uri', 'mongodb://127.0.0.1:1/', ...args])]);
  for (const [i, [args, re]] of cases.entries()) {
    const r = got[i];
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr.trimEnd(), re);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  }
  assert.equal(ok.code, 0, ok.stderr);
});

test('write concerns: names to driver options; wtimeout bounds every acknowledged case', () => {
  assert.deepEqual(parseWriteConcerns('f', 'w:0,w:1+j,majority,majority+j').map((c) => c.write_concern),
    [{ w: 0, j: false }, { w: 1, j: true }, { w: 'majority', j: false }, { w: 'majority', j: true }]);
  assert.deepEqual(driverWriteConcern({ w: 0, j: false }, 5000), { w: 0 });
  assert.deepEqual(driverWriteConcern({ w: 'majority', j: true }, 5000), { w: 'majority', j: true, wtimeoutMS: 5000 });
  assert.deepEqual(driverWriteConcern({ w: 1, j: false }, null), { w: 1, j: false }, 'no wtimeout: none sent (not wtimeout: null)');
});

test('describeError: the server\'s code and name, and whether wtimeout ran out', () => {
  // The driver's own error class for a command error (w:2 on a real standalone answers BadValue).
  const bad = new MongoServerError({ ok: 0, code: 2, codeName: 'BadValue', errmsg: "cannot use 'w' > 1 when a host is not replicated" });
  assert.deepEqual(describeError(bad), { text: "MongoServerError BadValue (2): cannot use 'w' > 1 when a host is not replicated", timedOut: false, code: 2 });
  const wce = { name: 'MongoWriteConcernError', message: 'waiting for replication timed out', writeConcernError: { code: 64, codeName: 'WriteConcernFailed', errmsg: 'waiting for replication timed out', errInfo: { wtimeout: true } } };
  assert.equal(describeError(wce).timedOut, true);
  assert.match(describeError(wce).text, /WriteConcernFailed \(64\)/);
});

test('journalFacts: the engines table first, then the server\'s own report, else not known', () => {
  assert.deepEqual(journalFacts({ row: { engine: 'inmemory', journal: false } }), { journal: false, journal_source: 'compose/engines.tsv journal column of inmemory' });
  assert.equal(journalFacts({ storageEngine: { name: 'inMemory', persistent: false } }).journal, false);
  assert.equal(journalFacts({ storageEngine: { name: 'wiredTiger', persistent: true } }).journal, true);
  assert.equal(journalFacts({ storageEngine: { name: 'mmapv1', persistent: true }, cmdLine: { parsed: { storage: { journal: { enabled: false } } } } }).journal, false);
  assert.equal(journalFacts({}).journal, null);
});

test('dataMembers: a replica set\'s members, the shards\' members behind mongos, else the server itself', () => {
  assert.deepEqual(dataMembers({ topology: { kind: 'replica_set_member', hosts: ['a:1', 'b:1'] } }, ['a:1']), ['a:1', 'b:1']);
  assert.deepEqual(dataMembers({ topology: { kind: 'mongos', shards: [{ host: 'shard01/s-a:27017,s-b:27017' }] } }, ['mongos:27017']), ['s-a:27017', 's-b:27017']);
  assert.deepEqual(dataMembers({ topology: { kind: 'standalone' } }, ['h:1']), ['h:1']);
});

test('groupTable: fastest, median and slowest over repetitions; a case measured in none says 0/N', () => {
  const c = (name, ops, extra = {}) => ({ name, index: 1,
    ops: ops === null ? {} : { insert: { count: 10, ops_per_s: ops } }, ...extra });
  const out = groupTable({ name: 'x', engine: 'e', group: 'g', runs: [[c('w:1', 100), c('w:3', null, { unsupported: 'timed out' })], [c('w:1', 300)], [c('w:1', 120)]] });
  assert.match(out, /^w:1 +insert +3\/3 +300 +120 +100$/m);
  assert.match(out, /^w:3 +- +0\/3/m);
  assert.match(out, /^unsupported: w:3: timed out$/m);
  const even = groupTable({ name: 'x', engine: 'e', group: 'g', runs: [[c('w:1', 100)], [c('w:1', 200)]] });
  assert.match(even, /^w:1 +insert +2\/2 +200 +150 +100$/m, 'median of two: their mean');
});

test('a case whose first insert the server rejects ends at once as unsupported; the run goes on and is complete', async () => {
  // The server really refuses case 2's first insert: its _id (1 * 10^9) is already there (E11000),
  // in a copy of the file that keeps the collection (setup.drop false). A write concern error (w:3
  // past its wtimeout on a degraded set, j:true without a journal) takes the same path.
  const os = require('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-wc-exp-'));
  const text = fs.readFileSync(path.join(__dirname, '..', '..', 'experiments', 'writeconcern.yaml'), 'utf8');
  fs.writeFileSync(path.join(dir, 'writeconcern.yaml'), text.replace('  drop: true ', '  drop: false'));
  const c = new MongoClient(server.uri);
  try {
    const col = c.db('lab').collection('seed000');
    await col.deleteMany({});
    await col.insertOne({ _id: 1e9, taken: true });
    const r = await runLoader(['writeconcern', '--experiments-dir', dir, '--uri', server.uri, '--results-dir', results, '--metrics-port', '0',
      '--engine', 'rejects', '--ops', '10', '--repeat', '1', '--write-concerns', 'w:1,w:1+j,w:0']);
    assert.equal(r.code, 0, r.stderr);
    const [s] = runsOf('rejects');
    assert.equal(s.complete, true);
    assert.equal(s.parameters.setup.drop, false);
    const [first, second, third] = s.cases;
    assert.equal(first.unsupported, undefined);
    assert.equal(first.ops.insert.count, 10);
    assert.match(second.unsupported, /^MongoServerError .*\(11000\): .*duplicate key/);
    assert.equal(second.timed_out, undefined, 'not a wtimeout');
    assert.deepEqual([second.ops.insert.count, second.ops.insert.errors], [0, 1], 'one rejected insert, then the case ended');
    assert.deepEqual(second.documents, { sent: 0, arrived: 1, count_waited_ms: second.documents.count_waited_ms }, 'what is there is the document that was there');
    assert.ok(third.ops.insert.count + third.ops.insert.errors >= 1, 'the next case runs');
    assert.match(r.stdout, /^unsupported: 2 w:1\+j: MongoServerError/m);
  } finally {
    await c.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a case of a few fast ops: its rate is over a duration that holds its ops (no op before the step starts)', async () => {
  // One client, sequential inserts: the case's duration is at least the sum of their latencies.
  // (+1 ms below: duration_s is rounded to the millisecond.)
  // Before the fix, the clients began as soon as the step message arrived, up to 20 ms before
  // the step's start, and 5 inserts of ~1 ms measured a duration near 0 (rates of 10^5 or null).
  const r = await runLoader(['writeconcern', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0',
    '--engine', 'wc-short', '--ops', '5', '--write-concerns', 'w:1,w:1+j', '--repeat', '1']);
  assert.equal(r.code, 0, r.stderr);
  const [s] = runsOf('wc-short');
  assert.equal(s.cases.length, 2);
  for (const c of s.cases) {
    const o = c.ops.insert;
    assert.equal(o.count, 5, c.name);
    const busyS = (o.count * o.latency_us.mean) / 1e6;
    assert.ok(c.duration_s + 0.001 >= busyS, `${c.name}: duration ${c.duration_s} s shorter than its 5 sequential inserts (${busyS} s)`);
    assert.ok(o.ops_per_s > 0 && o.ops_per_s <= o.count / busyS, `${c.name}: ${o.ops_per_s} ops/s from 5 ops of ${o.latency_us.mean} us`);
  }
});

// Against the shim's server lines: each case MongoDB would refuse or could never satisfy there (the
// table's behaviour says so for that command on that line) is recorded as not applicable and is
// never sent; the rest run.
async function onLine(lineName, engine, cases) {
  const s = await startServer({ line: lineName });
  try {
    const r = await runLoader(['writeconcern', '--uri', s.uri, '--results-dir', results, '--metrics-port', '0',
      '--engine', engine, '--ops', '5', '--repeat', '1', '--write-concerns', cases, '--wtimeout', '2s']);
    assert.equal(r.code, 0, r.stderr);
    const [summary] = runsOf(engine);
    return { r, summary, shim: s.shim };
  } finally {
    await s.stop();
  }
}
const insertWith = (writeConcern) => ({ name: 'insert', body: { insert: 'seed000', documents: [{}], writeConcern }, moreToCome: false });

test('a replica set of 3 (mongod-8.0-wiredtiger-replset): w:2, w:3 and majority run; w:4 is not applicable, counted by replSetGetConfig, never sent', async () => {
  const { summary, shim } = await onLine('mongod-8.0-wiredtiger-replset', 'rs3', 'w:1,w:2,w:3,majority,w:4');
  const by = Object.fromEntries(summary.cases.map((c) => [c.name, c]));
  assert.equal(summary.topology.kind, 'replica_set_member');
  for (const n of ['w:1', 'w:2', 'w:3', 'majority']) {
    assert.equal(by[n].ops.insert.count, 5, n);
    assert.equal(by[n].not_applicable, undefined, n);
    assert.deepEqual(by[n].data_bearing, { kind: 'replica_set_member', members: 3, arbiters: 0, exact: true, source: 'replSetGetConfig: members that are not arbiters' });
  }
  // MongoDB answers w:4 on this line with a writeConcernError (the table's behaviour) ...
  assert.ok(BEHAVIOURS['w-above-members-unsatisfiable'].when(insertWith({ w: 4 }), shim.line));
  // ... and the loader never asked: not run, with the manual page and the server source.
  assert.deepEqual(by['w:4'].ops, {});
  assert.match(by['w:4'].not_applicable, /^w:4 is more than the 3 data-bearing member\(s\) the replica set has \(replSetGetConfig: members that are not arbiters\); manual "Write Concern for Replica Sets", MongoDB 8\.0: .*checkIfWriteConcernCanBeSatisfied/);
  assert.equal(shim.stats.writeConcernErrors['w-above-members-unsatisfiable'], undefined, 'no w:4 write reached the server');
});

test('a standalone mongod 8.0 (mongod-8.0-standalone): w > 1 and majority not applicable, never sent; w:1 runs', async () => {
  const { summary, shim } = await onLine('mongod-8.0-standalone', 'sa8', 'w:1,w:2,majority');
  const [w1, w2, maj] = summary.cases;
  assert.equal(w1.ops.insert.count, 5);
  assert.ok(BEHAVIOURS['w-above-1-refused-standalone'].when(insertWith({ w: 2 }), shim.line), 'MongoDB refuses w:2 here');
  assert.deepEqual(w2.ops, {});
  assert.match(w2.not_applicable, /^w:2 on a standalone/);
  assert.equal(shim.stats.refused['w-above-1-refused-standalone'], undefined, 'no w:2 write reached the server');
  assert.deepEqual(maj.ops, {});
  assert.match(maj.not_applicable, /^majority on a standalone: MongoDB accepts it/);
});

test('an engine without a journal (psmdb-8.0-inmemory-replset): every j:true case not applicable, never sent; j:false runs', async () => {
  const { summary, shim, r } = await onLine('psmdb-8.0-inmemory-replset', 'inmem8', 'w:1,w:1+j,w:2,majority+j');
  const by = Object.fromEntries(summary.cases.map((c) => [c.name, c]));
  assert.equal(by['w:1'].ops.insert.count, 5);
  assert.equal(by['w:2'].ops.insert.count, 5);
  assert.ok(BEHAVIOURS['j-refused-without-journal'].when(insertWith({ w: 1, j: true }), shim.line), 'MongoDB refuses j:true here');
  for (const n of ['w:1+j', 'majority+j']) {
    assert.deepEqual(by[n].ops, {}, n);
    assert.equal(by[n].journal, false);
    assert.match(by[n].not_applicable, /^j:true asks for the on-disk journal and this engine keeps none; MongoDB refuses it \(BadValue, src\/mongo\/db\/write_concern\.cpp validateWriteConcern; manual "Write Concern", MongoDB 8\.0, j option\)$/);
  }
  assert.equal(shim.stats.refused['j-refused-without-journal'], undefined, 'no j:true write reached the server');
  assert.match(r.stdout, /^journal: NO/m);
});

test('the group table\'s footnote names the seed each experiment reproduces and its rule, never another\'s', () => {
  const { load } = require('../src/experiment/config');
  const { parse } = require('../src/cli/args');
  const { footnote } = require('../src/results/table');
  const want = {
    writeconcern: 'seeds/000 ran each case 3 times and kept fastest (Python timeit)',
    journal: /^seeds\/001 ran each case 2 or 3 times and kept one run's figures/,
    gridfs: /^seeds\/003 ran each case 5 times and kept the average/,
    experiment2: 'seeds/004 states no rule for its repetitions',
    'ycsb-a': 'seeds/002 states no rule for its repetitions',
  };
  for (const [name, rule] of Object.entries(want)) {
    const { published } = load(parse([name])).config;
    const line = footnote(published);
    const seedPart = line.slice(line.indexOf('The seed: ') + 10);
    if (typeof rule === 'string') assert.equal(seedPart, rule, name);
    else assert.match(seedPart, rule, name);
    const own = /seeds\/\d{3}/.exec(published.source)[0];
    assert.deepEqual([...new Set(line.match(/seeds\/\d{3}/g))], [own], `${name}: only its own seed`);
  }
  assert.match(footnote(null), /The seed: the experiment file names no seed to compare with$/);
});

test('notApplicable: a member count that is only a lower bound (hello) or a shard list never skips a case; j without a journal always does', () => {
  const { notApplicable } = require('../src/kinds/durability/wc-topology');
  const lower = { kind: 'replica_set_member', members: 2, exact: false, source: 'hello hosts + passives (...)' };
  assert.equal(notApplicable({ w: 3, j: false }, lower, true), null, 'hidden members may make w:3 satisfiable: run it');
  const exact = { ...lower, exact: true, source: 'replSetGetConfig' };
  assert.match(notApplicable({ w: 3, j: false }, exact, true), /^w:3 is more than the 2 data-bearing member\(s\) the replica set has/);
  assert.equal(notApplicable({ w: 'majority', j: true }, exact, true), null);
  assert.equal(notApplicable({ w: 2, j: false }, { kind: 'mongos', members: 3, exact: false, source: 'listShards' }, null), null);
  assert.match(notApplicable({ w: 'majority', j: true }, exact, false), /^j:true asks for the on-disk journal/);
  assert.equal(notApplicable({ w: 1, j: true }, { kind: 'standalone', members: 1, exact: true }, null), null, 'journal not known: run it');
  assert.equal(notApplicable({ w: 0, j: false }, { kind: 'standalone', members: 1, exact: true }, true), null);
});

// only w:2 on a standalone printed "undefined: 0/undefined undefined (?%), 0 ops/s,
// ETA ?s" (a progress line after the skipped case) and its 300-character reason four times.
test('--write-concerns w:2 on a standalone: no "undefined" progress line; the reason in full once as the case is skipped, short in the closing lines', async () => {
  const r = await runLoader(['writeconcern', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0',
    '--engine', 'wc-one', '--write-concerns', 'w:2', '--ops', '50', '--repeat', '1', '--progress-interval', '200ms']);
  assert.equal(r.code, 1, `its only case was not run: no step measured\n${r.stderr}`);
  assert.doesNotMatch(r.stderr, /undefined/, r.stderr);
  assert.equal((r.stderr.match(/validateWriteConcern/g) || []).length, 1, `the whole reason once on stderr\n${r.stderr}`);
  assert.match(r.stderr, /^error: no step measured: no case ran \(w:2: w:2 on a standalone\)$/m);
  for (const line of r.stderr.split('\n').filter((l) => /^(stopping|error): /.test(l))) assert.ok(line.length <= 120, `a closing line over 120 columns: ${line}`);
});
