'use strict';
// The loader's cost: client CPU per operation at 16 clients on one pinned core, for every workload
// kind in loader/src/kinds, beside the floor of the same driver and, where it runs, YCSB.
//
// Per kind (bench/kinds.json: its experiment file and tiny flags), in one invocation, interleaved
// over --rounds rounds (the order alternates, so drift on a shared machine hits every column):
//   loader   the real loader CLI (bin/lab-loader.js, worker threads, metrics, timeline), one
//            16-client step; CPU per op = the step's process CPU (timeline.ndjson: loader
//            cpu_cores x interval_s) / its operations, after its first 5 s (steadyWindow)
//   before   the same from another checkout (--before DIR, e.g. a `git worktree` of an older
//            commit's loader/), for before/after figures from the same machine and load
//   floor    bench/floor.js: a bare loop of the official driver sending the same server
//            operations with the leanest public API (bench/floors/<kind>.js), same clients
//   ycsb     YCSB 0.17.0 workload A (bench/ycsb.js), 16 threads, 1,000 records: printed beside
//            the kinds that are a read+update mix (read_update, ycsb)
// Every measured process runs on CPU 0 (taskset) and mongo-java-server on CPU 1; medians of the
// rounds are printed, with each run's 1-minute load average. Prints numbers, asserts nothing.
//
// Usage: npm run bench -- [--rounds 3] [--duration 15s] [--before DIR] [--kinds a,b]
//                         [--no-ycsb] [--profile DIR] [--out FILE] [--kinds-file FILE]
// --kinds-file FILE: the kinds' experiment files and flags (default bench/kinds.json), e.g. a
// smaller gridfs file or another client count.
// --profile DIR: one extra run per kind (and per --before) under `node --cpu-prof` (every
// thread), summarised by bench/profile.js; not part of the figures.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { spawnSync } = require('node:child_process');
const { KINDS } = require('../src/kinds');
const { parseDuration, parseCount, UsageError } = require('../src/usage');
const ycsb = require('./ycsb');
const profile = require('./profile');
const { r1, median, warmupOf, steadyWindow, unmeasured, pairedPct, pairedRatio, fmtPaired } = require('./stats');

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

const load1 = () => r1(os.loadavg()[0]);

// Pinning: the measured process on CPU 0, the server on CPU 1.
const CORES = os.cpus().length;
const TASKSET = spawnSync('taskset', ['-V']).status === 0;
const PIN = TASKSET && CORES >= 2 ? ['taskset', '-c', '0'] : [];

// loaderRun(dir, kind, entry, extraNode) -> { cpu_us_per_op, ops, load1 } or { error }.
function loaderRun(dir, kind, entry, uri, extraNode = []) {
  const exp = path.join(dir, '..', 'experiments', `${entry.experiment}.yaml`);
  if (!fs.existsSync(path.join(dir, 'src', 'kinds', `${kind}.js`)) || !fs.existsSync(exp)) return { absent: `kind ${kind} not in ${dir}` };
  const results = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-bench-'));
  const flags = [...entry.flags];
  if (KINDS[kind].bound === 'duration') flags.push('--duration', `${DURATION_MS}ms`);
  // The launcher run.sh and the image start (bin/lab-loader: node flags by placement, so on the
  // pinned core --single-threaded-gc), extra node flags through its LAB_LOADER_NODE_FLAGS; a
  // checkout older than the launcher runs node directly, as it was run then.
  const launcher = path.join(dir, 'bin', 'lab-loader');
  const viaLauncher = fs.existsSync(launcher);
  const cmd = [...PIN, ...(viaLauncher ? [launcher] : [process.execPath, ...extraNode, path.join(dir, 'bin', 'lab-loader.js')]),
    exp, '--uri', uri, ...flags, '--results-dir', results, '--metrics-port', '0', '--engine', 'bench'];
  const env = viaLauncher && extraNode.length ? { ...process.env, LAB_LOADER_NODE_FLAGS: extraNode.join(' ') } : process.env;
  const l = load1();
  const r = spawnSync(cmd[0], cmd.slice(1), { encoding: 'utf8', cwd: dir, env });
  try {
    const dir = path.join(results, entry.experiment, 'bench', 'latest');
    const lines = fs.readFileSync(path.join(dir, 'timeline.ndjson'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const { cpuUs, ops, phases } = steadyWindow(lines, warmupOf(entry));
    const refused = unmeasured(r, ops);
    if (refused) return { error: refused };
    if (entry.phases) {
      const out = {};
      for (const name of entry.phases) {
        const p = phases[name];
        out[name] = p && p.ops ? { cpu_us_per_op: r1(p.cpuUs / p.ops), ops: p.ops, load1: l } : { error: `no ${name} operations after the first ${warmupOf(entry)} s (a larger file in bench/kinds.json)` };
      }
      return { phases: out };
    }
    return { cpu_us_per_op: r1(cpuUs / ops), ops, load1: l };
  } catch (e) {
    return { error: `loader exit ${r.status}: ${String(r.stderr || e.message).trim().split('\n').slice(-2).join(' ')}` };
  } finally {
    fs.rmSync(results, { recursive: true, force: true });
  }
}

function floorRun(kind, entry, uri) {
  if (!fs.existsSync(path.join(__dirname, 'floors', `${kind}.js`))) return { absent: `no bench/floors/${kind}.js` };
  const exp = path.join(LOADER, '..', 'experiments', `${entry.experiment}.yaml`);
  const l = load1();
  const cmd = [...PIN, process.execPath, path.join(__dirname, 'floor.js'), kind, exp, String(DURATION_MS), String(warmupOf(entry) * 1000), uri, ...entry.flags];
  const r = spawnSync(cmd[0], cmd.slice(1), { encoding: 'utf8' });
  if (r.status !== 0) return { error: `floor exit ${r.status}: ${String(r.stderr).trim().split('\n').slice(-2).join(' ')}` };
  const out = JSON.parse(r.stdout.trim().split('\n').pop());
  if (out.phases) {
    for (const [name, p] of Object.entries(out.phases)) out.phases[name] = p && p.ops ? { ...p, load1: l } : { error: `no ${name} operations measured` };
    return out;
  }
  return { ...out, load1: l };
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
  const entryOf = (k, variant) => (variant ? { ...ENTRIES[k], flags: [...ENTRIES[k].flags, ...ENTRIES[k].variants[variant]] } : ENTRIES[k]);
  for (const k of kinds) {
    if (!ENTRIES[k]) { results.not_measured[k] = `no entry in ${KINDS_FILE} (experiment file and flags for one 16-client step)`; continue; }
    for (const v of [null, ...variantsOf(k).map(([name]) => name)]) {
      for (const [row] of rows(k, v)) results.kinds[row] = { experiment: ENTRIES[k].experiment, flags: entryOf(k, v).flags, loader: [], before: [], floor: [] };
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

  for (let round = 1; round <= ROUNDS; round++) {
    currentRound = round;
    const runYcsb = async () => {
      const l = load1();
      const y = await ycsb.run(server.uri, { threads: 16, seconds: Math.max(10, Math.round(DURATION_MS / 1000)), pin: PIN });
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
      // YCSB right after experiment2's kind: the ratio the issue sets a goal for compares runs
      // minutes apart at most, not a round apart.
      if (ycsbThisRound && k === 'read_update') await runYcsb();
    }
    if (ycsbThisRound && !measured.includes('read_update')) await runYcsb();
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

  // Medians and the comparisons.
  const ycsbMedian = median(results.ycsb.runs.map((r) => r.cpu_us_per_op));
  results.ycsb.cpu_us_per_op_median = ycsbMedian;
  const lines = [];
  const width = Math.max(13, ...Object.keys(results.kinds).map((k) => k.length));
  for (const [k, acc] of Object.entries(results.kinds)) {
    const m = (xs) => median(xs.map((r) => r.cpu_us_per_op));
    acc.loader_us_per_op = m(acc.loader);
    acc.before_us_per_op = m(acc.before);
    acc.floor_us_per_op = m(acc.floor);
    acc.load1 = acc.loader.concat(acc.before, acc.floor).map((r) => r.load1).filter((x) => x !== undefined);
    // Paired by round: each round's loader over that round's floor (and YCSB), run a minute apart
    // at most. On a shared machine consecutive runs drift together (a noisy neighbour, the
    // server's heap), so the median of the rounds' ratios is steadier than the ratio of medians;
    // both are printed, with the rounds' range.
    const mix = k === 'read_update' || k === 'ycsb';
    acc.paired_over_floor_pct = pairedPct(acc.loader, acc.floor, 'cpu_us_per_op');
    if (mix && results.ycsb.runs.length) acc.paired_ratio_to_ycsb = pairedRatio(acc.loader, results.ycsb.runs);
    if (acc.loader_us_per_op && acc.floor_us_per_op) acc.overhead_over_floor_pct = r1((acc.loader_us_per_op / acc.floor_us_per_op - 1) * 100);
    if (mix && ycsbMedian) acc.ratio_to_ycsb = Math.round((acc.loader_us_per_op / ycsbMedian) * 100) / 100;
    if (mix && ycsbMedian && acc.before_us_per_op) acc.before_ratio_to_ycsb = Math.round((acc.before_us_per_op / ycsbMedian) * 100) / 100;
    const why = (xs) => (xs.find((r) => r.error || r.absent) || {});
    const floorText = acc.floor_us_per_op ? `floor ${acc.floor_us_per_op}` : `floor n/a (${why(acc.floor).absent || why(acc.floor).error})`;
    lines.push(`${k.padEnd(width)} loader ${acc.loader_us_per_op ?? `n/a (${why(acc.loader).error})`}`
      + (BEFORE && acc.before.length ? `, before ${acc.before_us_per_op ?? `n/a (${why(acc.before).absent || why(acc.before).error})`}` : '')
      + `, ${floorText}`
      + (acc.overhead_over_floor_pct !== undefined ? `, over floor ${acc.overhead_over_floor_pct}%` : '')
      + (acc.paired_over_floor_pct ? ` [paired by round: ${fmtPaired(acc.paired_over_floor_pct, '%')}]` : '')
      + (acc.ratio_to_ycsb ? `, loader/YCSB ${acc.ratio_to_ycsb}x` : '')
      + (acc.paired_ratio_to_ycsb ? ` [paired by round: ${fmtPaired(acc.paired_ratio_to_ycsb, 'x')}]` : '')
      + (acc.before_ratio_to_ycsb ? ` (before ${acc.before_ratio_to_ycsb}x)` : '')
      + ` us/op; load ${Math.min(...acc.load1)}-${Math.max(...acc.load1)}`);
  }
  for (const [k, why] of Object.entries(results.not_measured)) lines.push(`${k.padEnd(width)} not measured: ${why}`);
  lines.push(results.ycsb.skipped ? `YCSB: not run: ${results.ycsb.skipped}` : wantYcsb
    ? `YCSB 0.17.0 workload A (16 threads, 1,000 records): ${ycsbMedian} us/op (runs ${results.ycsb.runs.map((r) => `${r.cpu_us_per_op ?? r.skipped} @load ${r.load1}`).join(', ')})`
    : 'YCSB: not run (--no-ycsb)');
  results.printed = lines;
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
  if (results.profiles) for (const [name, p] of Object.entries(results.profiles)) { process.stdout.write(`profile ${name} (${p.run.phases ? Object.entries(p.run.phases).map(([n, x]) => `${n} ${x.cpu_us_per_op ?? x.error}`).join(', ') : p.run.cpu_us_per_op ?? p.run.error} us/op under the profiler):\n`); profile.print(p.threads); }
  process.stdout.write(`client CPU per operation, 16 clients (gridfs: its one stream), ${results.placement}, ${ROUNDS} round(s) of ${args.duration}:\n`);
  for (const l of lines) process.stdout.write(`  ${l}\n`);
  process.stdout.write(`written to ${OUT}\n`);
}

main().catch((e) => { process.stderr.write(`${e.stack || e}\n`); process.exit(1); });
