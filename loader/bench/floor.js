'use strict';
// The floor of one workload kind: a bare loop of the official driver sending the kind's server
// operations with the leanest public API (bench/floors/<kind>.js), with the same clients as the
// loader (one MongoClient of one connection each, the loader's driver options) in one thread, no
// recording, no worker threads, no metrics. What is left of the loader's CPU per op above this is
// the loader's own cost. Run by bench.js on the pinned core, right after the loader's run of the
// same experiment (whose setup and preload it reuses). Prints one JSON line:
//   { ops, cpu_us, wall_s, cpu_us_per_op }, or for a floor with phases (floors/gridfs.js)
//   { phases: { NAME: { ops, cpu_us, wall_s, cpu_us_per_op }, ... } }
// Usage: node bench/floor.js KIND EXPERIMENT.yaml DURATION_MS WARMUP_MS URI [experiment flags...]
// (DURATION_MS: the whole run, warm-up included, as the loader's --duration; WARMUP_MS: the first
// part not measured, as bench.js leaves the loader's first seconds out: bench/kinds.json)
const { performance } = require('node:perf_hooks');
const readline = require('node:readline');
const { parse } = require('../src/cli/args');
const { load } = require('../src/experiment/config');
const { newClient } = require('../src/server/clients');
const { Rng } = require('../../common/rng');
const { clientStream } = require('../src/experiment/workload');


async function main() {
  const [kind, file, durationText, warmupText, uri, ...flags] = process.argv.slice(2);
  const WARMUP_MS = Number(warmupText);
  const floor = require(`./floors/${kind}`);
  const { config } = load(parse([file, ...flags, '--uri', uri]));
  const clients = Math.max(...config.workload.clients);
  const conn = { uri, serverSelectionTimeoutMs: 10000 };
  // The run lasts DURATION_MS as the loader's step does; the first WARMUP_MS are not measured.
  const durationMs = Math.max(1000, Number(durationText) - WARMUP_MS);
  // A kind that is not one op in a loop (gridfs: an upload stream, then a download) measures its
  // own phases, each as bench.js measures the loader's case of that name, with its one client.
  // Side by side with the loader's cases (LAB_BENCH_LIVE=1; bench.js sideBySidePhases): it
  // prepares alone (floors/gridfs.js: the file it will download) and says { ready } on stdout;
  // then each line on its stdin starts its next phase, the first included (the bench writes one
  // as the loader's timeline shows each case begin), says { began: NAME } as a phase starts, and
  // each phase, once measured, says { whole: NAME, ops, cpu_us, wall_s, from, to } (paired with the loader's whole
  // case); SIGTERM or the end of stdin ends it. Lines, not a signal per phase: two SIGUSR1 sent back to
  // back (both cases of a tiny file seen in one look) arrive as one, for standard signals do not
  // queue (signal(7)), and the floor then never did the download (bench.test.js, busy machine).
  if (floor.live && process.env.LAB_BENCH_LIVE === '1') {
    let p = -1; // no phase until the loader's first case begins
    let stop = false;
    // First, so that a SIGTERM during the connect is not the default action (death, no lines).
    process.on('SIGTERM', () => { stop = true; });
    const next = readline.createInterface({ input: process.stdin });
    next.on('line', () => { p = Math.min(p + 1, floor.phases.length - 1); });
    next.on('close', () => { stop = true; });
    const client = newClient(conn, config);
    await client.connect();
    const say = (x) => process.stdout.write(`${JSON.stringify(x)}\n`);
    await floor.live({
      config, db: client.db(config.database), phase: () => floor.phases[p] ?? null, stopped: () => stop,
      ready: () => say({ ready: true }),
      began: (name) => say({ began: name }),
      whole: (name, m) => say({ whole: name, ...m }),
    });
    next.close();
    process.stdin.destroy();
    await client.close();
    return;
  }
  if (floor.run) {
    const client = newClient(conn, config);
    await client.connect();
    const phases = await floor.run({ config, db: client.db(config.database), warmMs: WARMUP_MS, durationMs });
    await client.close();
    process.stdout.write(`${JSON.stringify({ phases })}\n`);
    return;
  }
  const loops = [];
  for (let id = 0; id < clients; id++) {
    const client = newClient(conn, config);
    await client.connect();
    const db = client.db(config.database);
    const col = db.collection(config.collection);
    const rng = new Rng(config.seed, clientStream(id, 0));
    loops.push({ client, op: floor.make({ config, db, col, rng, id, clients }) });
  }
  // Warm-up, not measured: the JIT compiles the driver's code first; the loader's figure leaves
  // out the same first seconds of its step.
  const warm = performance.now() + WARMUP_MS;
  await Promise.all(loops.map(async ({ op }) => { while (performance.now() < warm) await op(); }));
  let iterations = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const end = t0 + durationMs;
  await Promise.all(loops.map(async ({ op }) => {
    while (performance.now() < end) {
      await op();
      iterations++;
    }
  }));
  const cpu = process.cpuUsage(c0);
  const wallS = (performance.now() - t0) / 1000;
  const ops = iterations * floor.ops;
  const cpuUs = cpu.user + cpu.system;
  await Promise.all(loops.map(({ client }) => client.close()));
  // from, to: the measured window (epoch ms), for a run measured beside another process.
  const from = Math.round(performance.timeOrigin + t0);
  process.stdout.write(`${JSON.stringify({ ops, cpu_us: cpuUs, wall_s: Math.round(wallS * 1000) / 1000, cpu_us_per_op: Math.round((cpuUs / ops) * 10) / 10, from, to: from + Math.round(wallS * 1000), node_flags: process.execArgv })}\n`);
}

main().catch((e) => { process.stderr.write(`${e.stack || e}\n`); process.exit(1); });
