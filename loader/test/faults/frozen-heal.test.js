'use strict';
// A fault against a server that stops answering still ends. The real fault process
// (bin/lab-fault.js run replica-lag) runs its background write load over the real driver against
// mongo-java-server standing in for mongos; the members are a replica-set line of the wire shim
// (support/wire-shim.js: replSetGetStatus for ready() and the watch). Once the load runs, the
// mongos server is frozen (SIGSTOP): the batch in flight never gets an answer and its connection
// stays open, as with a frozen member on a Docker host. Then SIGTERM: the process heals (its
// netem undo is asked and answered), abandons the write after its bound, names it, writes the
// summary of an interrupted run and exits 130 on its own; a second SIGTERM while it heals exits
// at once. Docker requests are answered here as lib/fault-bridge.sh answers them. Below them, the
// runner's other bounds in this process (harness.js), and failover's writers against the frozen
// server. The bounds are src/faults/runner.js BOUNDS.
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
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let mongos;
let members;
test.before(async () => {
  [mongos, members] = await Promise.all([startServer(), startServer({ line: 'mongod-8.0-wiredtiger-replset' })]);
});
test.after(async () => {
  mongos.proc.kill('SIGCONT');
  await Promise.all([mongos.stop(), members.stop()]);
});

// startFault() -> {child, lines, requests, exited, results, waitFor(re)}: replica-lag by netem (its undo is a
// docker request, answered at once), 200 documents/s, a fault watch far longer than the test.
// The three members share the test host's name (127.0.0.1); only the load and the heal matter here.
function startFault({ faultSeconds = '600' } = {}) {
  const results = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-fault-frozen-'));
  const child = spawn(process.execPath, [BIN, 'run', 'replica-lag', '--method', 'netem', '--threshold', '3s', '--rate', '200',
    '--baseline-seconds', '0', '--fault-seconds', faultSeconds, '--members', members.shim.hosts.join(','), '--mongos', `127.0.0.1:${mongos.port}`,
    '--user', '', '--results-dir', results], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = [];
  const requests = [];
  const waiters = [];
  readline.createInterface({ input: child.stdout }).on('line', (l) => {
    if (l.startsWith(`${PREFIX}\t`)) {
      const [, id, op, ...a] = l.split('\t');
      requests.push([op, ...a].join(' '));
      child.stdin.write(`${id}\t0\t\n`);
    } else {
      lines.push(l);
    }
    for (const w of waiters.slice()) if (w.re.test(l)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(); }
  });
  const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, at: Date.now() })));
  const waitFor = (re) => new Promise((resolve) => waiters.push({ re, resolve }));
  return { child, lines, requests, exited, results, waitFor };
}

const LOAD_LEFT = 'load: did not stop within 5 s of the stop (its batch in flight unanswered: a member not answering, or a busy host); not part of the heal';

// exitWithin(f, ms): the process's exit, or a failure naming the wait (and the process killed)
async function exitWithin(f, ms, what) {
  const r = await Promise.race([f.exited, sleep(ms).then(() => null)]);
  if (!r) {
    f.child.kill('SIGKILL');
    await f.exited;
    assert.fail(`the fault process did not exit within ${ms / 1000} s of ${what}; its last lines:\n${f.lines.slice(-8).join('\n')}`);
  }
  return r;
}

function summaryOf(results) {
  const dir = path.join(results, 'fault-replica-lag', 'wiredtiger');
  const runs = fs.readdirSync(dir).filter((f) => f !== 'latest');
  assert.equal(runs.length, 1);
  assert.ok(fs.existsSync(path.join(dir, 'latest')), 'the run folder is whole (latest moved)');
  return JSON.parse(fs.readFileSync(path.join(dir, runs[0], 'summary.json'), 'utf8'));
}

// frozenFault(): a fault whose load writes to mongos, then mongos frozen with a batch in flight
// (at 200/s a 100-document batch is sent every 0.5 s, so 1 s after the freeze one is waiting)
async function frozenFault() {
  const f = startFault();
  await f.waitFor(/^\d\d:\d\d:\d\d \[fault\]/); // the netem asked, the load running, the watch ticking
  mongos.proc.kill('SIGSTOP');
  await sleep(1000);
  return f;
}

test('SIGTERM with mongos frozen mid-write: healed, the write abandoned and named, summary of an interrupted run, exit 130 on its own', { timeout: 30000 }, async () => {
  const f = await frozenFault();
  try {
    const t0 = Date.now();
    f.child.kill('SIGTERM');
    // bounds: the load's in-flight write 5 s, closing the clients 2 s; 10 s leaves 3 s of margin
    const r = await exitWithin(f, 10000, 'SIGTERM');
    assert.equal(r.signal, null);
    assert.equal(r.code, 130, f.lines.join('\n'));
    assert.ok(r.at - t0 >= 4000, `exited ${r.at - t0} ms after SIGTERM: the write was not waited for at all`);
    assert.deepEqual(f.requests, ['netem-slow 127.0.0.1 100ms 64kbit', 'netem-heal 127.0.0.1'], 'the undo was asked and answered');
    assert.ok(f.lines.includes(`${LOAD_LEFT}; left: its write batch in flight through mongos, abandoned (the server may still apply it)`), f.lines.join('\n'));
    assert.match(f.lines.at(-1), /^verdict: UNKNOWN: .*the run did not finish: interrupted \(SIGTERM\)/);
    const s = summaryOf(f.results);
    assert.equal(s.complete, false);
    assert.equal(s.why, 'interrupted (SIGTERM)');
    assert.notEqual(s.result, true);
    assert.deepEqual(s.left, ['its write batch in flight through mongos, abandoned (the server may still apply it)']);
  } finally {
    mongos.proc.kill('SIGCONT');
    f.child.kill('SIGKILL');
    fs.rmSync(f.results, { recursive: true, force: true });
  }
});

test('a second SIGTERM while it heals: exits at once, naming what it left; the summary says it was forced', { timeout: 30000 }, async () => {
  const f = await frozenFault();
  try {
    f.child.kill('SIGTERM');
    await f.waitFor(/^heal: undo netem/);
    await sleep(1000); // the undo answered; the heal waits for the frozen write
    const t1 = Date.now();
    f.child.kill('SIGTERM');
    const r = await exitWithin(f, 2500, 'the second SIGTERM');
    assert.equal(r.signal, null);
    assert.equal(r.code, 130, f.lines.join('\n'));
    assert.deepEqual(f.requests, ['netem-slow 127.0.0.1 100ms 64kbit', 'netem-heal 127.0.0.1']);
    assert.ok(f.lines.some((l) => /^SIGTERM again: exiting now, the heal unfinished; left: the write load \(stopping: its batch in flight through mongos\)$/.test(l)), f.lines.join('\n'));
    const s = summaryOf(f.results);
    assert.equal(s.complete, false);
    assert.equal(s.why, 'interrupted (SIGTERM); then forced to exit by a second signal (SIGTERM) while healing');
    assert.deepEqual(s.left, ['the write load (stopping: its batch in flight through mongos)']);
  } finally {
    mongos.proc.kill('SIGCONT');
    f.child.kill('SIGKILL');
    fs.rmSync(f.results, { recursive: true, force: true });
  }
});

test('a write load that does not stop in time, with the fault healed: the run complete, its verdict its own, the batch named as left, never "heal failed"', { timeout: 40000 }, async () => {
  // the fault's watch ends by itself (3 s, the lag never reaches the threshold here) with mongos
  // frozen under the load's batch: the heal undoes netem, then the load's stop waits 5 s for it
  const f = startFault({ faultSeconds: '3' });
  try {
    await f.waitFor(/^\d\d:\d\d:\d\d \[fault\]/);
    mongos.proc.kill('SIGSTOP');
    const r = await exitWithin(f, 30000, 'the end of the fault watch');
    assert.equal(r.signal, null);
    assert.deepEqual(f.requests, ['netem-slow 127.0.0.1 100ms 64kbit', 'netem-heal 127.0.0.1'], 'the undo was asked and answered');
    assert.ok(f.lines.includes(`${LOAD_LEFT}; left: its write batch in flight through mongos, abandoned (the server may still apply it)`), f.lines.join('\n'));
    assert.ok(!f.lines.some((l) => /heal failed|did not finish/.test(l)), f.lines.join('\n'));
    const s = summaryOf(f.results);
    assert.equal(s.complete, true, s.why);
    assert.equal(s.heal_error, undefined);
    assert.doesNotMatch(s.verdict, /heal failed|did not finish/);
    assert.deepEqual(s.left, ['its write batch in flight through mongos, abandoned (the server may still apply it)']);
    assert.equal(r.code, s.result === true ? 0 : 1);
  } finally {
    mongos.proc.kill('SIGCONT');
    f.child.kill('SIGKILL');
    fs.rmSync(f.results, { recursive: true, force: true });
  }
});

// ---- the runner's other bounds, in this process (harness.js: docker answered or never answered,
// signals from an EventEmitter), with the bounds shortened ----
const { MongoClient } = require('mongodb');
const { runWith, mem, scriptedMembers } = require('./harness');
const failover = require('../../src/faults/scenarios/failover');

// a scenario as small as the recipe's: pause a member, watch, unpause it in the heal
const pausing = (watch) => ({
  name: 'pausing', options: {}, check() {}, plan: () => ({ lines: [], actions: [] }),
  async apply(ctx) { ctx.state.paused = true; await ctx.docker.ask('pause', { member: 'shard01-c' }); },
  watch,
  async heal(ctx) { if (ctx.state.paused) await ctx.docker.ask('unpause', { member: 'shard01-c' }); },
  verdict: () => ({ result: true, line: 'saw it', evidence: {} }),
});
const never = () => new Promise(() => {}); // a wait on something that never answers

test('a heal whose docker action bash never answers: abandoned after the heal\'s bound, named, never PASS, exit 1', async () => {
  const r = await runWith(pausing(async () => {}), {}, { hang: ['unpause'], bounds: { healMs: 300 } });
  assert.equal(r.code, 1, r.lines.join('\n'));
  assert.deepEqual(r.asked, ['pause shard01-c', 'unpause shard01-c']);
  assert.ok(r.lines.includes('heal: did not finish within 0.3 s; left: docker unpause shard01-c (asked of bash, not answered)'), r.lines.join('\n'));
  assert.equal(r.summary.complete, false);
  assert.equal(r.summary.why, 'heal failed: did not finish within 0.3 s');
  assert.equal(r.summary.result, 'unknown');
  assert.deepEqual(r.summary.left, ['docker unpause shard01-c (asked of bash, not answered)']);
});

test('SIGTERM while the watch waits on a member that never answers: the heal runs beside it after the stop bound, exit 130', async () => {
  const r = await runWith(pausing(never), {}, { signalAfterMs: 100, bounds: { stopMs: 300 } });
  assert.equal(r.code, 130, r.lines.join('\n'));
  assert.ok(r.lines.includes("the scenario's watch did not end within 0.3 s of SIGTERM (still waiting on the cluster); healing beside it"), r.lines.join('\n'));
  assert.deepEqual(r.asked, ['pause shard01-c', 'unpause shard01-c']);
  assert.equal(r.summary.why, 'interrupted (SIGTERM)');
  assert.equal(r.summary.left, undefined);
});

test('an apply that goes on after a stop, past the stop bound: what it then asks of bash, a member or mongos is refused; the heal beside it is not', async () => {
  const late = [];
  const adminAsked = [];
  let mongosAsked = 0;
  const members = { ...scriptedMembers([]), admin: async (h, cmd) => { adminAsked.push(cmd); return {}; } };
  const goesOn = {
    ...pausing(async () => {}),
    async apply(ctx) {
      await sleep(400); // a step that does not see the stop (a drop that swallows its error)
      const tries = { docker: () => ctx.docker.ask('pause', { member: 'shard01-c' }),
        admin: () => ctx.members.admin('shard01-c', { fsync: 1, lock: true }), mongos: async () => ctx.mongos() };
      for (const [what, f] of Object.entries(tries)) await f().then(() => late.push(`${what}: done`), (e) => late.push(`${what}: refused (${e.message})`));
    },
    async heal(ctx) { await ctx.docker.ask('unpause', { member: 'shard01-c' }); await ctx.members.admin('shard01-c', { fsyncUnlock: 1 }); },
  };
  const r = await runWith(goesOn, {}, { signalAfterMs: 50, bounds: { stopMs: 100 },
    extra: { context: { members, mongos: () => { mongosAsked++; return {}; } } } });
  assert.equal(r.code, 130, r.lines.join('\n'));
  for (let i = 0; i < 50 && late.length < 3; i++) await sleep(100);
  assert.deepEqual(late, ['docker', 'admin', 'mongos'].map((w) => `${w}: refused (interrupted (SIGTERM))`));
  assert.deepEqual(r.asked, ['unpause shard01-c'], 'only the heal\'s request reached bash');
  assert.deepEqual(adminAsked, [{ fsyncUnlock: 1 }]);
  assert.equal(mongosAsked, 0);
});

test('a watch that outlives the stop and the summary: the step it then records is not written beside the final summary', async () => {
  let wrote;
  const late = pausing(async (ctx) => { await sleep(400); wrote = ctx.step('late', { seen: 1 }); });
  const r = await runWith(late, {}, { signalAfterMs: 50, bounds: { stopMs: 100 } });
  assert.equal(r.code, 130, r.lines.join('\n'));
  for (let i = 0; i < 50 && wrote === undefined; i++) await sleep(100);
  assert.equal(wrote, null);
  assert.deepEqual(fs.readdirSync(r.dir).filter((f) => f.startsWith('step-')), []);
});

test('a second signal before the heal could start: exits at once, the heal named as not started', async () => {
  const t0 = Date.now();
  const onAsk = (op, signals) => {
    if (op !== 'pause') return;
    setTimeout(() => signals.emit('SIGTERM', 'SIGTERM'), 100);
    setTimeout(() => signals.emit('SIGINT', 'SIGINT'), 150);
  };
  const r = await runWith(pausing(never), {}, { onAsk });
  assert.ok(Date.now() - t0 < 2000, `${Date.now() - t0} ms: the stop bound (5 s) was waited for`);
  assert.equal(r.code, 130);
  assert.deepEqual(r.asked, ['pause shard01-c']);
  assert.ok(r.lines.includes('SIGINT again: exiting now, the heal unfinished; left: the heal (not started)'), r.lines.join('\n'));
  assert.equal(r.summary.why, 'interrupted (SIGTERM); then forced to exit by a second signal (SIGINT) before the heal');
  assert.deepEqual(r.summary.left, ['the heal (not started)']);
});

const aPrimary = { term: 1, members: [mem('shard01-a', 'PRIMARY'), mem('shard01-b', 'SECONDARY'), mem('shard01-c', 'SECONDARY')] };

test('failover: SIGTERM with mongos frozen under the writers: the primary started again, the writes abandoned after their bound, exit 130', { timeout: 15000 }, async () => {
  const client = new MongoClient(mongos.uri, { serverSelectionTimeoutMS: 3000 });
  try {
    // frozen when the kill is asked (the writers running, with --load-seconds 0), the stop 0.5 s
    // later: on a timer from the start, a busy host froze mongos under the collection's reset
    let frozen = false;
    const onAsk = (op, signals) => {
      if (op !== 'kill') return;
      frozen = true;
      mongos.proc.kill('SIGSTOP');
      setTimeout(() => signals.emit('SIGTERM', 'SIGTERM'), 500);
    };
    const r = await runWith(failover, { w: '1', how: 'kill', writers: '2', 'load-seconds': '0', 'failover-seconds': '30' }, {
      statuses: [aPrimary], extra: { context: { mongos: () => client } }, onAsk, bounds: { inFlightMs: 500 },
    });
    assert.ok(frozen);
    assert.equal(r.code, 130, r.lines.join('\n'));
    assert.deepEqual(r.asked, ['kill shard01-a', 'start shard01-a']);
    assert.ok(r.lines.includes('heal: the writers did not stop within 0.5 s (a member is not answering); left: their writes in flight through mongos, abandoned (history.ndjson has no outcome for them)'), r.lines.join('\n'));
    assert.equal(r.summary.why, 'interrupted (SIGTERM)');
    assert.equal(r.summary.heal_error, 'the writers did not stop within 0.5 s (a member is not answering)');
  } finally {
    mongos.proc.kill('SIGCONT');
    await client.close();
  }
});

test('failover: SIGTERM while the set is reset through a silent mongos: after the heal beside it, nothing is killed and no writer starts', { timeout: 15000 }, async () => {
  // the reset swallows its errors, so it returns once server selection gave up (1 s), long after
  // the stop bound (0.2 s) let the heal run; what the apply would do next must not run
  const client = new MongoClient(mongos.uri, { serverSelectionTimeoutMS: 1000 });
  mongos.proc.kill('SIGSTOP');
  try {
    const r = await runWith(failover, { w: '1', how: 'kill', writers: '2', 'load-seconds': '0', 'failover-seconds': '30' }, {
      statuses: [aPrimary], extra: { context: { mongos: () => client } }, signalAfterMs: 100, bounds: { stopMs: 200 },
    });
    assert.equal(r.code, 130, r.lines.join('\n'));
    assert.ok(r.lines.some((l) => l.startsWith("the scenario's apply did not end within 0.2 s of SIGTERM")), r.lines.join('\n'));
    await sleep(3000); // past the reset's server selection (1 s) and its second one
    assert.deepEqual(r.asked, [], 'nothing asked of bash after the heal');
    assert.ok(!fs.existsSync(path.join(r.dir, 'history.ndjson')), 'no writer started after the heal');
  } finally {
    mongos.proc.kill('SIGCONT');
    await client.close();
  }
});
