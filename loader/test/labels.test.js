'use strict';
// --label KEY=VALUE: the user's own dimensions (platform, os, ...), recorded in
// summary.json "labels" for `./run.sh report --by KEY`. Bad labels are usage errors (exit 2).
const test = require('node:test');
const assert = require('node:assert/strict');
const { parse, UsageError } = require('../src/cli/args');
const { buildSummary } = require('../src/results/summary');

test('--label is repeatable and lands in opts.labels', () => {
  const o = parse(['experiment1', '--label', 'platform=aws-m5.large', '--label', 'os=ubuntu-24.04']);
  assert.deepEqual(o.labels, { platform: 'aws-m5.large', os: 'ubuntu-24.04' });
  assert.deepEqual(parse(['experiment1']).labels, {});
});

test('bad labels: one usage error naming the problem', () => {
  const bad = [
    [['--label', 'platform'], /'platform' is not KEY=VALUE/],
    [['--label', 'Platform=x'], /is not KEY=VALUE/],
    [['--label', 'os=ubuntu 24'], /is not KEY=VALUE/],
    [['--label', 'os=a', '--label', 'os=b'], /os given twice/],
    [['--label', 'engine=x'], /'engine' is the report's own dimension/],
  ];
  for (const [args, re] of bad) assert.throws(() => parse(['experiment1', ...args]), (e) => e instanceof UsageError && re.test(e.message), args.join(' '));
});

test('summary.json labels: what --label gave, {} without', () => {
  const facts = (labels) => ({
    complete: true, running: false, config: { name: 'e', workload: { type: 'insert', clients: [1] }, preload: {} }, opts: { uri: 'mongodb://h/', labels },
    engine: 'wt', engineSource: 'flag', startedAt: new Date(0), steps: [], loader: {},
  });
  assert.deepEqual(buildSummary(facts({ platform: 'gcp' })).labels, { platform: 'gcp' });
  assert.deepEqual(buildSummary(facts(undefined)).labels, {});
});
