'use strict';
// The RetryableWriteError label on a failed write (session.js labelled), as 8.0 gives it
// (src/mongo/db/error_labels.cpp isRetryableWriteError): a retryable write (a txnNumber, no
// transaction) that failed with an error of the RetriableError category. The driver retries such a
// write once; through mongos right after a failover that retry finds the new primary.
const test = require('node:test');
const assert = require('node:assert/strict');
const { labelled } = require('../session');

const notPrimary = { ok: 0, code: 10107, codeName: 'NotWritablePrimary', errmsg: 'not primary' };

test('a retryable write refused "not primary" carries RetryableWriteError, once', () => {
  const r = labelled('insert', { insert: 'c', documents: [{}], txnNumber: 1 }, notPrimary);
  assert.deepEqual(r.errorLabels, ['RetryableWriteError']);
  assert.deepEqual(labelled('insert', { insert: 'c', txnNumber: 1 }, r).errorLabels, ['RetryableWriteError']);
  for (const code of [6, 91, 189, 11602, 13435]) assert.ok(labelled('update', { update: 'c', txnNumber: 2 }, { ...notPrimary, code }).errorLabels, String(code));
});

test('no label without a txnNumber, in a transaction, on a read, on success or on an error a retry would repeat', () => {
  const cases = [
    ['insert', { insert: 'c' }, notPrimary],
    ['insert', { insert: 'c', txnNumber: 1, autocommit: false }, notPrimary],
    ['find', { find: 'c', txnNumber: 1 }, notPrimary],
    ['insert', { insert: 'c', txnNumber: 1 }, { ok: 1, n: 1 }],
    ['insert', { insert: 'c', txnNumber: 1 }, { ok: 0, code: 11000, codeName: 'DuplicateKey', errmsg: 'E11000' }],
  ];
  for (const [name, body, reply] of cases) {
    assert.equal(labelled(name, body, reply).errorLabels, undefined, JSON.stringify([name, body, reply]));
  }
});
