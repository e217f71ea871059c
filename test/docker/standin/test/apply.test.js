'use strict';
// How a secondary groups the oplog entries it applies (member.js insertGroup): consecutive
// single-document inserts into one collection as one insert of at most 64, as 8.0's oplog applier
// groups them (src/mongo/db/repl/insert_group.cpp, kInsertGroupMaxBatchCount); anything else alone.
const test = require('node:test');
const assert = require('node:assert/strict');
const { insertGroup, INSERT_GROUP_MAX } = require('../member');

const ins = (coll, n = 1, db = 'lab') => ({ cmd: { insert: coll, documents: Array.from({ length: n }, (_, i) => ({ _id: i })), $db: db } });
const upd = (coll) => ({ cmd: { update: coll, updates: [{ q: {}, u: { $set: { a: 1 } } }], $db: 'lab' } });
// groups(entries): the sizes of the groups the whole list is applied in
function groups(entries) {
  const out = [];
  for (let at = 0; at < entries.length;) {
    const g = insertGroup(entries, at);
    assert.ok(g.length >= 1);
    out.push(g.length);
    at += g.length;
  }
  return out;
}

test('consecutive single-document inserts into one collection are one group of at most 64', () => {
  assert.equal(INSERT_GROUP_MAX, 64);
  assert.deepEqual(groups(Array.from({ length: 150 }, () => ins('a'))), [64, 64, 22]);
});

test('a change of collection or database, an insert of several documents or another write ends a group', () => {
  const list = [ins('a'), ins('a'), ins('b'), ins('b', 1, 'other'), ins('b', 1, 'other'), ins('a', 3), ins('a'), upd('a'), ins('a'), ins('a')];
  assert.deepEqual(groups(list), [2, 1, 2, 1, 1, 1, 2]);
});

test('an insert carrying any other field (bypassDocumentValidation, ...) is applied alone', () => {
  const odd = { cmd: { ...ins('a').cmd, bypassDocumentValidation: true } };
  assert.deepEqual(groups([ins('a'), odd, ins('a'), ins('a')]), [1, 1, 2]);
});
