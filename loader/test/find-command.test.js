'use strict';
// findOneCommand (kinds/ops.js) keeps findOne's retryable-read behaviour: db.command is not a
// retryable operation in the driver, so a read that fails with a network error or a server-state
// code the driver retries (retryable-reads spec) is sent once more; any other error is not.
const test = require('node:test');
const assert = require('node:assert/strict');
const { findOneCommand } = require('../src/kinds/ops');

function fakeDb(errors) {
  const sent = [];
  return {
    sent,
    command: async (cmd) => {
      sent.push(cmd);
      const e = errors.shift();
      if (e) throw Object.assign(new Error(e.message || 'boom'), e);
      return { cursor: { firstBatch: [{ _id: 1, y: 'a' }] }, ok: 1 };
    },
  };
}
const col = { collectionName: 'c', readConcern: { level: 'local' }, readPreference: { mode: 'primary' } };

test('one retry after a retryable error, then the document', async () => {
  for (const e of [{ name: 'MongoNetworkError' }, { name: 'MongoNetworkTimeoutError' }, { name: 'MongoServerError', code: 10107 }, { name: 'MongoServerError', code: 91 }]) {
    const db = fakeDb([e]);
    assert.deepEqual(await findOneCommand(db, col)({ x: 1 }), { _id: 1, y: 'a' }, e.name);
    assert.equal(db.sent.length, 2, `${e.name} ${e.code ?? ''}: sent twice`);
    assert.deepEqual(db.sent[0], db.sent[1]);
  }
});

test('no retry after a non-retryable error, and at most one retry', async () => {
  const bad = fakeDb([{ name: 'MongoServerError', code: 2, message: 'BadValue' }]);
  await assert.rejects(findOneCommand(bad, col)({ x: 1 }), /BadValue/);
  assert.equal(bad.sent.length, 1);
  const twice = fakeDb([{ name: 'MongoNetworkError', message: 'first' }, { name: 'MongoNetworkError', message: 'second' }]);
  await assert.rejects(findOneCommand(twice, col)({ x: 1 }), /second/);
  assert.equal(twice.sent.length, 2);
});

test('no match is null, as findOne', async () => {
  const db = { command: async () => ({ cursor: { firstBatch: [] }, ok: 1 }) };
  assert.equal(await findOneCommand(db, col)({ x: 1 }), null);
});
