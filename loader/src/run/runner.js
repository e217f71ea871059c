'use strict';
// One experiment run, from connecting to the last byte of summary.json. The main thread does no
// measured operation: it owns the phases, the 1-second ticks, the results files and the metrics
// endpoint, and merges what the worker threads measured.
const os = require('node:os');
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { load, REPO_ROOT } = require('../experiment/config');
const { UsageError } = require('../text/usage');
const { readSecret, newClient } = require('../server/clients');
const { describe, backendOf, serverProcessNow, restartFacts, restartReason } = require('../server/describe');
const retryWrites = require('../server/retry-writes');
const { storageFacts } = require('../server/storage-facts');
const { noStepMeasured } = require('../../../common/step-failure');
const { everyStepTooShort } = require('../results/too-short');
const { serverLine } = require('../server/server-line');
const { connect } = require('../server/connect');
const { connectionFacts } = require('../server/connection-facts');
const { engineLabel } = require('../server/engine-label');
const { HostCpu } = require('./hostcpu');
const { register, targetKey } = require('./run-registry');
const { RunDir } = require('../results/run-folder');
const { checkSummary } = require('../results/summary-schema');
const { Metrics } = require('./metrics');
const { Annotator } = require('./grafana');
const { Progress } = require('./progress');
const { mergeInterval } = require('./recorder');
const { secondOf, stabilityOf } = require('../stability');
const { LiveDips, annotationText } = require('../stability/live');
const { OPS, makeDoc } = require('../experiment/workload');
const { kind } = require('../kinds');
const { dropIfThere } = require('../kinds/ops');
const { stepPlan, capacityFor } = require('../experiment/step-plan');
const { buildSummary, stepSummary, forcedSteps, forcedReason, redactUri } = require('../results/summary');
const { onOutputClosed, closedReason, closedExitCode } = require('../../../common/closed-output');
const { onStopSignals } = require('../stop-signals');
const { pauseWatch, pauseThresholdMs } = require('./pauses');
const { wrapLine } = require('../text/wrap');
const { plural } = require('../text/plural');
const { placementOf } = require('./placement');
const { closingText } = require('../results/closing-text');
const { durationText } = require('../text/duration');
const { WorkerPool } = require('./pool');
const { round, median } = require('../../../common/stats');
const { Rng } = require('../../../common/rng');
const { startServerRecord } = require('../server-record');
const footprint = require('../server/footprint');

const now = () => performance.timeOrigin + performance.now();
// writeQuietly(fd, text): a last line on a descriptor that may be gone (a closed pipe, a terminal
// hung up): its failure is no reason to stop what is being done.
const { runErrorReason } = require('./run-error');
const writeQuietly = (fd, text) => { try { fs.writeSync(fd, text); } catch { /* nobody reads it */ } };
const { setTimeout: sleep } = require('node:timers/promises');

// secretFlag(flag, file): the secret a --*-file flag names (clients.js readSecret), undefined
// without the flag; a file that cannot be read is a usage error naming the flag.
function secretFlag(flag, file) {
  if (!file) return undefined;
  try {
    return readSecret(file);
  } catch (e) {
    throw new UsageError(`${flag}: cannot read ${file}: ${e.code || e.message}`);
  }
}

// How often a running step is checked for a stall (no operation completed for --stall-timeout):
// the workers publish their last completion time in shared memory at every operation
// (src/run/pool.js lastOkAt), so the check costs one read per worker, and a stall is seen within
// 25 ms of its deadline (args.js refuses a --stall-timeout under 100 ms).
const STALL_CHECK_MS = 25;
// A timer may fire up to a millisecond early against this clock (setTimeout rounds to whole ms):
// a tick this close to the end of the warm-up is its end.
const TIMER_SLACK_MS = 2;

class Run {
  constructor(opts, io = {}) {
    this.opts = opts;
    this.stdout = io.stdout || process.stdout;
    this.stderr = io.stderr || process.stderr;
    // Each line within 120 columns (a kind's reason ran to 300); a path stays whole.
    this.log = (m) => {
      const text = String(m).split('\n').map((l) => wrapLine(l)).join('\n');
      return this.progress ? this.progress.log(text) : this.stderr.write(text + '\n');
    };
    this.stopReason = null;
    this.exitCode = 0;
    this.steps = [];
    this.preload = null;
    this.stepWaiters = [];
    this.stopWaiters = []; // untilStopped's: resolved by stop()
  }

  // untilStopped(promise) -> the promise's value, or undefined as soon as the run is stopped: a
  // Ctrl-C or SIGTERM while the driver selects a server (up to --server-selection-timeout) or
  // while a command waits on a server that never answers ends the run at once; the abandoned
  // operation dies with the client, which finish() closes.
  untilStopped(p) {
    p.catch(() => {}); // rejected after the stop: nothing waits for it any more
    if (this.stopReason) return Promise.resolve(undefined);
    return Promise.race([p, new Promise((r) => this.stopWaiters.push(() => r(undefined)))]);
  }

  // stop(reason, code): end the run early; idempotent (the first reason wins).
  stop(reason, code) {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.exitCode = code;
    // Before a results folder exists there is nothing to stop: the error line says it all.
    if (this.runDir) this.log(`stopping: ${reason}`);
    // No progress line after "stopping:": the wind-down's ticks are not progress.
    if (this.progress) this.progress.stop();
    if (this.pool) this.pool.post({ type: 'stop' });
    for (const f of [...this.stepWaiters, ...this.stopWaiters]) f();
  }

  async main() {
    const { opts } = this;
    const { file, config } = load(opts); // UsageError -> exit 2 in bin/
    this.file = file;
    this.config = config;
    const password = secretFlag('--password-file', opts.passwordFile);
    const grafanaPassword = secretFlag('--grafana-password-file', opts.grafanaPasswordFile);
    this.conn = { uri: opts.uri, username: opts.username, password, serverSelectionTimeoutMs: opts.serverSelectionTimeoutMs };
    this.startedAt = new Date();
    this.progress = new Progress({ stream: this.stderr, intervalMs: opts.progressIntervalMs });
    this.annotator = new Annotator({ url: opts.grafanaUrl, password: grafanaPassword, experiment: config.name, log: this.log });

    // First signal: stop cleanly (in-flight ops land, partial results are written). A second one
    // while stopping: write the summary as it stands and exit at once (src/stop-signals.js). The
    // handlers stay until the summary is written: a second signal while finishing must still
    // leave the steps measured so far.
    // SIGHUP: the terminal closed while the loader is its foreground job (run by hand; under
    // ./run.sh the loader's group is not the terminal's, and run.sh passes the hang-up on as
    // SIGTERM). Untrapped it killed the loader before it saved what it measured.
    const offSignals = onStopSignals({ stopping: () => Boolean(this.stopReason), names: ['SIGINT', 'SIGTERM', 'SIGHUP'],
      stop: (name, code) => this.stop(`interrupted (${name})`, code), force: (name, code) => this.forceExit(code) });
    // A closed stdout or stderr stops the run as a signal does, with its own reason (exit 1; a
    // terminal gone: 129, as its hang-up).
    const offClosed = onOutputClosed((name, code) => this.stop(closedReason(name, code), closedExitCode(code)));
    try {
      try {
        await this.execute();
      } catch (e) {
        if (e instanceof UsageError) throw e;
        // Our own errors are plain Errors with a full sentence; driver errors keep their class name.
        this.stop(runErrorReason(e), 1);
      }
      await this.finish();
    } finally {
      offSignals();
      offClosed();
      if (this.registration) this.registration.release();
    }
    return this.exitCode;
  }

  async execute() {
    const { opts, config } = this;
    this.metrics = new Metrics(config.name);
    await this.listenMetrics();

    // Connect once from the main thread: fail fast and clearly when the server is not there. No
    // results folder exists before the server has answered: a run that never reached it leaves
    // nothing behind and does not move `latest`.
    this.log(`connecting to ${redactUri(opts.uri)} (server selection timeout ${opts.serverSelectionTimeoutMs / 1000}s)`);
    this.client = newClient(this.conn, config, { maxPoolSize: 4, minPoolSize: 0 });
    const connected = await this.untilStopped(connect(this.client, { timeoutMs: opts.serverSelectionTimeoutMs, username: opts.username })); // may switch driver line (src/server/driver-line.js)
    if (this.stopReason) return;
    this.client = connected;
    this.connection = connectionFacts(this.client);
    const description = await this.untilStopped(describe(this.client, (uri) => newClient({ ...this.conn, uri, serverSelectionTimeoutMs: 5000 }, null, { minPoolSize: 0 })));
    if (this.stopReason) return;
    this.description = description;
    // A product whose backend is named only once a database is open (FerretDB on a fresh server,
    // src/server/products.js) is asked again after setup, which creates the collection, and before the
    // results folder is named: two backends never share a folder. Setup then runs here, once.
    if (description.server.backend === null) {
      await this.untilStopped(this.setup());
      if (this.stopReason) return;
      this.setupDone = true;
      Object.assign(description.server, await backendOf(this.client.db('admin'), description.server));
    }
    // A mongos stores nothing and reports no engine: its shards' members do (describe.js asks
    // them), and that is the engine the run measured when every shard names the same one.
    const shardEngines = [...new Set((description.topology.shards || []).map((sh) => sh.storage_engine?.name).filter(Boolean))];
    const reported = description.server.storage_engine?.name ?? (shardEngines.length === 1 ? shardEngines[0] : undefined);
    const label = engineLabel({ flag: opts.engine, reported, server: description.server, repoRoot: REPO_ROOT });
    this.engineReported = label.reported;
    this.openResults(label.engine, label.source);
    this.log(serverLine(description.server, description.topology, reported)); // names FerretDB, Percona (src/server/server-line.js)
    this.log(`writing into ${this.runDir.dir}`);
    // The label is the user's word (./run.sh passes --engine); say so when the server disagrees
    // (labels may extend the name: "wiredtiger-tuned" for a server reporting "wiredTiger").
    // A table engine's name on a server reporting an engine no row runs is not the label at all:
    // the results go under the server's word (src/engine-label.js), and the note says that.
    if (opts.engine && label.engine !== opts.engine) {
      this.log(`note: the server reports storage engine '${reported}', which no engine of the table runs: results are filed under '${label.engine}', not under '${opts.engine}' (--engine)`);
    } else if (opts.engine && reported && !opts.engine.toLowerCase().startsWith(reported.toLowerCase())) {
      this.log(`note: results are labelled '${opts.engine}' (--engine) and the server reports storage engine '${reported}' (recorded beside it as engine_reported)`);
    }
    this.warnOtherRuns();
    // Retryable writes per server line (src/server/retry-writes.js): off where the line refuses them.
    this.retryWrites = retryWrites.decide({ row: label.row, rowFrom: label.rowFrom, description });
    this.client = await retryWrites.apply(this.client, { decision: this.retryWrites, conn: this.conn, log: this.log,
      reopen: () => newClient(this.conn, config, { maxPoolSize: 4, minPoolSize: 0 }), timeoutMs: opts.serverSelectionTimeoutMs, username: opts.username });
    // Oplog, preallocation, the image's platform against the host's (src/server/storage-facts.js).
    this.storage = storageFacts({ row: label.row, description, repoRoot: REPO_ROOT, inStack: Boolean(opts.profile), profile: opts.profile, journalPath: opts.journalPath, oplogMb: opts.oplogMb });
    if (this.storage.emulated) this.log(`note: the ${this.storage.engine_row} image is built for ${this.storage.image_platform} only and this host is ${this.storage.host_platform}: the members run under emulation (recorded in summary.json storage.emulated)`);
    if (this.stopReason) return;
    // The server's side of the run: each member once a second, its own connections, from here to
    // the end (src/server-record/; summary.json server_record, server.ndjson).
    // A record that cannot start (its file cannot be created) is said and the run goes on.
    if (opts.serverRecord) {
      try {
        this.serverRecord = startServerRecord({ conn: this.conn, description, client: this.client, dir: this.runDir.dir, log: this.log });
      } catch (e) {
        this.log(`server record: not started (${e.code || e.message}); the run goes on without server.ndjson`);
      }
    }

    if (!this.setupDone) await this.untilStopped(this.setup());
    if (!this.stopReason && config.preload.docs > 0) await this.runPreload();
    // The collection's footprint after the load and at the end (src/server/footprint.js), bounded so a
    // hung server cannot hold the run here.
    const measureFootprint = (phase) => this.untilStopped(Promise.race([footprint.measure(this.client, config, phase, { storageEngine: this.description?.server?.storage_engine?.name ?? null }),
      sleep(10000).then(() => ({ phase, error: 'collStats did not answer within 10 s' }))]));
    if (!this.stopReason && this.preload) this.footprint = { afterLoad: await measureFootprint('after_load') };
    if (!this.stopReason) await this.runSteps();
    if (!this.stopReason) (this.footprint ||= {}).end = await measureFootprint('end');
  }

  // listenMetrics: the given --metrics-port, or the default 9464 and any free port when another
  // loader (or anything else) has it, so that several --uri runs can run at once.
  async listenMetrics() {
    const { opts } = this;
    try {
      this.metricsPort = await this.metrics.listen(opts.metricsPort, opts.metricsHost);
    } catch (e) {
      if (opts.metricsPortGiven || e.code !== 'EADDRINUSE') {
        throw new Error(`cannot serve metrics on ${opts.metricsHost}:${opts.metricsPort}: ${e.code || e.message} (choose another with --metrics-port, 0 = any free port)`);
      }
      this.metricsPort = await this.metrics.listen(0, opts.metricsHost);
      this.log(`metrics: port ${opts.metricsPort} is taken (another loader?); serving on ${this.metricsPort} instead (--metrics-port to choose)`);
    }
    this.log(`metrics: http://${opts.metricsHost}:${this.metricsPort}/metrics`);
  }

  // warnOtherRuns: another loader on this host against the same server and collection.
  warnOtherRuns() {
    const { config } = this;
    const hosts = (this.client.options.hosts || []).map((h) => h.toString());
    const key = targetKey(hosts, this.client.options.replicaSet, config.database, config.collection);
    this.registration = register(key, { results: this.runDir.dir });
    for (const o of this.registration.others) {
      this.log(`warning: another loader (pid ${o.pid}, started ${o.started_at}, results ${o.results}) runs against the same server and ${config.database}.${config.collection}: the two runs will interfere (this one drops the collection at setup; both share the server), so neither measures the engine alone`);
    }
  }

  openResults(engine, source) {
    this.engine = engine;
    this.engineSource = source;
    const root = this.opts.resultsDir ? path.resolve(this.opts.resultsDir) : path.join(REPO_ROOT, 'results');
    const runDir = new RunDir(root, this.config.name, engine, this.startedAt, { check: checkSummary });
    // The placeholder is replaced at the end: if the loader itself is killed (SIGKILL, OOM), the
    // folder still says the run is incomplete (exit_code null: it never ended on its own).
    runDir.create(this.file, this.summaryObject(false, 'running, or the loader was killed before it could finish', { running: true }));
    this.runDir = runDir;
    // ./run.sh learns the folder as soon as it exists (LAB_RUN_DIRS_FILE, one line per run): a
    // loader killed outright (SIGKILL, the OOM killer) prints no closing "results:" line, and
    // run.sh still names the folder it left and marks it (lib/experiment.sh experiment_killed).
    if (process.env.LAB_RUN_DIRS_FILE) {
      try { fs.appendFileSync(process.env.LAB_RUN_DIRS_FILE, `${runDir.dir}\n`); } catch { /* run.sh names no folder then */ }
    }
  }

  phase(name, step, text) {
    this.metrics.setPhase(name, step);
    this.annotator.annotate(name, text);
  }

  async setup() {
    const { config } = this;
    this.phase('setup', '', `${config.name}: drop and index ${config.database}.${config.collection}`);
    const col = this.client.db(config.database).collection(config.collection);
    // a kind's own server change that the setup needs (src/kinds/index.js beforeSetup)
    const k = kind(config.workload.type);
    if (k.beforeSetup) await k.beforeSetup(this.hookContext());
    if (config.setup.drop) {
      this.log(`setup: dropping ${config.database}.${config.collection} (experiments start from an empty collection)`);
      await dropIfThere(col);
    }
    for (const spec of config.setup.indexes) await col.createIndex(spec);
  }

  // Bulk preload (experiment2/3): not measured, as in the seed. Batches are generated in order from
  // random stream 0, so the data is identical for every engine; 4 batches in flight keep a
  // replica set busy without reordering what is written.
  async runPreload() {
    const { config } = this;
    const { docs: total, batch } = config.preload;
    this.phase('preload', '', `${config.name}: preload ${total} documents`);
    this.progress.start('preload', total, 'docs');
    const col = this.client.db(config.database).collection(config.collection);
    const rng = new Rng(config.seed, 0);
    const docOf = kind(config.workload.type).makeDoc || makeDoc; // the kind's document, or the seed's
    const t0 = now();
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < total && !this.stopReason) {
        const from = next;
        const to = Math.min(total, from + batch);
        next = to;
        const docs = Array.from({ length: to - from }, (_, j) => docOf(config, rng, from + j));
        await col.insertMany(docs, { ordered: false });
        done += to - from;
        this.progress.update(done, done / ((now() - t0) / 1000));
      }
    };
    try {
      // A stop (Ctrl-C, SIGTERM) does not wait for batches in flight: against a hung server they
      // never return, and the run would wait for a second signal.
      await this.untilStopped(Promise.all([worker(), worker(), worker(), worker()]));
    } finally {
      this.progress.stop();
      const seconds = (now() - t0) / 1000;
      this.preload = { docs: done, requested: total, duration_s: round(seconds, 3), docs_per_s: round(done / seconds, 0) };
    }
    this.log(`preload: ${done} documents in ${this.preload.duration_s}s (not measured)`);
  }

  async startWorkers(maxClients) {
    this.pool = new WorkerPool({
      conn: this.conn,
      config: this.config,
      on: {
        stepDone: () => { for (const f of this.stepWaiters) f(); },
        // A kind's note from a worker (kinds/index.js env.note): kept for its afterStep.
        note: (index, data) => { if (this.current && this.current.step.index === index) this.current.acc.notes.push(data); },
        abort: (reason) => this.lostClient(reason),
        crash: (reason) => this.stop(reason, 1),
      },
    });
    await this.pool.start(maxClients, this.opts.workers, this.log);
  }

  // lostClient(reason): a client's connection failed for good (src/server/clients.js isFatal). "Lost the
  // server" only when the server does not answer now (2 s); one that answers as a new process
  // restarted; one that answers as the same process stayed up (its backend, a proxy or the
  // network failed the client): each stops the run with what happened.
  // The step waits for this check (this.lostCheck) before it is summed up: it ended because of it.
  lostClient(reason) {
    if (this.stopReason || this.lostCheck) return;
    this.lostCheck = this.whyLost(reason);
  }

  async whyLost(reason) {
    const now = this.client ? await Promise.race([serverProcessNow(this.client), sleep(2000).then(() => null)]) : null;
    if (!now) return this.stop(`lost the server: ${reason}`, 1);
    const facts = restartFacts(this.description?.server?.process_start, now);
    if (facts.restarted_during_run) {
      Object.assign(this.description.server, facts);
      return this.stop(`${restartReason(this.description.server)}; ${reason}`, 1);
    }
    return this.stop(`the server stayed up (it answers, pid ${now.pid}) but a client's connection failed: ${reason}`, 1);
  }

  async tick(step, acc) {
    // A warm-up second: run and shown (timeline warmup: true), counted in the step's warm-up, not
    // in its measurement (throughput, percentiles, the loader's verdict). The measured window opens
    // at step.measureAt exactly, and each op is placed by when it completed (worker.js: `warm` for
    // the ops that completed before it): the window counts exactly the ops that completed in it,
    // the warm-up's stragglers and a paced client's backlog included. The tick at the end of the
    // warm-up is scheduled for that moment (runSteps); its line ends at measureAt, and what its
    // flush brought that completed after measureAt opens the first measured line (acc.carry).
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
    let doneOk = 0; // every op that completed in this flush, warm-up's too: the progress of a step bounded by its work
    for (const r of replies) {
      if (r.lastOkAt > acc.lastOkAt) acc.lastOkAt = r.lastOkAt;
      if (r.lastError && !acc.errorsSeen.has(r.lastError)) {
        acc.errorsSeen.add(r.lastError);
        this.log(`operation error (counted as outcome=error): ${r.lastError}`);
      }
      for (const d of [r.ops, r.warm || {}]) {
        for (const [op, x] of Object.entries(d)) {
          doneOk += x.ok;
          this.metrics.addInterval(op, x);
        }
      }
      acc.warm.backlog = (acc.warm.backlog || 0) + (r.backlog || 0);
    }
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
      this.metrics.setWarmup(false);
      this.annotator.annotate(step.phase, `${this.config.name}: step ${step.index + 1}: warm-up over (${durationText(this.config.warmupMs)}), measuring`);
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
    // The second's slowest p99 of any op (ms): what pauses are judged against (src/run/pauses.js).
    const p99s = OPS.map((op) => ops[op]?.latency_us?.p99).filter((x) => typeof x === 'number');
    if (p99s.length) (acc.opP99Ms ||= []).push(Math.max(...p99s) / 1000);
    for (const op of OPS) this.metrics.setLatency(op, ops[op] ? ops[op].latency_us : { count: 0 });
    for (const op of OPS) this.metrics.setIntendedLatency(op, ops[op]?.intended_latency_us);
    if (warming) acc.warm.seconds += intervalS;
    else {
      acc.seconds.push({ cpuCores, selfs: replies.map((r) => r.self), intervalS, host });
      // The step's measured seconds for its stability (src/stability/); warm-up seconds never.
      acc.stab.push(secondOf({ end: t, intervalS, ops, okTotal, replies, host }));
      this.liveStability(step, acc);
    }
    try {
      this.runDir.timeline(line);
    } catch (e) {
      // A full or read-only disk: stop cleanly; what was measured stays in memory for the summary.
      this.stop(e.message, 1);
    }
    acc.totalOk += doneOk;
    const rate = doneOk / cpuS;
    // Progress in what bounds the step: documents done, or seconds elapsed.
    if (step.durationS === null) this.progress.update(acc.totalOk, rate);
    else this.progress.update(Math.min(step.durationS + step.warmupS, Math.round((t - acc.startAt) / 1000)), rate);
  }

  // watchStall(step): while the step runs, stop the run when no operation has completed for
  // --stall-timeout (a hung server, a partition), counted from the step's start or its last
  // completed operation; checked every STALL_CHECK_MS. Returns the watcher's stop function.
  // The same check notes pauses (src/run/pauses.js): silences shorter than the stall timeout, said
  // when operations resume and listed in the step's summary (acc.pauses).
  watchStall(step, acc) {
    const limit = this.opts.stallTimeoutMs;
    const every = Math.min(STALL_CHECK_MS, limit / 4);
    let checkedAt = now();
    // The step's own operation times (the median of its seconds' p99, ms; tick keeps them).
    acc.opP99Ms ||= [];
    const pauses = pauseWatch(step.startAt, pauseThresholdMs({ stallTimeoutMs: limit, rate: step.rate ?? this.config.rate }), () => median(acc.opP99Ms));
    acc.pauses = pauses.list;
    const timer = setInterval(() => {
      if (this.stopReason) return;
      const t = now();
      const gap = t - checkedAt;
      checkedAt = t;
      const pause = pauses.check(t, this.pool.lastOkAt());
      if (pause) {
        this.log(`warning: step ${step.index + 1}: nothing completed for ${(pause.idle_ms / 1000).toFixed(1)} s, ${pause.from_s.toFixed(1)} s into it: the server paused, then resumed (summary.json pauses)`);
      }
      const idle = t - Math.max(step.startAt, this.pool.lastOkAt());
      if (idle >= limit) {
        // check_gap_ms: how long since the check before: more than STALL_CHECK_MS when this thread
        // was not scheduled in time (a busy host), which makes the stop that much later.
        this.stall = { timeout_ms: limit, idle_ms: Math.round(idle), check_every_ms: every, check_gap_ms: Math.round(gap), step: step.index + 1 };
        this.stop(`no operation completed for ${Math.round(idle)} ms (--stall-timeout ${durationText(limit)})`, 1);
      }
    }, every);
    return () => clearInterval(timer);
  }

  // hookContext: what a kind's beforeStep/afterStep get on the main thread.
  hookContext() {
    const { config } = this;
    const db = this.client.db(config.database);
    // engine: the run's label (--engine or what the server reports), e.g. to read its engines.tsv row.
    // fail(reason): the kind's check failed (e.g. a GridFS checksum mismatch): the run stops and
    // is incomplete, exit 1, with reason as its error (a thrown afterStep only notes the step).
    return { client: this.client, db, col: db.collection(config.collection), config, log: this.log, description: this.description, engine: this.engine, fail: (reason) => this.stop(reason, 1) };
  }

  // runSteps: the kind's plan (a client sweep by default; a matrix of cases for shape 'cases'),
  // one step at a time, each its own phase (metrics label and Grafana annotation).
  async runSteps() {
    const { config } = this;
    const k = kind(config.workload.type);
    // The plan: the kind's steps, or with --sla a capacity search whose next step's offered rate
    // follows from the last step (src/experiment/step-plan.js).
    // Each judged step of a search is logged and annotated (Grafana), as each step's start is.
    const plan = stepPlan(config, (m) => { this.log(m); this.annotator.annotate('capacity', `${config.name}: ${m}`); });
    await this.startWorkers(plan.maxClients);
    this.hostCpu = new HostCpu();
    this.runStart = now();
    for (let i = 0; !this.stopReason; i++) {
      const next = plan.next(this.steps[this.steps.length - 1]);
      if (!next) break;
      const { name: phase, clients: c, params } = next;
      const rate = next.rate ?? config.rate; // the step's offered rate (a search's), else --rate
      const step = {
        index: i,
        phase,
        clientIds: Array.from({ length: c }, (_, j) => j), // of the pool's ids 0..maxClients-1
        params: params ?? null,
        durationS: config.workload.durationMs ? config.workload.durationMs / 1000 : null,
        warmupS: (config.warmupMs || 0) / 1000,
        rate,
        ratePerClient: rate ? rate / c / k.opsPerIteration : null,
      };
      const extra = { ...(k.beforeStep ? await k.beforeStep(this.hookContext(), step) : null) };
      if (this.stopReason) break;
      // Warm-up, then the measured part: a step bounded by a duration runs warm-up + duration.
      const warmupMs = config.warmupMs || 0;
      step.startAt = now() + 20; // a moment for the step message to reach every worker
      step.measureAt = step.startAt + warmupMs;
      step.endAt = config.workload.durationMs ? step.measureAt + config.workload.durationMs : null;
      // A kind names its clients (ycsb: YCSB's threads, as --threads says).
      const who = plural(c, k.clientWord ?? 'client');
      const what = params ? `case ${phase}` : `${who}${next.rate ? `, ${rate} ops/s offered` : ''}`;
      this.metrics.setOfferedRate(rate);
      this.phase(phase, i + 1, `${config.name}: step ${i + 1}/${plan.totalText}, ${what}${warmupMs ? `, ${durationText(warmupMs)} warm-up first` : ''}`);
      this.metrics.setActiveClients(c);
      this.metrics.setWarmup(warmupMs > 0);
      // What bounds a step of the 'own' kind (its batches, chunks, ops), else its documents.
      const own = k.stepTotal?.(config, step) ?? { total: config.workload.docs, unit: 'docs' };
      const warmNote = warmupMs ? `, ${durationText(warmupMs)} warm-up` : '';
      // A case the kind decided not to run (beforeStep set step.skip, and said so) starts nothing.
      if (step.skip) { /* its "not run" line is the only one */ }
      else if (step.durationS !== null) this.progress.start(`step ${i + 1}/${plan.totalText} (${params ? phase : `${who}${next.rate ? `, ${rate} ops/s` : ''}`}${warmNote})`, step.durationS + step.warmupS, 's');
      else this.progress.start(`${phase}${warmNote ? ` (${warmNote.slice(2)})` : ''}`, own.total, own.unit);
      const acc = {
        ops: {}, seconds: [], stab: [], live: new LiveDips(), totalOk: 0, errorsSeen: new Set(), notes: [],
        startAt: step.startAt, lastTick: now(), lastCpu: process.cpuUsage(), lastOkAt: 0,
        lastCpuAt: now(), // lastCpu's time: the warm-up's last line ends at measureAt, the CPU reading does not
        // warming until the tick at step.measureAt; measuredFrom: when the measurement began
        // (null: the step ended, or was stopped, within its warm-up).
        warming: warmupMs > 0, warm: { ops: {}, seconds: 0 }, measuredFrom: warmupMs > 0 ? null : step.startAt,
      };
      this.current = { step, acc };
      const done = new Promise((r) => this.stepWaiters.push(r));
      this.pool.post({ type: 'step', step });
      const unwatch = this.watchStall(step, acc);
      // One tick a second, and one at the end of the warm-up (scheduled for that moment).
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
      if (this.stopReason) await Promise.race([new Promise((r) => { this.stepWaiters = [r]; if (this.pool.allDone(i)) r(); }), sleep(3000)]);
      await this.tick(step, acc); // the last partial second
      this.metrics.setWarmup(false);
      this.stepWaiters = [];
      this.progress.stop();
      const entry = this.stepSummary(step, acc, now());
      // The server's side of the step (src/server-record/step-facts.js): replication (lag per
      // secondary, oplog window, state changes, flagged) and write cost, over its measured part.
      if (this.serverRecord) Object.assign(entry, this.serverRecord.stepFacts(acc.measuredFrom ?? step.startAt, now()));
      // How steady the step was, each dip explained by the server record (src/stability/).
      this.stability(entry, acc, step);
      // After the step, on the main thread: facts the kind gathers (counts, checksums), also for
      // a step cut short (the kind says what it left behind); a failure here is the step's note.
      if (k.afterStep) {
        try {
          // entry: the case as measured (ops/s, docs/s), e.g. to compare it with an earlier case.
          Object.assign(extra, await k.afterStep(this.hookContext(), step, acc.notes, entry));
        } catch (e) {
          extra.after_step_error = `${e.name}: ${e.message}`;
          this.log(`${phase}: could not complete the step's checks: ${extra.after_step_error}`);
        }
      }
      Object.assign(entry, extra);
      if (acc.pauses && acc.pauses.length) entry.pauses = acc.pauses;
      // A step cut short keeps its clients' raw notes too (what it left behind, e.g. a GridFS file
      // id), whether or not a second signal comes before or after this point.
      if (this.stopReason && acc.notes.length && !entry.notes) entry.notes = acc.notes;
      this.steps.push(entry);
      this.current = null;
      this.metrics.setActiveClients(0);
    }
  }

  // liveStability: /metrics and a Grafana annotation per dip as it ends (src/stability/live.js).
  liveStability(step, acc) {
    const { st, ended } = acc.live.update(acc.stab, this.serverRecord ? this.serverRecord.series : null, acc.measuredFrom ?? step.startAt);
    this.metrics.setStability(st);
    this.annotateDips(step, ended);
  }

  stability(entry, acc, step) {
    const from = acc.measuredFrom ?? step.startAt;
    entry.stability = stabilityOf(acc.stab, this.serverRecord ? this.serverRecord.series : null, from, now());
    this.metrics.setStability(entry.stability);
    // A dip that lasted to the step's end was not posted live: posted now, from the step's record.
    this.annotateDips(step, (entry.stability.dips || []).filter((d) => !acc.live.posted.has(d.start)));
  }

  annotateDips(step, dips) {
    for (const d of dips) {
      this.annotator.annotate(step.phase, annotationText(this.config.name, step.index + 1, d), { time: Date.parse(d.start), timeEnd: Date.parse(d.end), tags: ['dip'] });
    }
  }

  stepSummary(step, acc, endAt) {
    return stepSummary({ step, acc, endAt, stopReason: this.stopReason, rate: step.rate ?? this.config.rate, cores: os.availableParallelism(), shape: kind(this.config.workload.type).shape });
  }

  summaryObject(complete, reason, { running = false, steps = this.steps } = {}) {
    const summary = buildSummary({
      complete, reason, running, steps,
      shape: this.config ? kind(this.config.workload.type).shape : 'steps',
      exitCode: this.exitCode,
      endedAt: complete || this.finished ? new Date().toISOString() : null,
      config: this.config,
      opts: this.opts,
      engine: this.engine,
      engineSource: this.engineSource,
      engineReported: this.engineReported,
      startedAt: this.startedAt,
      description: this.description,
      connection: this.connection,
      // Other loaders against the same server and collection while this one ran (run-registry.js).
      concurrentRuns: this.registration ? this.registration.overlaps() : [],
      retryWrites: this.retryWrites,
      storage: this.storage,
      stall: this.stall,
      // --sla: the search's result from the steps as measured (also a cut-short run's).
      // (the placeholder's and an early stop's too: no steps yet, capacity null, and why)
      capacity: capacityFor(this.config, steps, this.stopReason ?? (complete ? null : reason)),
      workers: this.pool ? this.pool.workers.length : 0,
      preload: this.preload,
      experimentFile: path.basename(this.file),
      placement: placementOf(process.env, os.availableParallelism()),
      loader: {
        version: require('../../package.json').version,
        node: process.version,
        // Node/V8 flags the process started with (bin/lab-loader: --single-threaded-gc on one CPU).
        node_flags: process.execArgv,
        driver: require('../server/driver-line').driverDescription(this.conn),
        histogram: `hdr-histogram-js ${require('hdr-histogram-js/package.json').version} (pure JS), 3 significant digits, microseconds`,
        host_cores: os.availableParallelism(),
        cpu_model: os.cpus()[0]?.model ?? null,
        metrics_port: this.metricsPort ?? null,
        hostname: os.hostname(),
        // Peak resident memory of the loader process so far (all threads), bytes: a loader whose
        // memory grows with the data it moves (a large GridFS file) shows it here.
        peak_rss_bytes: process.resourceUsage().maxRSS * 1024,
      },
    });
    // server_record: what server.ndjson holds, what no member reported, what was not recorded
    // and why (src/server-record/sampler.js); null when --server-record off or before connecting.
    summary.server_record = this.serverRecord ? this.serverRecord.summary() : null;
    // footprint: the collection's size after the load and at the end (src/server/footprint.js).
    summary.footprint = this.config ? footprint.footprintSummary(this.config, this.footprint) : null;
    return summary;
  }

  // forceExit: a second signal. The summary gets every finished step and the one in progress as
  // far as it was merged (no waiting for workers or the server), then the process exits.
  forceExit(code) {
    const reason = forcedReason(this.stopReason);
    let note = '';
    try {
      if (this.runDir && this.runDir.dir) {
        const steps = forcedSteps(this.steps, this.current, (c) => {
          const entry = this.stepSummary(c.step, c.acc, now());
          // No afterStep on a forced exit: the kind's raw notes say what the step left behind.
          if (c.acc.notes.length) entry.notes = c.acc.notes;
          return entry;
        });
        this.runDir.close();
        const file = this.runDir.summary(this.summaryObject(false, reason, { steps }), { final: true });
        note = ` (${steps.length} step(s) measured so far in ${file})`;
        // The closing line a folder always gets (loader/README), also on a forced exit.
        writeQuietly(1, `results: ${this.runDir.dir}\n`);
      }
    } catch (e) {
      note = ` (summary not written: ${e.message})`;
    } finally {
      // A terminal gone (EIO) or a closed pipe must not keep the process from exiting.
      writeQuietly(2, `error: ${this.stopReason}; forced exit${note}\n`);
      process.exit(code);
    }
  }

  async finish() {
    this.finished = true;
    // The record stops first: its last second is the run's last, and its clients close here.
    if (this.serverRecord) await this.serverRecord.stop();
    // a kind's put-back of what its beforeSetup changed, while the client is open (bounded)
    const k = this.config && this.client ? kind(this.config.workload.type) : null;
    if (k && k.afterRun) await Promise.race([k.afterRun(this.hookContext()).catch((e) => this.log(`warning: ${e.message}`)), sleep(10000)]);
    // A server restarted during the run (a new pid or start time) is said, not pooled unnoticed:
    // asked once more at the end, bounded at 2 s, when the run did not stop on a lost server.
    if (this.client && this.description && this.description.server && !this.stopReason) {
      const end = await Promise.race([serverProcessNow(this.client), sleep(2000).then(() => null)]);
      Object.assign(this.description.server, restartFacts(this.description.server.process_start, end));
      // What it measured spans two server processes (a crash and a restart the driver rode
      // through): no sample of one server. Incomplete, exit 1: the report leaves it out of
      // verdicts and compare --resume runs it again.
      if (this.description.server.restarted_during_run) this.stop(restartReason(this.description.server), 1);
    }
    // A member the server record saw restart (a shard behind mongos, a replica-set member): the
    // same, named by its host (summary.json server_record.members[].restarts).
    const member = this.serverRecord && !this.stopReason ? this.serverRecord.record.restarts()[0] : null;
    if (member) this.stop(`${member.role} member ${member.host} restarted during the run (pid ${member.from.pid} -> ${member.to.pid}): not a sample of one server process`, 1);
    // Close workers and the main client together, each bounded at 3 s: closing against a dead or
    // hung server can wait for its timeout. Worst case after a hang: --stall-timeout (15 s) + 1 s
    // tick + 3 s for in-flight ops + 3 s close + 2.5 s annotations = 24.5 s < the 30 s promised
    // (a journal-off run's afterRun above may add up to 10 s; the restart check runs only when the
    // run did not stop, so never after a hang).
    await Promise.all([
      this.pool ? this.pool.close() : null,
      this.client ? Promise.race([this.client.close(true).catch(() => {}), sleep(3000)]) : null,
    ]);
    this.phase && this.metrics && this.phase('end', '', `${this.config.name}: end${this.stopReason ? ` (${this.stopReason})` : ''}`);
    if (this.annotator) await Promise.race([this.annotator.flush(), sleep(2500)]);
    if (this.metrics) await Promise.race([this.metrics.close(), sleep(1000)]);
    if (this.registration) this.registration.release();
    // Every step's operations failed (or none ran): not a measurement, exit 1 (src/step-failure.js).
    // Every step too short to measure, for the --duration asked (src/results/too-short.js): exit 1 as well.
    const unmeasured = this.config && !this.stopReason ? noStepMeasured(this.steps) || everyStepTooShort(this.steps) : null;
    if (unmeasured) this.stop(unmeasured, 1);
    let complete = !this.stopReason;
    if (this.runDir) {
      this.runDir.close();
      let file = null;
      try {
        file = this.runDir.summary(this.summaryObject(complete, this.stopReason), { final: true });
      } catch (e) {
        // Not even the reserve was enough: keep what can be kept, and say so.
        this.stop(e.message, 1);
        complete = false;
        try {
          const slim = this.summaryObject(false, e.message, { steps: [] });
          file = this.runDir.summary({ ...slim, steps_note: 'the steps did not fit on the disk; they were printed as the table on stdout' }, { final: true });
        } catch { /* the placeholder stays */ }
      }
      this.printTable(complete);
      for (const o of this.registration ? this.registration.overlaps().filter((x) => x.noticed === 'started during this run') : []) {
        this.log(`warning: another loader (pid ${o.pid}, started ${o.started_at}, results ${o.results}) started against the same server and ${this.config.database}.${this.config.collection} during this run: the two interfered (summary.json concurrent_runs)`);
      }
      this.stdout.write(`results: ${this.runDir.dir}\n`);
      // The reason is the error line's below: said once (with a driver's message it ran to 382 columns).
      if (!complete) this.log(`incomplete run: ${file ? `partial results in ${file}` : `summary.json in ${this.runDir.dir} could not be written; the table above is what was measured`}`);
    } else if (this.steps.length) {
      this.printTable(false);
    }
    if (!complete) this.log(`error: ${this.stopReason}`); // this.log: within 120 columns
  }

  // printTable: the closing text (src/results/closing-text.js) from this run's facts; an --sla
  // search's capacity is taken from the steps as measured.
  printTable(complete) {
    this.capacity = capacityFor(this.config, this.steps, this.stopReason);
    const { name, warmupMs } = this.config;
    this.stdout.write(closingText({ name, engine: this.engine, complete, steps: this.steps, preload: this.preload,
      warmupMs, capacity: this.capacity, footprint: this.footprint }));
  }
}

module.exports = { Run };
