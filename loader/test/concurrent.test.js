'use strict';
// Several runs at once, as real concurrent processes: two started in the same second never share
// a folder (each writes only into the folder its own mkdir created); the metrics port falls back
// to a free one when 9464 is taken; two runs against the same server and collection are warned.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { startServer } = require('./support/server');
const { startLoader, runLoader, tmpResults } = require('./support/loader');
const { checkSummary } = require('./support/summary-schema');
const { EXPERIMENTS_DIR } = require('../src/experiment/config');

let server;
let root;
test.before(async () => { server = await startServer(); root = tmpResults(); });
test.after(async () => { await server.stop(); fs.rmSync(root, { recursive: true, force: true }); });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// experiment1 with its own collection (same name, so the same results/experiment1/<engine>/; a
// folder of its own, since an experiment file's name: must match its file name).
function experimentFile(collection) {
  fs.mkdirSync(path.join(root, collection), { recursive: true });
  const f = path.join(root, collection, 'experiment1.yaml');
  fs.writeFileSync(f, fs.readFileSync(path.join(EXPERIMENTS_DIR, 'experiment1.yaml'), 'utf8').replace(/^collection: .*$/m, `collection: ${collection}`));
  return f;
}

test('two runs started in the same second: two folders (<stamp> and <stamp>-2), each with its own summary', async (t) => {
  const files = [experimentFile('same_second_a'), experimentFile('same_second_b')];
  let collided = 0;
  const starts = [];
  for (let attempt = 0; attempt < 6 && collided < 1; attempt++) {
    const results = path.join(root, `attempt${attempt}`);
    // Start both just after a second begins, so that both stamps fall in that second.
    await sleep(1000 - (Date.now() % 1000) + 20);
    const runs = await Promise.all(files.map((f) => runLoader([f, '--uri', server.uri, '--docs', '300', '--results-dir', results,
      '--metrics-port', '0', '--engine', 'race'])));
    runs.forEach((r) => assert.equal(r.code, 0, r.stderr));
    const parent = path.join(results, 'experiment1', 'race');
    const folders = fs.readdirSync(parent).filter((d) => d !== 'latest').sort();
    assert.equal(folders.length, 2, `two folders: ${folders}`);
    const summaries = folders.map((d) => JSON.parse(fs.readFileSync(path.join(parent, d, 'summary.json'), 'utf8')));
    summaries.forEach(checkSummary);
    assert.deepEqual(summaries.map((s) => s.parameters.collection).sort(), ['same_second_a', 'same_second_b'], 'each folder holds its own run');
    summaries.forEach((s) => assert.equal(s.complete, true));
    // Each run's closing line names its own folder.
    const printed = runs.map((r) => path.basename(/results: (\S+)/.exec(r.stdout)[1])).sort();
    assert.deepEqual(printed, folders);
    starts.push(summaries.map((x) => x.started_at.slice(11, 23)).join(' and '));
    if (summaries[0].started_at.slice(0, 19) === summaries[1].started_at.slice(0, 19)) {
      collided++;
      assert.match(folders[1], /^\d{8}T\d{6}Z-2$/, `the second of the same second gets -2: ${folders}`);
      assert.equal(folders[1], `${folders[0]}-2`);
    }
  }
  // The premise, measured: the two starts fell in one second at least once. On a busy host the
  // two processes' starts drift apart (at load 60 on the shared test VM, six times running): said
  // as a skip with the starts; the folders of each attempt were checked above all the same.
  if (!collided) t.skip(`premise not met: the two runs never started in the same second in 6 attempts (${starts.join('; ')})`);
});

test('metrics port 9464 taken: the loader serves on a free port and says which; an explicit taken port is an error', async () => {
  const blocker = net.createServer();
  const taken = await new Promise((resolve) => {
    blocker.once('error', () => resolve(false)); // someone else has 9464: taken either way
    blocker.listen(9464, '127.0.0.1', () => resolve(true));
  });
  try {
    const r = await runLoader(['experiment1', '--uri', server.uri, '--docs', '50', '--results-dir', path.join(root, 'ports'), '--engine', 'ports']);
    assert.equal(r.code, 0, r.stderr);
    const m = /metrics: port 9464 is taken \(another loader\?\); serving on (\d+) instead/.exec(r.stderr);
    assert.ok(m, r.stderr);
    assert.match(r.stderr, new RegExp(`metrics: http://127\\.0\\.0\\.1:${m[1]}/metrics`));
    const e = await runLoader(['experiment1', '--uri', server.uri, '--docs', '50', '--results-dir', path.join(root, 'ports2'), '--engine', 'ports', '--metrics-port', '9464']);
    assert.equal(e.code, 1);
    assert.match(e.stderr, /^error: cannot serve metrics on 127\.0\.0\.1:9464: EADDRINUSE \(choose another with --metrics-port, 0 = any free port\)$/m);
    assert.ok(!fs.existsSync(path.join(root, 'ports2')), 'no folder for a run that never started');
  } finally {
    if (taken) blocker.close();
  }
});

test('two runs against the same server and collection: the second is warned; another collection is not', async () => {
  const results = path.join(root, 'interfere');
  // The first run must still run when the second starts: its step is far longer than the test
  // (it is stopped at the end). 30 s ran out before the second's check at load 50+ on the
  // shared test VM, and the second was then rightly not warned.
  const a = startLoader(['experiment2', '--uri', server.uri, '--preload-docs', '300', '--clients', '1', '--duration', '600s',
    '--rate', '100', '--results-dir', results, '--metrics-port', '0', '--engine', 'first', '--progress-interval', '1s']);
  try {
    await a.waitFor(/step 1\/1 \(1 client\): started/);
    const other = experimentFile('elsewhere');
    const c = await runLoader([other, '--uri', server.uri, '--docs', '50', '--results-dir', results, '--metrics-port', '0', '--engine', 'third']);
    assert.equal(c.code, 0, c.stderr);
    assert.doesNotMatch(c.stderr, /another loader/, 'another collection: no warning');
    // Same server (written differently) and the same collection as the running one.
    const b = await runLoader(['experiment3', '--uri', server.uri.replace('127.0.0.1', '127.0.0.1').replace(/\/$/, '/?appName=x'), '--preload-docs', '300',
      '--clients', '1', '--duration', '1s', '--results-dir', results, '--metrics-port', '0', '--engine', 'second']);
    assert.equal(a.proc.exitCode, null, `the first run was still running (premise): ${a.proc.exitCode}`);
    // (log lines are wrapped within 120 columns: continuation lines joined again here)
    assert.match(b.stderr.replace(/\n {2}/g, ' '), new RegExp(`warning: another loader \\(pid ${a.proc.pid}, started [^,]+, results \\S+\\) runs against the same server and lab\\.seed004: the two runs will interfere`));
  } finally {
    a.proc.kill('SIGINT');
    await a.done;
  }
});
