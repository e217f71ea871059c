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

// busiestShare(lines, from, to) -> the largest share of the host's CPUs busy (0..1) in the
// timeline's seconds that end in (from, to] (ms), as the loader measured each second
// (host.busy_cores / host.cores); 0 when no second carries the host's figures.
function busiestShare(lines, from, to) {
  return lines.filter((l) => l.host && Date.parse(l.t) > from && Date.parse(l.t) <= to)
    .map((l) => l.host.busy_cores / l.host.cores).reduce((a, b) => Math.max(a, b), 0);
}

// holdUnseen(st, lines, w) -> null, or why a write hold over w {from, to} (ms) could not show as
// a dip on this host, with the figure: the host's CPUs at least 75 % busy in its seconds (the test
// server starved as much as the loader, so the held second's neighbours are as slow), or the
// step's median per-second p99 at least a quarter of the hold (the p99 rule's 4x cannot see it).
function holdUnseen(st, lines, w) {
  const busy = busiestShare(lines, w.from - 1000, w.to + 1000);
  if (busy >= 0.75) return `the host's CPUs were ${Math.round(busy * 100)} % busy over the hold at ${new Date(w.from).toISOString()}`;
  const p99 = st.p99_us && st.p99_us.median;
  if (p99 >= ((w.to - w.from) * 1000) / 4) return `the step's median per-second p99 was ${Math.round(p99 / 1000)} ms, a quarter of the ${w.to - w.from} ms hold or more`;
  return null;
}

module.exports = { coreBusy, busiestShare, holdUnseen };
