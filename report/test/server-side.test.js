'use strict';
// The report compares the server's side: real loader runs, two repetitions each,
// against two server lines the wire shim plays (8.0 WiredTiger and 4.0 MMAPv1, whose serverStatus,
// collStats and dbStats differ as cited in loader/test/support/server-status-lines.js); the report
// puts footprint, write bytes per document, CPU per 1,000 ops and lag p99 side by side with the
// throughput verdict's statistic, and says where a line reports nothing.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir } = require('./support/fixtures');
const { main } = require('../src/cli');
const { openPage } = require('./support/browser');
const { chartsOf } = require('./support/pagecheck');

const LOADER_TEST = path.join(__dirname, '..', '..', 'loader', 'test', 'support');
const LINES = { wiredtiger: 'mongod-8.0-wiredtiger-replset', mmapv1: 'mongod-4.0-mmapv1-replset' };

test('report: footprint, write cost, CPU and lag per engine over repetitions, with verdicts and what a line lacks', { timeout: 600000 }, async () => {
  const { startServer } = require(path.join(LOADER_TEST, 'server.js'));
  const { runLoader } = require(path.join(LOADER_TEST, 'loader.js'));
  const results = tmpDir();
  for (const [engine, line] of Object.entries(LINES)) {
    const server = await startServer({ line });
    try {
      const r = await runLoader(['experiment2', '--uri', server.uri, '--engine', engine, '--results-dir', results, '--metrics-port', '0',
        '--preload-docs', '300', '--clients', '1', '--duration', '3s', '--progress-interval', '1s', '--repeat', '2']);
      assert.equal(r.code, 0, r.stderr);
    } finally {
      await server.stop();
    }
  }
  let out = '';
  assert.equal(main(['--results-dir', results], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  const rep = JSON.parse(fs.readFileSync(path.join(fs.realpathSync(path.join(results, 'report', 'latest')), 'report.json'), 'utf8'));
  assert.equal(rep.experiments[0].sets.length, 1, JSON.stringify(rep.experiments[0].differences));
  assert.equal(rep.server_side.length, 1);
  const [s] = rep.server_side;
  // Footprint: both sides, two runs each. collStats storage is WiredTiger's files against
  // MMAPv1's padded extents: not one quantity, so one line of what each counts and no ratio.
  const fp = s.footprint.engine_storage;
  assert.deepEqual(Object.keys(fp.sides).sort(), ['mmapv1', 'wiredtiger']);
  for (const side of Object.values(fp.sides)) assert.equal(side.samples.length, 2);
  assert.equal(fp.verdicts.length, 1);
  assert.equal(fp.verdicts[0].status, 'not-comparable', fp.verdicts[0].sentence);
  assert.match(fp.verdicts[0].sentence, /^collStats storageSize \+ totalIndexSize per document \(end of run\): not the same quantity, so no verdict: mmapv1 counts the extents .*; wiredtiger counts the size of the collection's and its indexes' WiredTiger files/);
  // Logical: the documents' BSON on both, measured: one quantity, so compared (the documents
  // are alike; the updates of each run leave them a few bytes apart).
  const lg = s.footprint.logical;
  assert.ok(Object.values(lg.sides).every((x) => x.quantity === 'bson_bytes' && x.samples.length === 2 && x.median > 200 && x.median < 300), JSON.stringify(lg.sides));
  // the two sides' runs one after the other (each engine's two, then the other's): no verdict,
  // as for every figure the report compares (drift.js orderGuarded)
  assert.equal(lg.verdicts[0].status, 'not-interleaved', lg.verdicts[0].sentence);
  assert.ok(['verdict', 'no-difference'].includes(lg.verdicts[0].verdict_if_interleaved), lg.verdicts[0].sentence);
  assert.match(lg.verdicts[0].sentence, /: no verdict: wiredtiger ran before mmapv1 \(ratio (wiredtiger\/mmapv1|mmapv1\/wiredtiger) \d\.\d+, not interleaved/);
  assert.equal(s.seed_reference, null, 'seeds/004 published sizes for experiment1 only');
  // Per point: write bytes per document on both; CPU only where the line reports it; lag 0 s
  // gives no ratio.
  const [p] = s.points;
  assert.equal(p.point, 'clients-1');
  // (a step left out, as a busy host's shared-host steps are, gives no sample: left_out counts it)
  const kept = (side) => side.samples.length + (side.left_out ?? 0) === 2;
  for (const side of Object.values(p.write_bytes_per_doc.sides)) {
    assert.ok(kept(side) && (!side.samples.length || side.median > 0), JSON.stringify(side));
  }
  // Write cost: MMAPv1's dur counts copies into the mapped view, not disk writes: no ratio.
  assert.equal(p.write_bytes_per_doc.verdicts[0].status, 'not-comparable', JSON.stringify(p.write_bytes_per_doc.verdicts));
  assert.match(p.write_bytes_per_doc.verdicts[0].sentence, /mmapv1 counts journal bytes written, plus bytes copied into the mapped view/);
  assert.ok(kept(p.cpu_ms_per_1000_ops.sides.wiredtiger), JSON.stringify(p.cpu_ms_per_1000_ops.sides));
  const mmapCpu = p.cpu_ms_per_1000_ops.sides.mmapv1;
  assert.ok(mmapCpu.median === null && !mmapCpu.samples.length, JSON.stringify(mmapCpu));
  assert.equal((mmapCpu.not_reported_in ?? 0) + (mmapCpu.left_out ?? 0), 2, JSON.stringify(mmapCpu));
  assert.equal(p.cpu_ms_per_1000_ops.verdicts[0].status, 'no-verdict');
  assert.ok(Object.values(p.lag_p99_s.sides).every(kept), JSON.stringify(p.lag_p99_s.sides));
  // Lag: 8.0's lastAppliedWallTime (ms) against 4.0's heartbeat optime (whole seconds): no ratio.
  assert.equal(p.lag_p99_s.verdicts[0].status, 'not-comparable', JSON.stringify(p.lag_p99_s.verdicts));
  assert.deepEqual(p.replication_flagged, []);
  assert.match(out, /The server's side \(lower is better\):\n {2}experiment2 set 1: logical bytes per document \(the documents' BSON, measured\) \(end of run\): /);
  // A ratio only where both count one quantity: the logical bytes, nothing else here.
  const ratios = out.replace(/\n\s+/g, ' ').match(/[^:]+: (wiredtiger|mmapv1) is \d\.\d+x (mmapv1|wiredtiger)/g) || [];
  assert.ok(ratios.every((x) => /logical bytes per document/.test(x)), ratios.join('\n'));
  // The page: the section's table and sentences, and each run's server series in the appendix,
  // with no chart for what a line does not report (MMAPv1 has no WiredTiger cache).
  assert.equal(rep.server_series.length, 4);
  const file = fs.realpathSync(path.join(results, 'report', 'latest', 'index.html'));
  const { page, errors, close } = await openPage(file, results);
  try {
    const cells = await page.$$eval('#server-side table.server-side tr', (rs) => rs.map((r) => [...r.children].map((c) => c.textContent)));
    assert.deepEqual(cells[0], ['point', 'median of the runs', 'mmapv1', 'wiredtiger']);
    // what each cell must say, from report.json's figures (a step left out on a busy host is said)
    const left = (x) => (x.left_out ? `, ${x.left_out} left out` : '');
    const want = (x) => (x.samples.length ? new RegExp(`\\(${x.samples.length} runs?${left(x)}\\)$`)
      : new RegExp(`^not reported \\(${x.not_reported_in ? `${x.not_reported_in} run\\(s\\)${left(x)}` : `${x.left_out} run\\(s\\) left out`}\\)$`));
    const cpu = p.cpu_ms_per_1000_ops.sides;
    assert.ok(cells.some((c) => c[0] === 'clients-1' && /CPU/.test(c[1]) && want(cpu.mmapv1).test(c[2]) && want(cpu.wiredtiger).test(c[3])), JSON.stringify(cells));
    const li = await page.$$eval('#server-side li', (ls) => ls.map((l) => l.textContent));
    assert.ok(li.some((l) => /^footprint: collStats storageSize \+ totalIndexSize per document \(end of run\): not the same quantity, so no verdict/.test(l)), li.join('\n'));
    const charts = (await chartsOf(page)).filter((c) => /^server-/.test(c.kind));
    const cache = charts.filter((c) => c.kind === 'server-cache_mb');
    assert.equal(cache.length, 2, 'a cache chart for each WiredTiger run, none for MMAPv1');
    assert.ok(cache.every((c) => c.engine === 'wiredtiger' && c.lines === 3), JSON.stringify(cache));
    assert.equal(charts.filter((c) => c.kind === 'server-lag_s').length, 4, 'a lag chart for every run (replica sets)');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
