'use strict';
// The driver line follows the server: mongo-java-server announcing an old server line (wire 6 =
// MongoDB 3.6, Percona's MongoRocks; wire 7 = MongoDB 4.0, MMAPv1) gets the older official driver
// from its first hello, every experiment runs on it end to end (main thread and worker threads),
// and summary.json says which line ran; a server older than every line is refused in one line.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('js-yaml');
const { startServer, REPO } = require('./support/server');
const { runLoader, tmpResults, latestRun, errorLines } = require('./support/loader');
const { lines, lineForWire, driverDescription } = require('../src/server/driver-line');

test('each line\'s wire bounds are its own driver\'s constants', () => {
  const byName = Object.fromEntries(lines().map((l) => [l.name, l]));
  for (const l of lines()) {
    const c = require(`${l.name}/lib/cmap/wire_protocol/constants.js`);
    assert.equal(l.minWire, c.MIN_SUPPORTED_WIRE_VERSION, l.name);
    assert.equal(l.version, require(`${l.name}/package.json`).version, l.name);
  }
  // The floors the engines need (compose/engines.tsv server_line: 3.6 = wire 6, 4.0 = wire 7).
  assert.equal(byName['mongodb-6.9'].minWire, 6);
  assert.equal(byName['mongodb-6.16'].minWire, 7);
  assert.ok(byName.mongodb.minWire > 7, 'the current line refuses 4.0, which is why the others exist');
});

test('lineForWire: the newest line that accepts the server, none below the oldest floor', () => {
  assert.equal(lineForWire(25).name, 'mongodb'); // 8.0
  assert.equal(lineForWire(9).name, 'mongodb'); // 4.4
  assert.equal(lineForWire(8).name, 'mongodb-6.16'); // 4.2
  assert.equal(lineForWire(7).name, 'mongodb-6.16'); // 4.0
  assert.equal(lineForWire(6).name, 'mongodb-6.9'); // 3.6
  assert.equal(lineForWire(5), null); // 3.4
  assert.equal(lineForWire(4), null); // 3.2 (PerconaFT's last line)
  assert.match(driverDescription({}), /^mongodb 7\.\d+\.\d+$/);
  assert.match(driverDescription({ driverLine: 'mongodb-6.9', serverWireVersion: 6 }), /^mongodb 6\.9\.0 \(npm alias mongodb-6\.9\), chosen for server wire version 6$/);
});

// Small flags per experiment: the file's own `smoke:` line (what ./run.sh smoke runs it with,
// lib/experiment.sh), with durations cut to 1 s, document counts to a tenth, files to 1 MB, one
// repetition, no --via (a stack flag), and a step that runs for a duration paced at 200 ops/s
// where the line leaves it unpaced. The subject is the driver line each step ran on, not the size
// nor the throughput: at the smoke line's own sizes the two lines' runs cost 38 CPU s of the
// suite's loader, and unpaced 1 s steps kept the loader and the server busy on both cores.
const TENTH = new Set(['--docs', '--preload-docs', '--records']);
function smallFlags(file) {
  const doc = YAML.load(fs.readFileSync(file, 'utf8'), { schema: YAML.CORE_SCHEMA });
  assert.ok(doc.smoke, `${file} has no smoke: line`);
  const words = String(doc.smoke).split(/\s+/).filter(Boolean);
  const out = [];
  for (let i = 0; i < words.length; i++) {
    if (words[i] === '--via' || words[i] === '--repeat') { i++; continue; }
    if (words[i] === '--duration') { out.push('--duration', '1s'); i++; continue; }
    if (words[i] === '--file-size') { out.push('--file-size', '1MB'); i++; continue; }
    if (TENTH.has(words[i])) {
      out.push(words[i], String(Math.max(100, Math.round(Number(words[i + 1]) / 10))));
      i++;
      continue;
    }
    out.push(words[i]);
  }
  if (out.includes('--duration') && !out.includes('--rate')) out.push('--rate', '200');
  return out;
}
const EXPERIMENTS = fs.readdirSync(path.join(REPO, 'experiments')).filter((f) => f.endsWith('.yaml')).sort();

// Each old line's run of every experiment against its own server; the two lines at the same time
// (one after the other they were 65 s and 56 s of a CI run, mostly waiting on their servers and
// the experiments' steps). Each test below awaits its own line's, which throws what it found.
const OLD_LINES = [['3.6.0', 6, 'mongodb-6.9', 'rocksdb'], ['4.0.0', 7, 'mongodb-6.16', 'mmapv1']];
const everyExperiment = new Map();
test.before(() => {
  for (const [server, wire, line, engine] of OLD_LINES) {
    const p = runsEveryExperiment(server, wire, line, engine);
    p.catch(() => {}); // judged by its test
    everyExperiment.set(line, p);
  }
});
for (const [server, wire, line] of OLD_LINES) {
  test(`MongoDB ${server} (wire ${wire}): ${line} runs every experiment`, () => everyExperiment.get(line));
}

async function runsEveryExperiment(server, wire, line, engine) {
  const srv = await startServer({ version: { server, wire }, storageEngine: engine });
  const root = tmpResults();
  try {
    assert.ok(EXPERIMENTS.length >= 3, EXPERIMENTS.join());
    for (const f of EXPERIMENTS) {
      const name = f.replace(/\.yaml$/, '');
      const r = await runLoader([name, '--uri', srv.uri, '--results-dir', root, '--metrics-port', '0',
        ...smallFlags(path.join(REPO, 'experiments', f))]);
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      const { summary } = latestRun(root, name, engine);
      assert.equal(summary.complete, true, `${name}: ${summary.reason}`);
      assert.equal(summary.server.version, server);
      assert.equal(summary.topology.max_wire_version, wire);
      const v = require(`${line}/package.json`).version;
      assert.equal(summary.loader.driver, `mongodb ${v} (npm alias ${line}), chosen for server wire version ${wire}`);
      // Every step ran operations on the old line (in the worker threads), none failed.
      const steps = summary.steps ?? summary.cases;
      assert.ok(Array.isArray(steps) && steps.length > 0, `${name}: no steps (summary keys: ${Object.keys(summary)})`);
      for (const st of steps) {
        // A case the kind could not run on this server says why (st.unsupported): mongo-java-server
        // lacks getParameter/setParameter, which journal's commit-interval cases need.
        if (st.unsupported) continue;
        // A case the topology cannot satisfy is recorded and never run (writeconcern's w > 1 on
        // this standalone: src/kinds/durability/wc-topology.js; its own test is writeconcern.test.js).
        if (st.not_applicable) continue;
        const ops = Object.entries(st.ops ?? {});
        assert.ok(ops.some(([, o]) => o.count > 0), `${name} ${st.phase}: no operation counted: ${JSON.stringify(st).slice(0, 300)}`);
        for (const [op, o] of ops) assert.equal(o.errors, 0, `${name} ${st.phase} ${op}: ${JSON.stringify(o).slice(0, 200)}`);
      }
    }
  } finally {
    await srv.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

test('a current server keeps the current line', async () => {
  const srv = await startServer({ storageEngine: 'wiredTiger' });
  const root = tmpResults();
  try {
    const r = await runLoader(['experiment1', '--uri', srv.uri, '--docs', '30', '--results-dir', root, '--metrics-port', '0']);
    assert.equal(r.code, 0, r.stderr);
    const { summary } = latestRun(root, 'experiment1', 'wiredtiger');
    assert.equal(summary.loader.driver, `mongodb ${require('mongodb/package.json').version}, chosen for server wire version 21`);
  } finally {
    await srv.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a server older than every driver line: one clear line, exit 1, no results, at once', async () => {
  const srv = await startServer({ version: { server: '3.4.0', wire: 5 } });
  const root = tmpResults();
  try {
    const r = await runLoader(['experiment1', '--uri', srv.uri, '--docs', '30', '--results-dir', root, '--metrics-port', '0',
      '--server-selection-timeout', '20s']);
    assert.equal(r.code, 1, r.stderr);
    const errors = errorLines(r.stderr); // wrapped within 120 columns: read joined
    assert.equal(errors.length, 1, r.stderr);
    assert.match(errors[0], /reports wire version 5, older than every driver line the loader carries \(the oldest, mongodb 6\.9\.0, needs wire 6 = MongoDB 3\.6\+\)/);
    assert.ok(r.ms < 15000, `decided from the first hello, not the 20 s timeout (took ${r.ms} ms)`);
    assert.deepEqual(fs.readdirSync(root), [], 'no results folder');
  } finally {
    await srv.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
