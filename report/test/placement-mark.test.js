'use strict';
// The report marks runs whose loader shared CPUs with the cluster's members (summary.json
// placement.shared), says where it ran when it did not, and adds nothing for runs without it.
const test = require('node:test');
const assert = require('node:assert/strict');
const { normalise } = require('../src/normalise');

const summary = (placement) => ({
  schema_version: 1, complete: true, experiment: 'e', engine: 'wt', parameters: {}, steps: [],
  loader: { version: '1.0.0', node: 'v20', driver: 'mongodb 7' }, ...(placement === undefined ? {} : { placement }),
});

test('placement in the run description', () => {
  const d = (p) => normalise(summary(p), [], 'dir').description.loader;
  assert.equal(d(undefined), 'lab-loader 1.0.0, v20, mongodb 7');
  assert.equal(d(null), 'lab-loader 1.0.0, v20, mongodb 7');
  assert.match(d({ loader_cpus: '0-1', member_cpus: '0-1', shared: true }), /LOADER SHARED CPUs WITH THE MEMBERS \(0-1\)$/);
  assert.match(d({ loader_cpus: '6-7', member_cpus: '0-5', shared: false }), /loader on CPUs 6-7 apart from the members' 0-5$/);
});
