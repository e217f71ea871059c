'use strict';
// Capacities of --sla runs compared (src/capacity.js): only alike runs, the
// throughput verdict's rules (geometric means, Welch t 95% CI, >= 2 usable repetitions a side).
// The runs are normalised summaries in the shape normalise.js makes; the capacity block is the
// loader's (loader/src/experiment/sla.js capacityOf), whose end-to-end run is loader/test/sla-run.test.js.
const test = require('node:test');
const assert = require('node:assert/strict');
const { capacityReport, capacityText } = require('../src/capacity');

const identity = { server: { version: '8.0.4', storage_engine: 'x' }, loader: { version: '1.0.0', node: 'v22.0.0', driver_line: '6' } };
let n = 0;
function run(engine, cap, { sla = 'p99=10ms', complete = true, searchComplete = true } = {}) {
  n += 1;
  const [pct, target] = sla.split('=');
  return {
    dir: `/r/${engine}/${n}`, experiment: 'experiment2', engine, engine_source: 'flag', labels: {}, profile: null, identity,
    repetition: n, complete, parameters: { sla, workload: { clients: [32] } },
    capacity: {
      sla: { percentile: pct, target_ms: parseFloat(target), text: sla }, capacity_ops_per_s: cap, clients: 32,
        complete: searchComplete,
      steps: [{ offered_ops_per_s: 100, achieved_ops_per_s: 99, intended_us: 2000, service_us: 1500, passed: true,
        why: null },
        { offered_ops_per_s: 200, achieved_ops_per_s: 150, intended_us: 90000, service_us: 5000, passed: false, why: 'x' }],
    },
  };
}

test('alike runs: "A sustains Nx B\'s rate at p99 <= 10 ms (95% CI ...)", the faster side first; the curve keeps every step', () => {
  const runs = [run('inmemory', 100), run('inmemory', 105), run('inmemory', 95), run('wiredtiger', 190), run('wiredtiger', 200), run('wiredtiger', 210)];
  const [c] = capacityReport(runs);
  assert.equal(c.verdicts.length, 1);
  const v = c.verdicts[0];
  assert.equal(v.status, 'verdict');
  assert.match(v.sentence, /^wiredtiger sustains 2\.00x inmemory's rate at p99 <= 10 ms \(95% CI (\d\.\d\d)-(\d\.\d\d), 3 runs each\)$/);
  assert.ok(v.ci[0] < 2 && v.ci[1] > 2 && v.ci[0] > 1);
  assert.deepEqual(c.sides.map((s) => [s.side, s.median]), [['inmemory', 100], ['wiredtiger', 200]]);
  assert.equal(c.sides[0].curve.length, 6, 'two steps of each of three runs');
  assert.match(capacityText([c]), /^== capacity under a latency SLA/);
  assert.match(capacityText([c]), /^experiment2: p99 <= 10 ms\n {2}inmemory 100 ops\/s \(median of 3\/3 run\(s\), clients 32\)\n {4}95% CI [\d.]+-[\d.]+ of the geometric mean \(Student t over 3 run\(s\)\)\n {2}wiredtiger 200 ops\/s/m);
  for (const line of capacityText([c]).split('\n')) assert.ok(line.length <= 120, `${line.length} columns: ${line}`);
});

test('no verdict under 2 usable repetitions; interrupted searches and runs where no rate passed are excluded and counted; a CI over 1.0 shows no difference', () => {
  const [c] = capacityReport([run('a', 100), run('a', 300, { searchComplete: false }), run('b', 110), run('b', null)]);
  assert.equal(c.verdicts[0].status, 'excluded', 'no verdict, and runs were left out: the status every verdict of the report gives it');
  assert.match(c.verdicts[0].sentence, /a has 1 usable run\(s\), b 1; .*a: search interrupted in 1 of 2 run\(s\); b: no rate passed in 1 of 2 run\(s\)/);
  const [d] = capacityReport([run('a', 100), run('a', 130), run('b', 110), run('b', 120)]);
  assert.equal(d.verdicts[0].status, 'no-difference');
  assert.match(d.verdicts[0].sentence, /no difference shown between .* spans 1\.0/);
});

test('runs under another SLA are another set, never compared', () => {
  const cs = capacityReport([run('a', 100), run('a', 100), run('b', 200, { sla: 'p99=20ms' }), run('b', 200, { sla: 'p99=20ms' })]);
  assert.equal(cs.length, 2);
  for (const c of cs) assert.equal(c.verdicts.length, 0);
  assert.equal(capacityReport([run('a', 100)].map((r) => ({ ...r, capacity: null }))).length, 0, 'runs without --sla have no capacity section');
});

test('a run of several loaders (one group and repetition, several hosts) is no capacity: each host searched apart', () => {
  const parts = (engine, cap) => [1, 2].map((h) => ({ ...run(engine, cap), group: `g-${engine}`, repetition: 1, host: `host${h}` }));
  const [c] = capacityReport([...parts('a', 100), ...parts('b', 200), run('a', 100), run('a', 110), run('b', 210), run('b', 190)]);
  const a = c.sides.find((s) => s.side === 'a');
  assert.deepEqual(a.samples, [100, 110]);
  assert.deepEqual(a.excluded, { 'several loaders searched apart': 2 });
  assert.equal(c.verdicts[0].status, 'verdict');
  assert.match(c.verdicts[0].sentence, /a: several loaders searched apart in 2 of 4 run\(s\)/);
});

test('one label on two server versions is two capacity sides, named and judged as the throughput verdicts name them (compare.js nameSides)', () => {
  // Four wt runs, two on 7.0 and two on 8.0: once pooled into one side "median of 4/4".
  const on = (version, cap) => ({ ...run('wt', cap), identity: { ...identity, server: { ...identity.server, version } } });
  const [c] = capacityReport([on('7.0.12', 100), on('7.0.12', 104), on('8.0.4', 200), on('8.0.4', 196)]);
  assert.deepEqual(c.sides.map((s) => [s.side, s.samples.length]), [['wt [server.version 7.0.12]', 2], ['wt [server.version 8.0.4]', 2]]);
  assert.equal(c.verdicts.length, 1);
  assert.equal(c.verdicts[0].status, 'verdict');
  assert.match(c.verdicts[0].sentence, /^wt \[server\.version 8\.0\.4\] sustains 1\.9\dx wt \[server\.version 7\.0\.12\]'s rate/);
});
