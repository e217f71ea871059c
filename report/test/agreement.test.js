'use strict';
// The loader and the report print the same numbers for the same runs. The real
// loader CLI runs experiment2 against mongo-java-server (loader/test/support/server.js): label
// `one` once, label `two` --repeat 2, and a capacity search (--sla, behind the rate proxy so the
// knee is known and the search short) --repeat 2 under `sla`. The report is built from that
// results folder. Every figure both print is read from both outputs as printed and compared at
// the printed precision:
//   per step and op of a single run: ops/s, p50, p99, p99.9 (loader run table vs the report's
//     --wide row of a side with that one run);
//   per step and op over repetitions: the median ops/s (loader group table vs the report's --wide
//     row), and each repetition's ops/s (loader run tables vs report.json's samples);
//   capacity: each repetition's (loader capacity line vs report.json's samples) and their median
//     (loader group line vs the report's capacity line).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir } = require('./support/fixtures');
const { main } = require('../src/cli');

const LOADER_TEST = path.join(__dirname, '..', '..', 'loader', 'test', 'support');
const HINT = "run 'bash test/install-tools.sh' (loader/node_modules and mongo-java-server come from test/install.d/40-loader.sh)";

// the loader's run tables: [{ engine, rows: [{ step, op, ops_per_s, p50, p99, p999 }] }], in order
function runTables(stdout) {
  const tables = [];
  let cur = null;
  for (const line of stdout.split('\n')) {
    const h = /^experiment2 on (\S+)$/.exec(line);
    if (h) { cur = { engine: h[1], rows: [] }; tables.push(cur); continue; }
    const r = /^(\d+)\s+\d+\s+(\w+)\s+\d+\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+\d+$/.exec(line);
    if (cur && r) cur.rows.push({ step: Number(r[1]), op: r[2], ops_per_s: r[3], p50: r[4], p99: r[5], p999: r[6] });
    else if (cur && !/^\s|^step /.test(line)) cur = null;
  }
  return tables;
}

// the loader's group table: [{ step, op, runs: 'counted/all', median }] (a step that no repetition
// counted shows '-' for its op: not listed)
function groupRows(stdout) {
  const at = stdout.search(/^experiment2 on \S+: \d+ repetitions .*per step and op/m);
  assert.ok(at >= 0, `no group table in:\n${stdout}`);
  return [...stdout.slice(at).matchAll(/^step (\d+)\s+(\w+)\s+(\d+\/\d+)\s+\S+\s+(\S+)\s+\S+$/gm)].map((m) => ({ step: Number(m[1]), op: m[2], runs: m[3], median: m[4] }));
}

// the report's --wide rows of experiment2: { 'point|engine': { column: text } }
function wideRows(out) {
  const rows = {};
  let head = null;
  for (const line of out.split('\n')) {
    if (/^point\s{2,}engine/.test(line)) head = line.split(/\s{2,}/);
    else if (!line.trim() || /^(fastest\/median|==)/.test(line)) head = null;
    else if (head) {
      const cells = line.split(/\s{2,}/);
      rows[`${cells[0]}|${cells[1]}`] = Object.fromEntries(head.map((k, i) => [k, cells[i]]));
    }
  }
  return rows;
}

const num = (text) => Number(String(text).replace(/,/g, ''));
// A single run's table is that run's measurement; the report's row is the median of the runs the
// verdict keeps ("usable/all" where a busy host's step was left out), so one run's
// figure is compared only when its point was kept. Group medians are compared always: the loader's
// group table leaves out the same steps by the same rule (common/step-exclusion.js).
let mediansCompared = 0;
// The loaders run ahead of the host's other work (support/loader.js `ahead`): beside the other
// suites every step of every run was often left out, so no median was compared and the test ended
// in its premise skip (22 of 33 full runs). Beside a loader, a bats and a report batch at load
// average 28-33 that made the difference (2 of 2 runs compared, 0 of 2 without); of the next three
// fresh-clone CI runs, two still skipped, for a reason not found, and one compared.
const kept = (row) => {
  const cell = row['runs (usable/all)'] ?? '';
  if (/\//.test(cell)) { assert.match(cell, /^\d+\/\d+$/, 'usable/all where runs were left out'); return false; }
  return true;
};
// equal at the printed precision: the report prints ops/s with one decimal ("11.0", "1,234.5"),
// the loader rounds to one decimal and prints what is left ("11", "1234.5")
const sameOps = (loader, report, what) => assert.equal(num(report).toFixed(1), num(loader).toFixed(1), what);

let server;
let proxy;
let results;
test.before(async () => {
  if (!fs.existsSync(path.join(LOADER_TEST, '..', '..', 'node_modules', 'mongodb'))) throw new Error(`loader/node_modules missing: ${HINT}`);
  server = await require(path.join(LOADER_TEST, 'server.js')).startServer();
  // The capacity search's knee: at most 60 data commands a second (loader/test/sla-run.test.js).
  proxy = await require(path.join(LOADER_TEST, 'rate-proxy.js')).rateProxy(Number(new URL(server.uri).port), { rate: 60, burst: 4 });
  results = tmpDir();
});
test.after(async () => {
  await proxy?.close();
  await server?.stop();
});

test('the loader and the report print the same figures for the same runs', { timeout: 600000 }, async (t) => {
  const { runLoader } = require(path.join(LOADER_TEST, 'loader.js'));
  const loader = async (uri, engine, more) => {
    const r = await runLoader(['experiment2', '--uri', uri, '--engine', engine, '--results-dir', results, '--metrics-port', '0', '--preload-docs', '200', '--duration', '1s', ...more],
      { ahead: true });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const one = await loader(server.uri, 'one', ['--clients', '1,2']);
  const two = await loader(server.uri, 'two', ['--clients', '1,2', '--repeat', '2']);
  const sla = await loader(proxy.uri, 'sla', ['--clients', '4', '--rate', '20', '--sla', 'p99=1s', '--repeat', '2']);

  let out = '';
  assert.equal(main(['--results-dir', results, '--wide'], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  const rep = JSON.parse(fs.readFileSync(path.join(fs.realpathSync(path.join(results, 'report', 'latest')), 'report.json'), 'utf8'));
  const [set] = rep.experiments[0].sets.filter((s) => s.sides.includes('one'));
  assert.ok(set.sides.includes('two'), `one and two are one set: ${set.sides}`);
  const wide = wideRows(out);
  const compared = [];

  // one run: every figure of its run table
  const [t1] = runTables(one);
  assert.equal(t1.engine, 'one');
  assert.ok(t1.rows.length >= 4, `two steps of find and update: ${one}`);
  for (const r of t1.rows) {
    const row = wide[`${set.points[r.step - 1]}|one`];
    assert.ok(row, `report row for step ${r.step} of one: ${Object.keys(wide)}`);
    if (kept(row)) { sameOps(r.ops_per_s, row[`${r.op}/s`], `one step ${r.step} ${r.op} ops/s`); mediansCompared += 1; }
    for (const [k, col] of [['p50', 'p50 ms'], ['p99', 'p99 ms'], ['p999', 'p99.9 ms']]) assert.equal(row[`${r.op} ${col}`], r[k], `one step ${r.step} ${r.op} ${k}`);
    compared.push(r);
  }

  // two repetitions: each repetition's ops/s, and the median of those the rule keeps
  const t2 = runTables(two);
  assert.equal(t2.length, 2);
  const g = groupRows(two);
  const keys = [...new Set(t2.flatMap((t) => t.rows.map((x) => `${x.step}|${x.op}`)))];
  assert.ok(keys.length >= 4, `two steps of find and update: ${two}`);
  for (const key of keys) {
    const [step, op] = [Number(key.split('|')[0]), key.split('|')[1]];
    const point = set.points[step - 1];
    const agg = set.aggregates.find((a) => a.point === point && a.side === 'two');
    const samples = agg.ops[op].ops_per_s_samples;
    assert.deepEqual([...samples].sort((a, b) => a - b).map((x) => x.toFixed(1)), t2.map((t) => num(t.rows.find((x) => x.step === step && x.op === op).ops_per_s).toFixed(1)).sort((a, b) => a - b), `two ${point} ${op} per repetition`);
    compared.push(key);
    const row = g.find((x) => x.step === step && x.op === op);
    const cell = wide[`${point}|two`];
    if (!row) {
      // no repetition counted: neither prints a median
      assert.equal(agg.usable.runs, 0, `the loader counted no repetition of ${point} ${op}; the report ${agg.usable.runs}`);
      assert.equal(cell[`${op}/s`], '-');
      continue;
    }
    assert.equal(row.runs, `${agg.usable.runs}/${agg.runs}`, `two ${point} ${op}: repetitions counted`);
    assert.equal(String(cell['runs (usable/all)']), agg.usable.runs < agg.runs ? `${agg.usable.runs}/${agg.runs}` : String(agg.runs));
    sameOps(row.median, cell[`${op}/s`], `two ${point} ${op} median ops/s`);
    mediansCompared += 1;
  }

  // capacity: per repetition and the median. Both apply one rule for which searches are samples
  // (common/capacity-sample.js): a host-limited search (capacity.host_caveat) is marked
  // "(host-limited)" on the loader's line and kept beside the report's samples, never in a median.
  const caps = [...sla.matchAll(/^capacity at p99 <= 1000 ms: (\d+(?:\.\d+)?) ops\/s/gm)].map((m) => Number(m[1]));
  assert.equal(caps.length, 2, sla);
  // the group line wraps at 120 columns (its continuation lines indented by two spaces)
  const group = /per repetition: (.*) ops\/s(?:; median (\S+)(?: of \d)?)? \(the report gives its interval\)/.exec(sla.replace(/\n {2}(?=\S)/g, ' '));
  assert.ok(group, `no --repeat capacity line:\n${sla}`);
  const marks = group[1].split(', ');
  const sorted = (xs) => [...xs].sort((a, b) => a - b);
  const side = rep.capacity.find((c) => c.sides.some((s) => s.side === 'sla')).sides.find((s) => s.side === 'sla');
  const seen = `loader: ${group[0]}; report: samples ${side.samples}, excluded ${JSON.stringify(side.excluded)}`;
  assert.deepEqual(sorted(side.samples), sorted(marks.filter((m) => /^[\d.]+$/.test(m)).map(Number)), `the samples: ${seen}`);
  assert.deepEqual(sorted((side.host_limited || []).map((h) => h.capacity_ops_per_s)), sorted(marks.filter((m) => /host-limited/.test(m)).map(parseFloat)), `the host-limited: ${seen}`);
  assert.deepEqual(sorted([...side.samples, ...(side.host_limited || []).map((h) => h.capacity_ops_per_s)]), sorted(caps), `each repetition's capacity: ${seen}`);
  if (side.samples.length) {
    // the report leads with the verdict's geometric mean and gives the median beside it
    const cap = /^experiment2: p99 <= 1000 ms\n {2}sla (?:\S+ ops\/s \(geometric mean of \d\/2 run\(s\); median ([\d.]+)[,;]|([\d.]+) ops\/s \(median of \d\/2 run\(s\))/m.exec(out);
    assert.ok(cap, `the report's capacity line:\n${out}`);
    assert.equal(cap[1] ?? cap[2], group[2], `the median capacity: ${seen}`);
    assert.equal(Number(group[2]), side.median, `the median capacity in report.json: ${seen}`);
  } else {
    assert.equal(group[2], undefined, `no median without a sample: ${seen}`);
    assert.match(out, /^ {2}sla \S+ ops\/s \(host-limited: median of 2\/2 run\(s\)/m, out);
  }
  assert.ok(compared.length >= 8);
  // every step of every run left out (a host too busy for any measurement): no median to compare
  if (!mediansCompared) t.skip('premise not met: every step of every run was left out (a busy host), so no median was compared');
});
