'use strict';
// Measured premises of tests that depend on a free core or a speed: measure in the
// same run, and where the premise does not hold, skip with the reason and the figure
// (t.skip(...); test/run-all.sh counts it as skipped, never as passed).
const fs = require('node:fs');

// cpuTimes(cpu): [busy, total] jiffies of one CPU from /proc/stat (proc(5): user nice system idle
// iowait irq softirq steal ...; idle + iowait are not busy).
function cpuTimes(cpu) {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith(`cpu${cpu} `));
  if (!line) throw new Error(`no cpu${cpu} in /proc/stat`);
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return [total - v[3] - v[4], total];
}

// coreBusy(cpu, ms) -> the share of CPU `cpu` that was busy over the next ms (0..1, 3 decimals).
async function coreBusy(cpu, ms = 1000) {
  const [b0, t0] = cpuTimes(cpu);
  await new Promise((r) => setTimeout(r, ms));
  const [b1, t1] = cpuTimes(cpu);
  return t1 > t0 ? Math.round(((b1 - b0) / (t1 - t0)) * 1000) / 1000 : 0;
}

module.exports = { coreBusy };
