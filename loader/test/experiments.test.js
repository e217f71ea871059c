'use strict';
// Each experiment end to end at small scale, over real TCP, against a real wire-protocol server
// (mongo-java-server started here, or MONGODB_URI): documents in the server, results files,
// summary.json schema, metrics endpoint, Grafana annotations.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { MongoClient } = require('mongodb');
const { testServer } = require('./support/server');
const { runLoader, startLoader, tmpResults, latestRun, readTimeline } = require('./support/loader');
const { grafanaRecorder } = require('./support/grafana');
const { checkSummary, checkTimelineLine } = require('./support/summary-schema');

let server;
let client;
let results;
test.before(async () => {
  server = await testServer();
  client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 10000 });
  await client.connect();
  results = tmpResults();
});
test.after(async () => {
  await client?.close();
  await server?.stop();
  if (results) fs.rmSync(results, { recursive: true, force: true });
});

const col = () => client.db('lab').collection('seed004');
const common = () => ['--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--engine', 'testengine', '--progress-interval', '1s'];

function checkRunFiles(experiment) {
  const { dir, summary } = latestRun(results, experiment, 'testengine');
  checkSummary(summary);
  assert.ok(fs.existsSync(path.join(dir, `${experiment}.yaml`)), 'a copy of the experiment file');
  assert.equal(fs.readFileSync(path.join(dir, `${experiment}.yaml`), 'utf8'),
    fs.readFileSync(path.join(__dirname, '..', '..', 'experiments', `${experiment}.yaml`), 'utf8'));
  assert.match(path.basename(dir), /^\d{8}T\d{6}Z$/);
  const timeline = readTimeline(dir);
  assert.ok(timeline.length >= 1, 'timeline has lines');
  timeline.forEach(checkTimelineLine);
  return { dir, summary, timeline };
}

test('experiment1: N single inserts by one client into an indexed, emptied collection', async () => {
  await col().insertOne({ x: -1, leftover: true }); // must be dropped by setup
  const r = await runLoader(['experiment1', '--docs', '1500', ...common(), '--image', 'mongod=mongo:8.0@sha256:0123abcd']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(await col().countDocuments(), 1500);
  assert.equal(await col().countDocuments({ leftover: true }), 0);
  const xs = (await col().find({}, { projection: { _id: 0, x: 1 } }).toArray()).map((d) => d.x).sort((a, b) => a - b);
  assert.deepEqual(xs, Array.from({ length: 1500 }, (_, i) => i));
  const doc = await col().findOne({ x: 7 });
  assert.match(doc.y, /^[A-Za-z0-9]{200}$/);
  const idx = await col().indexes();
  assert.ok(idx.some((i) => JSON.stringify(i.key) === '{"x":1}'), 'index {x:1}');
  const { summary } = checkRunFiles('experiment1');
  assert.equal(summary.complete, true);
  assert.equal(summary.engine, 'testengine');
  assert.deepEqual(summary.images, { mongod: 'mongo:8.0@sha256:0123abcd' }, 'the image that ran, as given');
  assert.equal(summary.engine_source, 'flag');
  assert.equal(summary.steps.length, 1);
  assert.equal(summary.steps[0].clients, 1);
  assert.equal(summary.steps[0].ops.insert.count, 1500);
  assert.equal(summary.steps[0].ops.insert.errors, 0);
  assert.equal(summary.parameters.workload.docs, 1500);
  assert.deepEqual(summary.parameters.write_concern, { w: 1 });
  assert.match(r.stdout, /insert\s+1500/);
  assert.match(r.stdout, /results: .*experiment1.testengine.\d{8}T\d{6}Z/);
});

test('experiment1: same seed -> same documents', async () => {
  const first = (await col().find({}, { projection: { _id: 0 } }).sort({ x: 1 }).limit(50).toArray());
  // same parameters again (new results directory: wait for the next UTC second)
  await new Promise((r) => setTimeout(r, 1100));
  const r = await runLoader(['experiment1', '--docs', '50', ...common()]);
  assert.equal(r.code, 0, r.stderr);
  const second = await col().find({}, { projection: { _id: 0 } }).sort({ x: 1 }).toArray();
  assert.deepEqual(second, first);
});

test('experiment2: preload, then find+update per client, counted separately, client sweep', async () => {
  const r = await runLoader(['experiment2', '--preload-docs', '1000', '--clients', '1,2', '--duration', '2s', ...common()]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(await col().countDocuments(), 1000, 'updates never insert');
  // Counted here, not by the server: FerretDB (the suite's second real server) implements neither
  // $expr's $gt nor $strLenCP in a query ("The operator $gt is not implemented yet", code 238), and
  // what is checked is the loader's writes, not the server's query language.
  const ys = await col().find({}, { projection: { _id: 0, y: 1 } }).toArray();
  const grown = ys.filter((d) => [...d.y].length > 200).length;
  const { summary, timeline } = checkRunFiles('experiment2');
  assert.equal(summary.complete, true);
  assert.deepEqual(summary.steps.map((s) => s.clients), [1, 2]);
  assert.equal(summary.preload.docs, 1000);
  for (const st of summary.steps) {
    assert.ok(st.ops.find.count > 0, 'reads counted');
    assert.ok(st.ops.update.count > 0, 'updates counted');
    assert.ok(Math.abs(st.ops.find.count - st.ops.update.count) <= st.clients, 'one update per read (every key exists)');
    assert.ok(st.duration_s >= 1.9 && st.duration_s < 4, `step duration ${st.duration_s}`);
  }
  assert.deepEqual([...new Set(timeline.map((l) => l.clients))], [1, 2]);
  // y grows by the digits of the key on each update (y + rand, as in the seed)
  assert.ok(grown > 0, 'updated documents grew');
});

test('experiment3: exact-match reads, client sweep, reads only', async () => {
  const r = await runLoader(['experiment3', '--preload-docs', '1000', '--clients', '1,2', '--duration', '2s', ...common()]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(await col().countDocuments(), 1000);
  const { summary } = checkRunFiles('experiment3');
  assert.equal(summary.complete, true);
  for (const st of summary.steps) {
    assert.deepEqual(Object.keys(st.ops), ['find']);
    assert.ok(st.ops.find.count > 0);
  }
  // The server's description: mongo-java-server reports no storageEngine; we must not invent one.
  if (!server.external) {
    assert.equal(summary.server.storage_engine, null);
    assert.match(summary.server.storage_engine_note, /storageEngine/);
  }
});

test('--rate paces the clients and reports latency from the intended start', async () => {
  const r = await runLoader(['experiment3', '--preload-docs', '500', '--clients', '2', '--duration', '3s', '--rate', '100', ...common()]);
  assert.equal(r.code, 0, r.stderr);
  const { summary } = latestRun(results, 'experiment3', 'testengine');
  const st = summary.steps[0];
  assert.equal(st.target_rate, 100);
  assert.ok(st.ops.find.count >= 250 && st.ops.find.count <= 310, `~300 ops in 3 s at 100/s, got ${st.ops.find.count}`);
  assert.ok(st.ops.find.intended_latency_us.count === st.ops.find.count);
  assert.ok(st.ops.find.intended_latency_us.p50 >= st.ops.find.latency_us.p50 * 0.9);
  assert.match(r.stdout, /find \(intended\)/);
});

test('metrics endpoint serves the contract names while a run is going', async () => {
  // paced here and below: the endpoint and the annotations are the subject, not the load (unpaced,
  // the loader and the server kept both cores busy through each step)
  const l = startLoader(['experiment3', '--preload-docs', '300', '--clients', '2', '--rate', '200', '--duration', '4s', ...common()]);
  const [, port] = await l.waitFor(/metrics: http:\/\/127\.0\.0\.1:(\d+)\/metrics/); // loopback by default
  await l.waitFor(/step 1\/1 \(2 clients\): started/);
  await new Promise((r) => setTimeout(r, 2200));
  const body = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const r = await l.done;
  assert.equal(r.code, 0, r.stderr);
  for (const re of [
    /^lab_loader_ops_total\{experiment="experiment3",op="find",outcome="ok"\} [1-9]\d*$/m,
    /^lab_loader_op_duration_seconds_bucket\{experiment="experiment3",op="find",le="0\.001"\} \d+$/m,
    /^lab_loader_op_duration_seconds_bucket\{experiment="experiment3",op="find",le="\+Inf"\} [1-9]\d*$/m,
    /^lab_loader_op_duration_seconds_count\{experiment="experiment3",op="find"\} [1-9]\d*$/m,
    /^lab_loader_op_duration_seconds_sum\{experiment="experiment3",op="find"\} [\d.e-]+$/m,
    /^# TYPE lab_loader_op_duration_seconds histogram$/m,
    /^lab_loader_latency_seconds\{experiment="experiment3",op="find",quantile="0\.5"\} [\d.e-]+$/m,
    /^lab_loader_latency_seconds\{experiment="experiment3",op="find",quantile="0\.99"\} [\d.e-]+$/m,
    /^lab_loader_latency_seconds\{experiment="experiment3",op="find",quantile="0\.999"\} [\d.e-]+$/m,
    /^lab_loader_active_clients\{experiment="experiment3"\} 2$/m,
    /^lab_loader_phase_info\{experiment="experiment3",phase="clients-2",step="1"\} 1$/m,
    /^lab_loader_phase_info\{experiment="experiment3",phase="preload",step=""\} 0$/m,
    /^process_cpu_seconds_total \d/m,
    /^nodejs_eventloop_lag_seconds \d/m,
  ]) assert.match(body, re);
});

// Prometheus takes what the endpoint holds at each scrape; the loader waits for one scrape after
// its last second before it closes the endpoint, so that Grafana's totals are the run's. A scraper
// here as Prometheus scrapes (every second, each scrape's body kept); without the wait the last
// body missed up to a second of operations.
test('the last scrape holds the run\'s final counts: the loader waits for one scrape after its last second', async () => {
  const l = startLoader(['experiment3', '--preload-docs', '300', '--clients', '2', '--rate', '200', '--duration', '2s', ...common()]);
  const [, port] = await l.waitFor(/metrics: http:\/\/127\.0\.0\.1:(\d+)\/metrics/);
  let last = '';
  let over = false;
  const scraper = (async () => {
    while (!over) {
      try { last = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text(); } catch { /* closed: the run is over */ }
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  const r = await l.done;
  over = true;
  await scraper;
  assert.equal(r.code, 0, r.stderr);
  const { dir } = latestRun(results, 'experiment3', 'testengine');
  const ok = readTimeline(dir).reduce((n, line) => n + (line.ops.find ? line.ops.find.ok : 0), 0);
  const scraped = /^lab_loader_ops_total\{experiment="experiment3",op="find",outcome="ok"\} (\d+)$/m.exec(last);
  assert.ok(scraped, last.slice(0, 300));
  assert.equal(Number(scraped[1]), ok, 'the last scrape\'s find count is the timeline\'s');
});

test('Grafana annotations at each phase, with basic auth; a dead Grafana is reported once, never fatal', async () => {
  const g = await grafanaRecorder();
  const pwFile = path.join(results, 'grafana-pw');
  fs.writeFileSync(pwFile, 's3cret\n');
  try {
    const r = await runLoader(['experiment3', '--preload-docs', '200', '--clients', '1,2', '--rate', '200', '--duration', '1s', ...common(),
      '--grafana-url', g.url, '--grafana-password-file', pwFile]);
    assert.equal(r.code, 0, r.stderr);
  } finally {
    await g.close();
  }
  const { posts } = g;
  assert.ok(posts.every((p) => p.url === '/api/annotations'));
  assert.ok(posts.every((p) => p.auth === `Basic ${Buffer.from('admin:s3cret').toString('base64')}`));
  const phases = posts.map((p) => p.body.tags);
  for (const ph of ['setup', 'preload', 'clients-1', 'clients-2', 'end']) {
    assert.ok(phases.some((t) => JSON.stringify(t) === JSON.stringify(['lab', 'experiment3', ph])), `annotation for ${ph}`);
  }
  // nothing listens on port 9 of 127.0.0.1 (discard, not served here)
  const r2 = await runLoader(['experiment1', '--docs', '20', ...common(), '--grafana-url', 'http://127.0.0.1:9', '--grafana-password-file', pwFile]);
  assert.equal(r2.code, 0, r2.stderr);
  assert.equal((r2.stderr.match(/Grafana annotation failed/g) || []).length, 1);
});
