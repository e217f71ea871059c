'use strict';
// The host's CPU beside the loader's own, from /proc/stat over the CPUs this process may run on
// (Cpus_allowed_list: taskset, cpusets): busy and steal in cores. busy minus the loader's own use
// is what other processes (and other VMs, as steal) took. Linux only; null elsewhere.
const fs = require('node:fs');

function allowedCpus() {
  try {
    const m = /^Cpus_allowed_list:\s*(\S+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (!m) return null;
    const set = new Set();
    for (const part of m[1].split(',')) {
      const [a, b] = part.split('-').map(Number);
      for (let c = a; c <= (Number.isNaN(b) || b === undefined ? a : b); c++) set.add(c);
    }
    return set;
  } catch {
    return null;
  }
}

class HostCpu {
  constructor() {
    this.cpus = allowedCpus();
    this.prev = this.read();
  }

  // read() -> { busy, steal, total } in jiffies summed over the allowed CPUs, or null.
  read() {
    if (!this.cpus) return null;
    let text;
    try {
      text = fs.readFileSync('/proc/stat', 'utf8');
    } catch {
      return null;
    }
    const out = { busy: 0, steal: 0, total: 0, n: 0 };
    for (const line of text.split('\n')) {
      const m = /^cpu(\d+)\s+(.*)$/.exec(line);
      if (!m || !this.cpus.has(Number(m[1]))) continue;
      // user nice system idle iowait irq softirq steal (guest is inside user)
      const v = m[2].trim().split(/\s+/).map(Number);
      const [user, nice, system, idle, iowait, irq, softirq, steal = 0] = v;
      out.busy += user + nice + system + irq + softirq + steal;
      out.steal += steal;
      out.total += user + nice + system + idle + iowait + irq + softirq + steal;
      out.n++;
    }
    return out.n ? out : null;
  }

  // sample(loaderCores) -> { cores, busy_cores, steal_cores, other_cores } since the last sample.
  sample(loaderCores) {
    const cur = this.read();
    const prev = this.prev;
    this.prev = cur;
    if (!cur || !prev || cur.total <= prev.total) return null;
    const dt = cur.total - prev.total;
    const busy = ((cur.busy - prev.busy) / dt) * cur.n;
    const steal = ((cur.steal - prev.steal) / dt) * cur.n;
    const r3 = (x) => Math.round(x * 1000) / 1000;
    return { cores: cur.n, busy_cores: r3(busy), steal_cores: r3(steal),
      other_cores: r3(Math.max(0, busy - (loaderCores || 0))) };
  }
}

module.exports = { HostCpu };
