'use strict';
// How late a thread's event loop runs what is due: perf_hooks.monitorEventLoopDelay, a timer that
// fires every RESOLUTION_MS and records how late each fire came. Used by every worker (its
// interval's p99 and max, judged by src/results/selfmon.js) and, through prom-client's default metrics,
// by the main thread (nodejs_eventloop_lag_seconds, src/run/metrics.js).
//
// Why 20 ms and not Node's and prom-client's 10 (each fire wakes a thread that is otherwise
// waiting, and a wake-up costs CPU; measured): loader/README.md, "Fixed cost per second".
// What 20 ms still sees: a block of B ms that covers a fire reads B - 20 .. B late (10 ms: B - 10
// .. B), and every block of 20 ms or more covers one; the judgement is p99 > 20 ms, so a loop
// blocked 40 ms or more is always judged, 20-40 ms sometimes (10 ms: from 30 ms).
const { monitorEventLoopDelay } = require('node:perf_hooks');

const RESOLUTION_MS = 20;

// monitorEventLoopDelay records the whole timer period, resolution included (an idle loop reads
// ~RESOLUTION_MS): the delay reported is what exceeds the resolution, in ms (2 decimals).
const excessMs = (ns) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 100) / 100);

class LoopDelay {
  constructor() {
    this.h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    this.h.enable();
  }

  // read() -> { p99Ms, maxMs } since the last read (null, null when no fire was recorded), then
  // starts a new interval.
  read() {
    const h = this.h;
    const out = h.count ? { p99Ms: excessMs(h.percentile(99)), maxMs: excessMs(h.max) } : { p99Ms: null, maxMs: null };
    h.reset();
    return out;
  }

  stop() {
    this.h.disable();
  }
}

module.exports = { LoopDelay, RESOLUTION_MS };
