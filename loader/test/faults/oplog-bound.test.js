'use strict';
// fault stale-secondary --oplog-size-mb past what mongod takes (99999999999 was accepted,
// in a scenario that destroys the cluster to recreate it with that size): refused in check, before
// any action, with the shared number grammar's message.
const test = require('node:test');
const assert = require('node:assert/strict');
const stale = require('../../src/faults/scenarios/stale-secondary');
const tables = require('../../../common/tables');

const params = (extra) => ({ 'oplog-size-mb': '16', rate: '200', 'baseline-seconds': '0', 'roll-seconds': '3', 'restart-seconds': '3', 'settle-seconds': '0', 'settle-looks': '3', ...extra });

test('--oplog-size-mb above mongod\'s int: refused naming the value as typed and the bound; the largest int is taken', () => {
  const env = { engine: tables.engine('wiredtiger'), shard: tables.shardSet() };
  assert.throws(() => stale.check(params({ 'oplog-size-mb': '99999999999' }), env),
    (e) => e.message === '--oplog-size-mb: 99999999999 is out of range 1..2147483647 (mongod takes --oplogSize as a 32-bit int)');
  assert.doesNotThrow(() => stale.check(params({ 'oplog-size-mb': '2147483647' }), env));
});
