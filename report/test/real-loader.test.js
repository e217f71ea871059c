'use strict';
// A report built from real loader runs: the loader CLI (loader/bin/lab-loader.js) runs
// experiment2 over TCP against mongo-java-server (loader/test/support/server.js) under two engine
// labels, `--repeat RUNS` each (one group per label, repetitions 1..RUNS, each step's histograms
// stored); the report built from those folders finds one group per label with its repetitions,
// latency from the merged stored histograms, and is opened in Chromium.
// LAB_REPORT_RUNS (default 2), LAB_REPORT_DURATION (per step, default 2s) and
// LAB_REPORT_SCREENSHOT (also save the full-page screenshot there) make the README's screenshot.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir } = require('./support/fixtures');
const { openPage } = require('./support/browser');
const { chartsOf } = require('./support/pagecheck');
const { main } = require('../src/cli');

const LOADER_TEST = path.join(__dirname, '..', '..', 'loader', 'test', 'support');
const HINT = "run 'bash test/install-tools.sh' (loader/node_modules and mongo-java-server come from test/install.d/40-loader.sh)";
const RUNS = Number(process.env.LAB_REPORT_RUNS || 2);
const DURATION = process.env.LAB_REPORT_DURATION || '2s';
const ENGINES = ['mjs-label-a', 'mjs-label-b']; // both are mongo-java-server: only the label differs

let server;
let results;
test.before(async () => {
  if (!fs.existsSync(path.join(LOADER_TEST, '..', '..', 'node_modules', 'mongodb'))) throw new Error(`loader/node_modules missing: ${HINT}`);
  server = await require(path.join(LOADER_TEST, 'server.js')).testServer();
  results = tmpDir();
});
test.after(async () => { await server?.stop(); });

test(`report from real loader runs: experiment2, ${ENGINES.length} engine labels x ${RUNS} runs`, { timeout: 600000 }, async (t) => {
  const { runLoader } = require(path.join(LOADER_TEST, 'loader.js'));
  const t0 = Date.now();
  for (const engine of ENGINES) {
    const r = await runLoader(['experiment2', '--uri', server.uri, '--engine', engine, '--results-dir', results, '--metrics-port', '0',
      '--preload-docs', '500', '--clients', '1,2', '--duration', DURATION, '--progress-interval', '1s', '--repeat', String(RUNS)]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((r.stdout.match(/^results: /gm) || []).length, RUNS, 'one results folder per repetition');
  }
  const loaderMs = Date.now() - t0;
  let out = '';
  const t1 = Date.now();
  assert.equal(main(['--results-dir', results, '--wide'], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  const reportMs = Date.now() - t1;
  t.diagnostic(`${ENGINES.length * RUNS} loader runs in ${(loaderMs / 1000).toFixed(1)} s; report in ${(reportMs / 1000).toFixed(2)} s`);
  for (const l of out.trimEnd().split('\n')) t.diagnostic(l);

  const dir = fs.realpathSync(path.join(results, 'report', 'latest'));
  const rep = JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8'));
  assert.equal(rep.experiments.length, 1);
  const ex = rep.experiments[0];
  assert.equal(ex.name, 'experiment2');
  assert.equal(ex.sets.length, 1, `one comparable set: ${JSON.stringify(ex.differences)}`);
  const [set] = ex.sets;
  assert.deepEqual(set.sides, ENGINES);
  assert.deepEqual(set.points, ['clients-1', 'clients-2']);
  assert.equal(set.runs.length, ENGINES.length * RUNS);
  // --repeat: one group per label, repetitions 1..RUNS
  for (const e of ENGINES) {
    const runs = set.runs.filter((r) => r.engine === e);
    assert.equal(new Set(runs.map((r) => r.group)).size, 1, `${e}: one group`);
    assert.ok(runs[0].group, `${e}: group recorded`);
    assert.deepEqual(runs.map((r) => r.repetition).sort(), Array.from({ length: RUNS }, (_, i) => i + 1));
  }
  assert.notEqual(set.runs.find((r) => r.engine === ENGINES[0]).group,
    set.runs.find((r) => r.engine === ENGINES[1]).group);
  for (const a of set.aggregates) {
    assert.deepEqual(Object.keys(a.ops).sort(), ['find', 'update']);
    assert.ok(a.ops.find.ops_per_s_median > 0 && a.ops.find.latency_us.p99 > 0, JSON.stringify(a.ops.find));
    // the loader's stored histograms are read and merged (not the runs' own percentiles)
    for (const op of ['find', 'update']) assert.match(a.ops[op].latency_source, /histograms of \d+ run\(s\) merged/);
  }
  assert.equal(set.verdicts.length, 2, 'one verdict per step for the one pair');
  for (const v of set.verdicts) assert.match(v.sentence, /mjs-label-[ab]/);
  assert.ok(set.published.series.some((p) => p.op === 'update' && p.value === 3910), 'the seed\'s numbers from experiments/experiment2.yaml');
  // what the server itself reports (buildInfo), not the test server's own 7.0.0: MONGODB_URI too
  const { MongoClient } = require(path.join(LOADER_TEST, '..', '..', 'node_modules', 'mongodb'));
  const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 10000 });
  try {
    assert.equal(set.runs[0].description.server_version, (await client.db('admin').command({ buildInfo: 1 })).version);
  } finally {
    await client.close();
  }
  assert.match(out, /== experiment2: mjs-label-a vs mjs-label-b/);

  const { page, errors, close } = await openPage(path.join(dir, 'index.html'), results);
  try {
    const charts = await chartsOf(page);
    assert.equal(charts.filter((c) => c.kind === 'throughput').length, 2);
    assert.equal(charts.filter((c) => c.kind === 'latency').length, 2);
    assert.equal(charts.filter((c) => c.kind === 'timeline-rate').length, ENGINES.length * RUNS);
    for (const c of charts.filter((x) => x.kind === 'throughput' || x.kind === 'latency')) {
      for (const e of ENGINES) assert.ok(c.legend.includes(e), `${c.kind} legend names ${e}`);
      // a side's line joins its points usable for a verdict (excluded runs are marked,
      // not drawn as measurements); on a busy machine a side may have none
      const measured = ENGINES.filter((e) => set.aggregates.some((a) => a.side === e
        && a.verdict_samples.length > 0)).length;
      assert.ok(c.lines >= (c.kind === 'latency' ? ENGINES.length : measured), `${c.kind}: ${c.lines} lines`);
    }
    // caption under the screenshot: it says where the numbers come from
    await page.evaluate((runs) => {
      const p = document.createElement('p');
      p.id = 'screenshot-caption';
      p.textContent = `Real report: ${runs} runs of experiment2 by lab-loader against mongo-java-server (in-memory, one JVM) under two engine labels; the numbers measure the test server, not a MongoDB engine.`;
      document.querySelector('h1').after(p);
    }, ENGINES.length * RUNS);
    const shot = path.join(results, 'real-report.png');
    await page.screenshot({ path: shot, fullPage: true });
    assert.ok(fs.statSync(shot).size > 20000);
    // README picture: the top of the page (charts, verdicts), not every run's timeline
    if (process.env.LAB_REPORT_SCREENSHOT) {
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.screenshot({ path: process.env.LAB_REPORT_SCREENSHOT,
        clip: { x: 0, y: 0, width: 1300, height: Math.min(height, 2300) } });
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
