'use strict';
// The worker pool: worker threads that each drive a share of the clients (src/run/worker.js), and
// the message protocol with them: ready/fatal at start, step (run one client step), flush
// (interval deltas, once a second), stepDone, abort (lost the server), stop, close/closed.
// The step loop (step-loop.js) decides when; the pool only talks to the threads.
const os = require('node:os');
const path = require('node:path');
const { Worker } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const { plural } = require('../text/plural');

const { setTimeout: sleep } = require('node:timers/promises');

// A worker's young generation (V8 new space): every operation allocates short-lived driver and
// BSON objects, and a larger nursery means fewer scavenges per operation. 96 MB (32 MB semi-spaces)
// against V8's default, read_update at 16 clients on one pinned core, steady state, seven paired
// runs on a shared machine (us per op, default -> 96): 218->215, 209->147, 169->182, 163->148,
// 150->138, 184->184, 167->165: lower in 5 of 7, a small gain within the noise, kept because it
// costs nothing but memory (at most ~96 MB per worker thread).
const YOUNG_GENERATION_MB = 96;

// Commands each client sends in setup, before any step: its pooled connection is open (and
// authenticated) and the driver's command path (server selection, OP_MSG, BSON) is compiled
// before a step's clock starts (loader/README.md, "Warm-up", measured with and without).
// The compiling is the thread's (one V8 isolate for all its clients), the open connection each
// client's: past THREAD_WARM_COMMANDS in all (16 clients' worth) a client sends fewer, at least
// one. Before, 1,000 clients on two threads sent 50,000 pings in setup: 73 s of an 84 s run.
const WARM_COMMANDS = 50;
const THREAD_WARM_COMMANDS = 16 * WARM_COMMANDS;
const warmCommands = (clientsInThread) =>
  Math.min(WARM_COMMANDS, Math.max(1, Math.ceil(THREAD_WARM_COMMANDS / clientsInThread)));

class WorkerPool {
  // on: { stepDone(index) when every worker finished step index, abort(reason), crash(reason),
  //       note(index, data): a workload kind's note from a client of step index }
  constructor({ conn, config, on }) {
    this.conn = conn;
    this.config = config;
    this.on = on;
    this.workers = [];
    this.flushing = null;
    this.seq = 0;
    // Replies to an earlier flush that came after its 2 s wait (a worker whose event loop was
    // busy, e.g. decoding one huge reply): the worker has already reset its counters, so they are
    // handed to the next flush instead of being lost.
    this.late = [];
  }

  // start(maxClients, wanted): min(wanted ?? min(maxClients, cores), maxClients) threads, client
  // ids 0..maxClients-1 spread round-robin; resolves when every thread's clients are connected.
  async start(maxClients, wanted, log) {
    const cores = os.availableParallelism();
    const n = Math.min(wanted ?? Math.min(maxClients, cores), maxClients);
    const idsByWorker = Array.from({ length: n }, () => []); // client ids, one list per thread
    // Each worker's latest completed operation, ms after `epoch`, written by the worker at every
    // operation (src/run/recorder.js): the runner's stall check reads it every 25 ms without asking.
    this.epoch = Math.floor(performance.timeOrigin + performance.now());
    this.lastOk = new Int32Array(new SharedArrayBuffer(4 * n));
    for (let id = 0; id < maxClients; id++) idsByWorker[id % n].push(id);
    const ready = [];
    for (let w = 0; w < n; w++) {
      const worker = new Worker(path.join(__dirname, 'worker.js'), {
        workerData: { conn: this.conn, config: this.config, clientIds: idsByWorker[w], workerIndex: w,
          lastOk: { array: this.lastOk, index: w, epoch: this.epoch },
          warmCommands: warmCommands(idsByWorker[w].length) },
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      });
      const entry = { worker, index: w, clientIds: idsByWorker[w], closed: false };
      this.workers.push(entry);
      ready.push(new Promise((resolve, reject) => {
        worker.on('message', (m) => {
          if (m.type === 'ready') resolve();
          else if (m.type === 'fatal') reject(new Error(`worker ${w}: ${m.reason}`));
          else this.onMessage(entry, m);
        });
        worker.on('error', (e) => { reject(e); this.on.crash(`worker ${w} crashed: ${e.message}`); });
        worker.on('exit', () => { entry.closed = true; });
      }));
    }
    log(`${plural(maxClients, 'client')} on ${plural(n, 'worker thread')}, ${plural(cores, 'CPU')} available`);
    await Promise.all(ready);
  }

  onMessage(entry, m) {
    if (m.type === 'interval') {
      if (this.flushing && m.seq === this.flushing.seq) {
        this.flushing.replies.push(m);
        if (this.flushing.replies.length === this.flushing.expect) this.flushing.resolve();
      } else {
        // The timeline line that carries it says so (loader.workers[].late).
        if (m.self) m.self.late = true;
        this.late.push(m);
      }
    } else if (m.type === 'stepDone') {
      entry.stepDone = m.index;
      if (this.allDone(m.index)) this.on.stepDone(m.index);
    } else if (m.type === 'note') {
      if (this.on.note) this.on.note(m.index, m.data);
    } else if (m.type === 'abort') {
      this.on.abort(m.reason);
    }
  }

  // lastOkAt(): the end (epoch ms) of the latest operation any worker completed, 0 for none yet.
  lastOkAt() {
    const last = Math.max(0, ...this.lastOk);
    return last ? this.epoch + last : 0;
  }

  allDone(index) {
    return this.workers.every((w) => w.stepDone === index);
  }

  post(message) {
    for (const w of this.workers) w.worker.postMessage(message);
  }

  // flush: ask every worker for its interval deltas (resolves within 2 s even if one is stuck),
  // with any late replies to earlier flushes that have come since.
  async flush() {
    const live = this.workers.filter((w) => !w.closed);
    this.seq += 1;
    const f = { seq: this.seq, replies: [], expect: live.length };
    f.promise = new Promise((r) => { f.resolve = r; });
    this.flushing = f;
    for (const w of live) w.worker.postMessage({ type: 'flush', seq: f.seq });
    await Promise.race([f.promise, sleep(2000)]);
    this.flushing = null;
    const late = this.late;
    this.late = [];
    return late.concat(f.replies);
  }

  // close: each thread closes its clients, bounded at 3 s (a dead server can hang a close), then
  // is terminated.
  async close() {
    await Promise.all(this.workers.map(async (w) => {
      if (w.closed) return;
      const closed = new Promise((r) => w.worker.on('message', (m) => m.type === 'closed' && r()));
      w.worker.postMessage({ type: 'close' });
      await Promise.race([closed, sleep(3000)]);
      await w.worker.terminate();
    }));
  }
}

module.exports = { WorkerPool, warmCommands, WARM_COMMANDS, THREAD_WARM_COMMANDS };
