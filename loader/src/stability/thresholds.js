'use strict';
// Every threshold of a step's stability (issue 40), in one place, each with its reason.
//
// The noise figure behind them: the loader against mongo-java-server (a fast, steady server
// whose replies never pause) on the shared 2-core test VM, 2026-11-26, experiment2 with 1
// client, 30 measured seconds: loader/README.md "Stability" gives the run's figures (CV of
// per-second throughput, worst second / median second, per-second p99 worst / median).
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
