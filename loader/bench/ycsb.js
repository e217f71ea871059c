'use strict';
// YCSB 0.17.0 workload A with its MongoDB binding, in the bench's conditions: the same server, the
// same pinned core, 16 threads, 1,000 records. Installed by test/install.d/46-ycsb-mongodb.sh.
// Its client CPU per operation is taken over the run phase's steady window: /proc/<pid>/stat of
// the JVM (every thread) read at YCSB's once-a-second status lines, from the line at 5 s (JVM
// start and the first JIT compilations left out) to the last one, against the operations those
// lines count. The loader's figure includes its own warm-up, so the comparison does not favour it.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { spawn, spawnSync } = require('node:child_process');

const REPO = path.resolve(__dirname, '..', '..');
const HOME = path.join(REPO, '.tools', 'ycsb-mongodb');
const CLASSPATH = `${path.join(HOME, 'lib', '*')}${path.delimiter}${path.join(HOME, 'classes')}`;
const HINT = "YCSB's MongoDB binding is not installed: run 'bash test/install-tools.sh' (test/install.d/46-ycsb-mongodb.sh)";

// workloads/workloada of YCSB 0.17.0, as properties (the distribution's workloads/ folder is not
// part of the core jar).
const WORKLOAD_A = {
  recordcount: 1000, operationcount: 1000, workload: 'site.ycsb.workloads.CoreWorkload', readallfields: 'true',
  readproportion: 0.5, updateproportion: 0.5, scanproportion: 0, insertproportion: 0, requestdistribution: 'zipfian',
};

function installed() {
  return fs.existsSync(path.join(HOME, 'classes', 'site', 'ycsb', 'db', 'MongoDbClient.class'))
    && fs.existsSync(path.join(HOME, 'lib', 'core-0.17.0.jar'));
}

// JVM start and the first JIT compilations: left out of the window.
const WARMUP_S = 5;
const TICK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
// cpuSeconds(pid): user + system time of the whole process (every thread) so far.
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from 3 on
  return (Number(f[11]) + Number(f[12])) / TICK; // utime (14), stime (15)
}

function props(uri, extra) {
  const p = { ...WORKLOAD_A, 'mongodb.url': `${uri.replace(/\/?$/, '/')}ycsb?w=1`, ...extra };
  return Object.entries(p).flatMap(([k, v]) => ['-p', `${k}=${v}`]);
}

// run(uri, { threads, seconds, pin }) -> { ops, cpu_s, window_s, cpu_us_per_op } or { skipped }.
async function run(uri, { threads = 16, seconds = 10, pin = [] } = {}) {
  if (!installed()) return { skipped: HINT };
  if (os.platform() !== 'linux') return { skipped: 'needs /proc to read the JVM\'s CPU time (Linux)' };
  const java = [...pin, 'java', '-cp', CLASSPATH, 'site.ycsb.Client', '-db', 'site.ycsb.db.MongoDbClient', '-threads', String(threads)];
  const load = spawnSync(java[0], [...java.slice(1), '-load', ...props(uri, {})], { encoding: 'utf8' });
  if (load.status !== 0) return { skipped: `YCSB load phase failed (exit ${load.status}): ${String(load.stderr).slice(-300)}` };
  const proc = spawn(java[0], [...java.slice(1), '-t', '-s', ...props(uri, { operationcount: 2e9, maxexecutiontime: seconds, 'status.interval': 1 })],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  const marks = [];
  readline.createInterface({ input: proc.stderr }).on('line', (l) => {
    const m = / (\d+) sec: (\d+) operations;/.exec(l);
    if (!m) return;
    try { marks.push({ sec: Number(m[1]), ops: Number(m[2]), cpu: cpuSeconds(proc.pid) }); } catch { /* exited */ }
  });
  const code = await new Promise((r) => proc.on('exit', r));
  if (code !== 0) return { skipped: `YCSB run phase exited ${code}` };
  const from = marks.find((m) => m.sec >= WARMUP_S);
  const to = marks[marks.length - 1];
  if (!from || !to || to.ops <= from.ops) return { skipped: 'YCSB printed too few status lines to measure a window' };
  const cpuS = to.cpu - from.cpu;
  return {
    ops: to.ops - from.ops, cpu_s: Math.round(cpuS * 100) / 100, window_s: to.sec - from.sec,
    cpu_us_per_op: Math.round(((cpuS * 1e6) / (to.ops - from.ops)) * 10) / 10,
    cores: Math.round((cpuS / (to.sec - from.sec)) * 100) / 100,
  };
}

module.exports = { run, installed, HINT };
