'use strict';
// The loader's cost: client CPU per operation at 16 clients on one pinned core, for every workload
// kind in loader/src/kinds, beside the floor of the same driver and, where it runs, YCSB.
//
// Per kind (bench/kinds.json: its experiment file and tiny flags), in one invocation, interleaved
// over --rounds rounds (the order alternates, so drift on a shared machine hits every column): the
// loader, its floor (bench/floor.js), --before's checkout, YCSB beside the read+update mixes, and
// the loader and its floor side by side. What each row measures, how two figures are compared and
// what the runs showed: loader/README.md, "The loader's cost". Prints numbers, asserts nothing;
// results.json is written after every round.
//
// Usage: npm run bench -- [--rounds 3] [--duration 15s] [--before DIR] [--kinds a,b]
//                         [--no-ycsb] [--no-side-by-side] [--profile DIR] [--out FILE]
//                         [--kinds-file FILE]
// --kinds-file FILE: the kinds' experiment files and flags (default bench/kinds.json), e.g. a
// smaller gridfs file or another client count.
// --profile DIR: one extra run per kind (and per --before) under `node --cpu-prof` (every
// thread), summarised by bench/profile.js; not part of the figures.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { spawn, spawnSync } = require('node:child_process');
const { KINDS } = require('../src/kinds');
const { parseDuration, parseCount, UsageError } = require('../src/text/usage');
const ycsb = require('./ycsb');
const profile = require('./profile');
const { r1, median, warmupOf, steadyWindow, windowOf, coresOf, unmeasured, pairedPct, pairedRatio, fmtPaired, against } = require('./stats');

const LOADER = path.resolve(__dirname, '..');
// Bad input: one line naming the flag, exit 2, nothing started (as the loader's own flags).
function readArgs() {
  try {
    const { values } = parseArgs({
      options: {
        rounds: { type: 'string', default: '3' },
        duration: { type: 'string', default: '15s' },
        before: { type: 'string' },
        kinds: { type: 'string' },
        'no-ycsb': { type: 'boolean', default: false },
        profile: { type: 'string' },
        out: { type: 'string' },
        'kinds-file': { type: 'string' },
        'no-side-by-side': { type: 'boolean', default: false },
      },
    });
    const file = values['kinds-file'] || path.join(__dirname, 'kinds.json');
    let entries;
    try {
      entries = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      throw new UsageError(`--kinds-file: cannot read ${file}: ${e.code || e.message}`);
    }
    const unknown = (values.kinds ? values.kinds.split(',') : []).filter((k) => !KINDS[k]);
    if (unknown.length) throw new UsageError(`--kinds: ${unknown.join(', ')} is not a workload kind (choose from: ${Object.keys(KINDS).join(', ')})`);
    // The profile folder reaches node through bin/lab-loader's LAB_LOADER_NODE_FLAGS, split on spaces.
    if (values.profile && /\s/.test(path.resolve(values.profile))) throw new UsageError(`--profile: ${values.profile}: a folder without spaces in its path, please`);
    if (values.before && !fs.existsSync(path.join(values.before, 'bin', 'lab-loader.js'))) throw new UsageError(`--before: ${values.before} has no bin/lab-loader.js (give an older checkout's loader/ folder)`);
    return { values, entries, kindsFile: file, rounds: parseCount('--rounds', values.rounds, 1, 100), durationMs: parseDuration('--duration', values.duration) };
  } catch (e) {
    process.stderr.write(`error: ${e.message}\n`);
    process.exit(2);
  }
  return null;
}
const { values: args, entries: ENTRIES, kindsFile: KINDS_FILE, rounds: ROUNDS, durationMs: DURATION_MS } = readArgs();
const OUT = path.resolve(args.out || path.join(__dirname, 'results.json'));
const BEFORE = args.before ? path.resolve(args.before) : null;
const SIDE_BY_SIDE = !args['no-side-by-side'];
// The issue's goals (15): the loader at most 10 % over its floor, experiment2's mix at most 2.5x
// YCSB's client CPU per operation. A goal is met only when the whole 95 % interval is under it.
const GOAL_OVER_FLOOR_PCT = 10;
const GOAL_RATIO_TO_YCSB = 2.5;

const load1 = () => r1(os.loadavg()[0]);

// Pinning: the measured process on CPU 0, the server on CPU 1.
const CORES = os.cpus().length;
const TASKSET = spawnSync('taskset', ['-V']).status === 0;
const PIN = TASKSET && CORES >= 2 ? ['taskset', '-c', '0'] : [];
const { launcherFlags } = require('./node-flags');

// hasWarmupFlag(dir): whether the checkout's loader has --warmup, wherever its flags are declared:
// src/args.js's parseArgs options once, then the common flags' table (src/common-flags.js, later
// src/cli/common-flags.js), whose row names the flag as typed.
function hasWarmupFlag(dir) {
  const forms = [/\bwarmup: \{ type: 'string' \}/, /flag: '--warmup'/];
  return ['args.js', 'common-flags.js', 'cli/common-flags.js'].some((f) => {
    try {
      return forms.some((re) => re.test(fs.readFileSync(path.join(dir, 'src', f), 'utf8')));
    } catch {
      return false;
    }
  });
}

// loaderCommand(dir, kind, entry, uri, extraNode, extraFlags) -> { cmd, env, results, exp } or
// { absent }: the loader as the lab starts it, on the pinned core, into a fresh results folder.
function loaderCommand(dir, kind, entry, uri, extraNode = [], extraFlags = []) {
  const exp = path.join(dir, '..', 'experiments', `${entry.experiment}.yaml`);
  if (!fs.existsSync(path.join(dir, 'src', 'kinds', `${kind}.js`)) || !fs.existsSync(exp)) return { absent: `kind ${kind} not in ${dir}` };
  const results = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-bench-'));
  const flags = [...entry.flags];
  if (KINDS[kind].bound === 'duration') flags.push('--duration', `${DURATION_MS}ms`);
  // The bench leaves out its own warm-up (steadyWindow, warmup_s): a loader that also has one
  // (--warmup, 5 s by default for duration-bound steps now) runs without it, so both
  // sides and older checkouts measure the same seconds.
  if (hasWarmupFlag(dir)) flags.push('--warmup', '0');
  flags.push(...extraFlags); // last: the loader takes a repeated flag's last value
  // The launcher run.sh and the image start (bin/lab-loader: node flags by placement, so on the
  // pinned core --single-threaded-gc), extra node flags through its LAB_LOADER_NODE_FLAGS; a
  // checkout older than the launcher runs node directly, as it was run then.
  const launcher = path.join(dir, 'bin', 'lab-loader');
  const viaLauncher = fs.existsSync(launcher);
  const cmd = [...PIN, ...(viaLauncher ? [launcher] : [process.execPath, ...extraNode, path.join(dir, 'bin', 'lab-loader.js')]),
    exp, '--uri', uri, ...flags, '--results-dir', results, '--metrics-port', '0', '--engine', 'bench'];
  const env = viaLauncher && extraNode.length ? { ...process.env, LAB_LOADER_NODE_FLAGS: extraNode.join(' ') } : process.env;
  return { cmd, env, results, timeline: path.join(results, entry.experiment, 'bench', 'latest', 'timeline.ndjson') };
}

// the node flags the loader ran with (summary.json loader.node_flags, beside its timeline)
const nodeFlagsOf = (timeline) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(path.dirname(timeline), 'summary.json'), 'utf8')).loader.node_flags ?? null;
  } catch {
    return null;
  }
};
const readTimeline = (file) => fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));

// loaderRun(dir, kind, entry, extraNode) -> { cpu_us_per_op, ops, cores, load1 } or { error }.
function loaderRun(dir, kind, entry, uri, extraNode = []) {
  const c = loaderCommand(dir, kind, entry, uri, extraNode);
  if (c.absent) return c;
  const l = load1();
  const r = spawnSync(c.cmd[0], c.cmd.slice(1), { encoding: 'utf8', cwd: dir, env: c.env });
  try {
    const { cpuUs, ops, seconds, phases } = steadyWindow(readTimeline(c.timeline), warmupOf(entry));
    const refused = unmeasured(r, ops);
    if (refused) return { error: refused };
    if (entry.phases) {
      const out = {};
      for (const name of entry.phases) {
        const p = phases[name];
        out[name] = p && p.ops ? { cpu_us_per_op: r1(p.cpuUs / p.ops), ops: p.ops, cores: coresOf(p.cpuUs, p.seconds), load1: l } : { error: `no ${name} operations after the first ${warmupOf(entry)} s (a larger file in bench/kinds.json)` };
      }
      return { phases: out };
    }
    return { cpu_us_per_op: r1(cpuUs / ops), ops, cores: coresOf(cpuUs, seconds), load1: l,
      node_flags: nodeFlagsOf(c.timeline) };
  } catch (e) {
    return { error: `loader exit ${r.status}: ${lastWords(r.stderr || e.message)}` };
  } finally {
    fs.rmSync(c.results, { recursive: true, force: true });
  }
}

function floorCommand(kind, entry, uri) {
  const exp = path.join(LOADER, '..', 'experiments', `${entry.experiment}.yaml`);
  // the V8 flags the loader's launcher gives it on the same placement (bench/node-flags.js)
  return [...PIN, process.execPath, ...launcherFlags(PIN), path.join(__dirname, 'floor.js'), kind, exp, String(DURATION_MS), String(warmupOf(entry) * 1000), uri, ...entry.flags];
}
const floorOut = (stdout) => JSON.parse(stdout.trim().split('\n').pop());
const { setTimeout: sleep } = require('node:timers/promises');
const lastWords = (text) => String(text).trim().split('\n').slice(-2).join(' ');

// started(cmd, options) -> { proc, out, err, code, exited }: a measured process started in the
// background, its stdout kept, the end of its stderr kept, code its exit code or signal once ended.
function started(cmd, options) {
  const run = { out: '', err: '', code: null };
  run.proc = spawn(cmd[0], cmd.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  run.proc.stdout.on('data', (d) => { run.out += d; });
  run.proc.stderr.on('data', (d) => { run.err = (run.err + d).slice(-2000); });
  run.exited = new Promise((resolve) => run.proc.on('exit', (code, signal) => { run.code = code ?? signal; resolve(run.code); }));
  return run;
}

// paired(lw, fw, load, extra): the loader's and the floor's { cpuUs, ops, seconds } over the same
// time, as one side-by-side result.
function paired(lw, fw, load, extra = {}) {
  const lu = lw.cpuUs / lw.ops;
  const fu = fw.cpuUs / fw.ops;
  return { loader_us_per_op: r1(lu), floor_us_per_op: r1(fu), ratio: Math.round((lu / fu) * 1000) / 1000, ...extra,
    loader_cores: coresOf(lw.cpuUs, lw.seconds), floor_cores: coresOf(fw.cpuUs, fw.seconds), seconds: r1(lw.seconds),
      load1: load };
}

function floorRun(kind, entry, uri) {
  if (!fs.existsSync(path.join(__dirname, 'floors', `${kind}.js`))) return { absent: `no bench/floors/${kind}.js` };
  const l = load1();
  const cmd = floorCommand(kind, entry, uri);
  const r = spawnSync(cmd[0], cmd.slice(1), { encoding: 'utf8' });
  if (r.status !== 0) return { error: `floor exit ${r.status}: ${lastWords(r.stderr)}` };
  const out = floorOut(r.stdout);
  if (out.phases) {
    for (const [name, p] of Object.entries(out.phases)) out.phases[name] = p && p.ops ? { ...p, cores: coresOf(p.cpu_us, p.wall_s), load1: l } : { error: `no ${name} operations measured` };
    return out;
  }
  return { ...out, cores: coresOf(out.cpu_us, out.wall_s), load1: l };
}

// sideBySide(kind, entry, uri) -> { loader_us_per_op, floor_us_per_op, ratio, ... } or { error } /
// { absent }: the loader and the floor at the same time on the same pinned core, each one's CPU
// per op over the same seconds (the floor's measured window; the loader's timeline seconds that
// lie wholly inside it); why: loader/README.md, "How two figures are compared". The loader is
// given an unreachable bound (entry.side_by_side flags, or a long --duration) and stopped with
// SIGINT once the floor's window is over.
async function sideBySide(kind, entry, uri) {
  const floorModule = path.join(__dirname, 'floors', `${kind}.js`);
  if (!fs.existsSync(floorModule)) return { absent: `no bench/floors/${kind}.js` };
  if (require(floorModule).live) return sideBySidePhases(kind, entry, uri);
  if (!require(floorModule).make) return { absent: 'no loop of clients nor live phases in its floor: measured one after the other only' };
  const longer = KINDS[kind].bound === 'duration' ? ['--duration', `${DURATION_MS * 2 + 30000}ms`] : (entry.side_by_side || []);
  if (!longer.length) return { absent: `no side_by_side flags in ${KINDS_FILE} (a bound the loader does not reach while the floor runs)` };
  const c = loaderCommand(LOADER, kind, entry, uri, [], longer);
  const l = load1();
  const loader = started(c.cmd, { cwd: LOADER, env: c.env });
  try {
    // The floor starts once the loader's step has run its warm-up (after its setup and preload),
    // then warms up itself: the window finds neither in its first, JIT-compiling seconds (at half
    // a core a warm-up takes twice as long; a floor started with the step measured the loader
    // +23 % over it for insert where a later start measured +3..8 %).
    const begun = Date.now();
    for (;;) {
      if (loader.code !== null) return { error: `loader exit ${loader.code} before its step had run ${warmupOf(entry)} s: ${lastWords(loader.err)}` };
      if (Date.now() - begun > 180000) return { error: `the loader's step had not run ${warmupOf(entry)} s within 180 s` };
      let stepS = 0;
      try { for (const x of readTimeline(c.timeline)) if (typeof x.step === 'number') stepS += x.interval_s; } catch { /* not written yet */ }
      if (stepS >= warmupOf(entry)) break;
      await sleep(200);
    }
    const floor = started(floorCommand(kind, entry, uri));
    const code = await floor.exited;
    if (code !== 0) return { error: `floor exit ${code}: ${lastWords(floor.err)}` };
    const f = floorOut(floor.out);
    if (loader.code !== null) return { error: `loader exit ${loader.code} while the floor ran: ${lastWords(loader.err)}` };
    loader.proc.kill('SIGINT');
    await loader.exited;
    const w = windowOf(readTimeline(c.timeline), f.from, f.to);
    // Whole seconds only: up to two partial ones at the window's edges are left out.
    if (!w.ops || w.seconds < f.wall_s - 2.1) return { error: `the loader's timeline covers ${r1(w.seconds)} s of the floor's ${f.wall_s} s window` };
    return paired(w, { cpuUs: f.cpu_us, ops: f.ops, seconds: f.wall_s }, l);
  } finally {
    if (loader.code === null) { loader.proc.kill('SIGKILL'); await loader.exited; }
    fs.rmSync(c.results, { recursive: true, force: true });
  }
}

// sideBySidePhases(kind, entry, uri) -> { phases: { NAME: { loader_us_per_op, floor_us_per_op,
// ratio, whole_cases, ... } } }: a kind of one stream in phases (gridfs: upload, then download)
// beside its floor's live mode (LAB_BENCH_LIVE=1, bench/floor.js). The floor prepares alone (the
// file it will read), then the loader starts; as the loader's timeline shows each case begin, the
// floor is sent a line ('next') and does that phase's work (floors/gridfs.js). Each phase of
// side_by_side_whole is paired as the loader's whole case (every second of it) against the floor's
// work begun with it (up to ~1 s later); a phase not listed is measured one after the other only.
// Why whole cases and not a window of the seconds both were in a phase: loader/README.md, "How two
// figures are compared".
async function sideBySidePhases(kind, entry, uri) {
  const c = loaderCommand(LOADER, kind, entry, uri);
  const l = load1();
  // The floor first: it prepares alone what it will read whole (a file of the kind's size), says
  // { ready }, and only then does the loader start.
  const floor = started(floorCommand(kind, entry, uri), { env: { ...process.env, LAB_BENCH_LIVE: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  floor.proc.stdin.on('error', () => {}); // a line to a floor that already ended: judged below by its exit
  const floorLines = () => floor.out.split('\n').filter((x) => x.startsWith('{')).map((x) => JSON.parse(x));
  let loader = null;
  try {
    const begun = Date.now();
    while (!floorLines().some((x) => x.ready)) {
      if (floor.code !== null) return { error: `floor exit ${floor.code} before it was ready: ${lastWords(floor.err)}` };
      if (Date.now() - begun > 180000) return { error: 'the floor was not ready within 180 s' };
      await sleep(200);
    }
    loader = started(c.cmd, { cwd: LOADER, env: c.env });
    const phasesSeen = () => {
      try { return new Set(readTimeline(c.timeline).filter((x) => typeof x.step === 'number').map((x) => x.phase)); } catch { return new Set(); }
    };
    const whole = (name) => (entry.side_by_side_whole || []).includes(name);
    let at = -1;
    const follow = () => {
      while (at + 1 < entry.phases.length && phasesSeen().has(entry.phases[at + 1])) {
        at++;
        // A phase measured whole: the floor does it now. One that is not: the floor stops, and
        // leaves the loader the core.
        // One line per phase on its stdin (bench/floor.js: two signals back to back are one).
        if (whole(entry.phases[at])) floor.proc.stdin.write('next\n');
        else floor.proc.kill('SIGTERM');
      }
    };
    while (loader.code === null) {
      follow();
      await sleep(200);
    }
    follow(); // a loader that ended between two looks (a tiny file)
    // A floor's whole case may end after the loader's: wait for each phase it was sent (the floor
    // has the core to itself then only for its tail).
    const waiting = Date.now();
    const owed = () => entry.phases.slice(0, at + 1).filter(whole)
      .filter((name) => !floorLines().some((x) => x.whole === name));
    while (owed().length && floor.code === null && Date.now() - waiting < 120000) await sleep(200);
    floor.proc.kill('SIGTERM');
    await floor.exited;
    if (loader.code !== 0) return { error: `loader exit ${loader.code}: ${lastWords(loader.err)}` };
    // SIGTERM's default action: the bench's own stop reached the floor before its handler was
    // set; what it measured, if anything, is judged below.
    if (floor.code !== 0 && floor.code !== 'SIGTERM') return { error: `floor exit ${floor.code}: ${lastWords(floor.err)}` };
    const loaderLines = readTimeline(c.timeline);
    const floorAll = floorLines();
    const phases = {};
    for (const name of entry.phases) {
      if (!whole(name)) {
        phases[name] = { absent: `${name}: not side by side (bench/kinds.json side_by_side_whole): measured one after the other only` };
        continue;
      }
      const w = windowOf(loaderLines.filter((x) => x.phase === name), -Infinity, Infinity); // every second of the case
      const f = floorAll.find((x) => x.whole === name);
      if (f && f.skipped) { phases[name] = { error: `${name}: ${f.skipped}` }; continue; }
      if (!w.ops || !f || !f.ops) { phases[name] = { error: `${name}: ${f ? '' : 'no whole case from the floor; '}${w.ops ? '' : 'no operations of the loader'}` }; continue; }
      phases[name] = paired(w, { cpuUs: f.cpu_us, ops: f.ops, seconds: f.wall_s }, l,
        { whole_cases: true, loader_ops: w.ops, floor_ops: f.ops, floor_seconds: f.wall_s });
    }
    return { phases };
  } finally {
    if (floor.code === null) { floor.proc.kill('SIGKILL'); await floor.exited; }
    if (loader && loader.code === null) { loader.proc.kill('SIGKILL'); await loader.exited; }
    fs.rmSync(c.results, { recursive: true, force: true });
  }
}

async function main() {
  const { startServer } = require('../test/support/server');
  const server = await startServer({ cpus: PIN.length ? '1' : null });
  const kinds = Object.keys(KINDS).filter((k) => !args.kinds || args.kinds.split(',').includes(k));
  const results = {
    when: new Date().toISOString(),
    node: process.version,
    driver: `mongodb ${require('mongodb/package.json').version}`,
    cpu_model: os.cpus()[0]?.model,
    host_cores: CORES,
    placement: PIN.length ? 'measured processes on CPU 0, mongo-java-server on CPU 1 (taskset)' : `not pinned (${TASKSET ? 'fewer than 2 cores' : 'no taskset'}): figures include the server's interference`,
    server: 'mongo-java-server (in-memory), started by the bench',
    clients: 16,
    duration_per_run: args.duration,
    rounds: ROUNDS,
    before: BEFORE,
    method: 'client CPU per operation (user + system, every thread of the process) over the measured step; medians of the rounds',
    kinds: {},
    not_measured: {},
    ycsb: { runs: [] },
  };
  // A kind with phases (gridfs: upload, download) is one run per round and one row per phase.
  // A kind's variants (bench/kinds.json "variants": NAME -> extra flags, e.g. gridfs with its
  // sha256 integrity check) are one more loader run per round each, in rows "<row> +NAME", beside
  // the same floor: what the option costs, measured rather than estimated.
  const rows = (k, variant = null) => {
    const base = ENTRIES[k].phases ? ENTRIES[k].phases.map((p) => [`${k} ${p}`, p]) : [[k, null]];
    return variant ? base.map(([row, p]) => [`${row} +${variant}`, p]) : base;
  };
  const variantsOf = (k) => Object.entries(ENTRIES[k].variants || {});
  const entryOf = (k, variant) => (variant ? { ...ENTRIES[k], flags: [...ENTRIES[k].flags,
    ...ENTRIES[k].variants[variant]] } : ENTRIES[k]);
  for (const k of kinds) {
    if (!ENTRIES[k]) { results.not_measured[k] = `no entry in ${KINDS_FILE} (experiment file and flags for one 16-client step)`; continue; }
    for (const v of [null, ...variantsOf(k).map(([name]) => name)]) {
      for (const [row] of rows(k, v)) results.kinds[row] = { experiment: ENTRIES[k].experiment,
        flags: entryOf(k, v).flags, ...(v ? { variant: v } : {}), loader: [], before: [], floor: [], side_by_side: [] };
    }
  }
  const log = (s) => process.stderr.write(`${s}\n`);
  const measured = kinds.filter((k) => ENTRIES[k]);
  let currentRound = 0;
  // into(k, column, r, variant): a run's result into its row(s).
  const into = (k, column, r, variant = null) => {
    for (const [row, phase] of rows(k, variant)) {
      const x = phase ? (r.phases ? r.phases[phase] : r) : r;
      results.kinds[row][column].push(x);
      log(`round ${currentRound} ${row} ${column}: ${x.cpu_us_per_op ?? x.error ?? x.absent} us/op (load ${x.load1 ?? load1()})`);
    }
  };
  const wantYcsb = !args['no-ycsb'];
  if (wantYcsb && !ycsb.installed()) results.ycsb.skipped = ycsb.HINT;

  // summarize(): the medians and comparisons of the rounds so far into results, and the printed
  // lines; written after every round, so that a bench stopped midway keeps what it measured.
  const summarize = (roundsDone) => {
    const ycsbMedian = median(results.ycsb.runs.map((r) => r.cpu_us_per_op));
    results.ycsb.cpu_us_per_op_median = ycsbMedian;
    const lines = [];
    const width = Math.max(13, ...Object.keys(results.kinds).map((k) => k.length));
    const verdictText = (v, goal, p) => ({ within: `within ${goal}`, over: `OVER ${goal}`,
      undecided: `undecided against ${goal} (${p && p.ci95 ? 'the 95% interval straddles it' : 'no 95% interval'}: more rounds)` }[v]);
    for (const [k, acc] of Object.entries(results.kinds)) {
      const m = (xs, f = 'cpu_us_per_op') => median(xs.map((r) => r[f]));
      acc.loader_us_per_op = m(acc.loader);
      acc.before_us_per_op = m(acc.before);
      acc.floor_us_per_op = m(acc.floor);
      acc.loader_cores = m(acc.loader, 'cores');
      acc.floor_cores = m(acc.floor, 'cores');
      acc.load1 = acc.loader.concat(acc.before, acc.floor).map((r) => r.load1).filter((x) => x !== undefined);
      // Paired by round: each round's loader over that round's floor (and YCSB), run a minute apart
      // at most. On a shared machine consecutive runs drift together (a noisy neighbour, the
      // server's heap), so the median of the rounds' ratios is steadier than the ratio of medians;
      // both are printed, with a 95 % interval of the median and the rounds' range.
      const mix = k === 'read_update' || k === 'ycsb';
      acc.paired_over_floor_pct = pairedPct(acc.loader, acc.floor, 'cpu_us_per_op');
      acc.side_by_side_over_floor_pct = pairedPct(acc.side_by_side, acc.side_by_side.map((x) => ({ cpu_us_per_op: x.floor_us_per_op })), 'loader_us_per_op');
      if (mix && results.ycsb.runs.length) acc.paired_ratio_to_ycsb = pairedRatio(acc.loader, results.ycsb.runs);
      if (acc.loader_us_per_op && acc.floor_us_per_op) {
        acc.overhead_over_floor_pct = r1((acc.loader_us_per_op / acc.floor_us_per_op - 1) * 100);
      }
      if (mix && ycsbMedian) acc.ratio_to_ycsb = Math.round((acc.loader_us_per_op / ycsbMedian) * 100) / 100;
      if (mix && ycsbMedian && acc.before_us_per_op) {
        acc.before_ratio_to_ycsb = Math.round((acc.before_us_per_op / ycsbMedian) * 100) / 100;
      }
      // The goal is judged on the side-by-side pairs where there are any (far less machine drift in
      // them), else on the rounds' pairs.
      const basis = acc.side_by_side_over_floor_pct ? 'side by side' : 'one after the other';
      if (!acc.variant) acc.goal_over_floor = { goal_pct: GOAL_OVER_FLOOR_PCT, basis,
        verdict: against(acc.side_by_side_over_floor_pct || acc.paired_over_floor_pct, GOAL_OVER_FLOOR_PCT) };
      if (acc.paired_ratio_to_ycsb) acc.goal_ratio_to_ycsb = { goal: GOAL_RATIO_TO_YCSB,
        verdict: against(acc.paired_ratio_to_ycsb, GOAL_RATIO_TO_YCSB) };
      const why = (xs) => (xs.find((r) => r.error || r.absent) || {});
      const cores = (x) => (x === null ? '' : ` (${x} cores)`);
      const floorText = acc.floor_us_per_op ? `floor ${acc.floor_us_per_op}${cores(acc.floor_cores)}` : `floor n/a (${why(acc.floor).absent || why(acc.floor).error})`;
      lines.push(`${k.padEnd(width)} loader ${acc.loader_us_per_op ?? `n/a (${why(acc.loader).error})`}${cores(acc.loader_cores)}`
        + (BEFORE && acc.before.length ? `, before ${acc.before_us_per_op ?? `n/a (${why(acc.before).absent || why(acc.before).error})`}` : '')
        + `, ${floorText}`
        + (acc.overhead_over_floor_pct !== undefined ? `, over floor ${acc.overhead_over_floor_pct}%` : '')
        + ` us/op alone on the core; load ${Math.min(...acc.load1)}-${Math.max(...acc.load1)}`);
      const indent = ' '.repeat(width + 1);
      if (acc.side_by_side_over_floor_pct) lines.push(`${indent}over floor side by side: ${fmtPaired(acc.side_by_side_over_floor_pct, '%')}`);
      else if (SIDE_BY_SIDE && acc.side_by_side.length) lines.push(`${indent}side by side: not measured (${why(acc.side_by_side).absent || why(acc.side_by_side).error})`);
      if (acc.paired_over_floor_pct) lines.push(`${indent}over floor one after the other, paired by round: ${fmtPaired(acc.paired_over_floor_pct, '%')}`);
      if (acc.variant) lines.push(`${indent}a variant (${acc.variant}): what its option costs over the same floor, no goal of its own`);
      else if (acc.goal_over_floor && acc.goal_over_floor.verdict) lines.push(`${indent}goal, at most ${GOAL_OVER_FLOOR_PCT}% over the floor (${basis}): ${verdictText(acc.goal_over_floor.verdict, `${GOAL_OVER_FLOOR_PCT}%`, acc.side_by_side_over_floor_pct || acc.paired_over_floor_pct)}`);
      if (acc.ratio_to_ycsb) {
        lines.push(`${indent}loader/YCSB ${acc.ratio_to_ycsb}x${acc.before_ratio_to_ycsb ? ` (before ${acc.before_ratio_to_ycsb}x)` : ''}`
          + (acc.paired_ratio_to_ycsb ? `, paired by round: ${fmtPaired(acc.paired_ratio_to_ycsb, 'x')}` : ''));
      }
      if (acc.goal_ratio_to_ycsb && k === 'read_update') lines.push(`${indent}goal, at most ${GOAL_RATIO_TO_YCSB}x YCSB: ${verdictText(acc.goal_ratio_to_ycsb.verdict, `${GOAL_RATIO_TO_YCSB}x`, acc.paired_ratio_to_ycsb)}`);
    }
    for (const [k, why] of Object.entries(results.not_measured)) lines.push(`${k.padEnd(width)} not measured: ${why}`);
    lines.push(results.ycsb.skipped ? `YCSB: not run: ${results.ycsb.skipped}` : wantYcsb
      ? `YCSB 0.17.0 workload A (16 threads, 1,000 records): ${ycsbMedian} us/op, ${median(results.ycsb.runs.map((r) => r.cores))} cores (runs ${results.ycsb.runs.map((r) => `${r.cpu_us_per_op ?? r.skipped} @load ${r.load1}`).join(', ')})`
      : 'YCSB: not run (--no-ycsb)');
    results.rounds_done = roundsDone;
    results.printed = lines;
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    fs.writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
    return lines;
  };

  for (let round = 1; round <= ROUNDS; round++) {
    currentRound = round;
    const runYcsb = async () => {
      const l = load1();
      const y = await ycsb.run(server.uri, { threads: 16, seconds: Math.max(10, Math.round(DURATION_MS / 1000)),
        pin: PIN });
      results.ycsb.runs.push({ ...y, load1: l });
      log(`round ${round} ycsb workload A: ${y.cpu_us_per_op ?? y.skipped} us/op (load ${l})`);
    };
    const ycsbThisRound = wantYcsb && !results.ycsb.skipped;
    for (const k of measured) {
      const variants = [['loader', LOADER], ...(BEFORE ? [['before', BEFORE]] : [])];
      if (round % 2 === 0) variants.reverse();
      for (const [name, dir] of variants) into(k, name, loaderRun(dir, k, ENTRIES[k], server.uri));
      for (const [v] of variantsOf(k)) into(k, 'loader', loaderRun(LOADER, k, entryOf(k, v), server.uri), v);
      const floor = floorRun(k, ENTRIES[k], server.uri);
      into(k, 'floor', floor);
      for (const [v] of variantsOf(k)) into(k, 'floor', floor, v);
      if (SIDE_BY_SIDE) {
        const r = await sideBySide(k, ENTRIES[k], server.uri);
        for (const [row, phase] of rows(k)) {
          const x = phase && r.phases ? r.phases[phase] : r;
          results.kinds[row].side_by_side.push(x);
          log(`round ${round} ${row} side by side: ${x.ratio ? `loader ${x.loader_us_per_op}, floor ${x.floor_us_per_op} us/op, ratio ${x.ratio}` : x.error ?? x.absent} (load ${x.load1 ?? load1()})`);
        }
      }
      // YCSB right after experiment2's kind: the ratio the issue sets a goal for compares runs
      // minutes apart at most, not a round apart.
      if (ycsbThisRound && k === 'read_update') await runYcsb();
    }
    if (ycsbThisRound && !measured.includes('read_update')) await runYcsb();
    summarize(round);
  }

  if (args.profile) {
    results.profiles = {};
    for (const k of measured) {
      for (const [name, dir] of [['loader', LOADER], ...(BEFORE ? [['before', BEFORE]] : [])]) {
        const pdir = path.join(path.resolve(args.profile), `${name}-${k}`);
        fs.rmSync(pdir, { recursive: true, force: true });
        const r = loaderRun(dir, k, ENTRIES[k], server.uri, ['--cpu-prof', `--cpu-prof-dir=${pdir}`]);
        if (fs.existsSync(pdir)) results.profiles[`${name}-${k}`] = { run: r, threads: profile.summarize(pdir, 10) };
      }
    }
  }
  await server.stop();

  const lines = summarize(ROUNDS);
  if (results.profiles) for (const [name, p] of Object.entries(results.profiles)) { process.stdout.write(`profile ${name} (${p.run.phases ? Object.entries(p.run.phases).map(([n, x]) => `${n} ${x.cpu_us_per_op ?? x.error}`).join(', ') : p.run.cpu_us_per_op ?? p.run.error} us/op under the profiler):\n`); profile.print(p.threads); }
  process.stdout.write(`client CPU per operation, 16 clients (gridfs: its one stream), ${results.placement}, ${ROUNDS} round(s) of ${args.duration}:\n`);
  for (const l of lines) process.stdout.write(`  ${l}\n`);
  process.stdout.write(`written to ${OUT}\n`);
}

main().catch((e) => { process.stderr.write(`${e.stack || e}\n`); process.exit(1); });
