'use strict';
// The step loop of a run (runner.js): the worker threads, then each step of the plan in turn: its
// warm-up and measured part, the 1-second ticks into the timeline, the stall and pause watch, how
// steady it was, and its entry in steps[]. It sees the run only through the context it is given,
// not the Run itself:
//   config, conn, stallTimeoutMs, workers (--workers), log, metrics, annotator, progress, runDir,
//   serverRecord (or undefined), steps (the run's list, appended to), phase(name, step, text),
//   hookContext() (a kind's beforeStep/afterStep), stopReason() (null while the run goes on),
//   stop(reason, code), whyLost(reason) (a promise: why a client lost its server, said by a stop).
// The run reads back pool (its close, its workers' count), current (the step in progress, for a
// forced exit) and stall (summary.json stall), and calls onStop() when it stops.
const os = require('node:os');
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');
const { HostCpu } = require('./hostcpu');
const { mergeInterval } = require('./recorder');
const { pauseWatch, pauseThresholdMs } = require('./pauses');
const { WorkerPool } = require('./pool');
const { secondOf, stabilityOf } = require('../stability');
const { LiveDips, annotationText } = require('../stability/live');
const { OPS } = require('../experiment/workload');
const { kind } = require('../kinds');
const { stepPlan } = require('../experiment/step-plan');
const { stepSummary } = require('../results/summary');
const { plural } = require('../text/plural');
const { durationText } = require('../text/duration');
const { round, median } = require('../../../common/stats');

const now = () => performance.timeOrigin + performance.now();

// How often a running step is checked for a stall (no operation completed for --stall-timeout):
// the workers publish their last completion time in shared memory at every operation
// (src/run/pool.js lastOkAt), so the check costs one read per worker, and a stall is seen within
// 25 ms of its deadline (args.js refuses a --stall-timeout under 100 ms).
const STALL_CHECK_MS = 25;
// A timer may fire up to a millisecond early against this clock (setTimeout rounds to whole ms):
// a tick this close to the end of the warm-up is its end.
const TIMER_SLACK_MS = 2;

// stepEntry(config, step, acc, endAt, stopReason): the step's entry of steps[] as measured so far
// (also a forced exit's, runner.js forceExit).
function stepEntry(config, step, acc, endAt, stopReason) {
  return stepSummary({ step, acc, endAt, stopReason, rate: step.rate ?? config.rate, cores: os.availableParallelism(),
    shape: kind(config.workload.type).shape });
}

class StepLoop {
  constructor(ctx) {
    this.ctx = ctx;
    this.current = null; // { step, acc } while a step runs
    this.waiters = []; // resolved when every worker finished the step, or by a stop
  }

  // onStop: the run stopped; the workers stop their clients and a waiting step goes on.
  onStop() {
    if (this.pool) this.pool.post({ type: 'stop' });
    for (const f of this.waiters) f();
  }

  // run: the kind's plan (a client sweep by default; a matrix of cases for shape 'cases'), one
  // step at a time, each its own phase (metrics label and Grafana annotation).
  async run() {
    const { config, log, annotator, hookContext, stopReason, steps } = this.ctx;
    const k = kind(config.workload.type);
    // The plan: the kind's steps, or with --sla a capacity search whose next step's offered rate
    // follows from the last step (src/experiment/step-plan.js).
    // Each judged step of a search is logged and annotated (Grafana), as each step's start is.
    const plan = stepPlan(config, (m) => { log(m); annotator.annotate('capacity', `${config.name}: ${m}`); });
    await this.startWorkers(plan.maxClients);
    this.hostCpu = new HostCpu();
    this.runStart = now();
    for (let i = 0; !stopReason(); i++) {
      const next = plan.next(steps[steps.length - 1]);
      if (!next) break;
      const step = this.stepOf(i, next, k);
      const extra = { ...(k.beforeStep ? await k.beforeStep(hookContext(), step) : null) };
      if (stopReason()) break;
      const acc = this.begin(step, next, k, plan.totalText);
      await this.measure(step, acc);
      await this.record(step, acc, extra, k);
    }
  }

  async startWorkers(maxClients) {
    const { conn, config, workers, log, stop, whyLost, stopReason } = this.ctx;
    this.pool = new WorkerPool({
      conn,
      config,
      on: {
        stepDone: () => { for (const f of this.waiters) f(); },
        // A kind's note from a worker (kinds/index.js env.note): kept for its afterStep.
        note: (index, data) => {
          if (this.current && this.current.step.index === index) this.current.acc.notes.push(data);
        },
        // A client's connection failed for good (src/server/clients.js isFatal): the run asks why
        // (whyLost), and the step waits for that answer (lostCheck) before it is summed up: it
        // ended because of it.
        abort: (reason) => { if (!stopReason() && !this.lostCheck) this.lostCheck = whyLost(reason); },
        crash: (reason) => stop(reason, 1),
      },
    });
    await this.pool.start(maxClients, workers, log);
  }

  // stepOf(i, next, k): step i of the plan as the workers get it.
  stepOf(i, next, k) {
    const { config } = this.ctx;
    const { name: phase, clients: c, params } = next;
    const rate = next.rate ?? config.rate; // the step's offered rate (a search's), else --rate
    return {
      index: i,
      phase,
      clientIds: Array.from({ length: c }, (_, j) => j), // of the pool's ids 0..maxClients-1
      params: params ?? null,
      durationS: config.workload.durationMs ? config.workload.durationMs / 1000 : null,
      warmupS: (config.warmupMs || 0) / 1000,
      rate,
      ratePerClient: rate ? rate / c / k.opsPerIteration : null,
    };
  }

  // begin(step, next, k, totalText): the step's times, its phase and progress line; -> its
  // accumulator.
  begin(step, next, k, totalText) {
    const { config, metrics, progress, phase: setPhase } = this.ctx;
    const { name: phase, clients: c, params } = next;
    const { index: i, rate } = step;
    // Warm-up, then the measured part: a step bounded by a duration runs warm-up + duration.
    const warmupMs = config.warmupMs || 0;
    step.startAt = now() + 20; // a moment for the step message to reach every worker
    step.measureAt = step.startAt + warmupMs;
    step.endAt = config.workload.durationMs ? step.measureAt + config.workload.durationMs : null;
    // A kind names its clients (ycsb: YCSB's threads, as --threads says).
    const who = plural(c, k.clientWord ?? 'client');
    const what = params ? `case ${phase}` : `${who}${next.rate ? `, ${rate} ops/s offered` : ''}`;
    metrics.setOfferedRate(rate);
    setPhase(phase, i + 1, `${config.name}: step ${i + 1}/${totalText}, ${what}${warmupMs ? `, ${durationText(warmupMs)} warm-up first` : ''}`);
    metrics.setActiveClients(c);
    metrics.setWarmup(warmupMs > 0);
    // What bounds a step of the 'own' kind (its batches, chunks, ops), else its documents.
    const own = k.stepTotal?.(config, step) ?? { total: config.workload.docs, unit: 'docs' };
    const warmNote = warmupMs ? `, ${durationText(warmupMs)} warm-up` : '';
    // A case the kind decided not to run (beforeStep set step.skip, and said so) starts nothing.
    if (step.skip) { /* its "not run" line is the only one */ }
    else if (step.durationS !== null) progress.start(`step ${i + 1}/${totalText} (${params ? phase : `${who}${next.rate ? `, ${rate} ops/s` : ''}`}${warmNote})`, step.durationS + step.warmupS, 's');
    else progress.start(`${phase}${warmNote ? ` (${warmNote.slice(2)})` : ''}`, own.total, own.unit);
    return {
      ops: {}, seconds: [], stab: [], live: new LiveDips(), totalOk: 0, errorsSeen: new Set(), notes: [],
      startAt: step.startAt, lastTick: now(), lastCpu: process.cpuUsage(), lastOkAt: 0,
      lastCpuAt: now(), // lastCpu's time: the warm-up's last line ends at measureAt, the CPU reading does not
      // warming until the tick at step.measureAt; measuredFrom: when the measurement began
      // (null: the step ended, or was stopped, within its warm-up).
      warming: warmupMs > 0, warm: { ops: {}, seconds: 0 }, measuredFrom: warmupMs > 0 ? null : step.startAt,
    };
  }

  // measure(step, acc): the step runs on the workers until they are done or the run stops, with
  // one tick a second and one at the end of the warm-up (scheduled for that moment).
  async measure(step, acc) {
    const { stopReason } = this.ctx;
    this.current = { step, acc };
    const done = new Promise((r) => this.waiters.push(r));
    this.pool.post({ type: 'step', step });
    const unwatch = this.watchStall(step, acc);
    let over = false;
    let wake = () => {};
    const ticker = (async () => {
      while (!over) {
        const next = acc.lastTick + 1000;
        const due = acc.warming && step.measureAt < next ? step.measureAt : next;
        await new Promise((r) => {
          const t = setTimeout(r, Math.max(0, due - now()));
          wake = () => { clearTimeout(t); r(); };
        });
        if (!over) await this.tick(step, acc);
      }
    })();
    await done;
    if (this.lostCheck) await this.lostCheck; // a client lost its server: why, before the step is summed up
    over = true;
    wake();
    await ticker;
    unwatch();
    // A stopped step may still have ops in flight; give them a moment to land (bounded).
    if (stopReason()) {
      const done = new Promise((r) => { this.waiters = [r]; if (this.pool.allDone(step.index)) r(); });
      await Promise.race([done, sleep(3000)]);
    }
    await this.tick(step, acc); // the last partial second
  }

  // record(step, acc, extra, k): the step's entry, with the server's side, its stability and the
  // kind's afterStep facts, into steps[].
  async record(step, acc, extra, k) {
    const { config, metrics, progress, serverRecord, log, hookContext, stopReason, steps } = this.ctx;
    metrics.setWarmup(false);
    this.waiters = [];
    progress.stop();
    const entry = stepEntry(config, step, acc, now(), stopReason());
    // The server's side of the step (src/server-record/step-facts.js): replication (lag per
    // secondary, oplog window, state changes, flagged) and write cost, over its measured part.
    if (serverRecord) Object.assign(entry, serverRecord.stepFacts(acc.measuredFrom ?? step.startAt, now()));
    // How steady the step was, each dip explained by the server record (src/stability/).
    this.stability(entry, acc, step);
    // After the step, on the main thread: facts the kind gathers (counts, checksums), also for
    // a step cut short (the kind says what it left behind); a failure here is the step's note.
    if (k.afterStep) {
      try {
        // entry: the case as measured (ops/s, docs/s), e.g. to compare it with an earlier case.
        Object.assign(extra, await k.afterStep(hookContext(), step, acc.notes, entry));
      } catch (e) {
        extra.after_step_error = `${e.name}: ${e.message}`;
        log(`${step.phase}: could not complete the step's checks: ${extra.after_step_error}`);
      }
    }
    Object.assign(entry, extra);
    if (acc.pauses && acc.pauses.length) entry.pauses = acc.pauses;
    // A step cut short keeps its clients' raw notes too (what it left behind, e.g. a GridFS file
    // id), whether or not a second signal comes before or after this point.
    if (stopReason() && acc.notes.length && !entry.notes) entry.notes = acc.notes;
    steps.push(entry);
    this.current = null;
    metrics.setActiveClients(0);
  }

  async tick(step, acc) {
    // A warm-up second: run and shown (timeline warmup: true), counted in the step's warm-up, not
    // in its measurement (throughput, percentiles, the loader's verdict). The measured window opens
    // at step.measureAt exactly, and each op is placed by when it completed (worker.js: `warm` for
    // the ops that completed before it): the window counts exactly the ops that completed in it,
    // the warm-up's stragglers and a paced client's backlog included. The tick at the end of the
    // warm-up is scheduled for that moment (measure); its line ends at measureAt, and what its
    // flush brought that completed after measureAt opens the first measured line (acc.carry).
    const { config, metrics, annotator } = this.ctx;
    const warming = acc.warming;
    const askedAt = now();
    const replies = await this.pool.flush();
    const t = now();
    const ending = warming && askedAt >= step.measureAt - TIMER_SLACK_MS;
    const lineEnd = ending ? Math.min(t, step.measureAt) : t;
    const intervalS = Math.max(0.001, (lineEnd - acc.lastTick) / 1000);
    acc.lastTick = lineEnd;
    const cpuS = Math.max(0.001, (t - acc.lastCpuAt) / 1000);
    acc.lastCpuAt = t;
    const cpu = process.cpuUsage(acc.lastCpu);
    acc.lastCpu = process.cpuUsage();
    const cpuCores = (cpu.user + cpu.system) / 1e6 / cpuS;
    const host = this.hostCpu ? this.hostCpu.sample(cpuCores) : null;
    const doneOk = this.countReplies(replies, acc);
    // After the warm-up, what completed before the window opened but was flushed after it did
    // still counts in the warm-up (no line's); the window's ops carried so far open its first line.
    const warmOps = mergeInterval(replies.map((r) => r.warm).filter(Boolean), intervalS, acc.warm.ops);
    const carried = [...(acc.carry || []), ...replies.map((r) => r.ops)];
    acc.carry = warming ? carried : null;
    const ops = warming ? warmOps : mergeInterval(carried, intervalS, acc.ops);
    const okTotal = Object.values(ops).reduce((n, o) => n + o.ok, 0); // this line's operations
    if (ending) {
      acc.warming = false;
      acc.measuredFrom = step.measureAt;
      metrics.setWarmup(false);
      annotator.annotate(step.phase, `${config.name}: step ${step.index + 1}: warm-up over (${durationText(config.warmupMs)}), measuring`);
    }
    const line = {
      t: new Date(lineEnd).toISOString(),
      elapsed_s: round((lineEnd - this.runStart) / 1000, 3),
      interval_s: round(intervalS, 3),
      // The last line of a step covers the rest of a second; its ops_per_s is a rate over a short
      // interval, so graphs can leave it out.
      partial: intervalS < 0.9,
      phase: step.phase,
      step: step.index + 1,
      clients: step.clientIds.length,
      ...(warming ? { warmup: true } : {}),
      ops,
      loader: { cpu_cores: round(cpuCores, 3), workers: replies.map((r) => r.self) },
      host, // the CPUs this process may use: busy, steal, and what other processes took
    };
    this.second(step, acc, { warming, ops, okTotal, replies, host, cpuCores, intervalS, t });
    this.write(line);
    acc.totalOk += doneOk;
    const rate = doneOk / cpuS;
    // Progress in what bounds the step: documents done, or seconds elapsed.
    if (step.durationS === null) this.ctx.progress.update(acc.totalOk, rate);
    else this.ctx.progress.update(Math.min(step.durationS + step.warmupS, Math.round((t - acc.startAt) / 1000)), rate);
  }

  // countReplies(replies, acc) -> every op that completed in this flush, warm-up's too (the
  // progress of a step bounded by its work); each new error said once, each op into /metrics.
  countReplies(replies, acc) {
    const { log, metrics } = this.ctx;
    let doneOk = 0;
    for (const r of replies) {
      if (r.lastOkAt > acc.lastOkAt) acc.lastOkAt = r.lastOkAt;
      if (r.lastError && !acc.errorsSeen.has(r.lastError)) {
        acc.errorsSeen.add(r.lastError);
        log(`operation error (counted as outcome=error): ${r.lastError}`);
      }
      for (const d of [r.ops, r.warm || {}]) {
        for (const [op, x] of Object.entries(d)) {
          doneOk += x.ok;
          metrics.addInterval(op, x);
        }
      }
      acc.warm.backlog = (acc.warm.backlog || 0) + (r.backlog || 0);
    }
    return doneOk;
  }

  // second(step, acc, s): one tick's second into /metrics, and into the step's warm-up or its
  // measured seconds.
  second(step, acc, { warming, ops, okTotal, replies, host, cpuCores, intervalS, t }) {
    const { metrics } = this.ctx;
    // The second's slowest p99 of any op (ms): what pauses are judged against (src/run/pauses.js).
    const p99s = OPS.map((op) => ops[op]?.latency_us?.p99).filter((x) => typeof x === 'number');
    if (p99s.length) (acc.opP99Ms ||= []).push(Math.max(...p99s) / 1000);
    for (const op of OPS) metrics.setLatency(op, ops[op] ? ops[op].latency_us : { count: 0 });
    for (const op of OPS) metrics.setIntendedLatency(op, ops[op]?.intended_latency_us);
    if (warming) acc.warm.seconds += intervalS;
    else {
      acc.seconds.push({ cpuCores, selfs: replies.map((r) => r.self), intervalS, host });
      // The step's measured seconds for its stability (src/stability/); warm-up seconds never.
      acc.stab.push(secondOf({ end: t, intervalS, ops, okTotal, replies, host }));
      this.liveStability(step, acc);
    }
  }

  // write(line): one timeline line; a full or read-only disk stops the run cleanly, and what was
  // measured stays in memory for the summary.
  write(line) {
    try {
      this.ctx.runDir.timeline(line);
    } catch (e) {
      this.ctx.stop(e.message, 1);
    }
  }

  // watchStall(step): while the step runs, stop the run when no operation has completed for
  // --stall-timeout (a hung server, a partition), counted from the step's start or its last
  // completed operation; checked every STALL_CHECK_MS. Returns the watcher's stop function.
  // The same check notes pauses (src/run/pauses.js): silences shorter than the stall timeout, said
  // when operations resume and listed in the step's summary (acc.pauses).
  watchStall(step, acc) {
    const { stallTimeoutMs: limit, config, log, stop, stopReason } = this.ctx;
    const every = Math.min(STALL_CHECK_MS, limit / 4);
    let checkedAt = now();
    // The step's own operation times (the median of its seconds' p99, ms; tick keeps them).
    acc.opP99Ms ||= [];
    const threshold = pauseThresholdMs({ stallTimeoutMs: limit, rate: step.rate ?? config.rate });
    const pauses = pauseWatch(step.startAt, threshold, () => median(acc.opP99Ms));
    acc.pauses = pauses.list;
    const timer = setInterval(() => {
      if (stopReason()) return;
      const t = now();
      const gap = t - checkedAt;
      checkedAt = t;
      const pause = pauses.check(t, this.pool.lastOkAt());
      if (pause) {
        log(`warning: step ${step.index + 1}: nothing completed for ${(pause.idle_ms / 1000).toFixed(1)} s, ${pause.from_s.toFixed(1)} s into it: the server paused, then resumed (summary.json pauses)`);
      }
      const idle = t - Math.max(step.startAt, this.pool.lastOkAt());
      if (idle >= limit) {
        // check_gap_ms: how long since the check before: more than STALL_CHECK_MS when this thread
        // was not scheduled in time (a busy host), which makes the stop that much later.
        this.stall = { timeout_ms: limit, idle_ms: Math.round(idle), check_every_ms: every,
          check_gap_ms: Math.round(gap), step: step.index + 1 };
        stop(`no operation completed for ${Math.round(idle)} ms (--stall-timeout ${durationText(limit)})`, 1);
      }
    }, every);
    return () => clearInterval(timer);
  }

  // liveStability: /metrics and a Grafana annotation per dip as it ends (src/stability/live.js).
  liveStability(step, acc) {
    const { serverRecord, metrics } = this.ctx;
    const { st, ended } = acc.live.update(acc.stab, serverRecord ? serverRecord.series : null,
      acc.measuredFrom ?? step.startAt);
    metrics.setStability(st);
    this.annotateDips(step, ended);
  }

  stability(entry, acc, step) {
    const { serverRecord, metrics } = this.ctx;
    const from = acc.measuredFrom ?? step.startAt;
    entry.stability = stabilityOf(acc.stab, serverRecord ? serverRecord.series : null, from, now());
    metrics.setStability(entry.stability);
    // A dip that lasted to the step's end was not posted live: posted now, from the step's record.
    this.annotateDips(step, (entry.stability.dips || []).filter((d) => !acc.live.posted.has(d.start)));
  }

  annotateDips(step, dips) {
    const { config, annotator } = this.ctx;
    for (const d of dips) {
      annotator.annotate(step.phase, annotationText(config.name, step.index + 1, d), { time: Date.parse(d.start), timeEnd: Date.parse(d.end), tags: ['dip'] });
    }
  }
}

module.exports = { StepLoop, stepEntry };
