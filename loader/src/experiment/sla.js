'use strict';
// Capacity under a latency SLA: the highest offered rate whose intended (coordinated-omission
// corrected) latency percentile stays under a target, found by an open-loop search over rates.
// PerfKitBenchmarker's mongodb_stress reports the same figure ("Maximum Throughput for Latency
// SLA") from YCSB runs; YCSB itself has -target but no search. This file is the search alone, as
// pure functions of the steps it is told about: the runner runs each proposed step.
const { durationMs } = require('../text/duration');
const { hostSlowed, loaderDelayMs } = require('../../../common/host-slowed');

// The percentiles a summary has (src/results/hist.js percentiles): the SLA can name any of them.
const PERCENTILES = { p50: 'p50', p90: 'p90', p99: 'p99', 'p99.9': 'p999', p999: 'p999' };

// A rate is achieved when the step completed at least this share of what was offered: an open
// loop that falls behind its schedule has found a rate the server (or the loader) cannot take.
const ACHIEVED_SHARE = 0.95;

// The search's bounds, said in the README: the raise doubles the rate from --rate (or
// DEFAULT_START) until a step fails, then bisects between the last passing and the first failing
// rate until they are within REFINE_WITHIN of each other; MAX_STEPS bounds the whole search, so
// its time is at most MAX_STEPS x (warm-up + step duration).
const DEFAULT_START = 100;
const GROWTH = 2;
const REFINE_WITHIN = 0.05;
const MAX_STEPS = 12;
const MIN_RATE = 1;
// The client count of a search when --clients is not given, and the share of busy clients a failed
// step says it had: why 32 (Little's law) and what a busy step can and cannot tell, in the README,
// "Capacity under a latency SLA" (Clients).
const DEFAULT_CLIENTS = 32;
const CLIENTS_BUSY = 0.9;

// parseSla('p99=10ms') -> { percentile: 'p99', key: 'p999'|..., target_ms, text } or { error }.
// A near miss ('p99<=50ms', 'p99<50ms', 'P99 = 50ms', '99=50ms', 'p99:50ms', 'p99=50') is refused
// with the form that works ("write p99=50ms"), not only with what is wrong in it.
const KNOWN = Object.keys(PERCENTILES).filter((k) => k !== 'p999').join(', ');
function parseSla(text) {
  const s = String(text);
  const m = /^([^=]+)=(.+)$/.exec(s);
  const key = m ? PERCENTILES[m[1]] : null;
  const d = key ? durationMs('--sla', m[2]) : null;
  if (key && !d.error) return { percentile: m[1] === 'p999' ? 'p99.9' : m[1], key, target_ms: d.ms, text: s };
  const near = nearMiss(s);
  if (near && near.right !== s && !PERCENTILES[near.pct]) return { error: `--sla '${s}': '${near.pct}' is not a percentile the summary has (${KNOWN}); the form is PERCENTILE=DURATION, e.g. p99=10ms` };
  if (near && near.right !== s) return { error: `--sla '${s}': write ${near.right} (the form is PERCENTILE=DURATION)` };
  if (!m) return { error: `--sla '${s}' is not PERCENTILE=DURATION (e.g. p99=10ms)` };
  if (!key) return { error: `--sla: '${m[1]}' is not a percentile the summary has (${KNOWN})` };
  return { error: d.error };
}

// nearMiss(text) -> { pct, right: 'p99=50ms' } where text reads as a percentile and a duration in
// another form (a comparison sign, a colon, spaces, capitals, no p, no unit: a number alone is
// taken as ms), else null.
function nearMiss(text) {
  const m = /^\s*[pP]?(\d+(?:\.\d+)?)\s*(?:<=|=<|<|==|=|:|\s)\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(text);
  if (!m) return null;
  const pct = `p${m[1]}`;
  const dur = `${m[2]}${(m[3] || 'ms').toLowerCase()}`;
  if (durationMs('--sla', dur).error) return null;
  return { pct, right: `${pct === 'p999' ? 'p99.9' : pct}=${dur}` };
}

// judgeStep(sla, offered, entry) -> a capacity step: what was offered and achieved, the intended
// and service latency, and whether it passed (or why not). entry: the step's summary (summary.js
// stepSummary), whose ops each carry latency_us and intended_latency_us.
function judgeStep(sla, offered, entry) {
  const seconds = entry.measured_s || entry.duration_s || 0;
  let count = 0;
  let errors = 0;
  let worstIntended = null;
  let worstService = null;
  // Operations in flight on average (Little's law: each op type's rate x its mean service time),
  // as a share of the clients (each runs one operation at a time).
  let inFlight = 0;
  const latency = {};
  for (const [op, o] of Object.entries(entry.ops || {})) {
    count += o.count || 0;
    errors += o.errors || 0;
    latency[op] = { intended_us: pick(o.intended_latency_us), service_us: pick(o.latency_us), n: o.count || 0 };
    const iv = o.intended_latency_us?.[sla.key] ?? null;
    const sv = o.latency_us?.[sla.key] ?? null;
    if (iv !== null) worstIntended = Math.max(worstIntended ?? 0, iv);
    if (sv !== null) worstService = Math.max(worstService ?? 0, sv);
    if (seconds > 0 && o.latency_us && o.latency_us.mean) inFlight += (o.count / seconds) * (o.latency_us.mean / 1e6);
  }
  const achieved = seconds > 0 ? count / seconds : 0;
  const clientsBusy = entry.clients ? Math.round((inFlight / entry.clients) * 1000) / 1000 : null;
  const out = {
    offered_ops_per_s: offered,
    achieved_ops_per_s: Math.round(achieved * 10) / 10,
    intended_us: worstIntended,
    service_us: worstService,
    latency,
    clients_busy: clientsBusy,
    passed: false,
    why: null,
  };
  if (entry.failed) out.why = `the step failed: ${entry.failed.error_fraction * 100}% of operations errored`;
  else if (!entry.complete) out.why = 'the step did not complete';
  else if (count === 0) out.why = 'no operation completed';
  else if (entry.loader && entry.loader.limited === true) out.why = 'the loader was the limit (not the server)';
  else if (achieved < offered * ACHIEVED_SHARE) {
    out.why = `achieved ${out.achieved_ops_per_s} ops/s, under ${ACHIEVED_SHARE * 100}% of the ${offered} offered`;
    if (clientsBusy !== null && clientsBusy >= CLIENTS_BUSY) out.why += `; the ${entry.clients} clients were busy ${Math.round(clientsBusy * 100)}% of the time: with ${entry.clients} clients the loader could not offer more, and whether the server would take more with more clients is not known (more --clients tells)`;
  }
  else if (worstIntended === null) out.why = 'no intended latency recorded (was the step paced?)';
  else if (worstIntended > sla.target_ms * 1000) out.why = `intended ${sla.percentile} ${(worstIntended / 1000).toFixed(2)} ms > ${sla.target_ms} ms`;
  else out.passed = true;
  if (errors) out.errors = errors;
  // A failure within its own noise may not be the server's limit, and is tried once more before
  // it bounds the search (CapacitySearch.next). Its noise: the search's own resolution
  // (REFINE_WITHIN: 5% over the target latency, or 5% under the share of the rate it needed), plus,
  // where other load on the host made the loader late (common/host-slowed.js, the rule that leaves
  // a closed-loop step out), that lateness: the loader's delay p99 against the target (it adds to
  // each op's intended latency) or against each client's interval between operations (it makes a
  // client fall behind its schedule). A step that missed by more (3x the target, where the loader
  // was 25 ms late against 10 ms) measured the server: retrying it only added steps.
  if (!out.passed && entry.complete !== false && !entry.failed && count > 0) {
    const targetUs = sla.target_ms * 1000;
    const late = hostSlowed(entry) ? (loaderDelayMs(entry) ?? 0) : 0;
    const intervalMs = offered > 0 && entry.clients ? (1000 * entry.clients) / offered : null;
    const missLatency = worstIntended !== null ? worstIntended / targetUs : 0;
    const missRate = offered > 0 ? (offered * ACHIEVED_SHARE) / Math.max(achieved, 1e-9) : 0;
    const noiseLatency = 1 + REFINE_WITHIN + (late * 1000) / targetUs;
    const noiseRate = 1 + REFINE_WITHIN + (intervalMs ? late / intervalMs : 0);
    const within = (missLatency <= 1 || missLatency <= noiseLatency) && (missRate <= 1 || missRate <= noiseRate)
      && (missLatency > 1 || missRate > 1);
    if (within) {
      out.retry = late > 0 && (missLatency > 1 + REFINE_WITHIN || missRate > 1 + REFINE_WITHIN)
        ? `other load on the loader's host made it ${Math.round(late * 100) / 100} ms late, as much as the miss`
        : `a marginal failure (within ${REFINE_WITHIN * 100}% of passing)`;
    }
  }
  return out;
}

function pick(p) {
  return p ? { p50: p.p50 ?? null, p99: p.p99 ?? null, p999: p.p999 ?? null } : null;
}

// CapacitySearch: next() proposes the offered rate of the next step (null when done); record()
// takes that step's judged result. Rates are whole ops/s.
class CapacitySearch {
  constructor({ sla, start = DEFAULT_START, maxSteps = MAX_STEPS }) {
    this.sla = sla;
    this.start = Math.max(MIN_RATE, Math.round(start));
    this.maxSteps = maxSteps;
    this.steps = [];
    this.pass = null; // highest passing offered rate
    this.fail = null; // lowest failing offered rate
    this.stopped = null; // why the search ended
  }

  next() {
    if (this.stopped) return null;
    // A retry (below) is not counted against the budget: on a busy host every contended step would
    // otherwise spend the steps that refine the search; it at most doubles the search's time.
    const retries = this.steps.filter((x, i) => i > 0 && this.steps[i - 1].retry
      && this.steps[i - 1].offered_ops_per_s === x.offered_ops_per_s).length;
    if (this.steps.length - retries >= this.maxSteps) return this.end(`the step budget (${this.maxSteps}) ran out`);
    if (!this.steps.length) return this.start;
    // A failure that may be noise (judgeStep's `retry`) is tried once more at the same rate before
    // it bounds the search; a second failure there stands.
    const last = this.steps[this.steps.length - 1];
    const tries = this.steps.filter((x) => x.offered_ops_per_s === last.offered_ops_per_s).length;
    if (!last.passed && last.retry && tries === 1) return last.offered_ops_per_s;
    if (this.fail === null) return Math.round(this.pass * GROWTH); // raising: every step so far passed
    if (this.pass === null) {
      // Even the first rate failed: go down until one passes (or nothing can).
      const lower = Math.floor(this.fail / GROWTH);
      return lower >= MIN_RATE ? lower : this.end(`no rate passes: even ${this.fail} ops/s failed`);
    }
    const gap = (this.fail - this.pass) / this.pass;
    if (gap <= REFINE_WITHIN || this.fail - this.pass <= 1) {
      // The bracket as it is: at low rates adjacent whole rates are further apart than the aim
      // (7..8 ops/s is 14%, not "within 5%").
      const pct = Math.round(gap * 1000) / 10;
      return this.end(gap <= REFINE_WITHIN
        ? `refined to within ${pct}% (${this.pass}..${this.fail} ops/s)`
        : `refined to within ${pct}% (${this.pass}..${this.fail} ops/s: adjacent whole rates, wider than the ${REFINE_WITHIN * 100}% aimed at)`);
    }
    return Math.round((this.pass + this.fail) / 2);
  }

  end(why) {
    this.stopped = why;
    return null;
  }

  record(step) {
    this.steps.push(step);
    // The bounds from every step so far: the lowest failing rate, and the highest passing rate
    // below it (a rate that passed above a failure was noise, and does not count).
    // A failure retried (judgeStep `retry`) and passed on its retry does not bound the search.
    const retriedOk = (x) => x.retry && this.steps.some((y) => y !== x && y.passed
      && y.offered_ops_per_s === x.offered_ops_per_s);
    const failing = this.steps.filter((s) => !s.passed && !retriedOk(s)).map((s) => s.offered_ops_per_s);
    this.fail = failing.length ? Math.min(...failing) : null;
    const passing = this.steps.filter((s) => s.passed
      && (this.fail === null || s.offered_ops_per_s < this.fail)).map((s) => s.offered_ops_per_s);
    this.pass = passing.length ? Math.max(...passing) : null;
  }

  // result(clients) -> summary.json `capacity`. complete: the search ended on its own (refined,
  // no rate passes, or its budget), not interrupted; an interrupted search's capacity is the
  // highest rate that passed before it stopped (a lower bound).
  result(clients, interrupted = null) {
    return {
      sla: { percentile: this.sla.percentile, target_ms: this.sla.target_ms, text: this.sla.text, latency: 'intended (coordinated-omission corrected), the worst operation type' },
      capacity_ops_per_s: this.pass,
      lowest_failing_ops_per_s: this.fail,
      clients,
      complete: !interrupted,
      search: { start: this.start, growth: GROWTH, refine_within: REFINE_WITHIN, max_steps: this.maxSteps,
        achieved_share: ACHIEVED_SHARE, ended: interrupted || this.stopped },
      steps: this.steps,
    };
  }
}

// capacityOf({ sla, start, maxSteps, clients, steps, stopReason }) -> summary.json `capacity`
// from the steps as measured (summary entries, each with its offered rate as target_rate): the
// search replayed over them, so a run cut short (a signal, a stall, a second signal's forced
// summary) keeps every step it measured, judged as the live search judged it.
function capacityOf({ sla, start, maxSteps, clients, steps, stopReason = null }) {
  const s = new CapacitySearch({ sla, start: start ?? DEFAULT_START, maxSteps });
  for (const entry of steps) s.record({ index: entry.index, ...judgeStep(sla, entry.target_rate, entry) });
  // A finished search has nothing more to propose; one stopped early still had.
  const unfinished = stopReason ? `not finished: ${stopReason}` : s.next() === null ? null : 'the run ended before the search did';
  return { ...s.result(clients, unfinished), ...hostCaveat(steps, s.steps) };
}

// hostCaveat(steps, judged) -> { host_caveat } when failing steps of the search were slowed by
// other load on the host (common/host-slowed.js: the loader late by a material share of what it
// measured, the closed-loop steps' rule) or limited by the loader (src/results/selfmon.js), else {}.
// Only a failure bounds the capacity, and one on a busy host may be the host's: the capacity may then be this host's,
// not the server's, and says so (the report leaves it out of verdicts, as it leaves out a
// closed-loop step with these signs). A step that passed while the host was busy passed anyway
// (a busy host only adds latency), so it moves no bound: counting it excluded most searches on a
// 2-core host where the failures were clean.
function hostCaveat(steps, judged) {
  const failed = new Set(judged.filter((j) => !j.passed).map((j) => j.index));
  const shared = steps.filter((e) => failed.has(e.index) && e.loader && (hostSlowed(e) || e.loader.limited));
  if (!shared.length) return {};
  const first = hostSlowed(shared[0])?.[0] ?? shared[0].loader.reasons?.[0] ?? 'loader-limited';
  return {
    host_caveat: {
      steps: shared.map((e) => e.index), of: failed.size,
      text: `${shared.length} of ${failed.size} failing steps shared the host with other load or were limited by the loader (step ${shared[0].index}: ${first}): the capacity may be this host's, not the server's`,
    },
  };
}

module.exports = { parseSla, judgeStep, CapacitySearch, capacityOf, ACHIEVED_SHARE, MAX_STEPS, REFINE_WITHIN,
  DEFAULT_CLIENTS };
