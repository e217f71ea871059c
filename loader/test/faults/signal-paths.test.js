'use strict';
// One signal, two paths. A signal sent to run.sh's whole process group (Ctrl-C, timeout(1),
// kill -- -PGID) reaches `docker compose run`, which forwards it to the fault process
// (docker/compose v2.40.3 pkg/compose/run.go, ForwardAllSignals), and bash, which relays it on
// the process's stdin (lib/fault-bridge.sh: `@lab-signal<TAB>SIGTERM`); a signal sent to run.sh
// alone arrives by the relay only. Either way it is one interrupt: the fault is healed (its undo
// asked), the summary says interrupted, the exit is 130. The real fault process (bin/lab-fault.js
// run replica-lag) against mongo-java-server as mongos and the wire shim's replica set as
// members, as in frozen-heal.test.js; docker requests are answered here as bash answers them.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { spawn } = require('node:child_process');
const { startServer } = require('../support/server');
const { PREFIX, SIGNAL_PREFIX } = require('../../src/faults/protocol');

const BIN = path.join(__dirname, '../../bin/lab-fault.js');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let mongos;
let members;
test.before(async () => {
  [mongos, members] = await Promise.all([startServer(), startServer({ line: 'mongod-8.0-wiredtiger-replset' })]);
});
test.after(async () => {
  await Promise.all([mongos.stop(), members.stop()]);
});

// startFault() -> {child, lines, requests, exited, results, waitFor(re)}: replica-lag by netem
// (its undo is a docker request), a fault watch far longer than the test
function startFault() {
  const results = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-fault-signal-'));
  const child = spawn(process.execPath, [BIN, 'run', 'replica-lag', '--method', 'netem', '--threshold', '3s', '--rate', '200',
    '--baseline-seconds', '0', '--fault-seconds', '600', '--members', members.shim.hosts.join(','), '--mongos', `127.0.0.1:${mongos.port}`,
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
  return JSON.parse(fs.readFileSync(path.join(dir, runs[0], 'summary.json'), 'utf8'));
}

// interrupted(f, what): healed, one interrupt said, summary of an interrupted run, exit 130
async function assertHealed(f, what) {
  const r = await exitWithin(f, 15000, what);
  assert.equal(r.signal, null, `killed by ${r.signal}: ${f.lines.join('\n')}`);
  assert.equal(r.code, 130, f.lines.join('\n'));
  assert.deepEqual(f.requests, ['netem-slow 127.0.0.1 100ms 64kbit', 'netem-heal 127.0.0.1'], 'the undo was asked and answered');
  assert.equal(f.lines.filter((l) => /^SIGTERM: stopping the scenario, healing/.test(l)).length, 1, f.lines.join('\n'));
  assert.ok(!f.lines.some((l) => /again: exiting now/.test(l)), `taken for a second signal:\n${f.lines.join('\n')}`);
  const s = summaryOf(f.results);
  assert.equal(s.complete, false);
  assert.equal(s.why, 'interrupted (SIGTERM)');
  assert.equal(s.left, undefined);
}

test('SIGTERM to the whole group: forwarded by compose and relayed by bash, one interrupt, healed, exit 130', { timeout: 30000 }, async () => {
  const f = startFault();
  try {
    await f.waitFor(/^\d\d:\d\d:\d\d \[fault\]/);
    f.child.kill('SIGTERM');
    f.child.stdin.write(`${SIGNAL_PREFIX}SIGTERM\n`);
    await assertHealed(f, 'a SIGTERM by both paths');
  } finally {
    f.child.kill('SIGKILL');
    fs.rmSync(f.results, { recursive: true, force: true });
  }
});

test('SIGTERM to run.sh alone: relayed by bash only, healed, exit 130', { timeout: 30000 }, async () => {
  const f = startFault();
  try {
    await f.waitFor(/^\d\d:\d\d:\d\d \[fault\]/);
    f.child.stdin.write(`${SIGNAL_PREFIX}SIGTERM\n`);
    await assertHealed(f, 'a relayed SIGTERM');
  } finally {
    f.child.kill('SIGKILL');
    fs.rmSync(f.results, { recursive: true, force: true });
  }
});
