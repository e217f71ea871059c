'use strict';
// experiments/journal.yaml (seeds/001) through the real loader CLI and the real driver against
// mongo-java-server over TCP: the bulk import runs once per durability case into a fresh
// collection, docs/s and MB/s add up to the documents' BSON bytes, j:true is compared with
// j:false, and what this server cannot do is a line: mongo-java-server has no getParameter /
// setParameter (CommandNotFound, 59), so the journalCommitInterval cases are recorded as
// unsupported with its answer; an engine without a journal (the table's inmemory) does not run
// them at all and says why.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { MongoClient, MongoServerError, BSON } = require('mongodb');
const { startLoader, runLoader, runLoaders, withServerAndResults, runsOf: runsUnder } = require('./support/loader');
const { grafanaRecorder } = require('./support/grafana');
const { checkSummary } = require('./support/summary-schema');
const { refusal } = require('../src/kinds/durability/member-params');
const { startServer, dependsOn } = require('./support/server');
const { kind, flagsOf } = require('../src/kinds');
// takes(name): the flags a kind's message lists, from its declaration (no list to keep here).
const takes = (name) => flagsOf(kind(name)).join(', ');

const CASES = ['j:false', 'j:true', 'j:false interval=1ms', 'j:false interval=500ms'];
const DOC_BYTES = BSON.calculateObjectSize({ _id: 2999, val: 'abcde' }); // 29

let server;
let results;
withServerAndResults(test, (s, r) => { server = s; results = r; });

const runsOf = (engine) => runsUnder(results, 'journal', engine);
const run = (engine, extra = []) => runLoader(['journal', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0',
  '--engine', engine, '--docs', '3000', '--batch', '500', '--commit-intervals', '1,500', '--progress-interval', '1s', ...extra]);

test('each durability case imports the same documents into a fresh collection; docs/s, MB/s; no cost where the journal is not known; interval cases refused by this server are lines, reported once', { skip: dependsOn('journal-commit-interval-unknown', 'no-storage-engine') }, async () => {
  const r = await run('jr', ['--repeat', '2']);
  assert.equal(r.code, 0, r.stderr);
  const runs = runsOf('jr');
  assert.equal(runs.length, 2);
  for (const s of runs) {
    assert.equal(s.complete, true);
    checkSummary({ ...s, steps: s.cases });
    assert.deepEqual(s.cases.map((c) => c.name), CASES);
    assert.deepEqual(s.cases.map((c) => [c.parameters.write_concern, c.parameters.journal_commit_interval_ms]),
      [[{ w: 1, j: false }, null], [{ w: 1, j: true }, null], [{ w: 1, j: false }, 1], [{ w: 1, j: false }, 500]]);
    assert.equal(s.parameters.params.doc_bytes, DOC_BYTES);
    for (const c of s.cases.slice(0, 2)) {
      const o = c.ops.insert;
      assert.equal(o.count, 6, `${c.name}: 3000 documents in batches of 500`);
      assert.equal(o.docs, 3000);
      assert.equal(o.bytes, 3000 * DOC_BYTES, 'MB/s counts the documents\' BSON bytes');
      assert.ok(o.docs_per_s > 0 && o.mb_per_s > 0);
      // measured_s is rounded to the ms: within 2 %
      assert.ok(Math.abs(o.docs_per_s / (3000 / c.measured_s) - 1) < 0.02, 'docs/s over the case\'s measured time');
      assert.ok(Math.abs(o.mb_per_s / ((3000 * DOC_BYTES) / 1e6 / c.measured_s) - 1) < 0.02, 'MB = 10^6 bytes');
      assert.deepEqual(c.documents, { sent: 3000, arrived: 3000 }, 'a fresh collection per case: its count is the case\'s');
      assert.equal(c.unsupported, undefined);
    }
    // This server reports no storage engine and 'jr' is no engine of the table: the journal is not
    // known, so j:true is shown as measured, with no cost against j:false.
    assert.equal(s.cases[1].journal, null);
    assert.equal(s.cases[1].relative_to_baseline, undefined);
    assert.equal(s.cases[1].cost_not_computed, 'journal not known: no cost against j:false');
    for (const c of s.cases.slice(2)) {
      assert.match(c.unsupported, /^127\.0\.0\.1:\d+: getParameter journalCommitInterval failed: CommandNotFound \(59\): no such command: 'getParameter'$/);
      assert.deepEqual(c.ops, {}, 'not run');
      assert.equal(c.documents, undefined);
    }
  }
  // Same seed: every case wrote the same documents (the last case's data is what is left).
  const c = new MongoClient(server.uri);
  try {
    const col = c.db('lab').collection('seed001');
    assert.equal(await col.countDocuments({}), 3000);
    const d = await col.findOne({ _id: 2999 });
    assert.deepEqual(Object.keys(d), ['_id', 'val']);
    assert.match(d.val, /^[A-Za-z0-9]{5}$/);
  } finally {
    await c.close();
  }
  assert.match(r.stdout, /^step +clients +op +ops +ops\/s +docs\/s +MB\/s +p50 ms/m);
  assert.match(r.stdout, /^3 j:false interval=1ms +1 +- +0 +-/m, 'a case that did not run keeps its row');
  assert.doesNotMatch(r.stdout, /^cost:/m, 'no cost for a journal not known');
  assert.match(r.stdout, /^journal: not known/m);
  assert.match(r.stdout, /^measured: 2 j:true: journal not known: no cost against j:false$/m);
  assert.match(r.stdout, /^measured: j:true: journal not known: no cost against j:false$/m, 'group table');
  // fastest/median/slowest ops/s; docs/s and MB/s as medians (every number with --wide)
  // A repetition that other load on this host made the loader late for is left out of the group
  // (common/step-exclusion.js, as the report leaves it out), and the step's one left-out line (its
  // repetitions joined by "; ", wrapped) names each: the row counts the rest, and with none left
  // it has no op and no figure (src/results/table.js groupTable).
  const unwrapped = r.stdout.replace(/\n {2}/g, ' ');
  const leftLine = /^left out: j:true: (.*)$/m.exec(unwrapped)?.[1] ?? '';
  const leftOut = (leftLine.match(/repetition \d+: /g) || []).length;
  // With every repetition of every case left out no row has docs/s or MB/s, and the table drops
  // those two columns (seen on a busy host): the empty row then has the three ops/s columns only.
  const groupHead = /^step +op +runs +fastest ops\/s.*$/m.exec(r.stdout)?.[0] ?? '';
  const emptyCols = /docs\/s/.test(groupHead) && /MB\/s/.test(groupHead) ? 5 : 3;
  const row = leftOut < 2 ? `insert +${2 - leftOut}/2( +[\\d.]+){5}` : `- +0/2( +-){${emptyCols}}`;
  assert.match(r.stdout, new RegExp(`^j:true +${row}$`, 'm'), 'group table: ops/s fastest/median/slowest, median docs/s and MB/s');
  // A case that is not run says so once, and nothing starts for it.
  for (const name of CASES.slice(2)) {
    const esc = name.replace(/[+]/g, '\\+');
    assert.equal((r.stderr.match(new RegExp(`^${esc}: not run: `, 'gm')) || []).length, 2, `${name}: "not run" once per repetition`);
    assert.doesNotMatch(r.stderr, new RegExp(`^${esc}[^\\n]*: started`, 'm'), `${name}: not run, and never "started"`);
  }
  assert.match(r.stderr, /^j:true: started \(6 batches\)$/m, 'a case that runs starts');
});

test('a server that reports a journal (shim line mongod-8.0-wiredtiger-replset): j:true and the interval cases are costed against j:false', async () => {
  const line = await startServer({ line: 'mongod-8.0-wiredtiger-replset' });
  try {
    const r = await runLoader(['journal', '--uri', line.uri, '--results-dir', results, '--metrics-port', '0',
      '--engine', 'wt-line', '--docs', '2000', '--batch', '500', '--commit-intervals', '1', '--repeat', '1', '--cost-min-time', '1ms']);
    assert.equal(r.code, 0, r.stderr);
    const [s] = runsOf('wt-line');
    const [base, j, iv] = s.cases;
    assert.equal(j.journal, true);
    assert.match(j.journal_source, /^serverStatus storageEngine wiredTiger: persistent true/);
    for (const c of [j, iv]) {
      assert.equal(c.relative_to_baseline.baseline, 'j:false', c.name);
      assert.equal(c.relative_to_baseline.docs_per_s_ratio,
        Math.round((c.ops.insert.docs_per_s / base.ops.insert.docs_per_s) * 1000) / 1000);
      assert.equal(c.cost_not_computed, undefined);
    }
    // A speed-up is printed as such, not as a cost.
    assert.match(r.stdout, /^(cost: 2 j:true: (-[\d.]+|0)% docs\/s against j:false|faster: 2 j:true: \+[\d.]+% docs\/s against j:false \(no cost measured\))$/m);
    assert.match(r.stdout, /^(cost: 3 j:false interval=1ms: (-[\d.]+|0)% docs\/s against j:false|faster: 3 j:false interval=1ms: \+[\d.]+% docs\/s against j:false \(no cost measured\))$/m);
    assert.doesNotMatch(r.stdout, /^measured: /m);
  } finally {
    await line.stop();
  }
});

// 4.0 and 3.6 read journalCommitInterval 0 until it is given and refuse 0 on set (shim behaviour
// journal-commit-interval, cited there): the cases must leave every member at the default's value
// (100 ms), never at the last case's interval, so that repetition 2 measures what repetition 1 did.
test('4.0 and 3.6 lines (journalCommitInterval reads 0, 0 refused): every member put back to the default 100 ms, every repetition', async () => {
  for (const name of ['mongod-4.0-mmapv1-replset', 'psmdb-3.6-rocksdb-replset']) {
    const line = await startServer({ line: name });
    try {
      const engine = `jci-${name}`;
      const r = await runLoader(['journal', '--uri', line.uri, '--results-dir', results, '--metrics-port', '0',
        '--engine', engine, '--docs', '1000', '--batch', '500', '--commit-intervals', '500', '--repeat', '2', '--cost-min-time', '1ms']);
      assert.equal(r.code, 0, r.stderr);
      const runs = runsOf(engine);
      assert.equal(runs.length, 2, name);
      const [first, second] = runs.map((s) => s.cases
        .find((c) => c.parameters.journal_commit_interval_ms === 500)); // oldest first
      for (const iv of [first, second]) assert.equal(iv.journal_commit_interval_restored, true, `${name}: ${iv.journal_commit_interval_restored}`);
      // Repetition 1 found 0 on every member and put back 100; repetition 2 found 100 (not 500).
      assert.deepEqual([...new Set(Object.values(first.journal_commit_interval_ms_before))], [0], name);
      assert.deepEqual(first.journal_commit_interval_default_ms.ms, 100, name);
      assert.deepEqual([...new Set(Object.values(second.journal_commit_interval_ms_before))], [100], `${name}: repetition 2 found the default's value`);
      assert.equal(second.journal_commit_interval_default_ms, undefined, name);
      assert.equal(line.shim.state.journalCommitInterval, 100, `${name}: the member left at the default's value, not at 500`);
      assert.doesNotMatch(r.stdout, /WARNING: .*journalCommitInterval/);
    } finally {
      await line.stop();
    }
  }
});

// A stop that lands between a case's setParameter and its step: step-loop.js ends the run before
// the step, so the case's afterStep never runs; afterRun must put the interval back.
test('SIGTERM between an interval case\'s setParameter and its step: the member is put back to its value, and says so', async () => {
  const line = await startServer({ line: 'mongod-8.0-wiredtiger-replset' });
  try {
    const l = startLoader(['journal', '--uri', line.uri, '--results-dir', results, '--metrics-port', '0',
      '--engine', 'jci-stop', '--docs', '1000', '--batch', '500', '--commit-intervals', '500', '--repeat', '1', '--cost-min-time', '1ms']);
    // the stop is sent as the shim takes the first member's set (the loader still waits for its
    // answer; the three members share the shim's state); once: a second signal forces the exit
    let v = line.shim.state.journalCommitInterval;
    let sent = false;
    Object.defineProperty(line.shim.state, 'journalCommitInterval', { get: () => v,
      set: (x) => { v = x; if (x === 500 && !sent) { sent = true; l.proc.kill('SIGTERM'); } } });
    const r = await l.done;
    assert.equal(r.code, 143, r.stderr);
    assert.doesNotMatch(r.stderr, /forced exit/);
    assert.equal(v, 100, `left at ${v}: ${r.stderr}`);
    assert.match(r.stderr, /^journalCommitInterval put back after the stop$/m);
  } finally {
    await line.stop();
  }
});

test('an engine without a journal (engines table): journal false on every case, interval cases not run and say why', async () => {
  const r = await run('inmemory', ['--repeat', '1', '--commit-intervals', '100']);
  assert.equal(r.code, 0, r.stderr);
  const [s] = runsOf('inmemory');
  for (const c of s.cases) assert.equal(c.journal, false);
  const iv = s.cases.find((c) => c.parameters.journal_commit_interval_ms === 100);
  assert.match(iv.unsupported, /^the engine has no journal \(compose\/engines\.tsv journal column of inmemory\): journalCommitInterval has nothing to flush$/);
  assert.deepEqual(iv.ops, {});
  assert.match(r.stderr, /j:false interval=100ms: not run: the engine has no journal/);
  assert.doesNotMatch(r.stderr, /j:false interval=100ms[^\n]*: started/);
  assert.equal(s.cases[1].relative_to_baseline, undefined, 'no journal: no cost');
  assert.equal(s.cases[1].cost_not_computed, 'no journal: no cost against j:false');
});

test('bad input: exit 2, one line, nothing connects', async () => {
  const cases = [
    [['--batch', '100000', '--val-length', '1000'], /^error: --batch 100000: 100000 documents of up to 1024 bytes are 102400000 bytes, over the 48000000-byte message limit \(maxMessageSizeBytes\)$/],
    [['--batch', '100001'], /^error: --batch: 100001 is out of range 1\.\.100000$/],
    [['--batch', '0'], /^error: --batch: 0 is out of range/],
    [['--docs', '0'], /^error: --docs: 0 is out of range/],
    [['--commit-intervals', '0,100'], /^error: --commit-intervals: 0 is out of range 1\.\.500$/],
    [['--commit-intervals', '1,,5'], /^error: --commit-intervals: '1,,5' is not a list like 1,100,500 \(or none\)$/],
    [['--ops', '5'], new RegExp(`^error: --ops does not apply to journal \\(its bulk_import workload takes ${takes('bulk_import')}\\)$`)],
  ];
  // Right at the limit is fine: 48,000,000 / 1024 = 46875 documents.
  const [ok, ...got] = await runLoaders([['check', 'journal', '--uri', 'mongodb://127.0.0.1:1/', '--batch', '46875',
    '--val-length', '1000', '--commit-intervals', 'none'],
    ...cases.map(([args]) => ['check', 'journal', '--uri', 'mongodb://127.0.0.1:1/', ...args])]);
  for (const [i, [args, re]] of cases.entries()) {
    const r = got[i];
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr.trimEnd(), re);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  }
  assert.equal(ok.code, 0, ok.stderr);
});

test('setParameter without the privilege names the built-in role that grants it', () => {
  const e = new MongoServerError({ ok: 0, code: 13, codeName: 'Unauthorized', errmsg: 'not authorized on admin to execute command { setParameter: 1 }' });
  assert.equal(refusal(e, 'setParameter', 'journalCommitInterval'),
    'setParameter journalCommitInterval is not authorized for this user (Unauthorized, 13): it needs the setParameter action, granted by the built-in role hostManager (or clusterAdmin/root, which include it)');
  const other = new MongoServerError({ ok: 0, code: 59, codeName: 'CommandNotFound', errmsg: "no such command: 'setParameter'" });
  assert.match(refusal(other, 'setParameter', 'journalCommitInterval'), /failed: CommandNotFound \(59\)/);
});

test('each case is a phase: a Grafana annotation (tags lab, journal, <case>) and a Prometheus phase label', async () => {
  const g = await grafanaRecorder();
  const pw = path.join(results, 'grafana-pw');
  fs.writeFileSync(pw, 'pw\n');
  try {
    const r = await run('annot', ['--repeat', '1', '--docs', '1000', '--grafana-url', g.url, '--grafana-password-file', pw]);
    assert.equal(r.code, 0, r.stderr);
  } finally {
    await g.close();
  }
  const posts = g.posts.map((p) => p.body);
  const tags = posts.map((p) => JSON.stringify(p.tags));
  for (const ph of ['setup', ...CASES, 'end']) assert.ok(tags.includes(JSON.stringify(['lab', 'journal', ph])), `annotation for ${ph}: ${tags}`);
  assert.ok(posts.some((p) => /case j:true/.test(p.text)), 'the annotation text names the case');
});

test('cases too short to mean anything: no cost, and the line says how long each measured and the minimum (a 0.2 s case printed a speed-up as "cost: +12.8%")', async () => {
  const line = await startServer({ line: 'mongod-8.0-wiredtiger-replset' });
  try {
    const r = await runLoader(['journal', '--uri', line.uri, '--results-dir', results, '--metrics-port', '0',
      '--engine', 'wt-short', '--docs', '2000', '--batch', '500', '--commit-intervals', 'none', '--repeat', '1']);
    assert.equal(r.code, 0, r.stderr);
    const [s] = runsOf('wt-short');
    const [base, j] = s.cases;
    assert.equal(j.journal, true, 'the premise: a journal is reported, so only the time can hold the cost back');
    assert.ok(base.measured_s < 5 && j.measured_s < 5, `the premise: short cases (${base.measured_s} s, ${j.measured_s} s)`);
    assert.equal(j.relative_to_baseline, undefined);
    assert.equal(j.cost_not_computed, `j:true measured ${j.measured_s} s, j:false measured ${base.measured_s} s: under 5 s (--cost-min-time), too short to tell a cost from noise: no cost against j:false`);
    assert.match(r.stdout, /^measured: 2 j:true: j:true measured [\d.]+ s, j:false measured [\d.]+ s: under 5 s/m);
    assert.doesNotMatch(r.stdout, /^(cost|faster): /m);
  } finally {
    await line.stop();
  }
});
