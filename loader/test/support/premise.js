'use strict';
// Measured premises of tests that depend on a free core or a speed: measure in the
// same run, and where the premise does not hold, skip with the reason and the figure
// (t.skip(...); test/run-all.sh counts it as skipped, never as passed).
const fs = require('node:fs');
const { HostCpu } = require('../../src/run/hostcpu');

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

// loopStalls(tickMs) -> { stalls, stop() }: this process's own event-loop stalls from now on,
// each { at (epoch ms, its end), ms (how late a tick of tickMs ran) } of 5 ms or more. The wire
// shim (support/wire-shim.js) runs in the test's process: a stall here holds every reply.
function loopStalls(tickMs = 5) {
  const stalls = [];
  let last = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    if (now - last - tickMs >= 5) stalls.push({ at: now, ms: now - last - tickMs });
    last = now;
  }, tickMs);
  return { stalls, stop: () => clearInterval(timer) };
}

// runQueueWaits(pid, everyMs) -> { waits, stop() }: how long each thread of process pid waited for
// a CPU, from now on, each { since, at (epoch ms), tid, ms (its wait in between) } of 1 ms or more.
// proc(5) /proc/[pid]/task/[tid]/schedstat: its second field is the time the thread spent waiting
// on a run queue, in ns (Linux, CONFIG_SCHED_INFO; nothing is recorded where it is missing).
function runQueueWaits(pid, everyMs = 100) {
  const waited = () => {
    const byThread = new Map();
    try {
      for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
        try {
          byThread.set(tid, Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]));
        } catch { /* a thread that has ended */ }
      }
    } catch { /* the process has ended, or no /proc */ }
    return byThread;
  };
  const waits = [];
  let last = waited();
  const timer = setInterval(() => {
    const now = waited();
    const at = Date.now();
    for (const [tid, ns] of now) {
      const ms = last.has(tid) ? (ns - last.get(tid)) / 1e6 : 0;
      if (ms >= 1) waits.push({ since: at - everyMs, at, tid, ms });
    }
    last = now;
  }, everyMs);
  return { waits, stop: () => clearInterval(timer) };
}

// jvmPauses(file) -> [{ at (epoch ms, its end), ms }]: the stop-the-world pauses a test server
// started with startServer({ pauseLog: file }) logged (HotSpot's unified logging, -Xlog:safepoint
// with the timemillis decorator: `[1764546224981ms] Safepoint "...", ... Total: 5959621 ns`).
function jvmPauses(file) {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  return [...text.matchAll(/^\[(\d+)ms\] Safepoint .*Total: (\d+) ns/gm)].map((m) => ({ at: Number(m[1]), ms: Number(m[2]) / 1e6 }));
}

// threadWait(waits, from, to) -> the longest any one thread waited for a CPU in (from, to), in ms
// (runQueueWaits' waits, summed by thread).
function threadWait(waits, from, to) {
  const perThread = new Map();
  for (const w of waits.filter((x) => x.at > from && x.since < to)) {
    perThread.set(w.tid, (perThread.get(w.tid) || 0) + w.ms);
  }
  return Math.max(0, ...perThread.values());
}

// rigStall(dip, medianP99Us, { lines, shim, jvm, jvmWaits }) -> { stalled, figures }: stalled is null, or
// what in the test's own rig stalled in the dip's window (the second before it and its own) for at
// least half of what the dip's p99 rose above the step's median: the loader's worker loop (the
// timeline's loader.workers[].eldMaxMs), the loader's schedule (how far a paced loader ran behind:
// its ops' p50 intended_latency_us over their latency_us), the test process that hosts the wire
// shim (loopStalls), the test server's JVM (jvmPauses), or one of the JVM's threads waiting for a
// CPU longer than in the step's usual window (runQueueWaits). Such a dip is the rig's: the server the
// loader measured did stall, and no server event of it exists. figures: each one's longest stall.
function rigStall(dip, medianP99Us, { lines, shim = [], jvm = [], jvmWaits = [] }) {
  const from = Date.parse(dip.start) - 1000;
  const to = Date.parse(dip.end);
  const enough = ((dip.p99_ratio - 1) * medianP99Us) / 1000 / 2;
  // a timeline line is its second's end: the loader's lines in (from, to]; a stall counts where it
  // overlaps the window
  const inWindow = lines.filter((l) => Date.parse(l.t) > from && Date.parse(l.t) <= to);
  const loader = inWindow
    .flatMap((l) => (l.loader?.workers || []).map((w) => ({ at: Date.parse(l.t), ms: w.eldMaxMs || 0 })));
  // a paced loader behind its schedule (its ops' intended latency, from when each was due, above
  // the latency it measured) sends what it owes in a burst, and the server queues the burst
  const behind = inWindow
    .flatMap((l) => Object.values(l.ops || {}).filter((o) => o.intended_latency_us && o.latency_us)
      .map((o) => ({ at: Date.parse(l.t), ms: (o.intended_latency_us.p50 - o.latency_us.p50) / 1000 })));
  const longest = (list) => list.filter((s) => s.at > from && s.at - s.ms < to).reduce((a, s) => Math.max(a, s.ms), 0);
  // a JVM thread waiting for a CPU holds the requests it serves: the longest any one thread waited
  // over the window (its waits summed), above what it is in the step's median 2 s window (measured:
  // 50-150 ms in every window of an idle run, 200-660 ms in its dips' windows)
  const times = lines.map((l) => Date.parse(l.t));
  const usual = [];
  for (let a = Math.min(...times); a + 2000 <= Math.max(...times); a += 1000) {
    usual.push(threadWait(jvmWaits, a, a + 2000));
  }
  usual.sort((a, b) => a - b);
  const waited = threadWait(jvmWaits, from, to) - (usual.length ? usual[Math.floor(usual.length / 2)] : 0);
  const found = [['the loader\'s worker loop late', loader], ['the loader behind its schedule', behind],
    ['the wire shim\'s process late', shim], ['the test server\'s JVM paused', jvm]]
    .map(([who, list]) => [who, Math.round(longest(list))])
    .concat([['a test server thread waiting for a CPU (above its usual)', Math.round(waited)]]);
  const over = found.filter(([, ms]) => ms >= enough);
  return {
    stalled: over.length ? `${over.map(([who, ms]) => `${who}: ${ms} ms`).join('; ')} (half the dip's rise: ${Math.round(enough)} ms)` : null,
    figures: `longest stalls in its window: ${found.map(([who, ms]) => `${who} ${ms} ms`).join(', ')}; half the dip's rise ${Math.round(enough)} ms`,
  };
}

// treeTicks(pid) -> the CPU time of process pid, its living descendants and the children each
// has reaped, in clock ticks (proc(5) /proc/[pid]/stat fields 14-17: utime stime cutime cstime;
// /proc/stat counts in the same USER_HZ ticks). A multi-process program such as Chromium is
// counted whole while it runs.
function treeTicks(pid) {
  const procs = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      // the command name (field 2) may hold spaces and parentheses: the fields follow its last ')'
      const f = fs.readFileSync(`/proc/${d}/stat`, 'utf8').split(') ').at(-1).split(' ');
      procs.push({ pid: Number(d), ppid: Number(f[1]), ticks: f.slice(11, 15).reduce((a, b) => a + Number(b), 0) });
    } catch { /* a process that has ended */ }
  }
  const inTree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) if (!inTree.has(p.pid) && inTree.has(p.ppid)) { inTree.add(p.pid); grew = true; }
  }
  return procs.filter((p) => inTree.has(p.pid)).reduce((a, p) => a + p.ticks, 0);
}

// coresGot(pid) -> { stop() -> { cores, others } }: from now to stop(), the CPUs process pid's
// tree (treeTicks) used, and the host's other processes, each in cores (1 = one CPU all along),
// over the CPUs this process may run on (the loader's HostCpu, whose jiffies are the same ticks).
// A timed step whose tree got under half a core waited for a CPU most of its time.
function coresGot(pid) {
  const host = new HostCpu();
  const [h0, t0] = [host.read(), treeTicks(pid)];
  return {
    stop() {
      const [h1, t1] = [host.read(), treeTicks(pid)];
      const wall = h0 && h1 ? (h1.total - h0.total) / h1.n : 0;
      const round = (x) => Math.round(x * 100) / 100;
      if (wall <= 0) return { cores: 0, others: 0 };
      return { cores: round((t1 - t0) / wall), others: round((h1.busy - h0.busy - (t1 - t0)) / wall) };
    },
  };
}

module.exports = {
  treeTicks, coresGot, coreBusy, busiestShare, holdUnseen, loopStalls, runQueueWaits, jvmPauses, rigStall,
};
