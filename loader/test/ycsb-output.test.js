'use strict';
// YCSB's own output, parsed: YCSB 0.17.0's real Client (site.ycsb:core from Maven Central, in
// .tools/ycsb/) runs the properties `--tool ycsb` writes, with its built-in BasicDB (no database;
// the same measurement output as the MongoDB binding), and the lab turns what it printed into
// summary.json: the same steps[].ops.<op> fields as the loader's, YCSB's numbers as printed,
// percentiles it did not print as null, tool {name: 'ycsb', version: '0.17.0'}.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');
const { parse, toStep } = require('../src/ycsb-tool/output');
const { prepare, summarize } = require('../src/ycsb-tool');
const { parse: parseArgs } = require('../src/cli/args');
const { checkSummary, checkTimelineLine } = require('./support/summary-schema');
const { runYcsb } = require('./support/ycsb/core');
const { grafanaRecorder } = require('./support/grafana');

let results;
test.before(() => { results = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-ycsb-')); });
test.after(() => { if (results) fs.rmSync(results, { recursive: true, force: true }); });

// YCSB with the prepared properties file, BasicDB instead of MongoDB, output saved as the YCSB
// container saves it (a "# started:" line, then YCSB's stdout).
async function ycsbInto(dir, file, args) {
  const started = new Date().toISOString();
  const props = path.join(dir, 'ycsb', 'workload.properties');
  const { stdout, stderr } = await runYcsb([...args, '-db', 'site.ycsb.BasicDB', '-P', props, '-p', 'basicdb.verbose=false', '-s']);
  fs.writeFileSync(path.join(dir, 'ycsb', file), `# started: ${started}\n${stdout}`);
  fs.writeFileSync(path.join(dir, 'ycsb', file.replace(/\.txt$/, '.log')), stderr);
  return stdout;
}

test('--tool ycsb: YCSB 0.17.0\'s real load and run output becomes the lab\'s summary.json', async () => {
  const opts = parseArgs(['ycsb-a', '--records', '500', '--fields', '2', '--field-length', '8', '--threads', '1,3', '--operations', '3000', '--engine', 'wiredtiger', '--results-dir', results, '--uri', 'mongodb://root:secret@mongos:27017/']);
  const { dir, threads } = prepare(opts);
  assert.deepEqual(threads, [1, 3]);
  const props = fs.readFileSync(path.join(dir, 'ycsb', 'workload.properties'), 'utf8');
  for (const l of ['recordcount=500', 'fieldcount=2', 'fieldlength=8', 'operationcount=3000', 'requestdistribution=zipfian', 'readallfields=true', 'readproportion=0.5', 'updateproportion=0.5', 'table=usertable']) {
    assert.ok(props.split('\n').includes(l), `${l} in workload.properties`);
  }
  assert.doesNotMatch(props + fs.readFileSync(path.join(dir, 'ycsb', 'plan.json'), 'utf8'), /secret/, 'no credentials in the files');
  await ycsbInto(dir, 'load.txt', ['-load', '-threads', '2']);
  const outs = {};
  for (const t of threads) outs[t] = await ycsbInto(dir, `run-threads-${t}.txt`, ['-t', '-threads', String(t)]);
  const s = summarize(dir);
  checkSummary(s);
  assert.equal(s.complete, true, s.reason);
  assert.deepEqual(s.tool, { name: 'ycsb', version: '0.17.0' });
  assert.equal(s.parameters.uri, 'mongodb://root:***@mongos:27017/', 'redacted by the loader\'s rule (src/text/redact-uri.js): the user stays');
  assert.equal(s.preload.docs, 500, 'YCSB\'s load inserted every record');
  assert.equal(s.preload.measured_by, 'ycsb -load');
  assert.deepEqual(s.steps.map((x) => [x.phase, x.clients]), [['clients-1', 1], ['clients-3', 3]]);
  for (const [i, st] of s.steps.entries()) {
    const printed = parse(outs[threads[i]]);
    assert.equal(st.ops.read.count + st.ops.update.count, 3000, 'operationcount per step');
    assert.equal(st.ops.read.count, printed.series.READ.returns.OK);
    assert.equal(st.ops.update.count, printed.series.UPDATE.returns.OK);
    assert.equal(st.duration_s, printed.overall.runtime_ms / 1000);
    for (const op of ['read', 'update']) {
      const l = st.ops[op].latency_us;
      const y = printed.series[op.toUpperCase()];
      assert.equal(l.max, y.max_us);
      assert.equal(l.p50, y.percentiles['50'], 'p50 as printed (hdrhistogram.percentiles includes 50)');
      assert.equal(l.p999, y.percentiles['99.9']);
      assert.equal(typeof l.p99, 'number');
    }
    assert.ok(!Number.isNaN(Date.parse(st.started_at)));
  }
  assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8')).complete, true);
  // The 1 s timeline from YCSB's status lines (status.interval=1): ops/s per op, per step.
  const lines = fs.readFileSync(path.join(dir, 'timeline.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  for (const l of lines) checkTimelineLine(l);
  for (const t of threads) {
    const mine = lines.filter((l) => l.phase === `clients-${t}`);
    assert.ok(mine.length >= 1, `status lines of clients-${t}`);
    const sum = (op) => mine.reduce((a, l) => a + (l.ops[op]?.latency_us.count ?? 0), 0);
    assert.equal(sum('read') + sum('update'), 3000, 'the status intervals add up to the step\'s operations');
  }
  assert.ok(lines.some((l) => l.ops.read?.ops_per_s > 0 && l.ops.update?.ops_per_s > 0));
  // The report reads it as its own series beside the loader's on the same engine.
  const { normalise } = require('../../report/src/normalise');
  const run = normalise(s, [], dir);
  assert.equal(run.engine, 'wiredtiger (ycsb 0.17.0)');
  assert.deepEqual(run.points.map((p) => p.clients), [1, 3]);
  assert.ok(run.points.every((p) => p.ops.read && p.ops.update), 'read and update per point');
});

test('YCSB\'s defaults print only the 95th and 99th percentiles: the others are null, not invented', async () => {
  const { stdout } = await runYcsb(['-t', '-db', 'site.ycsb.BasicDB', '-p', 'workload=site.ycsb.workloads.CoreWorkload', '-p', 'recordcount=100',
    '-p', 'operationcount=500', '-p', 'readproportion=0.5', '-p', 'updateproportion=0.5', '-p', 'requestdistribution=zipfian',
    '-p', 'basicdb.verbose=false', '-p', 'measurementtype=hdrhistogram', '-p', 'target=2000', '-p', 'measurement.interval=both']);
  const p = parse(stdout);
  assert.deepEqual(Object.keys(p.series.READ.percentiles).sort(), ['95', '99']);
  const st = toStep(p, { index: 1, phase: 'clients-1', clients: 1, targetRate: 2000 });
  for (const op of ['read', 'update']) {
    const l = st.ops[op].latency_us;
    assert.equal(l.p50, null);
    assert.equal(l.p90, null);
    assert.equal(l.p999, null);
    assert.equal(l.p99, p.series[op.toUpperCase()].percentiles['99']);
    assert.equal(st.ops[op].ycsb.percentiles_us['95'], p.series[op.toUpperCase()].percentiles['95'], 'the 95th kept as printed');
    // measurement.interval=both: YCSB's Intended-READ / Intended-UPDATE series.
    assert.equal(st.ops[op].intended_latency_us.count, p.series[`Intended-${op.toUpperCase()}`].operations);
  }
  assert.equal(st.ops.read.count + st.ops.update.count, 500);
});

test('a NOT_FOUND return is an error outcome; a truncated output is refused', () => {
  const text = ['[OVERALL], RunTime(ms), 2000', '[OVERALL], Throughput(ops/sec), 50.0',
    '[READ], Operations, 90', '[READ], AverageLatency(us), 100.04', '[READ], MinLatency(us), 10', '[READ], MaxLatency(us), 900',
    '[READ], 95thPercentileLatency(us), 300', '[READ], 99thPercentileLatency(us), 800', '[READ], Return=OK, 90', '[READ], Return=NOT_FOUND, 10',
    '[READ-FAILED], Operations, 10'].join('\n');
  const st = toStep(parse(text), { index: 1, phase: 'clients-1', clients: 1 });
  assert.equal(st.ops.read.count, 90);
  assert.equal(st.ops.read.errors, 10);
  assert.equal(st.ops.read.ops_per_s, 45);
  assert.equal(st.ops.read.latency_us.mean, 100);
  assert.throws(() => parse('[READ], Operations, 90\n'), /no \[OVERALL\], RunTime/);
});

test('lab-ycsb prepare: bad flags exit 2 with one line, a non-YCSB experiment is refused, no folder', () => {
  const bin = path.join(__dirname, '..', 'bin', 'lab-ycsb.js');
  for (const [args, re] of [
    [['ycsb-a', '--threads', '0'], /--threads: 0 is out of range/],
    [['ycsb-a', '--records', '2', '--threads', '4'], /--records 2 is below/],
    [['experiment2'], /--tool ycsb runs YCSB's workloads only/],
    [['ycsb-a', '--repeat', '2'], /--repeat does not apply to --tool ycsb/],
    [['ycsb-a', '--sla', 'p99=10ms'], /--sla does not apply to --tool ycsb/],
  ]) {
    const r = spawnSync(process.execPath, [bin, 'prepare', ...args, '--results-dir', path.join(results, 'bad')], { encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, re);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  }
  assert.equal(fs.existsSync(path.join(results, 'bad')), false);
  const out = execFileSync(process.execPath, [bin, 'prepare', 'ycsb-a', '--records', '10', '--threads', '2', '--duration', '1.5s', '--rate', '100', '--results-dir', path.join(results, 'ok')], { encoding: 'utf8' });
  const dir = /^dir: (.+)$/m.exec(out)[1];
  assert.match(out, /^threads: 2$/m);
  const props = fs.readFileSync(path.join(dir, 'ycsb', 'workload.properties'), 'utf8').split('\n');
  for (const l of ['maxexecutiontime=2', 'operationcount=2147483647', 'target=100', 'measurement.interval=both']) assert.ok(props.includes(l), l);
});

test('--tool ycsb phases as Grafana annotations: one per step, spanning it, tagged as the loader\'s', async () => {
  const { annotate } = require('../src/ycsb-tool');
  const srv = await grafanaRecorder();
  const got = srv.posts;
  try {
    const summary = { experiment: 'ycsb-a', tool: { name: 'ycsb', version: '0.17.0' }, steps: [
      { index: 1, phase: 'clients-1', clients: 1, started_at: '2026-01-01T00:00:00.000Z', duration_s: 2.5 },
      { index: 2, phase: 'clients-4', clients: 4, started_at: '2026-01-01T00:00:03.000Z', duration_s: 1 }] };
    const n = await annotate(summary, { url: `${srv.url}/`, password: 'pw' });
    assert.equal(n, 2);
    assert.deepEqual(got.map((g) => [g.url, g.body.time, g.body.timeEnd, g.body.tags.join(',')]), [
      ['/api/annotations', Date.parse('2026-01-01T00:00:00Z'), Date.parse('2026-01-01T00:00:02.500Z'), 'lab,ycsb-a,clients-1,ycsb'],
      ['/api/annotations', Date.parse('2026-01-01T00:00:03Z'), Date.parse('2026-01-01T00:00:04Z'), 'lab,ycsb-a,clients-4,ycsb']]);
    assert.equal(got[0].auth, `Basic ${Buffer.from('admin:pw').toString('base64')}`);
    // Grafana down: a warning, no failure.
    const logs = [];
    assert.equal(await annotate(summary, { url: 'http://127.0.0.1:1/', log: (m) => logs.push(m) }), 0);
    assert.match(logs.join(), /Grafana annotation failed/);
  } finally {
    await srv.close();
  }
});
