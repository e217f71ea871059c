'use strict';
// The loaders Job without a cluster: the barrier; N=3 loader-pod.js processes (what each pod of the
// Indexed Job runs) against one mongo-java-server (the real wire-protocol server,
// loader/test/support), with the start barrier on 127.0.0.1; their bundles collected as ./run.sh
// does (collect.js; no result in any log: the logs cut to their second half, as rotation would,
// lose nothing) into one run folder, which the real report (report/src/cli.js) must read as ONE
// run of N hosts whose merged percentiles and count are those of the raw values recorded (each
// pod's histogram replaced by one recorded from known latencies, a distribution per pod). A failed
// pod (its loader killed mid-run) exits at once non-zero, the others stop on the stop file and
// hand over their measured steps, and the run is marked incomplete.
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

// runPod(index, env, args) -> { child, done }: one pod's loader-pod.js; done resolves with its
// exit code and what it wrote to stdout and stderr (together: its container log).
function runPod(index, env, args) {
  const child = spawn(process.execPath, [path.join(REPO, 'k8s', 'pod', 'loader-pod.js'), '--', ...args], {
    env: { ...process.env, ...env, LAB_INDEX: String(index) }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const r = { stdout: '', stderr: '' };
  child.stdout.on('data', (c) => { r.stdout += c; });
  child.stderr.on('data', (c) => { r.stderr += c; });
  // 'close': after the exit and the end of both streams
  const done = new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout: r.stdout, stderr: r.stderr })));
  return { child, done, out: r };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// podEnv(server, n, barrierTimeoutS, extra): a loader pod's environment as the Job's manifest sets
// it (k8s/loaders.sh), with pod 0's barrier on a free loopback port.
async function podEnv(server, n, barrierTimeoutS, extra = {}) {
  return {
    LAB_LOADERS: String(n), LAB_BARRIER_HOST: '127.0.0.1', LAB_BARRIER_PORT: String(await freePort()),
    LAB_BARRIER_TIMEOUT_S: String(barrierTimeoutS), LAB_EXPERIMENT_FILE: path.join(REPO, 'experiments', 'experiment2.yaml'),
    LAB_URI: server.uri, LAB_LOADER_DIR: path.join(REPO, 'loader'), ...extra,
  };
}

// fetchBundle(scratch): what ./run.sh does for a pod whose readiness says "results waiting":
// kubectl exec POD -- cat <scratch>/out/results.ndjson, then creates <scratch>/out/collected.
async function fetchBundle(scratch, limitMs = 120000) {
  const f = path.join(scratch, 'out', 'results.ndjson');
  const until = Date.now() + limitMs;
  while (!fs.existsSync(f)) {
    if (Date.now() > until) throw new Error(`no ${f} after ${limitMs} ms`);
    await sleep(200);
  }
  const text = fs.readFileSync(f, 'utf8');
  fs.writeFileSync(path.join(scratch, 'out', 'collected'), '');
  return text;
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
    const env = await podEnv(server, N, 60, { LAB_RESULT_CHUNK: '1024' });
    const args = ['experiment2', '--engine', 'k8s-test', '--group', 'k8s-job-test', '--metrics-port', '0',
      '--preload-docs', '500', '--clients', '1', '--duration', '3s', '--progress-interval', '1s'];
    const scratch = (i) => path.join(tmp, `scratch-${i}`);
    const started = [...Array(N).keys()].map((i) => runPod(i, { ...env, LAB_SCRATCH: scratch(i) }, args));
    const bundles = await Promise.all(started.map((p, i) => fetchBundle(scratch(i))));
    const pods = await Promise.all(started.map((p) => p.done));
    pods.forEach((p, i) => assert.equal(p.code, 0, `pod ${i}: ${p.stderr}`));
    // the barrier released every pod only after all had connected
    const readyAt = pods.map((p) => /starting at (\S+)/.exec(p.stderr)?.[1]);
    assert.ok(readyAt.every(Boolean), 'every pod passed the barrier');

    const runDir = path.join(tmp, 'results', 'experiment2', 'k8s-test', '20260101T000000Z-k8s');
    assert.ok(bundles.some((b) => /"part":1,/.test(b)), 'some file came in several lines (timeline.ndjson)');
    for (const l of bundles.join('\n').split('\n')) assert.ok(l.length < 9000, `line of ${l.length} characters`);
    // A run longer than the log rotation: the kubelet keeps only the last part of a container's
    // log (10 MiB by default). The results must not be in the log at all, so however much of it
    // is rotated away, the bundles are whole.
    const logs = pods.map((p) => p.stdout + p.stderr);
    for (const [i, l] of logs.entries()) assert.doesNotMatch(l, /LAB-RESULT/, `pod ${i}'s log carries results`);
    const rotated = logs.map((l) => l.slice(Math.floor(l.length / 2)));
    assert.ok(rotated.every((l, i) => l.length < logs[i].length), 'the rotation dropped part of every log');
    // a lost line is reported, never a silently short file
    const lossy = bundles.map((b, i) => (i === 1 ? b.split('\n').filter((x) => !/"part":1,/.test(x)).join('\n') : b));
    assert.match(collect(lossy, path.join(tmp, 'lossy'), N).problems.join('\n'), /pod 1: .* parts arrived/);
    const meta = { job: 'lab-experiment2-test', server_images: { 'lab-rs0-0': 'percona/percona-server-mongodb:8.0.26-11' } };
    const { dirs, problems } = collect(bundles, runDir, N, meta);
    assert.deepEqual(problems, []);
    assert.equal(dirs.length, N);
    assert.equal(JSON.parse(fs.readFileSync(path.join(runDir, 'k8s-run.json'), 'utf8')).complete, true);
    const summaries = dirs.map((d) => JSON.parse(fs.readFileSync(path.join(d, 'summary.json'), 'utf8')));
    for (const s of summaries) {
      assert.equal(s.group, 'k8s-job-test');
      assert.equal(s.complete, true);
      assert.deepEqual(s.k8s, meta, 'the run\'s Kubernetes facts (server image) in every summary');
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

    // The merged percentiles against the raw values: each pod's find histogram is replaced by one
    // recorded (by the loader's own recording code, loader/src/results/hist.js) from raw latencies of its
    // own, one distribution per pod, so that an average of the pods' percentiles, or any one
    // pod's, is far from the percentile of all values together. The report must give the
    // percentiles of the raw values, within HdrHistogram's 3 significant digits (0.1 %).
    const lhist = require(path.join(REPO, 'loader', 'src', 'results', 'hist.js'));
    let seed = 12345;
    const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    const shapes = [[900, 100, 300], [90, 5000, 15000], [10, 40000, 90000]]; // count, min us, max us
    const raw = [];
    const rawRoot = path.join(tmp, 'raw-results');
    const rawRun = path.join(rawRoot, 'experiment2', 'k8s-test', '20260101T000000Z-k8s');
    fs.cpSync(runDir, rawRun, { recursive: true });
    for (let i = 0; i < N; i++) {
      const [count, lo, hi] = shapes[i % shapes.length];
      const h = lhist.newHistogram();
      for (let k = 0; k < count; k++) {
        const v = Math.round(lo + (hi - lo) * rnd());
        raw.push(v);
        h.recordValue(v);
      }
      const f = path.join(rawRun, `pod-${i}`, 'summary.json');
      const sj = JSON.parse(fs.readFileSync(f, 'utf8'));
      sj.steps[0].ops.find.histogram = lhist.encode(h);
      // the exact maximum the loader stores beside its histogram goes with it: the report caps every
      // percentile at it (common/percentiles.js), so the pod's real one would cap these raw values
      sj.steps[0].ops.find.latency_us.max = Math.max(...raw.slice(raw.length - count));
      fs.writeFileSync(f, JSON.stringify(sj));
    }
    raw.sort((a, b) => a - b);
    // the value of rank ceil(p % of n) (HdrHistogram's definition), in integer arithmetic:
    // 99.9 / 100 * 1000 is 999.0000000000001 in floating point
    const exact = (p) => raw[Math.ceil((Math.round(p * 10) * raw.length) / 1000) - 1];
    assert.equal(main(['--results-dir', rawRoot], { stdout: { write: () => {} }, stderr: process.stderr }), 0);
    const rawRep = JSON.parse(fs.readFileSync(path.join(rawRoot, 'report', 'latest', 'report.json'), 'utf8'));
    const merged = rawRep.experiments[0].sets[0].aggregates[0].ops.find;
    assert.match(merged.latency_source, /histograms of 1 run\(s\) merged/, 'the one (merged) run\'s histogram');
    assert.equal(merged.latency_us.count, raw.length, 'merged count = number of raw values');
    for (const [key, p] of [['p50', 50], ['p90', 90], ['p99', 99], ['p999', 99.9], ['max', 100]]) {
      const want = key === 'max' ? raw[raw.length - 1] : exact(p);
      const got = merged.latency_us[key];
      assert.ok(Number.isFinite(got) && Math.abs(got - want) <= want * 0.002 + 1, `find ${key}: report ${got} us, raw values ${want} us`);
    }
    // the real loaders' run: the merged percentiles are those of the pods' histograms added, and
    // the count is every op the pods measured
    for (const op of ['find', 'update']) {
      const sum = lhist.newHistogram();
      for (const s of summaries) sum.add(lhist.decode(s.steps[0].ops[op].histogram));
      const m = rep.experiments[0].sets[0].aggregates[0].ops[op];
      assert.equal(m.latency_us.count, summaries.reduce((a, s) => a + s.steps[0].ops[op].count, 0), `${op}: merged count = the pods' ops`);
      assert.equal(Math.round(m.latency_us.p99), Math.round(sum.getValueAtPercentile(99)), `${op} p99`);
    }
  } finally {
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

// One loader pod fails mid-run (its loader killed, as the OOM killer would): it must exit at once
// with a non-zero code (its Job index fails; backoffLimitPerIndex: 0 lets the others run), and
// when ./run.sh then stops the others (kubectl exec ... touch <scratch>/stop), they keep what they
// measured, marked incomplete, and hand it over; the collected run is marked incomplete and says
// which pod ended how.
test('a failed loader pod: it exits at once, the others stop, their parts are kept and the run is marked incomplete', { timeout: 300000 }, async () => {
  const server = await require(path.join(REPO, 'loader', 'test', 'support', 'server.js')).testServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-k8s-fail-'));
  try {
    const env = await podEnv(server, 3, 60);
    const args = ['experiment2', '--engine', 'k8s-test', '--group', 'k8s-fail-test', '--metrics-port', '0',
      '--preload-docs', '200', '--clients', '1', '--duration', '120s', '--warmup', '0s', '--progress-interval', '1s'];
    const scratch = (i) => path.join(tmp, `scratch-${i}`);
    const pods = [0, 1, 2].map((i) => runPod(i, { ...env, LAB_SCRATCH: scratch(i) }, args));
    // wait until every pod measures (a progress line after the barrier), then kill pod 1's loader
    const until = Date.now() + 120000;
    const measuring = (p) => /ops\/s|clients-1/.test(p.out.stderr.split('starting at')[1] || '');
    while (!pods.every(measuring)) {
      assert.ok(Date.now() < until, `a pod never started measuring: ${pods.map((p) => p.out.stderr).join('\n')}`);
      await sleep(200);
    }
    await sleep(1500);
    const loaderPid = Number(require('node:child_process').execFileSync('pgrep', ['-P', String(pods[1].child.pid)], { encoding: 'utf8' }).trim().split('\n')[0]);
    process.kill(loaderPid, 'SIGKILL');
    const failed = await pods[1].done;
    assert.notEqual(failed.code, 0, 'the failed pod exits non-zero (its Job index fails)');
    assert.match(failed.stderr, /the loader exited with 1/);
    // the others are still running their 120 s; ./run.sh stops them
    for (const i of [0, 2]) assert.equal(pods[i].child.exitCode, null, `pod ${i} still runs`);
    for (const i of [0, 2]) fs.writeFileSync(path.join(scratch(i), 'stop'), '');
    const bundles = await Promise.all([0, 2].map((i) => fetchBundle(scratch(i), 60000)));
    const ends = await Promise.all([0, 2].map((i) => pods[i].done));
    for (const e of ends) assert.equal(e.code, 143, 'stopped by SIGTERM (the loader\'s exit for it)');
    const runDir = path.join(tmp, 'run');
    const { dirs, problems } = collect([bundles[0], failed.stdout, bundles[1]], runDir, 3);
    // the stopped pods' parts are kept, and whatever the killed loader had written (its summary
    // of a run in progress), from its log
    assert.deepEqual(dirs.map((d) => path.basename(d)), ['pod-0', 'pod-1', 'pod-2']);
    assert.equal(JSON.parse(fs.readFileSync(path.join(runDir, 'pod-1', 'summary.json'), 'utf8')).complete, false);
    assert.match(problems.join('\n'), /pod 1: the loader exited with 1/);
    assert.match(problems.join('\n'), /pod 0: stopped by \.\/run\.sh after another pod failed/);
    for (const i of [0, 2]) {
      const s = JSON.parse(fs.readFileSync(path.join(runDir, `pod-${i}`, 'summary.json'), 'utf8'));
      assert.equal(s.complete, false);
      assert.match(s.reason, /k8s run incomplete \(.*pod 1: the loader exited with 1/);
      assert.ok(s.steps.some((st) => Object.values(st.ops || {}).some((o) => o.count > 0)), `pod ${i} kept the ops it measured: ${JSON.stringify(s.steps)}`);
    }
    const run = JSON.parse(fs.readFileSync(path.join(runDir, 'k8s-run.json'), 'utf8'));
    assert.equal(run.complete, false);
    assert.deepEqual(run.pods.map((p) => `${p.state} ${p.exit}`), ['stopped 143', 'failed 1', 'stopped 143']);
  } finally {
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

// A pod that fails before the barrier (here: one never started) leaves the others waiting there;
// ./run.sh's stop must end their wait at once, handed over as stopped with nothing measured,
// rather than after the barrier's timeout.
test('loader pods stopped while they wait at the barrier hand over at once, as stopped', { timeout: 120000 }, async () => {
  const server = await require(path.join(REPO, 'loader', 'test', 'support', 'server.js')).testServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-k8s-stop-'));
  try {
    const env = await podEnv(server, 3, 600);
    const scratch = (i) => path.join(tmp, `scratch-${i}`);
    const pods = [0, 1].map((i) => runPod(i, { ...env, LAB_SCRATCH: scratch(i) }, ['experiment2', '--engine', 'k8s-test', '--metrics-port', '0']));
    const until = Date.now() + 60000;
    while (!pods.every((p) => /waiting for all 3 loaders/.test(p.out.stderr))) {
      assert.ok(Date.now() < until, `pods never reached the barrier: ${pods.map((p) => p.out.stderr).join('\n')}`);
      await sleep(200);
    }
    for (const i of [0, 1]) fs.writeFileSync(path.join(scratch(i), 'stop'), '');
    const bundles = await Promise.all([0, 1].map((i) => fetchBundle(scratch(i), 10000)));
    const ends = await Promise.all(pods.map((p) => p.done));
    ends.forEach((e, i) => assert.equal(e.code, 0, `pod ${i}: ${e.stderr}`));
    const runDir = path.join(tmp, 'run');
    const { problems } = collect(bundles, runDir, 3);
    const run = JSON.parse(fs.readFileSync(path.join(runDir, 'k8s-run.json'), 'utf8'));
    assert.deepEqual(run.pods.map((p) => p.state), ['stopped', 'stopped', 'missing']);
    assert.match(problems.join('\n'), /pod 2: no results/);
  } finally {
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
