'use strict';
// --comparison ID:SIDE:POSITION: ./run.sh compare names each run's place in its
// interleaved order; summary.json "comparison" records it for the report's drift check. And
// `lab-loader estimate`, which ./run.sh compare prints with its plan.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { parse, UsageError } = require('../src/cli/args');
const { buildSummary } = require('../src/results/summary');

test('--comparison lands in opts.comparison as {id, side, position}', () => {
  assert.deepEqual(parse(['experiment2', '--comparison', 'cmp-1:mmapv1:3']).comparison, { id: 'cmp-1', side: 'mmapv1', position: 3 });
  assert.equal(parse(['experiment2']).comparison, undefined);
});

test('bad --comparison: one usage error naming the problem', () => {
  const bad = [
    [['--comparison', 'cmp-1:mmapv1'], /is not ID:SIDE:POSITION/],
    [['--comparison', 'cmp 1:a:1'], /is not ID:SIDE:POSITION/],
    [['--comparison', 'c:a:0'], /POSITION: 0 is out of range/],
    [['--comparison', 'c:a:x'], /POSITION: 'x' is not a whole number/],
    [['--comparison', 'c:a:1', '--repeat', '2'], /goes with --repeat 1/],
  ];
  for (const [args, re] of bad) assert.throws(() => parse(['experiment2', ...args]), (e) => e instanceof UsageError && re.test(e.message), args.join(' '));
});

test('summary.json comparison: what --comparison gave, null without', () => {
  const facts = (comparison) => ({
    complete: true, running: false, config: { name: 'e', workload: { type: 'insert', clients: [1] }, preload: {} }, opts: { uri: 'mongodb://h/', comparison },
    engine: 'wt', engineSource: 'flag', startedAt: new Date(0), steps: [], loader: {},
  });
  assert.deepEqual(buildSummary(facts({ id: 'c', side: 'a', position: 2 })).comparison, { id: 'c', side: 'a', position: 2 });
  assert.equal(buildSummary(facts(undefined)).comparison, null);
});

test('lab-loader estimate: the measured steps of one run, or unknown when their work bounds them', () => {
  const est = (...a) => execFileSync(process.execPath, [path.join(__dirname, '..', 'bin', 'lab-loader.js'), 'estimate', ...a], { encoding: 'utf8' }).trim();
  // 2 steps x (30 s + the file's 5 s warm-up)
  assert.equal(est('experiment2', '--clients', '1,2', '--duration', '30s', '--warmup', '5s'), 'seconds=70 steps=2 bound=time preload=1000000');
  assert.equal(est('experiment2', '--sla', 'p99=10ms', '--duration', '10s', '--warmup', '0'), 'seconds=240 steps=24 bound=at-most preload=1000000');
  assert.equal(est('experiment1', '--docs', '100'), 'seconds=unknown steps=1 bound=work preload=0');
});
