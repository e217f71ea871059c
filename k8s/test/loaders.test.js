'use strict';
// The loaders Job without a cluster: N loader-pod.js processes (what each pod of the Indexed Job
// runs) against one mongo-java-server (the real wire-protocol server, loader/test/support), with
// the start barrier on 127.0.0.1; their stdout is collected as kubectl logs would return it
// (collect.js) into one run folder, and the real report (report/src/cli.js) must read that folder
// as ONE run of N hosts whose percentiles come from the sum of the pods' histograms.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const { spawn } = require('node:child_process');

const REPO = path.join(__dirname, '..', '..');
const HINT = "run 'bash test/install-tools.sh'";
const N = Number(process.env.LAB_K8S_LOADERS || 3);
const barrier = require('../pod/barrier');
const { podExperiment } = require('../pod/loader-pod');
const { collect } = require('../pod/collect');

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

function runPod(index, env, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(REPO, 'k8s', 'pod', 'loader-pod.js'), '--', ...args], {
      env: { ...process.env, ...env, LAB_INDEX: String(index) }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => { stdout += c; });
    child.stderr.on('data', (c) => { stderr += c; });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

test('podExperiment gives each pod its own collection and changes nothing else', () => {
  const text = fs.readFileSync(path.join(REPO, 'experiments', 'experiment2.yaml'), 'utf8');
  const out = podExperiment(text, 2);
  assert.match(out, /^collection: seed004_p2$/m);
  assert.equal(out.replace('seed004_p2', 'seed004'), text);
  assert.throws(() => podExperiment('name: x\n', 0), /no top-level "collection:"/);
});

test('barrier: nobody gets "go" until all N are ready; then all do', async () => {
  const port = await freePort();
  await barrier.serve({ port, n: 3, timeoutMs: 10000 });
  const done = [];
  const waits = [0, 1].map((i) => barrier.wait({ host: '127.0.0.1', port, index: i, timeoutMs: 10000 }).then(() => done.push(i)));
  await new Promise((r) => setTimeout(r, 700));
  assert.deepEqual(done, [], 'two of three ready: nobody may start');
  await barrier.wait({ host: '127.0.0.1', port, index: 2, timeoutMs: 10000 });
  await Promise.all(waits);
  assert.deepEqual(done.sort(), [0, 1]);
});

test('barrier: a missing loader makes the others fail with its index, not start', async () => {
  const port = await freePort();
  await barrier.serve({ port, n: 2, timeoutMs: 800 });
  await assert.rejects(barrier.wait({ host: '127.0.0.1', port, index: 0, timeoutMs: 5000 }), /loaders 1 never became ready/);
});

test(`N=${N} loader pods against mongo-java-server: one run, merged histograms`, { timeout: 300000 }, async (t) => {
  if (!fs.existsSync(path.join(REPO, 'loader', 'node_modules', 'mongodb'))) throw new Error(`loader/node_modules missing: ${HINT}`);
  if (!fs.existsSync(path.join(REPO, 'report', 'node_modules', 'hdr-histogram-js'))) throw new Error(`report/node_modules missing: ${HINT}`);
  const server = await require(path.join(REPO, 'loader', 'test', 'support', 'server.js')).testServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-k8s-loaders-'));
  try {
    const env = {
      LAB_LOADERS: String(N), LAB_BARRIER_HOST: '127.0.0.1', LAB_BARRIER_PORT: String(await freePort()),
      LAB_BARRIER_TIMEOUT_S: '60', LAB_EXPERIMENT_FILE: path.join(REPO, 'experiments', 'experiment2.yaml'),
      LAB_URI: server.uri, LAB_LOADER_DIR: path.join(REPO, 'loader'), LAB_RESULT_CHUNK: '1024',
    };
    const args = ['experiment2', '--engine', 'k8s-test', '--group', 'k8s-job-test', '--metrics-port', '0',
      '--preload-docs', '500', '--clients', '1', '--duration', '3s', '--progress-interval', '1s'];
    const pods = await Promise.all([...Array(N).keys()].map((i) => runPod(i, { ...env, LAB_SCRATCH: path.join(tmp, `scratch-${i}`) }, args)));
    pods.forEach((p, i) => assert.equal(p.code, 0, `pod ${i}: ${p.stderr}`));
    // the barrier released every pod only after all had connected
    const readyAt = pods.map((p) => /starting at (\S+)/.exec(p.stderr)?.[1]);
    assert.ok(readyAt.every(Boolean), 'every pod passed the barrier');

    // kubectl logs --prefix adds "[pod/NAME/container] " before each line
    const logs = pods.map((p, i) => p.stdout.split('\n').map((l) => (l ? `[pod/lab-loaders-${i}/loader] ${l}` : l)).join('\n'));
    const runDir = path.join(tmp, 'results', 'experiment2', 'k8s-test', '20260101T000000Z-k8s');
    assert.ok(logs.some((l) => /"part":1,/.test(l)), 'some file came in several log lines (timeline.ndjson)');
    for (const l of logs.join('\n').split('\n')) assert.ok(l.length < 9000, `log line of ${l.length} characters`);
    // a lost log line is reported, never a silently short file
    const lossy = logs.map((l, i) => (i === 1 ? l.split('\n').filter((x) => !/"part":1,/.test(x)).join('\n') : l));
    assert.match(collect(lossy, path.join(tmp, 'lossy'), N).problems.join('\n'), /pod 1: .* parts in its log/);
    const { dirs, problems } = collect(logs, runDir, N);
    assert.deepEqual(problems, []);
    assert.equal(dirs.length, N);
    const summaries = dirs.map((d) => JSON.parse(fs.readFileSync(path.join(d, 'summary.json'), 'utf8')));
    for (const s of summaries) {
      assert.equal(s.group, 'k8s-job-test');
      assert.equal(s.complete, true);
    }
    assert.deepEqual(summaries.map((s) => s.parameters.collection).sort(), [...Array(N).keys()].map((i) => `seed004_p${i}`));
    // nobody measured before every pod had passed the barrier
    const lastReady = Math.max(...readyAt.map((r) => Date.parse(r)));
    for (const s of summaries) assert.ok(Date.parse(s.started_at) >= lastReady - 1000, `${s.started_at} vs ${new Date(lastReady).toISOString()}`);

    const { main } = require(path.join(REPO, 'report', 'src', 'cli'));
    let out = '';
    assert.equal(main(['--results-dir', path.join(tmp, 'results')], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
    for (const l of out.trimEnd().split('\n')) t.diagnostic(l);
    const rep = JSON.parse(fs.readFileSync(path.join(tmp, 'results', 'report', 'latest', 'report.json'), 'utf8'));
    const runs = rep.experiments[0].sets.flatMap((s) => s.runs);
    assert.equal(runs.length, 1, 'the N pods are one run');
    assert.equal(runs[0].hosts, N);

    // the merged percentiles are those of the sum of the pods' own histograms
    const hdr = require(path.join(REPO, 'report', 'node_modules', 'hdr-histogram-js'));
    for (const op of ['find', 'update']) {
      const parts = summaries.map((s) => hdr.decodeFromCompressedBase64(s.steps[0].ops[op].histogram));
      const sum = hdr.build();
      for (const p of parts) sum.add(p);
      const merged = rep.experiments[0].sets[0].aggregates[0].ops[op];
      assert.equal(merged.count ?? sum.totalCount, sum.totalCount);
      assert.equal(Math.round(merged.latency_us.p99), Math.round(sum.getValueAtPercentile(99)), `${op} p99`);
      assert.match(merged.latency_source, /histograms of 1 run\(s\) merged/, 'the one (merged) run\'s histogram');
    }
  } finally {
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
