'use strict';
// Every threshold of a step's stability, in one place, each with its reason.
//
// The noise figure behind them (the loader against mongo-java-server on the shared 2-core test VM,
// 2026-11-26, paced and unpaced) and what it means for them: loader/README.md, "Stability"; the
// p99 threshold is crossed by a busy host, which is why the loader's host is a cause of its own
// (causes.json loader_host).
const THRESHOLDS = {
  // A second whose throughput is below this fraction of the step's median second is in a dip.
  // The loader's own worst steady second was far above it (README "Stability"); a server that
  // holds writes for half a second or more takes at least half a closed-loop client's second.
  dipBelowMedian: 0.5,
  // A second whose p99 latency passed this multiple of the step's median per-second p99 is in a
  // dip even when its throughput held (a few ops waited, many did not). The loader's own worst
  // steady second stayed under it (README "Stability").
  p99AboveMedian: 4,
  // Fewer measured seconds than this: no median worth comparing with, so no dips are judged.
  minSeconds: 5,
  // A median second with fewer operations than this: one op more or less moves a second by more
  // than a tenth, and halving is within the counting noise; dips are not judged (reason given).
  minMedianOps: 20,
  // A timeline second shorter than this is the step's last, partial one: its rate is over a
  // fraction of a second and says nothing about steadiness (timeline.ndjson `partial`).
  fullSecond: 0.9,
};

module.exports = { THRESHOLDS };
