'use strict';
// Preloaded into the real loader CLI by bench/pause-margin.js (NODE_OPTIONS=--require this file):
// wraps src/run/pauses.js pauseWatch before src/run/runner.js takes it, so each step's watch reports what
// it saw without changing what it decides: every advance of the latest completion (the gap
// between completions as the pause rule measures it, counted from the step's start, at its 25 ms
// check) and the step's median per-second p99 as the rule reads it. Written as JSON to
// $PAUSE_MARGIN_OUT when the process exits. Worker threads (the clients) are left alone.
const { isMainThread } = require('node:worker_threads');

if (isMainThread && process.env.PAUSE_MARGIN_OUT) {
  const fs = require('node:fs');
  const pauses = require('../src/run/pauses');
  const watch = pauses.pauseWatch;
  const steps = [];
  pauses.pauseWatch = (stepStartAt, thresholdMs, opTimeMs = () => null) => {
    const w = watch(stepStartAt, thresholdMs, opTimeMs);
    const seen = { max_gap_ms: 0, gap_at_s: null, op_p99_ms: null, completions_seen: 0, threshold_ms: thresholdMs };
    steps.push(seen);
    let lastSeen = stepStartAt;
    const check = w.check;
    w.check = (t, lastOkAt) => {
      const lastOk = Math.max(stepStartAt, lastOkAt);
      if (lastOk > lastSeen) {
        if (lastOk - lastSeen > seen.max_gap_ms) {
          seen.max_gap_ms = lastOk - lastSeen;
          seen.gap_at_s = (lastSeen - stepStartAt) / 1000;
        }
        lastSeen = lastOk;
        seen.completions_seen += 1;
      }
      const op = opTimeMs();
      if (typeof op === 'number' && Number.isFinite(op)) seen.op_p99_ms = op;
      return check(t, lastOkAt);
    };
    return w;
  };
  process.on('exit', () => fs.writeFileSync(process.env.PAUSE_MARGIN_OUT, JSON.stringify(steps)));
}
