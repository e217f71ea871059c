'use strict';
// Measurement state shared by the worker threads (Recorder: per op type, one interval) and the
// main thread (mergeInterval: many workers' deltas -> one second of the timeline).
const { newHistogram, encode, decode, percentiles, PROM_BOUNDS_US } = require('../results/hist');
const { OPS } = require('../experiment/workload');

// Pacer: with a target rate, op k of a client is due at startAt + k / rate (ms, epoch clock).
// The loop waits for a due time in the future and starts at once when it is late: no op is
// skipped, so a stall of the server shows up as the late ops' latency from their due time.
class Pacer {
  constructor(startAt, ratePerSecond) {
    this.startAt = startAt;
    this.interval = 1000 / ratePerSecond;
    this.k = 0;
  }

  next() {
    return this.startAt + this.k++ * this.interval;
  }
}

class Recorder {
  // shared (optional): { array: Int32Array on a SharedArrayBuffer, index, epoch }: every successful
  // op writes its end (ms after epoch) at array[index], for the main thread's stall check.
  constructor(shared = null) {
    this.shared = shared;
    this.stats = {};
    for (const op of OPS) {
      this.stats[op] = {
        ok: 0, err: 0, sumUs: 0, intendedSumUs: 0, docs: 0, bytes: 0,
        hist: newHistogram(), intended: newHistogram(),
        buckets: new Float64Array(PROM_BOUNDS_US.length + 1),
      };
    }
    this.lastOkAt = 0; // end time (epoch ms) of the latest successful op: where a cut-short step's measuring ended
    this.lastErrOp = null; // the op of the latest record(..., ok false), for error() (the worker's catch)
    this.record = this.record.bind(this);
  }

  // error(e, atMs): the error of the op just recorded as failed (kinds record(op, ..., false) and
  // then throw it; the worker's catch hands it here). The first one of each interval is kept per
  // op, with its code, codeName and message: a step that is no measurement says what failed
  // (summary.json steps[].failed.first_error, src/step-failure.js).
  error(e, atMs) {
    const s = this.lastErrOp ? this.stats[this.lastErrOp] : null;
    this.lastErrOp = null;
    if (!s || s.firstError) return;
    // The server's code where the driver replaced the error with its own: mongodb 6.16
    // lib/operations/execute_operation.js throws MMAPv1_RETRY_WRITES_ERROR_MESSAGE with the
    // server's IllegalOperation (20) as originalError.
    const server = e && (e.code !== undefined && e.code !== null ? e : e.originalError) || {};
    s.firstError = {
      code: server.code !== undefined && server.code !== null ? server.code : null,
      codeName: server.codeName || (e && e.codeName) || null,
      message: e ? `${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${e.message}` : String(e),
      at: atMs,
    };
  }

  // record(op, startMs, endMs, intendedMs, ok, docs, bytes): service time = end - start; with a
  // pacer, intendedMs (> 0) is the op's due time and end - min(due, start) is the corrected
  // latency. docs and bytes (optional) are what a successful op moved (a batch, a file chunk).
  record(op, startMs, endMs, intendedMs, ok, docs, bytes) {
    const s = this.stats[op];
    if (!ok) { s.err++; this.lastErrOp = op; return; }
    if (docs) s.docs += docs;
    if (bytes) s.bytes += bytes;
    const us = Math.round((endMs - startMs) * 1000);
    if (endMs > this.lastOkAt) {
      this.lastOkAt = endMs;
      if (this.shared) this.shared.array[this.shared.index] = Math.max(1, Math.ceil(endMs - this.shared.epoch));
    }
    s.ok++;
    s.sumUs += us;
    s.hist.recordValue(us);
    // An op may start up to 0.5 ms before its due time (sleeping less than that costs more than
    // it is worth); it was not delayed then, and its corrected latency is its service time.
    if (intendedMs) {
      const corrected = Math.round((endMs - Math.min(intendedMs, startMs)) * 1000);
      s.intended.recordValue(corrected);
      s.intendedSumUs += corrected; // the exact mean, as sumUs: no bucket walk once a second
    }
    let b = 0;
    while (b < PROM_BOUNDS_US.length && us > PROM_BOUNDS_US[b]) b++;
    s.buckets[b]++;
  }

  // flush(): this interval's deltas (only op types that saw an op), then reset.
  flush() {
    const ops = {};
    for (const op of OPS) {
      const s = this.stats[op];
      if (s.ok === 0 && s.err === 0) continue;
      ops[op] = {
        ok: s.ok, err: s.err, sumUs: s.sumUs, intendedSumUs: s.intendedSumUs, docs: s.docs, bytes: s.bytes,
        hist: s.ok ? encode(s.hist) : null,
        intended: s.intended.totalCount ? encode(s.intended) : null,
        buckets: Array.from(s.buckets),
        ...(s.firstError ? { firstError: s.firstError } : {}),
      };
      s.firstError = null;
      s.ok = 0; s.err = 0; s.sumUs = 0; s.intendedSumUs = 0; s.docs = 0; s.bytes = 0;
      s.hist.reset(); s.intended.reset(); s.buckets.fill(0);
    }
    return ops;
  }
}

// inWarmup(step, endMs): the op completed before the step's measured window opened (measureAt;
// a step without warm-up has measureAt = startAt). Ops are placed by when they complete, so the
// window counts exactly the ops that completed in it. Counting a paced op due in the warm-up in
// the warm-up instead, wherever it completed, emptied the first measured seconds of a client that
// had fallen behind (a false dip; 0 ops a second while more was offered than the server served).
function inWarmup(step, endMs) {
  return step.measureAt > step.startAt && endMs < step.measureAt;
}

// dueInWarmup(step, intendedMs): a paced op due in the warm-up (counted in the window where it
// completed there; summary.json steps[].warmup.backlog_ops says how many, as a window that worked
// off a backlog may achieve more than was offered).
function dueInWarmup(step, intendedMs) {
  return Boolean(intendedMs) && step.measureAt > step.startAt && intendedMs < step.measureAt;
}

// mergeInterval(deltas, intervalS, acc): deltas = one flush() per worker for the same second.
// Returns that second's per-op line ({ok, err, ops_per_s, latency_us, intended_latency_us?})
// and adds the histograms into acc[op] (the step's totals) when acc is given.
function mergeInterval(deltas, intervalS, acc) {
  const sec = {};
  for (const ops of deltas) {
    for (const [op, d] of Object.entries(ops)) {
      const s = (sec[op] ||= { ok: 0, err: 0, sumUs: 0, intendedSumUs: 0, docs: 0, bytes: 0, hist: newHistogram(),
        intended: null });
      for (const k of ['ok', 'err', 'sumUs', 'intendedSumUs', 'docs', 'bytes']) s[k] += d[k] || 0;
      const a = acc
        ? (acc[op] ||= { ok: 0, err: 0, docs: 0, bytes: 0, hist: newHistogram(), intended: newHistogram() })
        : null;
      if (a) for (const k of ['ok', 'err', 'docs', 'bytes']) a[k] += d[k] || 0;
      // The step's first error of this op: the earliest any worker kept (Recorder.error).
      if (a && d.firstError && (!a.firstError || d.firstError.at < a.firstError.at)) a.firstError = d.firstError;
      if (d.hist) { const h = decode(d.hist); s.hist.add(h); if (a) a.hist.add(h); }
      if (d.intended) {
        const h = decode(d.intended);
        s.intended ||= newHistogram();
        s.intended.add(h);
        if (a) a.intended.add(h);
      }
    }
  }
  const line = {};
  for (const op of OPS) {
    const s = sec[op];
    if (!s) continue;
    line[op] = { ok: s.ok, err: s.err, ops_per_s: Math.round((s.ok / intervalS) * 10) / 10,
      latency_us: percentiles(s.hist, s.sumUs) };
    // What the ops moved, where the kind says (batches: documents; GridFS: bytes, MB = 10^6).
    if (s.docs) line[op].docs_per_s = Math.round((s.docs / intervalS) * 10) / 10;
    if (s.bytes) line[op].mb_per_s = Math.round((s.bytes / 1e6 / intervalS) * 1000) / 1000;
    if (s.intended) line[op].intended_latency_us = percentiles(s.intended, s.intendedSumUs);
  }
  return line;
}

module.exports = { inWarmup, dueInWarmup, Pacer, Recorder, mergeInterval };
