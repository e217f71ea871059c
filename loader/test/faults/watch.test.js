'use strict';
// src/faults/watch.js's loop over a scripted sequence of replSetGetStatus documents (shaped like
// mongod 8.0's; see decisions.test.js for the sources): conditions, timeline rows, primaries seen.
const test = require('node:test');
const assert = require('node:assert/strict');
const { watchUntil } = require('../../src/faults/watch');

const at = (s) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
const mem = (name, stateStr, sec, extra = {}) => ({ name: `${name}:27017`, stateStr, state: stateStr === 'PRIMARY' ? 1 : 2, health: 1, optimeDate: at(sec), ...extra });

// scripted(statuses): a Members stand-in answering status() from the list (the last repeats)
function scripted(statuses) {
  let i = 0;
  return {
    hosts: ['shard01-a:27017', 'shard01-b:27017', 'shard01-c:27017'],
    resolve: (n) => `${n.split(':')[0]}:27017`,
    status: async () => ({ from: 'shard01-b', status: statuses[Math.min(i++, statuses.length - 1)] }),
    windows: async () => [],
    admin: async () => ({}),
  };
}

test('primary-not: reached only once another member is PRIMARY; every primary seen is recorded', async () => {
  const m = scripted([
    { term: 1, members: [mem('shard01-a', 'PRIMARY', 10), mem('shard01-b', 'SECONDARY', 10), mem('shard01-c', 'SECONDARY', 10)] },
    { term: 1, members: [mem('shard01-a', '(not reachable/healthy)', 0, { health: 0 }), mem('shard01-b', 'SECONDARY', 10), mem('shard01-c', 'SECONDARY', 10)] },
    { term: 2, members: [mem('shard01-a', '(not reachable/healthy)', 0, { health: 0 }), mem('shard01-b', 'PRIMARY', 12), mem('shard01-c', 'SECONDARY', 12)] },
  ]);
  const rows = [];
  const lines = [];
  const r = await watchUntil(m, { until: 'primary-not=shard01-a', timeoutS: 60, phase: 'failover', timeline: (x) => rows.push(x), say: (l) => lines.push(l), sleep: async () => {} });
  assert.equal(r.reached, true);
  assert.equal(r.ticks, 3);
  assert.deepEqual(r.primariesSeen, ['shard01-a', 'shard01-b']);
  assert.deepEqual(rows.map((x) => x.primary), ['shard01-a', null, 'shard01-b']);
  assert.match(lines[2], /\[failover\] a \(not reachable\/healthy\) b PRIMARY c SECONDARY/);
});

test('lag>=: peak lag from the member optimes; not reached before the timeout', async () => {
  const m = scripted([{ members: [mem('shard01-a', 'PRIMARY', 40), mem('shard01-b', 'SECONDARY', 40), mem('shard01-c', 'SECONDARY', 20)] }]);
  const r = await watchUntil(m, { until: 'lag>=30', member: 'shard01-c', timeoutS: 0, sleep: async () => {} });
  assert.equal(r.reached, false);
  assert.equal(r.peakLagSeconds, 20);
  const r2 = await watchUntil(m, { until: 'lag>=20', member: 'shard01-c', timeoutS: 0, sleep: async () => {} });
  assert.equal(r2.reached, true);
});
