'use strict';
// The fault process's side of the docker interface (src/faults/protocol.js) against a fake bash
// peer in-process: it reads the request lines the process writes and answers like
// lib/fault-bridge.sh does (id, rc, base64 output). The bash side is tested in test/fault.bats.
const test = require('node:test');
const assert = require('node:assert/strict');
const { PassThrough } = require('node:stream');
const readline = require('node:readline');
const { DockerPeer, encodeRequest, RefusedError, PREFIX } = require('../../src/faults/protocol');

// fakeBash(answer) -> { peer, seen }: answer(op, args) -> [rc, output]
function fakeBash(answer) {
  const toProcess = new PassThrough();
  const fromProcess = new PassThrough();
  const seen = [];
  readline.createInterface({ input: fromProcess }).on('line', (l) => {
    seen.push(l);
    const [prefix, id, op, ...args] = l.split('\t');
    assert.equal(prefix, PREFIX);
    const [rc, out] = answer(op, args);
    toProcess.write(`${id}\t${rc}\t${Buffer.from(out).toString('base64')}\n`);
  });
  return { peer: new DockerPeer({ input: toProcess, output: fromProcess }), seen, toProcess };
}

test('a request is one tab-separated line; the reply resolves with its exit code and output', async () => {
  const { peer, seen } = fakeBash((op) => (op === 'ls-rollback' ? [0, '/data/db/rollback/u/removed.1.bson\n'] : [0, '']));
  await peer.ask('stop', { member: 'shard01-c' });
  const r = await peer.ask('ls-rollback', { member: 'shard01-a' });
  await peer.ask('netem-partition', { member: 'shard01-a', others: 'shard01-b,shard01-c' });
  assert.deepEqual(seen, [`${PREFIX}\t1\tstop\tshard01-c`, `${PREFIX}\t2\tls-rollback\tshard01-a`, `${PREFIX}\t3\tnetem-partition\tshard01-a\tshard01-b,shard01-c`]);
  assert.equal(r.output, '/data/db/rollback/u/removed.1.bson\n');
  peer.close();
});

test('concurrent requests get their own replies even when answered out of order', async () => {
  const toProcess = new PassThrough();
  const fromProcess = new PassThrough();
  const peer = new DockerPeer({ input: toProcess, output: fromProcess });
  const a = peer.ask('logs', { member: 'shard01-a', since: '2026-01-01T00:00:00Z' });
  const b = peer.ask('logs', { member: 'shard01-b', since: '2026-01-01T00:00:00Z' });
  toProcess.write(`2\t0\t${Buffer.from('log of b').toString('base64')}\n`);
  toProcess.write(`1\t0\t${Buffer.from('log of a').toString('base64')}\n`);
  assert.equal((await a).output, 'log of a');
  assert.equal((await b).output, 'log of b');
  peer.close();
});

test('refused (126) and failed actions reject; allowFail returns the failure instead', async () => {
  const { peer } = fakeBash((op) => (op === 'stop' ? [126, "'x' is not a shard member"] : [1, 'no such service']));
  await assert.rejects(peer.ask('stop', { member: 'x' }), (e) => e instanceof RefusedError && /not a shard member/.test(e.message));
  await assert.rejects(peer.ask('start', { member: 'shard01-c' }), /failed \(exit 1\): no such service/);
  assert.equal((await peer.ask('start', { member: 'shard01-c' }, { allowFail: true })).rc, 1);
  peer.close();
});

test('an action outside the allow-list, a missing argument or a tab never leaves the process', () => {
  assert.throws(() => encodeRequest(1, 'down', {}), RefusedError);
  assert.throws(() => encodeRequest(1, 'stop', {}), /needs member/);
  assert.throws(() => encodeRequest(1, 'stop', { member: 'a\tb' }), /tab or newline/);
});

test('when bash closes its side, a pending request rejects instead of hanging', async () => {
  const toProcess = new PassThrough();
  const peer = new DockerPeer({ input: toProcess, output: new PassThrough() });
  const p = peer.ask('stop', { member: 'shard01-c' });
  toProcess.end();
  await assert.rejects(p, /closed before replying/);
});
