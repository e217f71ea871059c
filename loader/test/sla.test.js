'use strict';
// The capacity search's arithmetic on synthetic steps (the runner's real steps: sla-run.test.js).
const test = require('node:test');
const assert = require('node:assert/strict');
const {
  parseSla, judgeStep, CapacitySearch, ACHIEVED_SHARE, MAX_STEPS, REFINE_WITHIN,
} = require('../src/experiment/sla');

test('parseSla: any percentile the summary has, any duration of the lab grammar; typos refused in one line', () => {
  assert.deepEqual(parseSla('p99=10ms'), { percentile: 'p99', key: 'p99', target_ms: 10, text: 'p99=10ms' });
  assert.equal(parseSla('p99.9=0.5s').key, 'p999');
  assert.equal(parseSla('p99.9=0.5s').target_ms, 500);
  assert.equal(parseSla('p50=2m').target_ms, 120000);
  assert.match(parseSla('p98=10ms').error, /'p98' is not a percentile the summary has \(p50, p90, p99, p99\.9\)/);
  assert.match(parseSla('p99=-1ms').error, /is not a duration/);
  assert.match(parseSla('latency<10ms').error, /^--sla 'latency<10ms' is not PERCENTILE=DURATION \(e\.g\. p99=10ms\)$/);
  // near misses are told the form that works
  for (const [bad, right] of [['p99<=50ms', 'p99=50ms'], ['p99<50ms', 'p99=50ms'], ['P99 = 50ms', 'p99=50ms'], ['99=10ms', 'p99=10ms'],
    ['p99:50ms', 'p99=50ms'], ['p99=10', 'p99=10ms'], ['p99.9<=1s', 'p99.9=1s'], ['p50 <= 25ms', 'p50=25ms']]) {
    assert.equal(parseSla(bad).error, `--sla '${bad}': write ${right} (the form is PERCENTILE=DURATION)`);
    assert.equal(parseSla(right).error, undefined, right);
  }
  assert.equal(parseSla('p98<=10ms').error, "--sla 'p98<=10ms': 'p98' is not a percentile the summary has (p50, p90, p99, p99.9); the form is PERCENTILE=DURATION, e.g. p99=10ms");
  for (const bad of ['p98=10ms', 'p99=10', 'p99=-1ms', '', 'p99<=50ms']) assert.equal(parseSla(bad).error.includes('\n'), false);
});

// A server whose intended p99 is flat until `knee` ops/s, then grows; it achieves at most `max`.
function serverAt(rate, { knee, max }) {
  const achieved = Math.min(rate, max);
  const p99 = rate <= knee ? 2000 : 2000 + (rate - knee) * 100;
  return { complete: true, measured_s: 10, loader: { limited: false },
    ops: { find: { count: Math.round(achieved * 10), errors: 0, latency_us: { p50: 500, p99: 1500, p999: 3000 },
      intended_latency_us: { p50: 600, p99, p999: p99 * 2 } } } };
}

function search(server, opts = {}) {
  const sla = parseSla('p99=10ms');
  const s = new CapacitySearch({ sla, ...opts });
  for (let rate = s.next(); rate !== null; rate = s.next()) s.record(judgeStep(sla, rate, server(rate)));
  return s.result(16);
}

test('the search raises, then bisects to the knee within its tolerance and budget', () => {
  // p99 crosses 10 ms at knee + 80 ops/s.
  const r = search((rate) => serverAt(rate, { knee: 1000, max: 1e9 }));
  const truth = 1080;
  assert.ok(r.capacity_ops_per_s <= truth, `${r.capacity_ops_per_s} passes only if under the knee`);
  assert.ok(r.capacity_ops_per_s >= truth * (1 - REFINE_WITHIN) - 1, `${r.capacity_ops_per_s} within ${REFINE_WITHIN * 100}% of ${truth}`);
  assert.ok(r.steps.length <= MAX_STEPS);
  assert.deepEqual(r.steps.slice(0, 5).map((s) => s.offered_ops_per_s), [100, 200, 400, 800, 1600]);
  assert.match(r.search.ended, /refined to within/);
  const failed = r.steps.find((s) => !s.passed);
  assert.match(failed.why, /intended p99 .* ms > 10 ms/);
});

test('a rate the server cannot reach fails as not achieved, whatever its latency', () => {
  const r = search((rate) => serverAt(rate, { knee: 1e9, max: 500 }));
  assert.ok(r.capacity_ops_per_s <= 500 / ACHIEVED_SHARE && r.capacity_ops_per_s >= 450, String(r.capacity_ops_per_s));
  assert.match(r.steps.find((s) => !s.passed).why, /achieved .* under 95% of the/);
});

test('a target below the idle latency: no rate passes, said, and the search stays bounded', () => {
  const sla = parseSla('p99=1ms');
  const s = new CapacitySearch({ sla });
  for (let rate = s.next(); rate !== null; rate = s.next()) {
    s.record(judgeStep(sla, rate, serverAt(rate, { knee: 1e9, max: 1e9 })));
  }
  const r = s.result(16);
  assert.equal(r.capacity_ops_per_s, null);
  assert.match(r.search.ended, /no rate passes/);
  assert.ok(r.steps.length <= MAX_STEPS && r.steps.length > 1);
});

test('failed, loader-limited and incomplete steps never pass', () => {
  const sla = parseSla('p99=10ms');
  const ok = serverAt(100, { knee: 1e9, max: 1e9 });
  assert.equal(judgeStep(sla, 100, ok).passed, true);
  assert.match(judgeStep(sla, 100, { ...ok, failed: { error_fraction: 0.5 } }).why, /failed/);
  assert.match(judgeStep(sla, 100, { ...ok, loader: { limited: true } }).why, /loader was the limit/);
  assert.match(judgeStep(sla, 100, { ...ok, complete: false }).why, /did not complete/);
  const unpaced = { ...ok, ops: { find: { ...ok.ops.find, intended_latency_us: undefined } } };
  assert.match(judgeStep(sla, 100, unpaced).why, /no intended latency/);
});

test('the step budget bounds a search that never settles', () => {
  const r = search((rate) => serverAt(rate, { knee: 1e12, max: 1e12 }), { maxSteps: 5 });
  assert.equal(r.steps.length, 5);
  assert.equal(r.capacity_ops_per_s, 1600);
  assert.match(r.search.ended, /budget \(5\) ran out/);
});

test('a rate that passed above a failing one is noise: the capacity is the highest passing rate below the lowest failing', () => {
  // 150 failed, then 300 passed (a quiet second on a noisy host): 300 is no capacity, 100 is.
  const s = new CapacitySearch({ sla: parseSla('p99=10ms'), start: 100 });
  for (const [rate, passed] of [[100, true], [200, false], [150, false], [300, true]]) {
    s.record({ offered_ops_per_s: rate, passed });
  }
  const c = s.result(4);
  assert.equal(c.lowest_failing_ops_per_s, 150);
  assert.equal(c.capacity_ops_per_s, 100);
  assert.deepEqual(c.steps.map((x) => x.offered_ops_per_s), [100, 200, 150, 300], 'every step kept, the noisy one too');
});

// "refined to within 5% (7..8)" for a 14% bracket; a capacity judged on steps
// that shared the host recorded with no caveat.
test('the end of a search names the bracket it reached: adjacent whole rates are not "within 5%"', () => {
  const r = search((rate) => serverAt(rate, { knee: 1e9, max: 7 }), { start: 2 });
  assert.equal(r.capacity_ops_per_s, 7);
  assert.equal(r.lowest_failing_ops_per_s, 8);
  assert.equal(r.search.ended, 'refined to within 14.3% (7..8 ops/s: adjacent whole rates, wider than the 5% aimed at)');
  const wide = search((rate) => serverAt(rate, { knee: 1000, max: 1e9 }));
  const pct = Math.round(
    ((wide.lowest_failing_ops_per_s - wide.capacity_ops_per_s) / wide.capacity_ops_per_s) * 1000) / 10;
  assert.equal(wide.search.ended, `refined to within ${pct}% (${wide.capacity_ops_per_s}..${wide.lowest_failing_ops_per_s} ops/s)`);
  assert.ok(pct <= REFINE_WITHIN * 100);
});

test('capacityOf: steps that shared the host give the capacity a caveat, in summary.json and its line', () => {
  const { capacityOf } = require('../src/experiment/sla');
  const { capacityLine } = require('../src/results/capacity-table');
  const sla = parseSla('p99=10ms');
  const stall = 'event loop stalled up to 324 ms';
  const steps = [100, 200, 400, 300].map((rate, i) => ({ index: i + 1, target_rate: rate, clients: 16,
    ...serverAt(rate, { knee: 250, max: 1e9 }),
    loader: { limited: false, reasons: [], contention: i === 1 || i === 2 ? [`${stall} while the host was busy`] : [] } }));
  const c = capacityOf({ sla, start: 100, clients: 16, steps });
  // 200 passed while the host was busy (it passed anyway); 400, a failure while it was busy, may
  // be the host's: only failing steps bound the capacity (300 passed, 400 is the one failure)
  assert.equal(c.capacity_ops_per_s, 300);
  assert.deepEqual(c.host_caveat.steps, [3]);
  assert.equal(c.host_caveat.of, 1);
  // the line as one (capacity-table.js wraps it at 120 columns with a two-space indent)
  assert.match(capacityLine(c).replace(/\n {2}/g, ' '), new RegExp(`\\nCAVEAT: 1 of 1 failing steps shared the host with other load or were limited by the loader \\(step 3: ${stall} while the host was busy\\): the capacity may be this host's, not the server's$`));
  const passedBusy = capacityOf({ sla, start: 100, clients: 16, steps: steps.map((e) => ({ ...e,
    loader: { limited: false, reasons: [], contention: e.target_rate === 200 ? [stall] : [] } })) });
  assert.equal(passedBusy.host_caveat, undefined, 'a passing step on a busy host moves no bound');
  const limitedFail = capacityOf({ sla, start: 100, clients: 16, steps: steps.map((e) => ({ ...e, loader: { limited: e.target_rate === 400, reasons: e.target_rate === 400 ? ['event loop busy'] : [], contention: [] } })) });
  assert.deepEqual(limitedFail.host_caveat.steps, [3], 'a failing step the loader limited');
  // other load that did not make the loader late (0.01 ms against operations of 0.5 ms): the
  // failure is the server's, no caveat (common/host-slowed.js)
  const unslowed = capacityOf({ sla, start: 100, clients: 16, steps: steps.map((e) => ({ ...e, loader: { ...e.loader, contention: ['worker 0 event loop busy 95% of the time while the host was busy'], workers: [{ worker: 0, eld_p99_ms_median: 0.01 }] } })) });
  assert.equal(unslowed.host_caveat, undefined, JSON.stringify(unslowed.host_caveat));
  const slowed = capacityOf({ sla, start: 100, clients: 16, steps: steps.map((e) => ({ ...e,
    loader: { ...e.loader, contention: [stall], workers: [{ worker: 0, eld_p99_ms_median: 324 }] } })) });
  assert.deepEqual(slowed.host_caveat.steps, [3]);
  const clean = capacityOf({ sla, start: 100, clients: 16,
    steps: steps.map((e) => ({ ...e, loader: { limited: false, reasons: [], contention: [] } })) });
  assert.equal(clean.host_caveat, undefined);
  assert.doesNotMatch(capacityLine(clean), /CAVEAT/);
});

test('the run\'s table and the capacity table print a latency alike: ms to 10 us, - when absent; columns aligned', () => {
  const { formatTable } = require('../src/results/table');
  const { capacityTable } = require('../src/results/capacity-table');
  const step = { index: 1, clients: 1, complete: true, measured_s: 1,
    loader: { limited: false, reasons: [], contention: [] },
    ops: { find: { count: 10, ops_per_s: 10, errors: 0, latency_us: { p50: 1234, p99: 56789.4, p999: null } } } };
  assert.match(formatTable({ name: 'x', engine: 'e', complete: true, steps: [step] }), /^1 +1 +find +10 +10 +1\.23 +56\.79 +- +0$/m);
  const c = { clients: 8, sla: { percentile: 'p99', target_ms: 30 }, capacity_ops_per_s: 1000, lowest_failing_ops_per_s: 3200, complete: true, search: { ended: 'refined' },
    steps: [
      { offered_ops_per_s: 1000, achieved_ops_per_s: 999.5, intended_us: 1234, service_us: 56789.4,
        clients_busy: 0.5, passed: true },
      { offered_ops_per_s: 3200, achieved_ops_per_s: 3000, intended_us: 145678.9, service_us: null, clients_busy: null, passed: false, why: 'p99 over' }] };
  const lines = capacityTable(c).split('\n');
  assert.deepEqual(lines.slice(2, 5), [
    'step  offered  achieved  intended p99 ms  service p99 ms  clients busy  verdict',
    '   1     1000     999.5             1.23           56.79           50%  passed',
    '   2     3200      3000           145.68               -             -  failed: p99 over',
  ]);
});

// one noisy step must not cap a search. A step the loader flagged for host
// contention, or one that failed within the search's resolution, is tried once more before it
// bounds the search; a second failure stands.
test('a contended or marginal failure is tried once more before it bounds the search', () => {
  const sla = parseSla('p99=10ms');
  // the first step at 100 ops/s hits a host stall (contention flagged, p99 blown); the true knee is 1080
  let stalled = false;
  const stallOnce = (rate) => {
    const e = serverAt(rate, { knee: 1000, max: 1e9 });
    if (rate === 100 && !stalled) {
      stalled = true;
      return { ...e, loader: { limited: false, contention: ['worker 0 event-loop delay p99 900 ms (> 20 ms)'], workers: [{ worker: 0, eld_p99_ms_median: 900 }] }, ops: { find: { ...e.ops.find, intended_latency_us: { p50: 600, p99: 900000, p999: 900000 } } } };
    }
    return e;
  };
  const s = new CapacitySearch({ sla });
  for (let rate = s.next(); rate !== null; rate = s.next()) s.record(judgeStep(sla, rate, stallOnce(rate)));
  const r = s.result(16);
  assert.deepEqual(r.steps.slice(0, 3).map((x) => [x.offered_ops_per_s, x.passed]),
    [[100, false], [100, true], [200, true]]);
  assert.match(r.steps[0].retry, /other load on the loader's host/);
  assert.ok(r.capacity_ops_per_s >= 1000, `capped by the stalled step: ${r.capacity_ops_per_s}`);
  // a marginal miss (p99 10.3 ms against 10 ms) is retried; failing again, it stands and bounds
  const marginal = judgeStep(sla, 500, { ...serverAt(500, { knee: 1e9, max: 1e9 }),
    ops: { find: { count: 5000, errors: 0, latency_us: { p50: 1, p99: 1, p999: 1 },
      intended_latency_us: { p50: 1, p99: 10300, p999: 10300 } } } });
  assert.match(marginal.retry, /marginal failure/);
  const s2 = new CapacitySearch({ sla, start: 500 });
  assert.equal(s2.next(), 500);
  s2.record(marginal);
  assert.equal(s2.next(), 500, 'tried once more');
  s2.record(marginal);
  assert.equal(s2.next(), 250, 'a second failure stands: the search goes down');
  // a clear failure (p99 50 ms) is not retried
  assert.equal(judgeStep(sla, 500, { ...serverAt(500, { knee: 0, max: 1e9 }) }).retry, undefined);
});

// A failure beyond its noise is the server's: retrying a step that missed its target 3x added 4-6
// steps to a search on a busy host. Its noise is the search's resolution plus, where the host made
// the loader late (common/host-slowed.js), that lateness.
test('a step that missed by more than its noise is not retried, on a busy host too', () => {
  const sla = parseSla('p99=10ms');
  const busy = (delayMs, p99Us, rate = 500, achieved = rate) => {
    const e = serverAt(rate, { knee: 1e9, max: achieved });
    return { ...e, clients: 16, loader: { limited: false, reasons: [], contention: [`worker 0 event-loop delay p99 ${delayMs} ms (> 20 ms) while the host was busy`], workers: [{ worker: 0, eld_p99_ms_median: delayMs }] },
      ops: { find: { ...e.ops.find, intended_latency_us: { p50: 600, p99: p99Us, p999: p99Us } } } };
  };
  // 3x the target while the loader was 2 ms late: the server's
  assert.equal(judgeStep(sla, 500, busy(2, 30000)).retry, undefined);
  // 3x the target while the loader was 25 ms late: the loader's lateness explains it
  assert.match(judgeStep(sla, 500, busy(25, 30000)).retry, /made it 25 ms late/);
  // a third of the rate achieved while 2 ms late (each of 16 clients owes an op every 32 ms): the server's
  assert.equal(judgeStep(sla, 500, busy(2, 5000, 500, 160)).retry, undefined);
  // 10% short while 5 ms late against 32 ms: within
  assert.match(judgeStep(sla, 500, busy(5, 5000, 500, 430)).retry, /made it 5 ms late/);
  // the search: a 3x miss bounds it at once (no second step at the same rate)
  const s = new CapacitySearch({ sla, start: 500 });
  assert.equal(s.next(), 500);
  s.record(judgeStep(sla, 500, busy(2, 30000)));
  assert.equal(s.next(), 250);
});
