'use strict';
// Pauses: stretches inside a step where no operation completed for a while, shorter than
// --stall-timeout (which stops the run). A server frozen for 5 s (SIGSTOP, a long checkpoint, a
// VM stolen from) used to leave only a 5 s max latency in summary.json: the step looked whole.
// Each pause is now said once in the terminal when operations resume, and listed in the step's
// summary.json entry (steps[].pauses: from_s into the step, idle_ms).
//
// The threshold: 1 s, the lab's resolution (the timeline, Grafana), where operations take
// milliseconds; longer for a paced step whose operations are that far apart (3 intended
// intervals of --rate), and never more than half the stall timeout.
const PAUSE_MIN_MS = 1000;

function pauseThresholdMs({ stallTimeoutMs, rate = null }) {
  const paced = rate ? (3 * 1000) / rate : 0;
  return Math.min(Math.max(PAUSE_MIN_MS, paced), stallTimeoutMs / 2);
}

// pauseWatch(stepStartAt, thresholdMs) -> { check(t, lastOkAt) -> a pause that just ended, or
// null; list }. check runs at every stall check (every 25 ms). A pause is the silence a check saw
// itself (no completion for thresholdMs at check time), ended by the next completion: a main
// thread that was not scheduled for a second (a busy host) sees completions it missed, no pause.
function pauseWatch(stepStartAt, thresholdMs) {
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
      const pause = { from_s: Math.round(from - stepStartAt) / 1000, idle_ms: Math.round(idle) };
      list.push(pause);
      return pause;
    },
  };
}

module.exports = { pauseThresholdMs, pauseWatch };
