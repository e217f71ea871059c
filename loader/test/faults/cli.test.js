'use strict';
// bin/lab-fault.js without a cluster: usage errors and exit codes (the one-shot steps the scenario
// modules replaced are unknown subcommands now), --until parsing, watch and oplog-size.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { parseUntil } = require('../../src/faults/watch');
const { packageLoaded } = require('../support/package-loaded');

const BIN = path.join(__dirname, '../../bin/lab-fault.js');
const run = (...args) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 20000 });

test('usage errors exit 2 with a message', () => {
  for (const args of [['bogus'], ['state', '--member', 'shard01-c'], ['summarize', '--scenario', 'stale-secondary'], ['load'], ['evidence'], ['watch'], ['watch', '--until', 'lag>=3'], ['watch', '--until', 'soon', '--member', 'shard01-c'], ['watch', '--until', 'healthy', '--member', 'shard09-z'], ['failpoint', '--member', 'shard01-c'], ['fsync', '--member', 'shard01-c'], ['watch', '--frobnicate']]) {
    const r = run(...args, '--password-file', '/dev/null');
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /^(lab-fault|error): /); // error: a usage error, said as run.sh says its own
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

test('check, usage and a dry run write no summary, and so load no schema validator (Ajv)', () => {
  // Ajv's load and compile were two thirds of such a process's CPU (src/results/summary-schema.js)
  const usage = packageLoaded(BIN, 'ajv', ['usage']);
  assert.equal(usage.status, 0, usage.stderr);
  assert.match(usage.stdout, /fault failover/);
  assert.equal(usage.loaded, false);
  const check = packageLoaded(BIN, 'ajv', ['check', 'replica-lag', '--engine', 'wiredtiger']);
  assert.equal(check.status, 0, check.stderr);
  assert.equal(check.loaded, false);
  const dry = packageLoaded(BIN, 'ajv', ['run', 'replica-lag', '--engine', 'wiredtiger', '--dry-run']);
  assert.equal(dry.status, 0, dry.stderr);
  assert.match(dry.stdout, /^plan:/m);
  assert.equal(dry.loaded, false);
});
