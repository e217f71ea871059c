'use strict';
// Pauses: stretches inside a step where no operation completed for a while, shorter than
// --stall-timeout (which stops the run). A server frozen for 5 s (SIGSTOP, a long checkpoint, a
// VM stolen from) used to leave only a 5 s max latency in summary.json: the step looked whole.
// Each pause is now said once in the terminal when operations resume, and listed in the step's
// summary.json entry (steps[].pauses: from_s into the step, idle_ms, op_p99_ms: the step's own
// operation times it was judged against). A paused step is no measurement of the engine
// (common/step-exclusion.js `paused`).
//
// The threshold: 1 s, the lab's resolution (the timeline, Grafana), where operations take
// milliseconds; longer for a paced step whose operations are that far apart (3 intended
// intervals of --rate), and never more than half the stall timeout.
const PAUSE_MIN_MS = 1000;

function pauseThresholdMs({ stallTimeoutMs, rate = null }) {
  const paced = rate ? (3 * 1000) / rate : 0;
  return Math.min(Math.max(PAUSE_MIN_MS, paced), stallTimeoutMs / 2);
}

// A silence is a pause only when it is far beyond the server's own operation times in the step:
// OP_TIMES times the median of the step's per-second p99 latencies so far (a server that takes
// 0.5-2 s per operation, FerretDB on SQLite, is silent for a second between completions with no
// pause at all). Until a second's latency is known, the threshold alone decides.
// Its margin, measured by bench/pause-margin.js (2026-11-27 22:31 UTC, the 2-core VM with other
// work running, load 20; experiment2 unpaced, 2 clients, 5 runs x 3 steps of 5 s, against
// mongo-java-server): a healthy step's largest gap between completions was 61-280 ms (median 110),
// 6.1 / 19.3 / 74.3 x (min / median / max) its median per-second p99 of 1.6-20 ms; an earlier run
// at load 9-21 gave 3.3 / 12.1 / 28.8 x. So on a fast server the factor alone has no margin: the
// 1 s threshold keeps those steps clear (their largest gap was 6-28 % of max(1 s, 10 x p99)). The
// factor decides only where 10 x p99 passes the threshold (p99 over 100 ms, a slow server), which
// this bench cannot produce; there it asks for a silence of 10 operations' p99.
const OP_TIMES = 10;

// pauseWatch(stepStartAt, thresholdMs, opTimeMs) -> { check(t, lastOkAt) -> a pause that just
// ended, or null; list }. check runs at every stall check (every 25 ms). A pause is the silence a
// check saw itself (no completion for thresholdMs at check time), ended by the next completion,
// and longer than OP_TIMES x opTimeMs() (the step's median per-second p99, ms, or null): a main
// thread that was not scheduled for a second (a busy host) sees completions it missed, no pause.
function pauseWatch(stepStartAt, thresholdMs, opTimeMs = () => null) {
  const list = [];
  let seenOk = stepStartAt; // the idle time counts from the step's start or its last completion
  let silent = false;
  return {
    list,
    check(t, lastOkAt) {
      const lastOk = Math.max(stepStartAt, lastOkAt);
      if (lastOk <= seenOk) {
        if (t - seenOk >= thresholdMs) silent = true;
        return null;
      }
      const idle = lastOk - seenOk;
      const from = seenOk;
      const was = silent;
      seenOk = lastOk;
      silent = false;
      if (!was) return null;
      const op = opTimeMs();
      if (typeof op === 'number' && idle < OP_TIMES * op) return null; // within the server's own pace
      const pause = { from_s: Math.round(from - stepStartAt) / 1000, idle_ms: Math.round(idle), ...(typeof op === 'number' ? { op_p99_ms: Math.round(op * 10) / 10 } : {}) };
      list.push(pause);
      return pause;
    },
  };
}

module.exports = { pauseThresholdMs, pauseWatch, OP_TIMES };
