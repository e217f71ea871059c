'use strict';
// The seeds' findings where a claim's verdict would go where the report's own rules (or the seed's
// words) would not: one test per cause, each on hand-made results folders (support/claim-runs.js)
// whose honest verdict is known.
const test = require('node:test');
const assert = require('node:assert/strict');
const { tmpDir } = require('./support/fixtures');
const { RS, W, P, reps, one, judged } = require('./support/claim-runs');

// the start of run i of n after `after` runs: one run a minute
const at = (k) => new Date(Date.parse('2026-11-01T00:00:00Z') + k * 60000).toISOString();
const WC1 = { extra: RS, parameters: W(10000000) };

test('"may tie" within the tie band is a tie, not reversed', () => {
  // w:0 3% slower than w:1 ("There's not much difference"), every other pair in order
  const order = { 'w:0': 3870, 'w:1': 3990, 'w:1+j': 1000, 'w:2': 1500, 'w:2+j': 500, majority: 1480, 'majority+j': 490 };
  const root = tmpDir();
  reps(root, { experiment: 'writeconcern', engine: 'wiredtiger', points: order, extra: RS, spread: [0.995, 1, 1.005], step: () => ({ journal: true }) });
  const r = one(root, '000-ordering');
  assert.equal(r.status, 'reproduced', JSON.stringify(r));
  assert.equal(r.pairs.find((p) => p.a === 'w:0').state, 'tie-allowed');
  // far below the band (w:0 at half of w:1) a pair that may tie is reversed
  const slow = tmpDir();
  reps(slow, { experiment: 'writeconcern', engine: 'wiredtiger', points: { ...order, 'w:0': 2000 }, extra: RS, step: () => ({ journal: true }) });
  assert.equal(one(slow, '000-ordering').status, 'contradicted');
});

test('a band\'s top includes the seed\'s own figure: a result of 3x reproduces "up to x3"; "significant" is more than about equal', () => {
  const make = (apart, spread) => {
    const root = tmpDir();
    reps(root, { experiment: 'writeconcern', engine: 'wiredtiger', points: { 'w:1+j': apart }, extra: { ...RS, storage: { journal_path: '/mnt/disk2' } }, step: () => ({ journal: true }), spread });
    reps(root, { experiment: 'writeconcern', engine: 'wiredtiger', points: { 'w:1+j': 1000 }, extra: RS, step: () => ({ journal: true }), spread });
    return one(root, '000-journal-disk');
  };
  const three = make(3000, [0.99, 1, 1.01]);
  assert.equal(three.status, 'reproduced', JSON.stringify(three));
  const any = make(1050, [0.995, 1, 1.005]);
  assert.equal(any.status, 'contradicted', JSON.stringify(any));
  assert.match(any.why, /wholly below the claimed 1\.15-3\.45/);
});
