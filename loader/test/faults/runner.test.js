'use strict';
// The fault process end to end: bin/lab-fault.js run SCENARIO as a real child process, talking the
// real driver to mongo-java-server, its docker requests answered by a fake bash peer here (the
// real bash side is test/fault.bats), signals sent for real. The scenario is the recipe's example
// (fixtures/scenarios/pause-member.js).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { spawn } = require('node:child_process');
const { startServer } = require('../support/server');
const { PREFIX } = require('../../src/faults/protocol');

const BIN = path.join(__dirname, '../../bin/lab-fault.js');
const FIXTURES = path.join(__dirname, 'fixtures/scenarios');

let server;
test.before(async () => { server = await startServer(); });
test.after(async () => { await server.stop(); });

// runFault(args, {refuse, onLine}) -> {code, requests, lines, results}: answers each request with
// rc 0 (or 126 for ops in refuse), like lib/fault-bridge.sh.
function runFault(args, { refuse = [], onLine = () => {} } = {}) {
  const results = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-fault-run-'));
  const child = spawn(process.execPath, [BIN, 'run', ...args, '--scenarios-dir', FIXTURES, '--members', `127.0.0.1:${server.port}`, '--user', '', '--results-dir', results], { stdio: ['pipe', 'pipe', 'inherit'] });
  const requests = [];
  const lines = [];
  readline.createInterface({ input: child.stdout }).on('line', (l) => {
    if (l.startsWith(`${PREFIX}\t`)) {
      const [, id, op, ...a] = l.split('\t');
      requests.push([op, ...a].join(' '));
      const rc = refuse.includes(op) ? 126 : 0;
      child.stdin.write(`${id}\t${rc}\t${Buffer.from(rc ? 'refused here' : '').toString('base64')}\n`);
    } else {
      lines.push(l);
    }
    onLine(l, child);
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, requests, lines, results })));
}

function summaryOf(results) {
  const dir = path.join(results, 'fault-pause-member', 'wiredtiger');
  const runs = fs.readdirSync(dir).filter((f) => f !== 'latest');
  assert.equal(runs.length, 1);
  return { s: JSON.parse(fs.readFileSync(path.join(dir, runs[0], 'summary.json'), 'utf8')), dir: path.join(dir, runs[0]) };
}

test('a whole run: plan, docker pause, watch over the real driver, docker unpause, verdict true, summary via results.js', async () => {
  const r = await runFault(['pause-member', '--member', '127.0.0.1', '--rounds', '3']);
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(r.requests, ['pause 127.0.0.1', 'unpause 127.0.0.1']);
  assert.ok(r.lines.includes('  1. docker compose pause 127.0.0.1'));
  assert.ok(r.lines.includes('verdict: PASS: pause-member 127.0.0.1: 3 of 3 pings answered'));
  const { s, dir } = summaryOf(r.results);
  assert.equal(s.schema_version, 1);
  assert.equal(s.complete, true);
  assert.equal(s.why, undefined);
  assert.equal(s.result, true);
  assert.equal(s.pass, true);
  assert.deepEqual(s.evidence, { pings: 3, rounds: 3 });
  assert.equal(fs.readFileSync(path.join(dir, 'timeline.ndjson'), 'utf8').trim().split('\n').length, 3);
  assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'scenario.json'), 'utf8')).params.rounds, '3');
  assert.ok(!fs.existsSync(path.join(dir, '.reserve')));
});

test('--dry-run: the plan and each docker action as a request (bash prints them), no results folder, MongoDB untouched', async () => {
  const r = await runFault(['pause-member', '--member', '127.0.0.1', '--dry-run']);
  assert.equal(r.code, 0);
  assert.deepEqual(r.requests, ['pause 127.0.0.1', 'unpause 127.0.0.1']);
  assert.deepEqual(fs.readdirSync(r.results), []);
});

test('SIGINT mid-watch: heal still runs, summary complete:false with why, verdict not true, exit 130', async () => {
  let sent = false;
  const r = await runFault(['pause-member', '--member', '127.0.0.1', '--rounds', '1000'], {
    onLine: (l, child) => { if (!sent && /^results: /.test(l)) { sent = true; setTimeout(() => child.kill('SIGINT'), 400); } },
  });
  assert.equal(r.code, 130, r.lines.join('\n'));
  assert.deepEqual(r.requests, ['pause 127.0.0.1', 'unpause 127.0.0.1']);
  const { s } = summaryOf(r.results);
  assert.equal(s.complete, false);
  assert.equal(s.why, 'interrupted (SIGINT)');
  assert.equal(s.result, 'unknown');
  assert.equal(s.pass, false);
  assert.match(s.verdict, /^UNKNOWN: .*did not finish: interrupted \(SIGINT\)/);
});

test('a refused docker action: nothing to undo, summary complete:false naming it, verdict false, exit 1', async () => {
  const r = await runFault(['pause-member', '--member', '127.0.0.1'], { refuse: ['pause'] });
  assert.equal(r.code, 1);
  assert.deepEqual(r.requests, ['pause 127.0.0.1']);
  const { s } = summaryOf(r.results);
  assert.equal(s.complete, false);
  assert.match(s.why, /bash refused docker action 'pause'/);
  assert.equal(s.result, false);
});

test('usage: unknown scenario, a flag the scenario does not take, a check failure: exit 2, nothing asked', async () => {
  for (const args of [['no-such'], ['pause-member', '--member', '127.0.0.1', '--w', '1'], ['pause-member', '--member', 'shard09-z'], ['pause-member', '--member', '127.0.0.1', '--engine', 'rocks']]) {
    const r = await runFault(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.deepEqual(r.requests, []);
  }
});

test('verdictOf: an unfinished run is never true; a result outside true/false/unknown is a bug', () => {
  const { verdictOf } = require('../../src/faults/runner');
  const says = (result) => ({ name: 'x', verdict: () => ({ result, line: 'saw it', evidence: {} }) });
  assert.equal(verdictOf(says(true), {}, { complete: true }).result, true);
  const v = verdictOf(says(true), {}, { complete: false, why: 'interrupted (SIGTERM)' });
  assert.equal(v.result, 'unknown');
  assert.equal(v.line, 'saw it (the run did not finish: interrupted (SIGTERM))');
  assert.equal(verdictOf(says(false), {}, { complete: false, why: 'e' }).result, false);
  assert.throws(() => verdictOf(says('pass'), {}, { complete: true }), /true, false or 'unknown'/);
});
