'use strict';
// Run the real loader CLI as a child process (what run.sh and users run) and collect its output.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'lab-loader.js');
// The launcher run.sh and the image start (it picks node flags by placement, then execs BIN).
const LAUNCHER = path.resolve(__dirname, '..', '..', 'bin', 'lab-loader');
const AHEAD = ['nice', '-n', '-10'];

// startLoader(args) -> { proc, done: Promise<{code, signal, stdout, stderr, ms}>, waitFor(re) }
// prefix: a command the loader runs under (e.g. ['unshare', '-m', ...], ['taskset', '-c', '0']);
// it must exec the node command it is given, so proc.pid is the loader's. spawnOptions: uid, gid,
// detached (own process group, for signals to the group as a terminal sends them). launcher: start
// through bin/lab-loader (node from PATH, as run.sh does) instead of this node and BIN.
// warmup: false (default) runs every step without warm-up (--warmup 0 first, unless args give
// --warmup): the default's seconds would lengthen every loader run of the suite; the warm-up
// itself and its default are tested in test/warmup.test.js (warmup: true keeps the default).
// ahead: the loader runs ahead of the host's other work (nice -n -10, as root; the CI is): for a
// test whose subject is not the host's effect but needs steps the host left alone (a step is left
// out when the loader's own event loop ran late, common/host-slowed.js), on a host the other
// suites keep busy. Without the privilege nice says so on stderr and runs the loader as usual.
function startLoader(args, opts = {}) {
  const { env, prefix = [], spawnOptions = {}, launcher = false, warmup = false, ahead = false } = opts;
  const t0 = Date.now();
  const noWarmup = !warmup && !args.includes('--warmup') ? ['--warmup', '0'] : [];
  const node = launcher ? [LAUNCHER] : [process.execPath, BIN];
  const cmd = [...(ahead ? AHEAD : []), ...prefix, ...node, ...noWarmup, ...args];
  const proc = spawn(cmd[0], cmd.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env }, ...spawnOptions });
  let stdout = '';
  let stderr = '';
  const waiters = [];
  const check = () => {
    for (const w of [...waiters]) {
      const m = w.re.exec(stderr);
      if (m) { waiters.splice(waiters.indexOf(w), 1); w.resolve(m); }
    }
  };
  // Output is progress: every waiter's budget starts again (a busy machine makes the loader slower,
  // not silent; a hung one goes silent and runs out of budget).
  const progressed = () => { for (const w of waiters) w.arm(); };
  proc.stdout.on('data', (d) => { stdout += d; progressed(); });
  proc.stderr.on('data', (d) => { stderr += d; check(); progressed(); });
  const done = new Promise((resolve) => {
    proc.on('exit', (code, signal) => {
      // let the pipes drain
      setImmediate(() => resolve({ code, signal, stdout, stderr, ms: Date.now() - t0 }));
      for (const w of waiters) w.reject(new Error(`loader exited (${code}) before ${w.re}; stderr:\n${stderr}`));
    });
  });
  return {
    proc,
    done,
    // waitFor(re, timeoutMs): the first match of re in stderr; rejected after timeoutMs without
    // any output from the loader (the budget restarts at each line it prints), or at its exit.
    waitFor(re, timeoutMs = 30000) {
      return new Promise((resolve, reject) => {
        let t = null;
        const w = {
          re,
          arm() { clearTimeout(t); t = setTimeout(() => { waiters.splice(waiters.indexOf(w), 1); reject(new Error(`timeout waiting for ${re} (${timeoutMs} ms without output); stderr:\n${stderr}`)); }, timeoutMs); },
          resolve: (m) => { clearTimeout(t); resolve(m); },
          reject: (e) => { clearTimeout(t); reject(e); },
        };
        w.arm();
        waiters.push(w);
        check();
      });
    },
  };
}

const runLoader = (args, o) => startLoader(args, o).done;

// inTurns(jobs, limit) -> the results of the async jobs (functions), in jobs' order, at most
// `limit` running at a time. runLoaders(argsList, o, limit): runLoader over each args that way.
// For bad-input cases, each still its own loader process as a user's mistyped command is: such a
// run is node's start and the loader's require (0.4 CPU s; 1.5 s wall at load 7), so one after another a
// list of 20 took 28 s of a CI run; four at a time keep both cores busy and no more.
async function inTurns(jobs, limit = 4) {
  const out = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return out;
}
const runLoaders = (argsList, o, limit) => inTurns(argsList.map((a) => () => runLoader(a, o)), limit);

// pacedArgs(uri, results, extra): experiment2 paced at 200 ops/s by 2 clients, the stability
// tests' run (stability-run, stability-steady, stability-warmup): a paced client does not slow
// down with a contended host (it catches up), so its seconds hold steady at the rate on the shared
// test VM. 200, not 400: a paced operation costs the loader about 2.5 ms of CPU on this VM (its
// wake-ups), and the three files' runs took 67 CPU s at 400, 52 at 200 (2026-12-02, each passing).
const pacedArgs = (uri, results, extra) => ['experiment2', '--uri', uri, '--results-dir', results, '--metrics-port', '0',
  '--preload-docs', '300', '--clients', '2', '--rate', '200', '--progress-interval', '1s', ...extra];

function tmpResults() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'lab-loader-test-'));
}

function latestRun(root, experiment, engine) {
  const link = path.join(root, experiment, engine, 'latest');
  const dir = path.join(path.dirname(link), fs.readlinkSync(link));
  return { dir, summary: JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8')) };
}

function readTimeline(dir) {
  return fs.readFileSync(path.join(dir, 'timeline.ndjson'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

// withServerAndResults(test, set): a mongo-java-server and a temporary results root for one test
// file, started before its tests and removed after them; set(server, results) hands them over.
function withServerAndResults(test, set) {
  let server;
  let results;
  test.before(async () => {
    server = await require('./server').testServer();
    results = tmpResults();
    set(server, results);
  });
  test.after(async () => {
    await server?.stop();
    if (results) fs.rmSync(results, { recursive: true, force: true });
  });
}

// runsOf(results, experiment, engine): every run's summary.json under results/<experiment>/<engine>/,
// oldest first.
function runsOf(results, experiment, engine) {
  const dir = path.join(results, experiment, engine);
  return fs.readdirSync(dir).filter((f) => f !== 'latest').sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f, 'summary.json'), 'utf8')));
}

// unwrap(text): the loader's output with each wrapped line joined back (it wraps a message within
// 120 columns, continuing it on lines indented by two spaces: src/text/wrap.js), for matching a message
// whole. errorLines(text): its 'error: ' lines, each joined.
const unwrap = (text) => text.replace(/\n {2}(?=\S)/g, ' ');
const errorLines = (text) => unwrap(text).split('\n').filter((l) => l.startsWith('error: '));

module.exports = { startLoader, runLoader, runLoaders, inTurns, pacedArgs, tmpResults, latestRun, readTimeline,
  withServerAndResults, runsOf, BIN, unwrap, errorLines };
