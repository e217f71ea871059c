'use strict';
// The durability experiments (experiments/writeconcern.yaml, journal.yaml: cases, not steps) in
// the report, from real loader runs over TCP against mongo-java-server under two engine labels,
// --repeat 2 each: every case is a point with its name in report.json, the text table and the
// page; per point and engine the fastest, median and slowest repetition (ops/s, and docs/s and
// MB/s for the import); a case the server could not do is marked unsupported with the loader's
// line, a case the loader did not run on this topology (cases[].not_applicable) is marked NOT
// APPLICABLE with its reason and excluded from verdicts; w:0's sent vs arrived; no j:true cost
// where the loader computed none; an engine without a journal (the table's inmemory) is shown as
// such beside its numbers.
// writeconcern runs against the wire shim's mongod-8.0-standalone line (loader/test/support/
// server-lines.js), which answers as a standalone mongod does: w:0 executed with no reply on the
// same open connection, w > 1 refused with BadValue before the write (behaviour
// w-above-1-refused-standalone, cited there). The bare test server instead may drop the
// connection at a w:0 write, or not, by timing (deviation unacknowledged-write-connection): the
// old assertions on it failed on a busy machine (a.unsupported.runs 1, expected 2). Under
// MONGODB_URI the runs go to that server, whose topology decides the w > 1 cases (not asserted).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir } = require('./support/fixtures');
const { openPage } = require('./support/browser');
const { chartsOf } = require('./support/pagecheck');
const { main } = require('../src/cli');
const { BEHAVIOURS, LINES } = require(path.join(__dirname, '..', '..', 'loader', 'test', 'support', 'server-lines.js'));
const { dependsOn } = require(path.join(__dirname, '..', '..', 'loader', 'test', 'support', 'server.js'));

const LOADER_TEST = path.join(__dirname, '..', '..', 'loader', 'test', 'support');
const HINT = "run 'bash test/install-tools.sh' (loader/node_modules and mongo-java-server come from test/install.d/40-loader.sh)";
const ENGINES = ['inmemory', 'mjs-label'];
const WC_CASES = ['w:0', 'w:1', 'w:1+j', 'w:2', 'w:2+j', 'majority', 'majority+j', 'w:3'];
const J_CASES = ['j:false', 'j:true', 'j:false interval=100ms'];
const WC_LINE = 'mongod-8.0-standalone';
const EXTERNAL = Boolean(process.env.MONGODB_URI);
// The loader does not run a case the topology it reached cannot satisfy (loader/src/kinds/durability/wc-topology.js,
// summary.json cases[].not_applicable): on the standalone line w > 1 and majority (which the one
// server would acknowledge as w:1), and j:true where the engine keeps no journal (the table's
// inmemory). The shim's table says MongoDB would refuse w > 1 there (BEHAVIOURS below).
const W_REFUSED = BEHAVIOURS['w-above-1-refused-standalone'];
const notRunHere = (point, engine) => /^(w:[2-9]|majority)/.test(point) || (engine === 'inmemory' && point.endsWith('+j'));

let server;
let wcServer;
let results;
let rep;
let out = '';
test.before(async () => {
  if (!fs.existsSync(path.join(LOADER_TEST, '..', '..', 'node_modules', 'mongodb'))) throw new Error(`loader/node_modules missing: ${HINT}`);
  const servers = require(path.join(LOADER_TEST, 'server.js'));
  server = await servers.testServer();
  wcServer = EXTERNAL ? server : await servers.startServer({ line: WC_LINE });
  results = tmpDir();
  const { runLoader } = require(path.join(LOADER_TEST, 'loader.js'));
  const common = ['--results-dir', results, '--metrics-port', '0', '--repeat', '2'];
  for (const engine of ENGINES) {
    for (const [uri, args] of [[wcServer.uri, ['writeconcern', '--ops', '30']], [server.uri, ['journal', '--docs', '2000', '--batch', '500', '--commit-intervals', '100']]]) {
      const r = await runLoader([...args, '--uri', uri, ...common, '--engine', engine]);
      assert.equal(r.code, 0, r.stderr);
    }
  }
  assert.equal(main(['--results-dir', results, '--wide'], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  rep = JSON.parse(fs.readFileSync(path.join(fs.realpathSync(path.join(results, 'report', 'latest')), 'report.json'), 'utf8'));
});
test.after(async () => {
  if (wcServer !== server) await wcServer?.stop();
  await server?.stop();
});

const setOf = (name) => {
  const ex = rep.experiments.find((e) => e.name === name);
  assert.ok(ex, `${name} in report.json`);
  assert.equal(ex.sets.length, 1, `${name}: one comparable set: ${JSON.stringify(ex.differences)}`);
  return ex.sets[0];
};

test('writeconcern: cases are points by name; fastest >= median >= slowest; w:0 unacknowledged yet every insert arrived; cases a standalone cannot satisfy not run, excluded with the reason', () => {
  const set = setOf('writeconcern');
  assert.deepEqual(set.points, WC_CASES);
  assert.deepEqual(set.sides, ENGINES);
  for (const a of set.aggregates) {
    assert.equal(a.runs, 2);
    assert.deepEqual(a.parameters.write_concern, { w: a.point.startsWith('majority') ? 'majority' : Number(a.point.slice(2, 3)), j: a.point.endsWith('+j') });
    const r = a.ops_per_s;
    // inmemory: the engines table says no journal; another label: what the server reports (the
    // line's serverStatus storageEngine, a persistent wiredTiger: its journal), unknown under MONGODB_URI
    if (a.side === 'inmemory') assert.equal(a.journal, false);
    else if (!EXTERNAL) assert.equal(a.journal, LINES[WC_LINE].journal, `${a.point} ${a.side}`);
    if (EXTERNAL && notRunHere(a.point, a.side)) continue; // the server's topology decides (see above)
    if (notRunHere(a.point, a.side)) {
      assert.deepEqual(r.samples, [], `${a.point} ${a.side}: not run, no rate: ${JSON.stringify(r)}`);
      assert.equal(a.not_applicable.runs, 2, `${a.point} ${a.side}: ${JSON.stringify(a.not_applicable)}`);
      assert.match(a.not_applicable.why[0], /standalone|keeps none/, a.not_applicable.why[0]);
      assert.deepEqual(a.excluded, { not_applicable: 2 }, 'never in a verdict, counted');
      continue;
    }
    assert.ok(r.fastest >= r.median && r.median >= r.slowest && r.slowest > 0, `${a.point} ${a.side}: ${JSON.stringify(r)}`);
    assert.equal(r.fastest, Math.max(...r.samples));
    assert.equal(a.ops.insert.ops_per_s_fastest, r.fastest);
    assert.equal(a.unsupported, null, `${a.point} ${a.side}: ${JSON.stringify(a.unsupported)}`);
    // every insert arrived, w:0's too (counted after the case: the only evidence for w:0)
    assert.deepEqual(a.documents, { sent: 60, arrived: 60, runs: 2 }, `${a.point} ${a.side}`);
    if (a.point === 'w:0') assert.match(a.latency_meaning, /not a server acknowledgement/);
  }
  assert.match(out, /^point +engine +runs \(usable\/all\) +ops\/s fastest +ops\/s median +ops\/s slowest +insert\/s/m);
  // MongoDB's answer the loader spared the server (the shim's table, with its source)
  assert.match(W_REFUSED.source, /write_concern\.cpp/);
  if (!EXTERNAL) assert.match(out, /^w:2 +inmemory \(no journal\) +(?:2|0\/2) .*NOT APPLICABLE \(not run\) in 2\/2: w:2 on a standalone/m);
  assert.match(out, /^majority\+j +mjs-label +(?:2|\d\/2) /m);
  assert.match(out, /fastest\/median\/slowest over repetitions: fastest: the best repetition, the figure seeds\/000 kept/);
});

// The journal runs go to the bare test server (or MONGODB_URI): its interval cases are unsupported
// and its journal not known only through its deviations; under MONGODB_URI these tests skip, naming them.
test('journal: docs/s and MB/s fastest/median/slowest, the cost against j:false, interval cases unsupported, no journal beside inmemory',
  { skip: dependsOn('journal-commit-interval-unknown', 'no-storage-engine') }, () => {
  const set = setOf('journal');
  assert.deepEqual(set.points, J_CASES);
  for (const a of set.aggregates) {
    if (a.point === 'j:false interval=100ms') {
      assert.deepEqual(a.ops, {});
      assert.equal(a.ops_per_s.median, null);
      assert.match(a.unsupported.why[0], a.side === 'inmemory' ? /^the engine has no journal/ : /getParameter journalCommitInterval failed: CommandNotFound \(59\)/);
      continue;
    }
    const o = a.ops.insert;
    assert.ok(o.docs_per_s_fastest >= o.docs_per_s_median && o.docs_per_s_median >= o.docs_per_s_slowest
      && o.docs_per_s_slowest > 0, JSON.stringify(o));
    assert.ok(o.mb_per_s_median > 0);
    assert.deepEqual(a.documents, { sent: 4000, arrived: 4000, runs: 2 });
    // no cost against j:false here: the loader computes one only where the server reports a
    // journal and both cases measured long enough (loader/README.md); these cases last < 1 s
    assert.equal(a.relative_to_baseline, null, JSON.stringify(a.relative_to_baseline));
  }
  assert.ok(set.published.series.some((p) => p.measure === 'docs_per_s' && p.value === 45249), 'the seed\'s import rate, for the docs/s chart');
  const inm = set.runs.find((r) => r.engine === 'inmemory');
  assert.match(inm.description.journal, /^NO JOURNAL \(compose\/engines\.tsv journal column of inmemory\)$/);
  assert.match(out, /insert docs\/s fastest +insert docs\/s median +insert MB\/s median/);
  assert.match(out.replace(/\n {4}(?=\S)/g, ' '), /^runs: inmemory \(2 runs\): server 7\.0\.0, storage engine not reported.*, journal NO JOURNAL/m);
});

test('the page: case names on the x axis, docs/s and MB/s charts with the seed\'s rate, unsupported rows, the journal column',
  { skip: dependsOn('no-storage-engine') }, async () => {
  const dir = fs.realpathSync(path.join(results, 'report', 'latest'));
  const { page, errors, close } = await openPage(path.join(dir, 'index.html'), results);
  try {
    const charts = await chartsOf(page);
    const wc = await page.$$eval('section[data-experiment="writeconcern"] figure.chart[data-kind="throughput"] g[aria-label="x-axis tick label"] text', (t) => t.map((x) => x.textContent));
    assert.deepEqual(wc, WC_CASES, 'every case by name on the x axis');
    const docs = charts.filter((c) => c.kind === 'throughput-docs');
    assert.equal(docs.length, 1, 'one docs/s chart (journal)');
    assert.ok(docs[0].axisLabels.some((t) => /case/.test(t)) && docs[0].axisLabels.some((t) => /docs\/s/.test(t)), docs[0].axisLabels);
    assert.ok(docs[0].texts.some((t) => t.includes('45,249')), `the seed's import rate as a reference line: ${docs[0].texts}`);
    assert.match(docs[0].caption, /fastest \(triangle\)/);
    assert.equal(charts.filter((c) => c.kind === 'throughput-mb').length, 1);
    const notRun = await page.$$eval('section[data-experiment="writeconcern"] table.numbers tr.not-applicable', (t) => t.map((x) => `${x.children[0].textContent} ${x.children[1].textContent.split(' ')[0]}`));
    if (!EXTERNAL) assert.deepEqual(notRun, WC_CASES.flatMap((c) => ENGINES.filter((e) => notRunHere(c, e)).map((e) => `${c} ${e}`)), 'the cases not run, one row per engine');
    const journals = await page.$$eval('section[data-experiment="journal"] table.runs tbody tr', (rows) => rows.map((r) => r.children[6].textContent));
    assert.ok(journals.some((t) => t.startsWith('NO JOURNAL')) && journals.some((t) => t.startsWith('not known')), journals.join(' / '));
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
