'use strict';
// Self-monitoring: was the loader, not the server, the limit in a step? From the per-second
// samples the run lifecycle collects (process CPU, each worker's event-loop use and delay, the
// host's CPU), one verdict per step. Pure: the same samples give the same verdict.
const { median, mean, round } = require('../../../common/stats');

// When the loader, not the server, is the limit (reported per step in summary.json):
// a worker thread whose event loop is busy > 90 % of the time cannot issue the next op on time;
// an event-loop delay p99 > 20 ms adds that much to the measured latency of ops it completes
// (single-document ops take ~0.2-5 ms on a LAN); process CPU > 90 % of the cores it may use.
// A busy or delayed event loop is not the loader's doing when the loader itself uses little CPU:
// other processes on the host (or steal from other VMs) keep its threads waiting for a core, and
// a loop waiting for a core in the middle of its work also reads as busy. Those two signs count
// against the loader only when its own CPU explains them (the process used >= ownCpuCores cores
// in the step); otherwise the step records them as host contention, with the host's busy, steal
// and other-process cores beside them.
const LIMITS = { workerElu: 0.9, eldP99Ms: 20, cpuShare: 0.9, ownCpuCores: 0.5 };

// judge(seconds, cores): seconds = [{cpuCores, selfs: [{worker, elu, eldP99Ms}], intervalS, host}]
// -> the step's `loader` object of summary.json.
function judge(seconds, cores) {
  const secs = seconds.filter((s) => s.intervalS > 0.5); // the last partial second is noisy
  const byWorker = new Map();
  for (const s of secs) for (const w of s.selfs) {
    if (!byWorker.has(w.worker)) byWorker.set(w.worker, { elu: [], eld: [] });
    byWorker.get(w.worker).elu.push(w.elu);
    if (w.eldP99Ms !== null) byWorker.get(w.worker).eld.push(w.eldP99Ms);
  }
  const workers = [...byWorker.entries()].map(([w, v]) => ({
    // the median of an even count is a mean of two readings: rounded as the readings are (2
    // decimals, src/run/loop-delay.js), or the contention line read "87.70500000000001 ms"
    worker: w, elu_mean: round(mean(v.elu), 3), eld_p99_ms_median: round(median(v.eld), 2),
      eld_p99_ms_max: v.eld.length ? Math.max(...v.eld) : null,
  }));
  const cpuMean = mean(secs.map((s) => s.cpuCores));
  const hostSecs = secs.map((s) => s.host).filter(Boolean);
  const host = hostSecs.length ? {
    cores: hostSecs[0].cores,
    busy_cores_mean: round(mean(hostSecs.map((h) => h.busy_cores)), 3),
    steal_cores_mean: round(mean(hostSecs.map((h) => h.steal_cores)), 3),
    other_cores_mean: round(mean(hostSecs.map((h) => h.other_cores)), 3),
  } : null;
  const reasons = [];
  const contention = [];
  const ownCpu = cpuMean !== null && cpuMean >= Math.min(LIMITS.ownCpuCores, cores);
  const hostNote = `the loader used ${round(cpuMean ?? 0, 2)} of ${cores} cores${host ? `, other processes ${host.other_cores_mean}, steal ${host.steal_cores_mean}` : ''}: the host, not the loader`;
  for (const w of workers) {
    const signs = [];
    if (w.elu_mean !== null && w.elu_mean > LIMITS.workerElu) signs.push(`worker ${w.worker} event loop busy ${Math.round(w.elu_mean * 100)}% of the time (> ${LIMITS.workerElu * 100}%)`);
    if (w.eld_p99_ms_median !== null && w.eld_p99_ms_median > LIMITS.eldP99Ms) signs.push(`worker ${w.worker} event-loop delay p99 ${w.eld_p99_ms_median} ms (> ${LIMITS.eldP99Ms} ms)`);
    for (const d of signs) (ownCpu ? reasons : contention).push(ownCpu ? d : `${d} while ${hostNote}`);
  }
  if (cpuMean !== null && cpuMean > LIMITS.cpuShare * cores) reasons.push(`loader process used ${round(cpuMean, 2)} of ${cores} cores (> ${LIMITS.cpuShare * 100}%)`);
  // No full second measured: nothing to judge by, so the verdict is unknown (null), not "no".
  const limited = secs.length ? reasons.length > 0 : null;
  return { cpu_cores_mean: round(cpuMean, 3), cores, workers, samples: secs.length, limited, reasons, host,
    contention };
}

module.exports = { judge, LIMITS };
