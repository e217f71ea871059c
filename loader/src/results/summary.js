'use strict';
// The summary builder: summary.json from what a run measured, as pure functions (no clock, no
// process, no files: the caller passes times and facts in), so every path, the second Ctrl-C
// included, is tested on synthetic input (test/summary.test.js).
const { percentiles, encode } = require('./hist');
const { judge } = require('./selfmon');
const { round } = require('../../../common/stats');
const { OPS } = require('../kinds');
const { withFailure } = require('../../../common/step-failure');
const { tooShort } = require('./too-short');
const { redactUri } = require('../text/redact-uri');
const { stepWritten, runWritten } = require('./documents-written');

// stepSummary({step, acc, endAt, stopReason, rate, cores, shape}) -> one entry of steps[] (or of
// cases[] for a kind of shape 'cases', which adds the case's name and parameters).
// acc.ops[op] = {ok, err, hist, intended} (whole-step histograms); acc.seconds = self samples.
function stepSummary({ step, acc, endAt, stopReason, rate, cores, shape = 'steps' }) {
  // The measurement starts after the step's warm-up (run/step-loop.js: acc.measuredFrom; null when the
  // step ended within it: nothing measured). Without warm-up bookkeeping, at the step's start.
  const from = acc.measuredFrom === undefined ? step.startAt : acc.measuredFrom;
  // A step with a scheduled end (--duration: run/step-loop.js step.endAt, where the workers stop
  // starting operations) is measured to that end, or to its last completed operation where that
  // came later; not to the loader's own wind-down after it (the workers' last messages, the final
  // tick). On a busy host that wind-down added a tenth of a second to a 1 s step, and a paced step
  // that completed all 20 of its operations read 18.1 ops/s: a rate the server "did not keep up
  // with" (--sla judges achieved against offered) when the loader was the one late.
  const windowEnd = step.endAt && !stopReason ? Math.min(endAt, Math.max(step.endAt, acc.lastOkAt || 0)) : endAt;
  const durationS = from === null ? 0 : Math.max(0, windowEnd - from) / 1000;
  // A step that ended early measured until its last completed operation (the stop, a stall, a
  // lost server came after it): its throughput is over that time, not over the wall time that
  // includes a hung server's silence or the wind-down.
  const early = Boolean(stopReason);
  const measuredS = from === null ? 0 : early
    ? Math.max(0, Math.min(endAt, acc.lastOkAt || from) - from) / 1000 : durationS;
  const out = {
    index: step.index + 1,
    phase: step.phase,
    ...(shape === 'cases' ? { name: step.phase, parameters: step.params ?? {} } : {}),
    clients: step.clientIds.length,
    started_at: new Date(step.startAt).toISOString(),
    duration_s: round(durationS, 3),
    measured_s: round(measuredS, 3),
    complete: !early,
    rate_basis: early
      ? `ended early (${stopReason}): ops_per_s is over measured_s, from the step's start to its last completed operation`
      : acc.warm ? 'ops_per_s is over the whole step after its warm-up' : 'ops_per_s is over the whole step',
    target_rate: rate,
    // Documents written in the whole step, warm-up included (src/results/documents-written.js).
    documents_written: stepWritten(acc),
    ops: {},
  };
  // What the warm-up ran (operations done, not measured), where the step had one.
  if (acc.warm) {
    const ops = Object.values(acc.warm.ops);
    out.warmup = {
      seconds: round(((from ?? endAt) - step.startAt) / 1000, 3),
      ops: ops.reduce((a, o) => a + o.ok, 0),
      errors: ops.reduce((a, o) => a + o.err, 0),
      // Paced ops due in the warm-up that completed in the window, and are counted there (the
      // window counts what completed in it): a window that works off a backlog may achieve more
      // than it offered.
      ...(acc.warm.backlog ? { backlog_ops: acc.warm.backlog } : {}),
      ...(from === null ? { measured: false, note: 'the step ended within its warm-up: nothing was measured' } : {}),
    };
    out.measured_from = from === null ? null : new Date(from).toISOString();
  }
  const perS = (x, digits) => (measuredS > 0 ? round(x / measuredS, digits) : null);
  for (const op of OPS.filter((o) => acc.ops[o])) {
    const a = acc.ops[op];
    out.ops[op] = { count: a.ok, errors: a.err, ops_per_s: perS(a.ok, 1), latency_us: percentiles(a.hist) };
    // What the ops moved, where the kind records it (documents per batch, bytes per chunk).
    if (a.docs) Object.assign(out.ops[op], { docs: a.docs, docs_per_s: perS(a.docs, 1) });
    if (a.bytes) Object.assign(out.ops[op], { bytes: a.bytes, mb_per_s: perS(a.bytes / 1e6, 3) });
    // The whole-step histogram latency_us is computed from, in HdrHistogram's compressed base64
    // form (report/README.md): the report merges hosts' and repetitions' histograms exactly.
    out.ops[op].histogram = encode(a.hist);
    // The step's first failed operation of this op (recorder.js Recorder.error): code, codeName,
    // message and when; steps[].failed.first_error names the earliest (src/step-failure.js).
    if (a.firstError) out.ops[op].first_error = { ...a.firstError, at: new Date(a.firstError.at).toISOString() };
    if (a.intended && a.intended.totalCount) {
      out.ops[op].intended_latency_us = percentiles(a.intended);
      out.ops[op].intended_histogram = encode(a.intended);
    }
  }
  out.loader = judge(acc.seconds, cores);
  // Too few operations or too short a time to measure (src/results/too-short.js); a step cut short has
  // its own mark (complete: false).
  const short = early ? null : tooShort(out, { durationS: step.durationS ?? null });
  if (short) out.too_short = short;
  return out;
}

// loaderLimited(steps): true if a step was, false if every step was judged and none was, else null.
function loaderLimited(steps) {
  if (steps.some((s) => s.loader.limited === true)) return true;
  return steps.length && steps.every((s) => s.loader.limited === false) ? false : null;
}

// buildSummary(facts) -> summary.json's object. facts: complete, reason, running, exitCode,
// endedAt (ISO or null), config, opts, engine, engineSource, engineReported, startedAt (Date),
// description, workers, loader (versions, host), preload, steps, experimentFile.
// What each field holds: loader/README.md "Outputs", and DEVELOPERS.md for retry_writes and storage.
function buildSummary(f) {
  const { config, opts, steps } = f;
  return {
    complete: f.complete,
    reason: f.complete ? null : f.reason,
    exit_code: f.running ? null : f.complete ? 0 : f.exitCode,
    experiment: config.name,
    engine: f.engine,
    engine_source: f.engineSource, // flag (--engine) | server (its storage engine) | product (its vendor field) | none
    engine_reported: f.engineReported ?? null, // the server's storage engine name, as reported
    group: opts.group ?? null,
    repetition: opts.repetition ?? 1,
    comparison: opts.comparison ?? null,
    profile: opts.profile ?? null, // ./run.sh --profile for in-stack runs; null for --uri
    labels: opts.labels ?? {}, // --label KEY=VALUE (the user's own dimensions: platform, os, ...)
    placement: f.placement ?? null,
    started_at: f.startedAt.toISOString(),
    ended_at: f.endedAt ?? null,
    parameters: {
      name: config.name,
      database: config.database,
      collection: config.collection,
      write_concern: config.writeConcern,
      read_preference: config.readPreference,
      read_concern: config.readConcern,
      seed: config.seed,
      setup: config.setup,
      document: config.document ? { y_length: config.document.yLength, alphabet: config.document.alphabet } : null,
      preload: config.preload,
      workload: {
        type: config.workload.type,
        docs: config.workload.docs ?? null,
        clients: config.workload.clients,
        duration_s: config.workload.durationMs ? config.workload.durationMs / 1000 : null,
      },
      rate: config.rate,
      sla: config.sla ? config.sla.text : null, // --sla: a capacity search (see capacity below)
      params: config.params ?? null, // the workload kind's own parameters (kinds/<kind>.js configure)
      uri: redactUri(opts.uri),
      workers: f.workers || null,
      server_selection_timeout_ms: opts.serverSelectionTimeoutMs,
      stall_timeout_ms: opts.stallTimeoutMs,
      warmup_s: config.warmupMs === undefined ? null : config.warmupMs / 1000,
    },
    connection: f.connection ?? null,
    concurrent_runs: f.concurrentRuns ?? [],
    retry_writes: f.retryWrites ?? null,
    storage: f.storage ?? null,
    stall: f.stall ?? null,
    server: f.description ? f.description.server : null,
    topology: f.description ? f.description.topology : null,
    // Image references as the caller resolved them (digests where Docker knows them); empty
    // when the loader ran against a cluster it did not start (--uri).
    images: opts.images ?? {},
    loader: f.loader,
    published: config.published,
    preload: f.preload,
    // Every document this run wrote (preload, warm-ups, measured steps): the divisor of the block
    // writes ./run.sh measures over the loader's whole invocation (src/results/documents-written.js).
    documents_written: runWritten(f.preload, steps),
    block_writes: null,
    block_writes_note: 'not measured: only ./run.sh on Compose reads the shard members\' block I/O (not a --uri or Kubernetes run)',
    // A sweep writes steps; a matrix of cases (shape 'cases') writes cases, same entry shape.
    // failed: a step whose operations failed above the threshold is no measurement
    // (src/step-failure.js; the report never compares it).
    [f.shape === 'cases' ? 'cases' : 'steps']: steps.map(withFailure),
    loader_limited: loaderLimited(steps),
    // --sla (src/experiment/sla.js capacityOf): the SLA, the highest offered rate that passed it (ops/s),
    // the client count, and every step tried (offered, achieved, intended and service latency,
    // passed or why not): the latency-throughput curve behind the number. Only with --sla.
    ...(f.capacity ? { capacity: f.capacity } : {}),
    files: { timeline: 'timeline.ndjson', experiment: f.experimentFile },
  };
}

// forcedSteps(steps, current, stepOf): a second signal. Every finished step and the one in
// progress as far as it was merged (stepOf(current) summarises it), never twice.
function forcedSteps(steps, current, stepOf) {
  const merged = !current || steps.some((s) => s.index === current.step.index + 1);
  return merged ? [...steps] : [...steps, stepOf(current)];
}

const forcedReason = (stopReason) => `${stopReason}; then forced to exit by a second signal`;

module.exports = { buildSummary, stepSummary, forcedSteps, forcedReason, loaderLimited, redactUri };
