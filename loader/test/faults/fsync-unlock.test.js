'use strict';
// cluster.js fsyncUnlockAll: unlock until the lock count is 0 (a repeated run may have locked
// twice), at most 20 times; 'not locked' ends it, any other error is the caller's. The member is a
// stand-in with a lock count: fsyncLock/fsyncUnlock need a real mongod (the scenario's docker test).
const test = require('node:test');
const assert = require('node:assert/strict');
const { fsyncUnlockAll } = require('../../src/faults/cluster');

// member(locks, {fail}) -> admin() answering fsyncUnlock as mongod does: the count left, or
// 'not locked' (code 125) when there is none; fail: the error every command gets
function member(locks, { fail } = {}) {
  const m = { calls: 0 };
  m.admin = async (host, cmd) => {
    assert.deepEqual(cmd, { fsyncUnlock: 1 });
    m.calls++;
    if (fail) throw new Error(fail);
    if (locks === 0) throw Object.assign(new Error('fsyncUnlock called when not locked'), { code: 125 });
    locks--;
    return { ok: 1, lockCount: locks };
  };
  return m;
}

test('fsyncUnlockAll: unlocks until the count is 0; not locked is 0 unlocks; at most 20; other errors thrown', async () => {
  const twice = member(2);
  assert.equal(await fsyncUnlockAll(twice, 'shard01-c'), 2);
  assert.equal(twice.calls, 2);
  const none = member(0);
  assert.equal(await fsyncUnlockAll(none, 'shard01-c'), 0);
  assert.equal(none.calls, 1);
  const many = member(50);
  assert.equal(await fsyncUnlockAll(many, 'shard01-c'), 20);
  await assert.rejects(fsyncUnlockAll(member(1, { fail: 'connection refused' }), 'shard01-c'), /connection refused/);
});
