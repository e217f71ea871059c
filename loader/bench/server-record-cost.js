'use strict';
// The server record's own cost: the server's operations per second with the record on
// and off, alternating runs of the real loader CLI against the same test server (the 8.0
// WiredTiger replica-set line of the wire shim in front of mongo-java-server: three members
// sampled, four commands each a second), paired by round so that a shared machine's drift hits
// both. Prints each run, the medians, and the paired difference (off - on) / off with its 95 %
// interval (bench/stats.js medianInterval: 6 rounds or more). Throughput on a shared machine
// swings by tens of per cent between consecutive runs, so the same runs also give the test
// server's CPU time per operation (mongo-java-server's process + the shim, which runs in this
// process: CPU time moves far less with other processes' load than throughput does), and an idle
// measurement: the server's CPU per second with only the record sampling it, against none.
// Asserts nothing.
// Usage: node bench/server-record-cost.js [ROUNDS=8] [DURATION=8s] [CLIENTS=4]
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startServer } = require('../test/support/server');
const { runLoader } = require('../test/support/loader');
const { median, medianInterval } = require('./stats');
const { ServerRecord } = require('../src/server-record/sampler');

// CPU seconds of the test server so far: the java backend (/proc/PID/stat utime + stime, in
// clock ticks of 1/100 s on Linux) plus this process (the shim).
function serverCpuS(server) {
  const f = fs.readFileSync(`/proc/${server.proc.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const u = process.cpuUsage();
  return (Number(f[11]) + Number(f[12])) / 100 + (u.user + u.system) / 1e6;
}

// idle(server, seconds): the server's CPU per second with nothing running, then with only the
// record sampling its members (no loader; the record runs here too, so its own client-side CPU
// is in the figure: an upper bound).
async function idle(server, seconds) {
  const wait = (ms) => new Promise((r) => setTimeout(r, ms));
  let c0 = serverCpuS(server);
  await wait(seconds * 1000);
  const base = (serverCpuS(server) - c0) / seconds;
  const description = { topology: { kind: 'replica_set_member', set_name: 'rs0', hosts: server.shim.hosts } };
  let lines = 0;
  const rec = new ServerRecord({ conn: { uri: server.uri, serverSelectionTimeoutMs: 5000 }, description,
    seedHosts: server.shim.hosts, out: { write() { lines += 1; } }, log() {} });
  rec.start();
  await wait(2000); // connections made
  c0 = serverCpuS(server);
  await wait(seconds * 1000);
  const withRecord = (serverCpuS(server) - c0) / seconds;
  await rec.stop();
  return { base_cpu_ms_per_s: Math.round(base * 1000), with_record_cpu_ms_per_s: Math.round(withRecord * 1000),
    record_lines: lines };
}

async function main() {
  const rounds = Number(process.argv[2] || 8);
  const duration = process.argv[3] || '8s';
  const clients = process.argv[4] || '4';
  const server = await startServer({ line: 'mongod-8.0-wiredtiger-replset' });
  const results = fs.mkdtempSync(path.join(os.tmpdir(), 'record-cost-'));
  const runs = { on: [], off: [] };
  const cpu = { on: [], off: [] }; // server CPU ms per 1,000 step operations
  try {
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 ? ['off', 'on'] : ['on', 'off'];
      for (const mode of order) {
        const c0 = serverCpuS(server);
        const r = await runLoader(['experiment2', '--uri', server.uri, '--results-dir', path.join(results, `${i}-${mode}`), '--metrics-port', '0',
          '--preload-docs', '1000', '--clients', clients, '--duration', duration, '--warmup', '2s', '--server-record', mode]);
        const dir = path.join(results, `${i}-${mode}`, 'experiment2', 'wiredtiger', 'latest');
        const s = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
        const ops = Object.values(s.steps[0].ops).reduce((a, o) => a + o.ops_per_s, 0);
        runs[mode].push(ops);
        // a preload batch is one op
        const stepOps = Object.values(s.steps[0].ops).reduce((a, o) => a + o.count, 0) + s.preload.docs / 1000;
        cpu[mode].push(((serverCpuS(server) - c0) * 1000) / (stepOps / 1000));
        const load = os.loadavg()[0].toFixed(2);
        process.stdout.write(`round ${i + 1} ${mode}: ${ops.toFixed(0)} ops/s (${cpu[mode].at(-1).toFixed(0)} server CPU ms per 1,000 ops, exit ${r.code}, load ${load}${mode === 'on' ? `, ${s.server_record.lines} record lines` : ''})\n`);
      }
    }
    var idleFigures = await idle(server, 10);
  } finally {
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
  const diffs = runs.on.map((on, i) => ((runs.off[i] - on) / runs.off[i]) * 100);
  const ci = medianInterval(diffs);
  const cpuDiffs = cpu.on.map((on, i) => ((on - cpu.off[i]) / cpu.off[i]) * 100);
  const cpuCi = medianInterval(cpuDiffs);
  const out = {
    rounds, duration, clients, cores: os.availableParallelism(),
    ops_per_s_on: median(runs.on), ops_per_s_off: median(runs.off),
    cost_pct: { median: median(diffs), ci95: ci ? [Math.round(ci.low * 10) / 10, Math.round(ci.high * 10) / 10] : null,
      min: Math.min(...diffs), max: Math.max(...diffs) },
    server_cpu_ms_per_1000_ops_on: median(cpu.on), server_cpu_ms_per_1000_ops_off: median(cpu.off),
    server_cpu_cost_pct: { median: median(cpuDiffs),
      ci95: cpuCi ? [Math.round(cpuCi.low * 10) / 10, Math.round(cpuCi.high * 10) / 10] : null },
    idle: idleFigures,
    load_avg_1m_end: os.loadavg()[0],
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((e) => { process.stderr.write(`${e.stack || e}\n`); process.exit(1); });
