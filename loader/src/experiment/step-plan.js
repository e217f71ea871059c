'use strict';
// The steps a run measures, one at a time: next(last) -> { name, clients, params, rate } or null
// when there is no more. A sweep (the kind's plan: a client sweep, or a matrix of cases) is a
// fixed list; with --sla the plan is a capacity search (src/experiment/sla.js), whose next step's offered
// rate depends on how the last one did. The runner asks after every step (run/step-loop.js run).
const { planOf } = require('../kinds');
const { CapacitySearch, judgeStep, capacityOf, MAX_STEPS } = require('./sla');

// stepPlan(config, log) -> { totalText, maxClients, next(last) }. totalText: the number of steps, or
// the most a search may take (for progress lines).
function stepPlan(config, log = () => {}) {
  if (!config.sla) {
    const list = planOf(config);
    let i = 0;
    return { totalText: String(list.length), maxClients: Math.max(...list.map((p) => p.clients)),
      next: () => list[i++] ?? null };
  }
  const { sla, start, clients } = searchOf(config);
  const search = new CapacitySearch({ sla, start });
  return {
    totalText: `<=${MAX_STEPS}`,
    maxClients: clients,
    next(last) {
      if (last) {
        const judged = judgeStep(sla, last.target_rate, last);
        search.record(judged);
        const p99 = judged.intended_us === null ? 'none' : `${(judged.intended_us / 1000).toFixed(2)} ms`;
        log(`capacity: ${judged.offered_ops_per_s} ops/s offered, ${judged.achieved_ops_per_s} achieved, intended ${sla.percentile} ${p99}: ${judged.passed ? 'passed' : `failed (${judged.why})`}`);
      }
      const rate = search.next();
      if (rate === null) {
        log(`capacity at ${sla.percentile} <= ${sla.target_ms} ms: ${search.pass === null ? 'no rate passed' : `${search.pass} ops/s`} (${search.stopped})`);
        return null;
      }
      return { name: `rate-${rate}`, clients, params: null, rate };
    },
  };
}

// capacityFor(config, steps, stopReason) -> summary.json `capacity` for an --sla run (undefined
// otherwise), from the steps as measured: also a run cut short, or stopped before its first step
// (no steps: capacity null, and why).
function capacityFor(config, steps, stopReason) {
  if (!config || !config.sla) return undefined;
  return capacityOf({ ...searchOf(config), steps, stopReason });
}

// searchOf(config) -> { sla, start, clients }: the search the plan runs and capacityFor judges
// (--rate is its first offered rate; one client count).
function searchOf(config) {
  return { sla: config.sla, start: config.rate ?? undefined, clients: config.workload.clients[0] };
}

module.exports = { stepPlan, capacityFor };
