'use strict';
// A worker thread drives a share of the clients. Each client is its own MongoClient (one
// connection) running one operation at a time, as one mongo shell did in the seed. Spreading
// clients over threads keeps the loader off a single core: one Node thread saturates at roughly
// 1 / (loader CPU per op) ops/s (see loader/bench).
//
// Measurement, per op type: an HdrHistogram of service time (op start -> reply), with --rate a
// second one from the op's intended start (coordinated omission corrected, YCSB's
// measurement.interval=intended), ok/error counts, and Prometheus bucket counts. The main thread
// collects and resets them once a second ('flush'), so every number is an interval delta.
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const { LoopDelay } = require('./loop-delay');
const { Rng } = require('../../../common/rng');
const { Recorder, Pacer, inWarmup, dueInWarmup } = require('./recorder');
const { newClient, isFatal } = require('../server/clients');
const { opsFor, clientStream } = require('../experiment/workload');

// warmCommands: the pings each client sends in setup (pool.js warmCommands says why so many)
const { conn, config, clientIds, workerIndex, lastOk, warmCommands } = workerData;
const now = () => performance.timeOrigin + performance.now(); // epoch ms, same clock in every thread

const recorder = new Recorder(lastOk);
// Ops that completed before the step's measured window opened (recorder.js inWarmup): flushed
// apart as `warm`, counted by the main thread in the warm-up. Each op is placed by when it
// completed, so the window counts exactly the ops that completed in it: the warm-up's stragglers
// too, and a paced client's backlog from the warm-up (counted apart as `backlog` as well).
const warm = new Recorder(lastOk);
let backlog = 0;

const { record } = recorder;
let lastError = null;

const loopDelay = new LoopDelay(); // its resolution and what it costs: src/run/loop-delay.js
let eluPrev = performance.eventLoopUtilization();
const threadCpu = typeof process.threadCpuUsage === 'function'; // Node >= 23.9 only
let cpuPrev = threadCpu ? process.threadCpuUsage() : null;

function flush(seq) {
  const ops = recorder.flush();
  const elu = performance.eventLoopUtilization(eluPrev);
  eluPrev = performance.eventLoopUtilization();
  const delay = loopDelay.read();
  const self = {
    worker: workerIndex,
    elu: Math.round(elu.utilization * 1000) / 1000,
    eldP99Ms: delay.p99Ms,
    eldMaxMs: delay.maxMs,
  };
  if (threadCpu) {
    const c = process.threadCpuUsage(cpuPrev);
    cpuPrev = process.threadCpuUsage();
    self.cpuUs = c.user + c.system;
  }
  parentPort.postMessage({ type: 'interval', seq, ops, warm: warm.flush(), backlog, self, lastError, lastOkAt: Math.max(recorder.lastOkAt, warm.lastOkAt) });
  lastError = null;
  backlog = 0;
}

const clients = new Map(); // client id -> { client, db, col } (its MongoClient)
let stopping = false;
let aborted = false;
const { setTimeout: sleep } = require('node:timers/promises');

function abort(reason) {
  if (aborted) return;
  aborted = true;
  stopping = true;
  parentPort.postMessage({ type: 'abort', reason });
}

// runClient: one client's loop for one step (pacing with --rate: see Pacer in recorder.js).
async function runClient(id, step) {
  const { col, db, client } = clients.get(id);
  const rng = new Rng(config.seed, clientStream(id, step.index));
  // env: what a kind may need beyond its collection (kinds/index.js).
  const note = (data) => parentPort.postMessage({ type: 'note', index: step.index, id, data });
  const next = opsFor(config, col, rng, id, step, { db, client, note });
  const rec = (op, startMs, endMs, intendedMs, ...rest) => {
    if (inWarmup(step, endMs)) return warm.record(op, startMs, endMs, intendedMs, ...rest);
    if (dueInWarmup(step, intendedMs)) backlog++;
    return record(op, startMs, endMs, intendedMs, ...rest);
  };
  // Paced clients start spread over one interval (client k of n at k/n of it), so that together
  // they offer an even stream, not n operations at once every interval (a burst that queues at
  // the server and was counted as its latency), and a short step offers its rate, not a whole
  // interval more per client.
  const slot = step.clientIds.indexOf(id) / step.clientIds.length;
  const pacer = step.ratePerClient
    ? new Pacer(step.startAt + (slot * 1000) / step.ratePerClient, step.ratePerClient)
    : null;
  // No op before the step's start (the runner sets it a moment ahead, for the message to reach
  // every worker): the summary's rate is over startAt..end, and a step of a few fast ops that ran
  // ahead of it measured a duration near zero (ops/s of 386415 or null, seen in CI).
  const ahead = step.startAt - now();
  if (ahead > 0) await sleep(ahead);
  let consecutiveErrors = 0;
  while (!stopping) {
    let intended = 0;
    if (pacer) {
      intended = pacer.next();
      if (step.endAt && intended >= step.endAt) break;
      const wait = intended - now();
      if (wait > 0.5) await sleep(wait);
      if (stopping) break;
    } else if (step.endAt && now() >= step.endAt) break;
    let r;
    try {
      r = await next(rec, intended, now);
      consecutiveErrors = 0;
    } catch (e) {
      if (isFatal(e)) { abort(`client ${id}: ${e.name}: ${e.message}`); break; }
      lastError = `${e.name}: ${e.message}`;
      recorder.error(e, now()); // the first error per op and interval, with its code (recorder.js)
      // 1000 failures in a row is not a measurement any more (e.g. not authorized).
      if (++consecutiveErrors >= 1000) { abort(`client ${id}: 1000 consecutive errors, last: ${lastError}`); break; }
    }
    if (r === false) break; // workload finished (experiment1 inserted its share)
  }
}

async function runStep(step) {
  const mine = step.clientIds.filter((id) => clients.has(id));
  await Promise.all(mine.map((id) => runClient(id, step)));
  parentPort.postMessage({ type: 'stepDone', index: step.index });
}

// Clients connect CONNECT_AT_ONCE at a time per thread: a thousand handshakes at once (each client
// opens its monitoring and its pooled connection) kept a busy test server from answering any
// within the 10 s server selection timeout; in turns they all connect, and every step still starts
// with all of them ready.
const CONNECT_AT_ONCE = 32;

async function main() {
  try {
    const queue = [...clientIds];
    const connectNext = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const client = newClient(conn, config);
        const db = client.db(config.database);
        clients.set(id, { client, db, col: db.collection(config.collection) });
        await client.connect();
        const admin = client.db('admin');
        for (let i = 0; i < warmCommands; i++) await admin.command({ ping: 1 });
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONNECT_AT_ONCE, queue.length) }, connectNext));
  } catch (e) {
    parentPort.postMessage({ type: 'fatal', reason: `${e.name}: ${e.message}` });
    return;
  }
  parentPort.postMessage({ type: 'ready' });
}

parentPort.on('message', async (m) => {
  switch (m.type) {
    case 'step':
      stopping = false;
      runStep(m.step);
      break;
    case 'flush':
      flush(m.seq);
      break;
    case 'stop':
      stopping = true;
      break;
    case 'close':
      stopping = true;
      loopDelay.stop();
      // Closing can hang on a dead server for the connect timeout; the main thread terminates
      // the worker if it takes more than a few seconds.
      await Promise.allSettled([...clients.values()].map(({ client }) => client.close(true)));
      parentPort.postMessage({ type: 'closed' });
      break;
    default:
      break;
  }
});

main();
