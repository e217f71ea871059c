'use strict';
// ./run.sh compare with two existing clusters (`--uri NAME=URI` twice): two
// mongo-java-server processes (loader/test/support/server.js), the real run.sh, loader and report.
// The runs interleave (alpha beta beta alpha alpha beta), each is filed under its side's name with
// summary.json comparison {id, side, position}, nothing is brought up or down, and the comparison
// ends with the report of exactly its runs, whose verdicts know the runs interleaved and carry the
// drift check pooled over the sides' usable runs.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { tmpDir } = require('./support/fixtures');
const { orderOf } = require('../src/drift');

const REPO = path.resolve(__dirname, '..', '..');
const LOADER_TEST = path.join(REPO, 'loader', 'test', 'support');

let servers = [];
test.after(async () => { for (const s of servers) await s.stop(); });

test('compare --uri alpha=... --uri beta=...: interleaved runs, each named, then their report', { timeout: 300000 }, async (t) => {
  if (!fs.existsSync(path.join(REPO, 'loader', 'node_modules', 'mongodb'))) throw new Error("loader/node_modules missing: run 'bash test/install-tools.sh'");
  const { startServer } = require(path.join(LOADER_TEST, 'server.js'));
  servers = [await startServer(), await startServer()];
  // A private copy of the lab (as the bats tests make): results and state land there, not here.
  const lab = tmpDir('lab-compare-');
  for (const d of ['run.sh', 'lib', 'compose', 'experiments']) fs.cpSync(path.join(REPO, d), path.join(lab, d), { recursive: true });
  for (const d of ['loader', 'report']) fs.symlinkSync(path.join(REPO, d), path.join(lab, d));
  // An older run of another comparison's side, which this comparison must neither touch nor report.
  const old = path.join(lab, 'results', 'experiment2', 'alpha', '20200101T000000Z');
  fs.mkdirSync(old, { recursive: true });
  fs.writeFileSync(path.join(old, 'summary.json'), '{"schema_version": 1, "note": "not this comparison"}');
  const before = fs.readFileSync(path.join(old, 'summary.json'), 'utf8');

  const r = spawnSync(path.join(lab, 'run.sh'), ['compare', 'experiment2', '--uri', `alpha=${servers[0].uri}`, '--uri', `beta=${servers[1].uri}`,
    '--repeat', '3', '--clients', '1', '--duration', '1s', '--warmup', '0', '--preload-docs', '100', '--metrics-port', '0', '--progress-interval', '1s'],
  { encoding: 'utf8', timeout: 240000, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = r.stdout + r.stderr;
  for (const l of r.stdout.split('\n').filter((x) => /^(comparison|estimate|== run|  +[0-9] )/.test(x))) t.diagnostic(l);
  assert.equal(r.status, 0, out);

  const id = /^comparison (cmp-\S+): experiment2 on existing clusters alpha beta, 3 run\(s\) each, interleaved$/m.exec(r.stdout)?.[1];
  assert.ok(id, r.stdout);
  assert.match(r.stdout, /nothing brought up or down/);
  assert.match(r.stdout, /^estimate: 6 run\(s\) x 1s measured = 6s, plus per run the preload of 100 documents/m);
  const order = [...r.stdout.matchAll(/^== run (\d+) of \S+: (\w+)$/gm)].map((m) => `${m[1]}:${m[2]}`);
  assert.deepEqual(order, ['1:alpha', '2:beta', '3:beta', '4:alpha', '5:alpha', '6:beta']);

  // each run in its own folder under its side's name, carrying the comparison
  const runs = fs.readFileSync(path.join(lab, 'results', '.comparisons', id, 'runs.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t'));
  assert.equal(runs.length, 6);
  for (const [pos, side, status, code, dir] of runs) {
    assert.equal(status, 'complete', `run ${pos}: exit ${code}`);
    assert.match(dir, new RegExp(`^results/experiment2/${side}/\\d{8}T\\d{6}Z(-\\d+)?$`));
    const s = JSON.parse(fs.readFileSync(path.join(lab, dir, 'summary.json'), 'utf8'));
    assert.deepEqual(s.comparison, { id, side, position: Number(pos) });
    assert.equal(s.engine, side);
  }
  assert.equal(fs.readFileSync(path.join(old, 'summary.json'), 'utf8'), before, 'another run\'s folder was touched');

  // the report of exactly these runs, printed and written under the lab's results/report/
  assert.match(r.stdout, /experiment2: alpha vs beta/);
  const rep = JSON.parse(fs.readFileSync(path.join(lab, 'results', 'report', 'latest', 'report.json'), 'utf8'));
  assert.deepEqual(rep.inputs.map((p) => path.relative(lab, p)).sort(), runs.map((x) => x[4]).sort());
  assert.deepEqual(rep.skipped, [], 'the older folder was not read');
  const set = rep.experiments[0].sets[0];
  assert.equal(set.runs.length + set.incomplete.length, 6);
  const v = set.verdicts[0];
  const usable = v.usable;
  t.diagnostic(`verdict: ${v.sentence} (usable ${usable.join(' v ')})`);
  // compare interleaves every run; only the runs left out (a busy host) can leave the usable ones
  // one side after the other, and then there is no verdict
  assert.equal(orderOf(...['alpha', 'beta'].map((side) => runs.filter((x) => x[1] === side).map((x) => ({ id, position: Number(x[0]) })))), 'interleaved');
  if (v.order !== 'interleaved') assert.ok(!['verdict', 'no-difference'].includes(v.status), v.sentence);
  // the drift test ran where at least 3 usable runs are on sides with 2 or more
  assert.equal(v.drift.test !== null, usable.filter((n) => n >= 2).reduce((a, n) => a + n, 0) >= 3,
    JSON.stringify(v.drift));
  assert.ok(fs.existsSync(path.join(lab, 'results', 'report', 'latest', 'index.html')));
});
