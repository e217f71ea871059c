'use strict';
// ./run.sh compare's plan (src/compare/plan.js): every side REPEAT times, odd rounds in the order
// given and even rounds reversed, so no side runs all its runs first and neighbours differ.
const test = require('node:test');
const assert = require('node:assert/strict');
const { planOrder, planTsv } = require('../src/compare/plan');

const sides = (plan) => plan.map((p) => p.side).join(' ');

test('two sides: A B B A A B B A for --repeat 4, positions from 1', () => {
  const plan = planOrder(4, ['wiredtiger', 'rocksdb']);
  assert.equal(sides(plan), 'wiredtiger rocksdb rocksdb wiredtiger wiredtiger rocksdb rocksdb wiredtiger');
  assert.deepEqual(plan.map((p) => p.position), [1, 2, 3, 4, 5, 6, 7, 8]);
});

test('three sides: A B C C B A; an odd repeat ends on a round in the given order', () => {
  assert.equal(sides(planOrder(2, ['a', 'b', 'c'])), 'a b c c b a');
  assert.equal(sides(planOrder(3, ['a', 'b'])), 'a b b a a b');
  assert.equal(sides(planOrder(1, ['a', 'b'])), 'a b');
});

test('every side runs exactly REPEAT times', () => {
  const plan = planOrder(5, ['a', 'b', 'c', 'd']);
  for (const s of ['a', 'b', 'c', 'd']) assert.equal(plan.filter((p) => p.side === s).length, 5, s);
});

test('plan.tsv: position<TAB>side, one line a run', () => {
  assert.equal(planTsv(planOrder(2, ['x', 'y'])), '1\tx\n2\ty\n3\ty\n4\tx\n');
});
