'use strict';
// --sla: the capacity search run by the real loader CLI against mongo-java-server over
// TCP, behind a proxy that serves at most R data commands a second (test/support/rate-proxy.js),
// so the knee is known: the search must find it within the bounds its own rules give.
// The search's arithmetic on synthetic steps: sla.test.js.
const test = require('node:test');
const assert = require('node:assert/strict');
const { runLoader, runLoaders, startLoader, latestRun, tmpResults, unwrap } = require('./support/loader');
const { grafanaRecorder } = require('./support/grafana');
const { checkSummary } = require('./support/summary-schema');
const { startServer } = require('./support/server');
const { rateProxy } = require('./support/rate-proxy');
const { ACHIEVED_SHARE, REFINE_WITHIN, DEFAULT_CLIENTS } = require('../src/experiment/sla');
const { parse } = require('../src/cli/args');
const { load } = require('../src/experiment/config');

let server;
let results;
test.before(async () => {
  server = await startServer();
  results = tmpResults();
});
test.after(async () => {
  await server?.stop();
  require('node:fs').rmSync(results, { recursive: true, force: true });
});
const port = () => Number(new URL(server.uri).port);
// The loader offered each step's rate: an open loop issues every operation of its schedule (late
// ones too), so a step's operations are its offered rate x --duration, give or take one
// iteration (a find and an update) per client where the schedule's edge falls.
function assertOffered(steps, durationS, clients) {
  for (const s of steps) {
    const ops = Object.values(s.ops).reduce((a, o) => a + o.count + o.errors, 0);
    const want = s.target_rate * durationS;
    assert.ok(Math.abs(ops - want) <= 2 * clients, `step ${s.index}: ${ops} operations at ${s.target_rate} ops/s for ${durationS} s, expected ${want} +- ${2 * clients}`);
  }
}
const base = (uri, engine) => ['experiment2', '--uri', uri, '--results-dir', results, '--metrics-port', '0', '--engine', engine, '--preload-docs', '200'];

test('--sla on a server that serves at most R ops/s: the search finds R within its own bounds', async (t) => {
  // R: well under what the test server does on this host, so the proxy is the knee. BURST: the
  // proxy's token bucket, which lets BURST commands more through a step.
  const R = 100;
  const BURST = 4;
  const DURATION_S = 2;
  const proxy = await rateProxy(port(), { rate: R, burst: BURST });
  try {
    // A wide target: above R the queue grows and the step is not achieved (the criterion that
    // finds this knee); the host's own noise (a busy CI machine) stays far below it.
    const r = await runLoader([...base(proxy.uri, 'knee'), '--clients', '8', '--duration', `${DURATION_S}s`, '--rate', '50', '--sla', 'p99=1s']);
    assert.equal(r.code, 0, r.stderr);
    const { summary } = latestRun(results, 'experiment2', 'knee');
    checkSummary(summary);
    const c = summary.capacity;
    assert.equal(summary.parameters.sla, 'p99=1s');
    assert.equal(c.clients, 8);
    assert.deepEqual(summary.steps.map((s) => s.clients), summary.steps.map(() => 8), 'every step at the one client count');
    assert.ok(proxy.state.paced > 0, 'the proxy paced the workload');
    assertOffered(summary.steps, DURATION_S, 8);
    // The premise: every rate up to PREMISE x R passes (the proxy, not the host, is the limit).
    // Closer to R a hiccup of the host (another suite's load) leaves a backlog that drains at only
    // R minus the offered rate, so a rate near R may fail on a busy host: that is the queue, not a
    // fault. A step under PREMISE x R that failed is the host's noise: skip, saying so.
    const PREMISE = 0.8;
    const under = c.steps.filter((s) => s.offered_ops_per_s <= R * PREMISE && !s.passed);
    if (under.length) return t.skip(`premise: the host failed a rate under ${PREMISE} x the proxy's ${R} ops/s: ${under.map((s) => `${s.offered_ops_per_s}: ${s.why}`).join('; ')}`);
    assert.match(c.search.ended, /refined to within/);
    // Bounds from the search's own rules: a passing step achieved >= ACHIEVED_SHARE of its offer,
    // and the proxy passes at most R/s plus its bucket over the step (measured_s >= DURATION_S), so
    // capacity <= (R + BURST / DURATION_S) / ACHIEVED_SHARE. Every rate <= PREMISE x R passed, so
    // the lowest failing rate is above it, and the search stops once that is within REFINE_WITHIN
    // of the highest passing: capacity >= PREMISE x R / (1 + REFINE_WITHIN).
    const hi = (R + BURST / DURATION_S) / ACHIEVED_SHARE;
    const lo = (PREMISE * R) / (1 + REFINE_WITHIN);
    assert.ok(c.capacity_ops_per_s >= lo && c.capacity_ops_per_s <= hi, `capacity ${c.capacity_ops_per_s} ops/s, expected ${lo.toFixed(1)}..${hi.toFixed(1)} (proxy at ${R}); steps ${c.steps.map((s) => `${s.offered_ops_per_s}:${s.passed ? 'pass' : 'fail'}`).join(' ')}`);
    // Raised from --rate by doubling, then bisected.
    assert.deepEqual(c.steps.slice(0, 2).map((s) => s.offered_ops_per_s), [50, 100]);
    // Each step was paced at its own offered rate and recorded both latencies.
    for (const [i, s] of summary.steps.entries()) {
      assert.equal(s.target_rate, c.steps[i].offered_ops_per_s);
      assert.ok(s.ops.find.intended_latency_us.count > 0, `step ${i + 1}: intended latency recorded`);
    }
    assert.match(r.stderr, /capacity at p99 <= 1000 ms: \d+ ops\/s \(refined/);
    // The console table: every step in the order it ran, then the capacity.
    const table = r.stdout.slice(r.stdout.indexOf('capacity search, 8 clients'));
    const rows = table.split('\n').filter((l) => /^\s*\d+\s+\d+\s/.test(l));
    assert.deepEqual(rows.map((l) => Number(l.trim().split(/\s+/)[1])), c.steps.map((s) => s.offered_ops_per_s));
    assert.match(table, new RegExp(`^capacity at p99 <= 1000 ms: ${c.capacity_ops_per_s} ops/s, lowest failing ${c.lowest_failing_ops_per_s} \\(refined`, 'm'));
  } finally {
    await proxy.close();
  }
});

test('bad --sla: a percentile the summary does not have, no unit, a sweep of clients, an experiment not bounded by --duration: one line, exit 2', async () => {
  const cases = [
    [['experiment2', '--sla', 'p98=10ms'], /^error: --sla: 'p98' is not a percentile the summary has \(p50, p90, p99, p99\.9\)$/],
    [['experiment2', '--sla', 'P99=10ms'], /^error: --sla 'P99=10ms': write p99=10ms \(the form is PERCENTILE=DURATION\)$/],
    [['experiment2', '--sla', 'p99=10'], /: write p99=10ms /],
    [['experiment2', '--sla', 'p99<=50ms'], /^error: --sla 'p99<=50ms': write p99=50ms \(the form is PERCENTILE=DURATION\)$/],
    [['experiment2', '--sla', 'p99=1.5ms'], /is finer than 1 ms/],
    [['experiment2', '--sla', 'p99'], /is not PERCENTILE=DURATION/],
    [['experiment2', '--sla', 'p99=10ms', '--clients', '1,2,4'], /--sla runs every step at one client count: --clients N, not 1,2,4/],
    [['experiment1', '--sla', 'p99=10ms'], /--sla does not apply to experiment1: its insert steps are bounded by documents, not --duration/],
    [['writeconcern', '--sla', 'p99=10ms'], /--sla does not apply to writeconcern: .* bounded by their own work/],
    [['ycsb-a', '--sla', 'p99=10ms', '--operations', '1000'], /--sla needs steps that last --duration: ycsb-a's are bounded by a count of operations here \(drop --operations\)/],
    [['ycsb-a', '--sla', 'p99=10ms', '--threads', '1,2'], /--sla runs every step at one client count: --threads N, not 1,2/],
  ];
  const [ok, ...got] = await runLoaders([['check', 'experiment3', '--sla', 'p99.9=0.5s', '--clients', '4'],
    ...cases.map(([args]) => ['check', ...args])]);
  for (const [i, [args, re]] of cases.entries()) {
    const r = got[i];
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `${args.join(' ')}: one line, got ${r.stderr}`);
    assert.match(lines[0], re);
  }
  assert.equal(ok.code, 0, ok.stderr);
  // The one client count: --clients or ycsb's --threads, else the default; never the file's sweep.
  const clientsOf = (args) => load(parse(args)).config.workload.clients;
  assert.deepEqual(clientsOf(['experiment3', '--sla', 'p99=10ms', '--clients', '4']), [4]);
  assert.deepEqual(clientsOf(['ycsb-a', '--sla', 'p99=10ms', '--threads', '8']), [8]);
  assert.deepEqual(clientsOf(['experiment2', '--sla', 'p99=10ms']), [DEFAULT_CLIENTS]);
  assert.deepEqual(clientsOf(['ycsb-a', '--sla', 'p99=10ms']), [DEFAULT_CLIENTS]);
});

test('a target below the server\'s idle latency: the search goes down, then says no rate passes', async () => {
  // Behind a proxy that holds every data command 5 ms, no operation takes under 5 ms: a 1 ms
  // target (the lab's duration grammar stops at 1 ms) is below the idle latency.
  const proxy = await rateProxy(port(), { delayMs: 5 });
  let r;
  try {
    r = await runLoader([...base(proxy.uri, 'tight'), '--clients', '2', '--duration', '1s', '--rate', '8', '--sla', 'p99=1ms', '--repeat', '2']);
  } finally {
    await proxy.close();
  }
  assert.equal(r.code, 0, r.stderr);
  const { summary } = latestRun(results, 'experiment2', 'tight');
  checkSummary(summary);
  const c = summary.capacity;
  assert.equal(c.capacity_ops_per_s, null);
  assert.match(c.search.ended, /no rate passes/);
  // a step failed under host contention is tried once more (src/experiment/sla.js): the rates tried,
  // retries aside, go down by halves
  const retried = (s, i) => i > 0 && c.steps[i - 1].retry && c.steps[i - 1].offered_ops_per_s === s.offered_ops_per_s;
  assert.deepEqual(c.steps.filter((s, i) => !retried(s, i)).map((s) => s.offered_ops_per_s), [8, 4, 2, 1]);
  assertOffered(summary.steps, 1, 2);
  for (const s of c.steps) assert.match(s.why, /intended p99 [\d.]+ ms > 1 ms/);
  for (const s of c.steps) assert.ok(s.service_us >= 5000, `service p99 ${s.service_us} us, under the proxy's 5 ms`);
  assert.match(r.stderr, /capacity at p99 <= 1 ms: no rate passed/);
  // --repeat 2: the group's line gives each repetition's capacity, never the steps pooled by number.
  assert.match(unwrap(r.stdout), /experiment2 on tight: 2 repetitions \(group [^)]+\), capacity at p99 <= 1 ms per repetition: none, none ops\/s \(the report gives its interval\)/);
  assert.doesNotMatch(r.stdout, /per step and op over the repetitions/);
});

test('an interrupted search (SIGINT) keeps the steps it measured, judged, and says it was interrupted; live, the offered rate and intended p99 are on /metrics and each step is annotated', async () => {
  const g = await grafanaRecorder(); // records what the loader posts
  let r;
  let metrics;
  try {
    const l = startLoader([...base(server.uri, 'cut'), '--clients', '2', '--duration', '1s', '--rate', '20', '--sla', 'p99=1s', '--grafana-url', g.url]);
    const [, url] = await l.waitFor(/metrics: (http:\S+)/);
    // The step after 20 ops/s passed has started: read /metrics, then interrupt it. On a busy host
    // a step at 20 can fall short and be run again (the search retests a rate that failed), so the
    // step that offers 40 is waited for by its rate, not by its number.
    await l.waitFor(/capacity: 20 ops\/s offered.*passed/);
    await l.waitFor(/step \d+\/<=12 \(2 clients, 40 ops\/s\)/);
    metrics = await (await fetch(url)).text();
    l.proc.kill('SIGINT');
    r = await l.done;
  } finally {
    await g.close();
  }
  const posts = g.posts.map((p) => p.body);
  assert.match(metrics, /^lab_loader_offered_ops_per_second\{experiment="experiment2"\} 40$/m, 'step 2 offers 40 ops/s');
  assert.match(metrics, /^lab_loader_intended_latency_seconds\{experiment="experiment2",op="find",quantile="0\.99"\} [\d.e-]+$/m);
  const texts = posts.map((p) => `${p.tags.join(',')}: ${p.text}`);
  assert.ok(texts.some((t) => /^lab,experiment2,rate-20: .*step 1\/<=12, 2 clients, 20 ops\/s offered/.test(t)), texts.join('\n'));
  assert.ok(texts.some((t) => /^lab,experiment2,rate-40: .*step \d+\/<=12, 2 clients, 40 ops\/s offered/.test(t)), texts.join('\n'));
  assert.ok(texts.some((t) => /^lab,experiment2,capacity: experiment2: capacity: 20 ops\/s offered, [\d.]+ achieved, intended p99 [\d.]+ ms: passed$/.test(t)), texts.join('\n'));
  assert.equal(r.code, 130, r.stderr);
  const { summary } = latestRun(results, 'experiment2', 'cut');
  checkSummary(summary);
  assert.equal(summary.complete, false);
  const c = summary.capacity;
  assert.equal(c.complete, false);
  assert.match(c.search.ended, /^not finished: interrupted \(SIGINT\)/);
  assert.ok(c.steps.length >= 2, `${c.steps.length} steps kept`);
  const at20 = c.steps.filter((s) => s.offered_ops_per_s === 20);
  assert.ok(at20.length && at20[at20.length - 1].passed, at20.map((s) => s.why).join('; '));
  assert.equal(c.capacity_ops_per_s, 20, 'the highest rate that passed before the stop');
  const last = c.steps[c.steps.length - 1];
  assert.equal(last.passed, false);
  assert.match(last.why, /did not complete/);
});

test('a search stopped before its first step (SIGINT in the preload) still says what it is: capacity null, no steps, why', async () => {
  const l = startLoader(['experiment2', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--engine', 'early', '--preload-docs', '2000000', '--clients', '2', '--duration', '1s', '--sla', 'p99=10ms']);
  await l.waitFor(/preload/);
  l.proc.kill('SIGINT');
  const r = await l.done;
  assert.equal(r.code, 130, r.stderr);
  const { summary } = latestRun(results, 'experiment2', 'early');
  checkSummary(summary);
  assert.equal(summary.steps.length, 0);
  assert.equal(summary.capacity.capacity_ops_per_s, null);
  assert.deepEqual(summary.capacity.steps, []);
  assert.equal(summary.capacity.complete, false);
  assert.match(summary.capacity.search.ended, /^not finished: interrupted \(SIGINT\)/);
});
