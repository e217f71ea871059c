'use strict';
// bin/lab-fault.js without a cluster: usage errors and exit codes, --until parsing, and summarize
// turning step results (as the watch/check-set/evidence steps write them) into summary.json.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { parseUntil } = require('../../bin/lab-fault');

const BIN = path.join(__dirname, '../../bin/lab-fault.js');
const run = (...args) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 20000 });

test('usage errors exit 2 with a message', () => {
  for (const args of [['bogus'], ['watch'], ['watch', '--until', 'lag>=3'], ['watch', '--until', 'soon', '--member', 'shard01-c'], ['state', '--member', 'shard09-z'], ['failpoint', '--member', 'shard01-c'], ['fsync', '--member', 'shard01-c'], ['state', '--frobnicate']]) {
    const r = run(...args, '--password-file', '/dev/null');
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /^lab-fault: /);
  }
});

test('--until conditions', () => {
  assert.deepEqual(parseUntil('lag>=30'), { kind: 'lag>=', n: 30, needsMember: true });
  assert.deepEqual(parseUntil('lag<2'), { kind: 'lag<', n: 2, needsMember: true });
  assert.deepEqual(parseUntil('state=RECOVERING|SECONDARY').states, ['RECOVERING', 'SECONDARY']);
  assert.equal(parseUntil('primary-not=shard01-a').not, 'shard01-a');
  assert.equal(parseUntil('healthy').kind, 'healthy');
  assert.throws(() => parseUntil('lag>thirty'), /unknown --until/);
});

function runDir(steps) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-fault-'));
  for (const [name, body] of Object.entries(steps)) fs.writeFileSync(path.join(dir, `step-${name}.json`), JSON.stringify(body));
  return dir;
}

test('summarize stale-secondary', () => {
  const stale = runDir({
    'stale-past': { reached: true },
    evidence: { self: { stateStr: 'RECOVERING', infoMessage: 'Could not find member to sync from' }, tooStale: true, initialSync: false, legacy: false },
  });
  const r1 = run('summarize', '--run-dir', stale, '--scenario', 'stale-secondary', '--param', 'engine=wiredtiger', '--param', 'member=shard01-c');
  assert.equal(r1.status, 0, r1.stdout + r1.stderr);
  assert.match(r1.stdout, /PASS: stale-secondary: shard01-c is RECOVERING.*id 21126/);
});

test('watch against a server that is no replica set: one row per second, honest "no member answers", exit 3 on timeout', async () => {
  const { testServer } = require('../support/server');
  const server = await testServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-watch-'));
  const hostPort = server.uri.replace(/^mongodb:\/\//, '').replace(/\/.*$/, '');
  try {
    const { spawn } = require('node:child_process');
    const child = spawn(process.execPath, [BIN, 'watch', '--members', hostPort, '--user=', '--until', 'healthy', '--timeout', '3', '--phase', 'test', '--timeline', path.join(dir, 'timeline.ndjson'), '--result', path.join(dir, 'step.json')]);
    let out = '';
    child.stdout.on('data', (b) => { out += b; });
    const code = await new Promise((r) => child.on('exit', r));
    assert.equal(code, 3, out);
    const rows = fs.readFileSync(path.join(dir, 'timeline.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.ok(rows.length >= 3 && rows.length <= 5, `${rows.length} rows in ~3 s`);
    for (const row of rows) {
      assert.equal(row.phase, 'test');
      assert.ok(!Number.isNaN(Date.parse(row.t)));
      assert.deepEqual(row.members, {});
      assert.equal(row.primary, null);
    }
    assert.match(out, /\[test\] no member answers/);
    const res = JSON.parse(fs.readFileSync(path.join(dir, 'step.json'), 'utf8'));
    assert.equal(res.reached, false);
  } finally {
    await server.stop();
  }
});

test('load: paced upserts over a fixed key space (bounded data), stops by itself', async () => {
  const { testServer } = require('../support/server');
  const { MongoClient } = require('mongodb');
  const server = await testServer();
  const hostPort = server.uri.replace(/^mongodb:\/\//, '').replace(/\/.*$/, '');
  try {
    const { spawn } = require('node:child_process');
    const t0 = Date.now();
    const child = spawn(process.execPath, [BIN, 'load', '--mongos', hostPort, '--user=', '--rate', '400', '--batch', '50', '--keys', '300', '--max-seconds', '2']);
    let out = '';
    child.stdout.on('data', (b) => { out += b; });
    const code = await new Promise((r) => child.on('exit', r));
    assert.equal(code, 0, out);
    const m = /load: stopped after (\d+) documents, 0 failed batches/.exec(out);
    assert.ok(m, out);
    const n = Number(m[1]);
    const secs = (Date.now() - t0) / 1000;
    assert.ok(n >= 400 && n <= 400 * secs + 50, `${n} documents in ${secs.toFixed(1)} s at --rate 400`);
    const client = new MongoClient(server.uri);
    try {
      assert.equal(await client.db('lab_fault').collection('load').countDocuments(), 300); // the key space, not n
    } finally {
      await client.close();
    }
  } finally {
    await server.stop();
  }
});

test('evidence: finds the too-stale lines in a saved log even when no member answers', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-evidence-'));
  const log = path.join(dir, 'shard01-c.log');
  // mongodb/mongo bgsync.cpp LOGV2_ERROR(21126, ...) as an 8.0 mongod prints it (see decisions.test.js)
  fs.writeFileSync(log, [
    '{"t":{"$date":"2026-11-21T08:00:01.000+00:00"},"s":"I","c":"REPL","id":21358,"ctx":"ReplCoord-0","msg":"Replica set state transition","attr":{"newState":"RECOVERING","oldState":"STARTUP2"}}',
    '{"t":{"$date":"2026-11-21T08:00:02.000+00:00"},"s":"E","c":"REPL","id":21126,"ctx":"BackgroundSync","msg":"Too stale to catch up. Entering maintenance mode. See http://dochub.mongodb.org/core/resyncingaverystalereplicasetmember","attr":{"lastOpTimeFetched":{"ts":{"$timestamp":{"t":1795000000,"i":7}},"t":1},"earliestOpTimeSeen":{"ts":{"$timestamp":{"t":1795000030,"i":1}},"t":1}}}',
  ].join('\n'));
  fs.writeFileSync(path.join(dir, 'optime.json'), JSON.stringify({ optime: { t: 1795000000, i: 9 } }));
  const r = run('evidence', '--members', '127.0.0.1:1,127.0.0.1:2,127.0.0.1:3', '--user=', '--member', '127.0.0.1:3', '--log', log, '--result', path.join(dir, 'step-evidence.json'), '--optime-file', path.join(dir, 'optime.json'));
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /log: \{"t".*"id":21126/);
  assert.match(r.stdout, /upper bound after the stop \(primary's newest entry\): Timestamp\(1795000000, 9\)/);
  const ev = JSON.parse(fs.readFileSync(path.join(dir, 'step-evidence.json'), 'utf8'));
  assert.equal(ev.tooStale, true);
  assert.deepEqual(ev.logLines[0].earliestOpTimeSeen, { t: 1795000030, i: 1 });
  assert.ok(ev.self.error, 'the member did not answer: said so, not guessed');
  assert.equal(ev.windows.length, 2);
});

test('oplog-size --expect: the answer is the exit code (4 when a member has another size or none)', async () => {
  const { testServer } = require('../support/server');
  const server = await testServer();
  const hostPort = server.uri.replace(/^mongodb:\/\//, '').replace(/\/.*$/, '');
  try {
    // the test server has no oplog: its size is unknown (null), never "as expected"
    const { spawn } = require('node:child_process');
    const child = spawn(process.execPath, [BIN, 'oplog-size', '--expect', '16', '--members', hostPort, '--user=']);
    let out = '';
    child.stdout.on('data', (b) => { out += b; });
    const code = await new Promise((r) => child.on('exit', r));
    assert.equal(code, 4, out);
    assert.match(out, /^\{"127\.0\.0\.1":null\}$/m);
  } finally {
    await server.stop();
  }
});
