'use strict';
// The one rule that leaves a step out of medians and verdicts (common/step-exclusion.js), on the
// facts summary.json records: another loader against the same server during the step (the step
// shares the server only where the other run overlapped it).
const test = require('node:test');
const assert = require('node:assert/strict');
const { exclusionFacts, stepExclusion } = require('../../common/step-exclusion');

const step = { started_at: '2026-11-01T00:00:10.000Z', duration_s: 10, complete: true, ops: { find: { count: 1000, errors: 0 } }, loader: { limited: false, reasons: [], contention: [], workers: [] } };
const other = (startedAt, noticed = 'started during this run') => [{ pid: 7, host: 'h2', started_at: startedAt, results: '/r/x', noticed }];
const why = (runs) => stepExclusion(exclusionFacts(step, runs));

test('a second loader shares the server with the steps it overlapped, not with those before it', () => {
  assert.equal(why([]), null);
  assert.equal(why(other('2026-11-01T00:00:15.000Z')), 'shared_server', 'started mid-step');
  assert.equal(why(other('2026-11-01T00:00:19.900Z')), 'shared_server', 'started just before the step ended');
  assert.equal(why(other('2026-11-01T00:00:05.000Z')), 'shared_server', 'started before the step, still running');
  assert.equal(why(other('2026-11-01T00:00:21.000Z')), null, 'started after the step ended');
  assert.equal(why(other('2026-11-01T00:00:00.000Z', 'at this run\'s start')), 'shared_server', 'running when this run started');
  assert.match(exclusionFacts(step, other('2026-11-01T00:00:15.000Z')).shared_server[0], /^loader pid 7 on h2, started 2026-11-01T00:00:15.000Z/);
});

// entry(...) -> a step that saw other load on its host (selfmon's contention line), with the
// loader's own delay and the op latency it recorded.
const busy = 'worker 0 event-loop delay p99 25 ms (> 20 ms) while the loader used 0.2 of 2 cores, other processes 1.8, steal 0: the host, not the loader';
function entry({ delayMs, p50Ms, contention = [busy], targetRate = null, clients = 4, done = 10000, seconds = 10 }) {
  return {
    ...step, clients, measured_s: seconds, target_rate: targetRate,
    ops: { find: { count: done, errors: 0, latency_us: { p50: p50Ms * 1000, p99: p50Ms * 3000 } },
      update: { count: done / 10, errors: 0, latency_us: { p50: p50Ms * 2000, p99: p50Ms * 6000 } } },
    loader: { limited: false, reasons: [], contention,
      workers: [{ worker: 0, elu_mean: 0.4, eld_p99_ms_median: delayMs, eld_p99_ms_max: delayMs * 2 },
        { worker: 1, elu_mean: 0.3, eld_p99_ms_median: delayMs / 5, eld_p99_ms_max: delayMs }] },
  };
}
const verdictOf = (e) => stepExclusion(exclusionFacts(e, []));

test('the host is a reason only where its load made the loader late by a material share of what it measured', () => {
  // slowed: 25 ms late against 2 ms operations
  assert.equal(verdictOf(entry({ delayMs: 25, p50Ms: 2 })), 'shared_host');
  assert.match(exclusionFacts(entry({ delayMs: 25, p50Ms: 2 }), []).shared_host[0], /^the loader ran late by 25 ms \(event-loop delay p99\), 1250% of the fastest op's p50 2 ms \(> 10%\)$/);
  // not slowed: the same other load, 25 ms late against 400 ms operations (6%)
  assert.equal(verdictOf(entry({ delayMs: 25, p50Ms: 400 })), null);
  // just over and just under the 10% share
  assert.equal(verdictOf(entry({ delayMs: 5.1, p50Ms: 50 })), 'shared_host');
  assert.equal(verdictOf(entry({ delayMs: 4.9, p50Ms: 50 })), null);
  // a late loader with no other load is not the host's doing (selfmon counts it against the loader)
  assert.equal(verdictOf(entry({ delayMs: 25, p50Ms: 2, contention: [] })), null);
  // paced: 4 clients at 1000 ops/s owe one op each 4 ms; 25 ms late, 660 of 1000 ops/s achieved (find and update)
  assert.equal(verdictOf(entry({ delayMs: 25, p50Ms: 400, targetRate: 1000, done: 6000 })), 'shared_host');
  assert.match(exclusionFacts(entry({ delayMs: 25, p50Ms: 400, targetRate: 1000, done: 6000 }), []).shared_host[0], /achieved 660 of the 1000 ops\/s offered/);
  // paced and on schedule: kept
  assert.equal(verdictOf(entry({ delayMs: 25, p50Ms: 400, targetRate: 1000, done: 9000 })), null);
  // an older summary without the workers' delay: left out, as it always was, and said why
  const old = entry({ delayMs: 25, p50Ms: 400 });
  old.loader.workers = [];
  assert.equal(verdictOf(old), 'shared_host');
});
