'use strict';
// `lab-loader estimate NAME [flags]`: how long one run's measured steps last, from the same parsed
// configuration a run uses (config.load: nothing connects). ./run.sh compare prints it with its
// plan, so that a comparison of 12 runs is not started blind. Only steps bounded by time can be
// told in advance; preload and steps bounded by a count of documents or operations cannot (the
// server's speed decides them), and the line says so rather than guessing.
const { planOf } = require('../kinds');
const { MAX_STEPS } = require('./sla');

// estimateRun(config) -> { seconds, steps, bound }: seconds of the measured steps (warm-up
// included), or null when they end by their work; bound 'time', 'at most' (an --sla search stops
// after at most MAX_STEPS steps, each possibly retried once) or 'work'; preload: whether a preload comes before them.
function estimateRun(config) {
  const stepMs = config.workload.durationMs ? config.workload.durationMs + (config.warmupMs || 0) : null;
  // a search runs at most MAX_STEPS counted steps, each of which may be tried once more (sla.js)
  const steps = config.sla ? 2 * MAX_STEPS : planOf(config).length;
  return {
    seconds: stepMs === null ? null : Math.round((steps * stepMs) / 1000),
    steps,
    bound: stepMs === null ? 'work' : config.sla ? 'at most' : 'time',
    preload: config.preload.docs > 0 ? config.preload.docs : 0,
  };
}

// One line, words split by spaces: "seconds=720 steps=6 bound=time preload=1000000".
const estimateLine = (e) => `seconds=${e.seconds ?? 'unknown'} steps=${e.steps} bound=${e.bound.replace(' ', '-')} preload=${e.preload}`;

module.exports = { estimateRun, estimateLine };
