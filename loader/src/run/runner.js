'use strict';
// One experiment run, from connecting to the last byte of summary.json. The main thread does no
// measured operation: it owns the phases, the 1-second ticks, the results files and the metrics
// endpoint, and merges what the worker threads measured. Run keeps the signals, the phases, the
// setup and preload, and the finish; the steps (src/run/step-loop.js) and the server's side
// (src/run/server-session.js) are rooms of their own, each given a context of what it uses (the
// run's log, stop, ...), never the Run: neither requires this file.
const os = require('node:os');
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');
const { load, REPO_ROOT } = require('../experiment/config');
const { UsageError } = require('../text/usage');
const { readSecret } = require('../server/clients');
const { noStepMeasured } = require('../../../common/step-failure');
const { everyStepTooShort } = require('../results/too-short');
const { register, targetKey } = require('./run-registry');
const { RunDir } = require('../results/run-folder');
const { checkSummary } = require('../results/summary-schema');
const { Metrics } = require('./metrics');
const { Annotator } = require('./grafana');
const { Progress } = require('./progress');
const { makeDoc } = require('../experiment/workload');
const { kind } = require('../kinds');
const { dropIfThere } = require('../kinds/ops');
const { capacityFor } = require('../experiment/step-plan');
const { buildSummary, forcedSteps, forcedReason } = require('../results/summary');
const { onOutputClosed, closedReason, closedExitCode } = require('../../../common/closed-output');
const { onStopSignals } = require('../stop-signals');
const { wrapLine } = require('../text/wrap');
const { placementOf } = require('./placement');
const { closingText } = require('../results/closing-text');
const { round } = require('../../../common/stats');
const { Rng } = require('../../../common/rng');
const { runErrorReason } = require('./run-error');
const { StepLoop, stepEntry } = require('./step-loop');
const { ServerSession } = require('./server-session');

const now = () => performance.timeOrigin + performance.now();
// How long the finish waits for a kind's afterRun (its put-back on the server): within the 30 s a
// stopped run promises to end in (finish() below).
const AFTER_RUN_BOUND_MS = 10000;
// writeQuietly(fd, text): a last line on a descriptor that may be gone (a closed pipe, a terminal
// hung up): its failure is no reason to stop what is being done.
const writeQuietly = (fd, text) => { try { fs.writeSync(fd, text); } catch { /* nobody reads it */ } };

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

class Run {
  constructor(opts, io = {}) {
    this.opts = opts;
    this.stdout = io.stdout || process.stdout;
    this.stderr = io.stderr || process.stderr;
    // Each line within 120 columns (a kind's reason ran to 300); a longer word is split (common/text.js).
    this.log = (m) => {
      const text = String(m).split('\n').map((l) => wrapLine(l)).join('\n');
      return this.progress ? this.progress.log(text) : this.stderr.write(text + '\n');
    };
    this.stopReason = null;
    this.exitCode = 0;
    this.steps = [];
    this.preload = null;
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

  stop(reason, code) {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.exitCode = code;
    // Before a results folder exists there is nothing to stop: the error line says it all.
    if (this.runDir) this.log(`stopping: ${reason}`);
    // No progress line after "stopping:": the wind-down's ticks are not progress.
    if (this.progress) this.progress.stop();
    if (this.loop) this.loop.onStop();
    for (const f of this.stopWaiters) f();
  }

  async main() {
    const { opts } = this;
    const { file, config } = load(opts); // UsageError -> exit 2 in bin/
    this.file = file;
    this.config = config;
    const password = secretFlag('--password-file', opts.passwordFile);
    const grafanaPassword = secretFlag('--grafana-password-file', opts.grafanaPasswordFile);
    this.conn = { uri: opts.uri, username: opts.username, password,
      serverSelectionTimeoutMs: opts.serverSelectionTimeoutMs };
    // The server's side of the run (src/run/server-session.js), given the flags it reads.
    const { uri, username, serverSelectionTimeoutMs, engine, profile, journalPath, oplogMb } = opts;
    this.session = new ServerSession({ conn: this.conn, config, log: this.log,
      untilStopped: (p) => this.untilStopped(p),
      opts: { uri, username, serverSelectionTimeoutMs, engine, profile, journalPath, oplogMb },
      stopReason: () => this.stopReason, stop: (reason, code) => this.stop(reason, code) });
    this.startedAt = new Date();
    this.progress = new Progress({ stream: this.stderr, intervalMs: opts.progressIntervalMs });
    this.annotator = new Annotator({ url: opts.grafanaUrl, password: grafanaPassword, experiment: config.name,
      log: this.log });

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
    const { opts, config, session } = this;
    this.metrics = new Metrics(config.name);
    await this.listenMetrics();

    // Connect once from the main thread (src/run/server-session.js). No results folder exists
    // before the server has answered: a run that never reached it leaves nothing behind and does
    // not move `latest`.
    if (!(await session.connect())) return;
    // A product whose backend is named only once a database is open (FerretDB on a fresh server,
    // src/server/products.js) is asked again after setup, which creates the collection, and before the
    // results folder is named: two backends never share a folder. Setup then runs here, once.
    if (session.description.server.backend === null) {
      await this.untilStopped(this.setup());
      if (this.stopReason) return;
      this.setupDone = true;
      await session.readBackend();
    }
    const label = session.label();
    this.openResults(label.engine, label.source);
    this.log(session.serverLine());
    this.log(`writing into ${this.runDir.dir}`);
    session.noteLabel(label);
    this.warnOtherRuns();
    await session.settle(label);
    if (this.stopReason) return;
    if (opts.serverRecord) session.startRecord(this.runDir.dir);

    if (!this.setupDone) await this.untilStopped(this.setup());
    if (!this.stopReason && config.preload.docs > 0) await this.runPreload();
    // The collection's footprint after the load and at the end (src/server/footprint.js).
    if (!this.stopReason && this.preload) session.footprint = { afterLoad: await session.measureFootprint('after_load') };
    if (!this.stopReason) await this.runSteps();
    if (!this.stopReason) (session.footprint ||= {}).end = await session.measureFootprint('end');
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

  warnOtherRuns() {
    const { config } = this;
    const { client } = this.session;
    const hosts = (client.options.hosts || []).map((h) => h.toString());
    const key = targetKey(hosts, client.options.replicaSet, config.database, config.collection);
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
    const col = this.session.client.db(config.database).collection(config.collection);
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
    const col = this.session.client.db(config.database).collection(config.collection);
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
      this.preload = { docs: done, requested: total, duration_s: round(seconds, 3),
        docs_per_s: round(done / seconds, 0) };
    }
    this.log(`preload: ${done} documents in ${this.preload.duration_s}s (not measured)`);
  }

  // hookContext: what a kind's beforeStep/afterStep get on the main thread.
  hookContext() {
    const { config } = this;
    const { client, description } = this.session;
    const db = client.db(config.database);
    // engine: the run's label (--engine or what the server reports), e.g. to read its engines.tsv row.
    // fail(reason): the kind's check failed (e.g. a GridFS checksum mismatch): the run stops and
    // is incomplete, exit 1, with reason as its error (a thrown afterStep only notes the step).
    // stopping(): the run is stopping (a signal, an error): a hook still under way must change no
    // more on the server, since the finish's afterRun may already have run.
    return { client, db, col: db.collection(config.collection), config, log: this.log, description, engine: this.engine,
      fail: (reason) => this.stop(reason, 1), stopping: () => Boolean(this.stopReason) };
  }

  async runSteps() {
    const { opts, config, session } = this;
    this.loop = new StepLoop({
      config, conn: this.conn, stallTimeoutMs: opts.stallTimeoutMs, workers: opts.workers, log: this.log,
      metrics: this.metrics, annotator: this.annotator, progress: this.progress, runDir: this.runDir,
      serverRecord: session.serverRecord, steps: this.steps,
      phase: (name, step, text) => this.phase(name, step, text), hookContext: () => this.hookContext(),
      stopReason: () => this.stopReason, stop: (reason, code) => this.stop(reason, code),
      whyLost: (reason) => session.whyLost(reason),
    });
    await this.loop.run();
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
      engineReported: this.session.engineReported,
      startedAt: this.startedAt,
      description: this.session.description,
      connection: this.session.connection,
      // Other loaders against the same server and collection while this one ran (run-registry.js).
      concurrentRuns: this.registration ? this.registration.overlaps() : [],
      retryWrites: this.session.retryWrites,
      storage: this.session.storage,
      stall: this.loop?.stall,
      // --sla: the search's result from the steps as measured (also a cut-short run's).
      // (the placeholder's and an early stop's too: no steps yet, capacity null, and why)
      capacity: capacityFor(this.config, steps, this.stopReason ?? (complete ? null : reason)),
      workers: this.loop?.pool ? this.loop.pool.workers.length : 0,
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
    summary.server_record = this.session.serverRecord ? this.session.serverRecord.summary() : null;
    // footprint: the collection's size after the load and at the end (src/server/footprint.js).
    summary.footprint = this.config ? this.session.footprintSummary() : null;
    return summary;
  }

  // forceExit: a second signal. The summary gets every finished step and the one in progress as
  // far as it was merged (no waiting for workers or the server), then the process exits.
  forceExit(code) {
    const reason = forcedReason(this.stopReason);
    let note = '';
    try {
      if (this.runDir && this.runDir.dir) {
        const steps = forcedSteps(this.steps, this.loop?.current, (c) => {
          const entry = stepEntry(this.config, c.step, c.acc, now(), this.stopReason);
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
    const { session } = this;
    await session.stopRecord();
    // a kind's put-back of what its beforeSetup changed, while the client is open; bounded (a hung
    // server must not hold the exit), and said when the bound cuts it short: the next run on the
    // server would measure under what was not put back
    const k = this.config && session.client ? kind(this.config.workload.type) : null;
    if (k && k.afterRun) {
      const ended = await Promise.race([k.afterRun(this.hookContext()).then(() => true, (e) => { this.log(`warning: ${e.message}`); return true; }),
        sleep(AFTER_RUN_BOUND_MS).then(() => false)]);
      if (!ended) this.log(`warning: ${this.config.name}: putting back what the run changed on the server did not end within ${AFTER_RUN_BOUND_MS / 1000} s; check the server's settings before the next run`);
    }
    await session.endChecks();
    // Close workers and the main client together, each bounded at 3 s: closing against a dead or
    // hung server can wait for its timeout. Worst case after a hang: --stall-timeout (15 s) + 1 s
    // tick + 3 s for in-flight ops + 3 s close + 2.5 s annotations + 2 s last scrape = 26.5 s < the
    // 30 s promised (a journal-off run's afterRun above may add up to 10 s; the restart check runs
    // only when the run did not stop, so never after a hang).
    await Promise.all([this.loop?.pool ? this.loop.pool.close() : null, session.close()]);
    this.phase && this.metrics && this.phase('end', '', `${this.config.name}: end${this.stopReason ? ` (${this.stopReason})` : ''}`);
    if (this.annotator) await Promise.race([this.annotator.flush(), sleep(2500)]);
    // One scrape more for the final counts (at most 2 s: a 1 s scrape interval and its timeout)
    if (this.metrics) await this.metrics.lastScrape(2000);
    if (this.metrics) await Promise.race([this.metrics.close(), sleep(1000)]);
    if (this.registration) this.registration.release();
    // Every step's operations failed (or none ran): not a measurement, exit 1 (src/step-failure.js).
    // Every step too short to measure, for the --duration asked (src/results/too-short.js): exit 1 as well.
    const unmeasured = this.config && !this.stopReason
      ? noStepMeasured(this.steps) || everyStepTooShort(this.steps)
      : null;
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
      warmupMs, capacity: this.capacity, footprint: this.session.footprint }));
  }
}

module.exports = { Run };
