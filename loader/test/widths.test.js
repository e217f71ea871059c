'use strict';
// Every line a default run prints fits 120 columns (per-run
// notes once reached 369 columns, a skipped case's reason 289, the group table's footnote 203). The
// real ./run.sh, loader and server; stdout and stderr as a terminal shows them. The results
// folder is short, so that no path is longer than a line (a path is never cut).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startServer } = require('./support/server');

const RUN_SH = path.resolve(__dirname, '..', '..', 'run.sh');

function runSh(args) {
  return new Promise((resolve) => {
    const p = spawn('bash', ['-c', 'exec "$@" 2>&1', 'bash', RUN_SH, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.on('close', (code) => resolve({ code, out }));
  });
}

let server;
let results;
test.before(async () => { server = await startServer(); results = fs.mkdtempSync(path.join(os.tmpdir(), 'w-')); });
test.after(async () => { await server.stop(); fs.rmSync(results, { recursive: true, force: true }); });

for (const [name, args] of [
  ['experiment2 --repeat 2 (two client steps, warm-up, the group table)', ['experiment2', '--preload-docs', '300', '--clients', '1,2', '--duration', '1s', '--warmup', '500ms', '--repeat', '2']],
  ['writeconcern --repeat 2 (every case; those a standalone cannot run, with their reasons)', ['writeconcern', '--ops', '30', '--repeat', '2']],
]) {
  test(`./run.sh ${name}: every line within 120 columns`, async () => {
    const r = await runSh([...args, '--uri', server.uri, '--engine', 'w', '--results-dir', results, '--metrics-port', '0', '--progress-interval', '300ms']);
    assert.equal(r.code, 0, r.out);
    const lines = r.out.split('\n');
    assert.ok(lines.length > 10, r.out);
    const wide = lines.filter((l) => l.length > 120);
    assert.deepEqual(wide, [], `lines over 120 columns:\n${wide.join('\n')}`);
  });
}

// A capacity search of short steps printed a STABILITY line per step, 13 in a row reading the same
// "dips not judged (...)"; its table's caveat ran to 254 columns.
test('./run.sh experiment2 --sla (a capacity search of 1 s steps): every line within 120 columns, no STABILITY line twice in a row', async () => {
  const r = await runSh(['experiment2', '--preload-docs', '300', '--clients', '2', '--duration', '1s', '--rate', '50', '--sla', 'p99=1s', '--warmup', '0',
    '--uri', server.uri, '--engine', 'w', '--results-dir', results, '--metrics-port', '0', '--progress-interval', '300ms']);
  assert.equal(r.code, 0, r.out);
  const lines = r.out.split('\n');
  assert.deepEqual(lines.filter((l) => l.length > 120), []);
  const said = lines.filter((l) => l.startsWith('STABILITY: ')).map((l) => l.replace(/^STABILITY: steps? [\d-]+: /, ''));
  assert.ok(said.length >= 1, r.out);
  for (let i = 1; i < said.length; i++) assert.notEqual(said[i], said[i - 1], `said twice in a row:\n${lines.filter((l) => l.startsWith('STABILITY')).join('\n')}`);
});

// The end of a run that lost its server: "incomplete run (REASON); partial results in FILE" and
// "error: REASON", the driver's message in both, ran past 120 columns (382 with a long one).
test('a run that loses its server: the closing lines within 120 columns, the reason on the error line only', async () => {
  const { startLoader } = require('./support/loader');
  const own = await startServer();
  try {
    const l = startLoader(['experiment2', '--uri', own.uri, '--engine', 'lost-its-server-with-a-long-label', '--results-dir', results, '--metrics-port', '0',
      '--preload-docs', '300', '--clients', '2', '--duration', '20s', '--rate', '100', '--progress-interval', '300ms']);
    await l.waitFor(/step 1\/1 \(2 clients\): started/);
    await new Promise((res) => setTimeout(res, 1500));
    own.kill();
    const r = await l.done;
    assert.equal(r.code, 1, r.stderr);
    const lines = (r.stdout + r.stderr).split('\n');
    assert.deepEqual(lines.filter((x) => x.length > 120), []);
    assert.match(r.stderr, /^incomplete run: partial results in\s+\S+summary\.json$/m, "the reason is on the error line only");
    assert.match(r.stderr, /^error: (lost the server|the server)/m);
  } finally {
    await own.stop();
  }
});

// The report over the runs above (one engine, a capacity search): every line within 120 columns,
// --help's too; --wide's grids are tables (a column per op, wider than a terminal by design), its
// prose lines are not.
test('./run.sh report over these runs: every line within 120 columns; --wide: every line but its grids', async () => {
  for (const args of [[], ['--help']]) {
    const r = await runSh(['report', '--results-dir', results, ...args]);
    assert.equal(r.code, 0, r.out);
    assert.ok(r.out.split('\n').length > 5, r.out);
    assert.deepEqual(r.out.split('\n').filter((l) => l.length > 120), [], `report ${args.join(' ')}`);
  }
  const w = await runSh(['report', '--results-dir', results, '--wide']);
  assert.equal(w.code, 0, w.out);
  const grid = /^(point|clients-\d|rate-\d|[\w:.+-]+ {2,}(\S+ {2,}){3,})/;
  assert.deepEqual(w.out.split('\n').filter((l) => l.length > 120 && !grid.test(l)), []);
});

// A --repeat group of capacity searches: its line (the group's id, each repetition's capacity)
// ran to 150 columns.
test('capacityGroup: the group\'s capacity line within 120 columns, nothing lost', () => {
  const { capacityGroup } = require('../src/results/capacity-table');
  const c = (x) => ({ sla: { percentile: 'p99.9', target_ms: 12.5 }, capacity_ops_per_s: x, complete: true });
  const text = capacityGroup({ name: 'experiment2', engine: 'wiredtiger-tuned', group: 'experiment2-20261127T224027Z-9f3c2a1b', results: [c(9600.5), c(3100.25), c(4800)] });
  assert.deepEqual(text.split('\n').filter((l) => l.length > 120), []);
  assert.ok(text.replace(/\n {2}/g, ' ').includes('experiment2 on wiredtiger-tuned: 3 repetitions (group experiment2-20261127T224027Z-9f3c2a1b), capacity at p99.9 <= 12.5 ms per repetition: 9600.5, 3100.25, 4800 ops/s; median 4800 (the report gives its interval)'), text);
});

test('formatTable: a step\'s long host-contention note is wrapped within 120 columns, the grid untouched, nothing lost', () => {
  const { formatTable } = require('../src/results/table');
  const contention = Array.from({ length: 6 }, (_, i) => `worker ${i} event-loop delay p99 ${20 + i}.5 ms (> 20 ms) while the loader used 0.4 of 2 cores and the host was 97% busy`);
  const step = { index: 1, clients: 1, complete: true, measured_s: 1,
    ops: { find: { count: 10, ops_per_s: 10, errors: 0, latency_us: { p50: 1000, p99: 2000, p999: 3000 } } },
    loader: { limited: false, reasons: [], contention } };
  const text = formatTable({ name: 'x', engine: 'e', complete: true, steps: [step] });
  assert.deepEqual(text.split('\n').filter((l) => l.length > 120), []);
  assert.ok(text.replace(/\n {2}/g, ' ').includes(contention.join('; ')), text);
  assert.match(text, /^step +clients +op +ops +ops\/s +p50 ms +p99 ms +p99\.9 ms +errors$/m);
});

test('groupTable: docs/s and MB/s as medians within 120 columns; --wide gives fastest, median and slowest of each', () => {
  const { groupTable } = require('../src/results/table');
  const kase = (i, name, docs) => ({ index: i, name,
    ops: { insert: { count: 10, ops_per_s: docs / 1000, docs_per_s: docs, mb_per_s: docs / 1e5 } } });
  const runs = [[kase(1, 'j:false interval=500ms', 123456.7), kase(2, 'j:true', 98765.4)], [kase(1, 'j:false interval=500ms', 120000.1), kase(2, 'j:true', 99999.9)]];
  const narrow = groupTable({ name: 'journal', engine: 'wiredtiger', group: 'journal-20261126T000000Z-abcdef', runs });
  assert.deepEqual(narrow.split('\n').filter((l) => l.length > 120), []);
  assert.match(narrow, /^step +op +runs +fastest ops\/s +median ops\/s +slowest ops\/s +median docs\/s +median MB\/s$/m);
  assert.match(narrow, /^j:true +insert +2\/2 +100 +99\.4 +98\.8 +99382\.7 +0\.994$/m);
  const wide = groupTable({ name: 'journal', engine: 'wiredtiger', group: 'g', runs, wide: true });
  assert.match(wide, /^j:true +insert +2\/2 +100 +99\.4 +98\.8 +99999\.9 +99382\.7 +98765\.4 +1 +0\.994 +0\.988$/m);
});

test('--wide: a loader flag ./run.sh passes on (no value), refused by nothing', () => {
  const { parse } = require('../src/cli/args');
  assert.equal(parse(['journal', '--wide']).wide, true);
  assert.equal(parse(['journal']).wide, false);
});

test('counts read as words: "1 client", "2 clients", ycsb\'s "4 threads"; "3 times"', () => {
  const { plural } = require('../src/text/plural');
  assert.equal(plural(1, 'client'), '1 client');
  assert.equal(plural(2, 'client'), '2 clients');
  assert.equal(plural(4, require('../src/kinds/ycsb').clientWord), '4 threads');
  const { seedRule } = require('../src/results/table');
  assert.equal(seedRule({ source: 'seeds/000 x', method: { repetitions: 3, kept: 'fastest' } }), 'seeds/000 ran each case 3 times and kept fastest');
  assert.equal(seedRule({ source: 'seeds/000 x', method: { repetitions: 1, kept: 'it' } }), 'seeds/000 ran each case 1 time and kept it');
});

test('a run\'s progress names its clients in words: "step 1/1 (1 client)", never "1 clients"', async () => {
  const { runLoader } = require('./support/loader');
  const r = await runLoader(['experiment2', '--uri', server.uri, '--preload-docs', '200', '--clients', '1', '--duration', '1s',
    '--results-dir', results, '--metrics-port', '0', '--engine', 'words', '--progress-interval', '300ms']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^step 1\/1 \(1 client\): started/m);
  assert.match(r.stderr, /^1 client on 1 worker thread, \d+ CPUs? available$/m);
  assert.doesNotMatch(r.stderr + r.stdout, /1 clients|client\(s\)|thread\(s\)|CPU\(s\)/);
});
