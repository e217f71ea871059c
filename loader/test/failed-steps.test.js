'use strict';
// A step whose operations failed is not a measurement: above the threshold of
// common/step-failure.js the step is marked failed with its first error's code and message, and a
// run where no step measured exits non-zero. Driven by the real loader against the shim's 4.0
// MMAPv1 line labelled as an engine that keeps retryable writes on (--engine wiredtiger), so
// every insert carries a txnNumber and the line refuses it (support/server-lines.js
// retryable-writes-refused-mmapv1: the refusal's code is read from that table).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { startServer } = require('./support/server');
const { runLoader, tmpResults, runsOf, unwrap } = require('./support/loader');
const { BEHAVIOURS } = require('./support/server-lines');
const { FAILED_STEP_ERROR_FRACTION, withFailure, noStepMeasured } = require('../../common/step-failure');

const REFUSAL = BEHAVIOURS['retryable-writes-refused-mmapv1'].answer.refuse;

let results;
test.before(() => { results = tmpResults(); });
test.after(() => fs.rmSync(results, { recursive: true, force: true }));

const experiment1 = (server, engine) => runLoader(['experiment1', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0',
  '--docs', '200', '--engine', engine, '--progress-interval', '1s']);

test('every insert refused: the step is failed with the first error\'s code, the run exits 1 saying no step measured', async () => {
  const server = await startServer({ line: 'mongod-4.0-mmapv1-replset' });
  try {
    const r = await experiment1(server, 'wiredtiger');
    assert.equal(r.code, 1, r.stderr);
    assert.match(unwrap(r.stderr), /error: no step measured: every step had more than 1% of its operations fail \(step 1: 200 of 200, first error: /);
    const s = runsOf(results, 'experiment1', 'wiredtiger').at(-1);
    assert.equal(s.complete, false);
    assert.equal(s.exit_code, 1);
    assert.match(s.reason, /^no step measured/);
    const step = s.steps[0];
    assert.equal(step.ops.insert.count, 0);
    assert.equal(step.ops.insert.errors, 200);
    assert.deepEqual({ ...step.failed, first_error: undefined }, { error_fraction: 1, errors: 200, operations: 200,
      threshold: FAILED_STEP_ERROR_FRACTION, first_error: undefined });
    assert.equal(step.failed.first_error.code, REFUSAL.code);
    assert.equal(step.failed.first_error.codeName, REFUSAL.codeName);
    // mongodb 6.16 lib/operations/execute_operation.js rewrites code 20 into its own message
    assert.match(step.failed.first_error.message, /does not support retryable writes/);
    assert.equal(server.shim.stats.refused['retryable-writes-refused-mmapv1'], 200);
  } finally {
    await server.stop();
  }
});

test('a run whose inserts succeed has no failed step and exits 0', async () => {
  const server = await startServer({ line: 'mongod-4.0-mmapv1-replset' });
  try {
    const r = await experiment1(server, 'mmapv1');
    assert.equal(r.code, 0, r.stderr);
    const s = runsOf(results, 'experiment1', 'mmapv1').at(-1);
    assert.equal(s.complete, true);
    assert.equal(s.steps[0].ops.insert.count, 200);
    assert.equal('failed' in s.steps[0], false);
  } finally {
    await server.stop();
  }
});

test('withFailure / noStepMeasured: the threshold, the earliest first error, cases not run are neither', () => {
  const op = (count, errors, first) => ({ count, errors, ...(first ? { first_error: first } : {}) });
  const early = { code: 11000, codeName: 'DuplicateKey', message: 'E11000', at: '2026-01-01T00:00:01.000Z' };
  const late = { code: 2, codeName: 'BadValue', message: 'x', at: '2026-01-01T00:00:02.000Z' };
  assert.equal(withFailure({ index: 1, ops: { insert: op(990, 10, early) } }).failed, undefined, '1% is still a measurement');
  const f = withFailure({ index: 1, ops: { insert: op(980, 20, late), find: op(0, 5, early) } }).failed;
  assert.deepEqual(f.first_error, { code: 11000, codeName: 'DuplicateKey', message: 'E11000' });
  assert.equal(f.errors, 25);
  assert.equal(withFailure({ index: 2, ops: {}, unsupported: 'refused here' }).failed, undefined);
  assert.equal(noStepMeasured([{ index: 1, ops: { insert: op(0, 3, early) } }, { index: 2, ops: {}, unsupported: 'no' }]),
    'no step measured: every step had more than 1% of its operations fail (step 1: 3 of 3, first error: DuplicateKey (11000): E11000)');
  assert.equal(noStepMeasured([{ index: 1, ops: { insert: op(0, 3) } }, { index: 2, ops: { insert: op(5, 0) } }]),
    null);
  assert.equal(noStepMeasured([]), 'no step measured: no step ran');
  assert.equal(noStepMeasured([{ index: 1, name: 'journal off', ops: {}, unsupported: 'the members run with a journal' }]),
    'no step measured: no case ran (journal off: the members run with a journal)');
  assert.equal(noStepMeasured([{ index: 1, ops: {}, warmup: { ops: 200, measured: false } }]),
    'no step measured: step 1 measured no operation (it ended within its warm-up: 200 operations ran unmeasured; use --warmup 0 or a larger size)');
});
