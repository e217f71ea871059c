'use strict';
// The pause rule's margin (src/run/pauses.js OP_TIMES): a silence is a pause only when it is over
// OP_TIMES x the median of the step's per-second p99. How far below that does a healthy step's
// longest silence sit? Runs the real loader CLI (experiment2, unpaced, a few steady steps of the
// same client count) against mongo-java-server on this host, RUNS times, with
// bench/pause-margin-observe.js preloaded to see what each step's pause watch sees, and prints per
// step the largest gap between completions, the step's median per-second p99 and their ratio;
// then the ratio's min / median / max over every step of every run, against OP_TIMES, and the gap
// against the rule's whole bar (also at least the pause threshold, 1 s unpaced). Asserts nothing:
// the margin is a number printed, for the comment beside OP_TIMES.
// Usage: node bench/pause-margin.js [RUNS=5] [STEPS=3] [DURATION=5s] [CLIENTS=2]
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startServer } = require('../test/support/server');
const { runLoader, tmpResults } = require('../test/support/loader');
const { OP_TIMES } = require('../src/run/pauses');
const common = require('../../common/stats');

const USAGE = 'usage: node bench/pause-margin.js [RUNS=5] [STEPS=3] [DURATION=5s] [CLIENTS=2]';
const [runsArg = '5', stepsArg = '3', duration = '5s', clientsArg = '2'] = process.argv.slice(2);
const RUNS = Number(runsArg);
const STEPS = Number(stepsArg);
const CLIENTS = Number(clientsArg);
if (![RUNS, STEPS, CLIENTS].every((n) => Number.isInteger(n) && n > 0) || !/^\d+(\.\d+)?(ms|s|m)$/.test(duration)) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

const OBSERVE = path.join(__dirname, 'pause-margin-observe.js');
const r1 = (x) => Math.round(x * 10) / 10;
const fmt = (xs) => `min ${r1(Math.min(...xs))}  median ${r1(common.median(xs))}  max ${r1(Math.max(...xs))}`;

async function main() {
  const server = await startServer();
  const results = tmpResults();
  const rows = [];
  try {
    for (let run = 1; run <= RUNS; run++) {
      const out = path.join(os.tmpdir(), `pause-margin-${process.pid}-${run}.json`);
      const args = ['experiment2', '--uri', server.uri, '--results-dir', results, '--metrics-port', '0', '--preload-docs', '300',
        '--clients', Array(STEPS).fill(CLIENTS).join(','), '--duration', duration, '--warmup', '1s', '--engine', 'pause-margin'];
      const env = { PAUSE_MARGIN_OUT: out, NODE_OPTIONS: `${process.env.NODE_OPTIONS || ''} --require ${OBSERVE}`.trim() };
      const r = await runLoader(args, { env });
      if (r.code !== 0 || !fs.existsSync(out)) throw new Error(`run ${run}: the loader exited ${r.code}:\n${r.stderr.slice(-2000)}`);
      const steps = JSON.parse(fs.readFileSync(out, 'utf8'));
      fs.rmSync(out, { force: true });
      steps.forEach((s, i) => {
        const ratio = s.op_p99_ms > 0 ? s.max_gap_ms / s.op_p99_ms : null;
        rows.push({ run, step: i + 1, ...s, ratio });
        console.log(`run ${run} step ${i + 1}: largest gap ${Math.round(s.max_gap_ms)} ms (${s.gap_at_s === null ? '-' : s.gap_at_s.toFixed(2)} s in), median p99 ${r1(s.op_p99_ms)} ms, ratio ${ratio === null ? '-' : r1(ratio)}`);
      });
    }
  } finally {
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
  const ratios = rows.map((x) => x.ratio).filter((x) => x !== null);
  // The rule's whole bar: a silence must also last the threshold (1 s here) to be a pause at all.
  const bar = rows.filter((x) => x.op_p99_ms > 0)
    .map((x) => x.max_gap_ms / Math.max(x.threshold_ms, OP_TIMES * x.op_p99_ms));
  console.log(`\n${RUNS} runs x ${STEPS} steps of ${duration}, ${CLIENTS} clients, ${os.cpus().length} CPUs, load ${os.loadavg().map(r1).join(' ')}`);
  console.log(`largest gap / median per-second p99: ${fmt(ratios)}  (a pause needs > ${OP_TIMES})`);
  console.log(`largest gap / max(threshold, ${OP_TIMES} x p99), the rule's whole bar: ${fmt(bar.map((x) => x * 100))} %`);
  console.log(`largest gap, ms: ${fmt(rows.map((x) => x.max_gap_ms))};  median p99, ms: ${fmt(rows.map((x) => x.op_p99_ms).filter((x) => x > 0))}`);
}

main().catch((e) => { process.stderr.write(`pause-margin: ${e.message}\n`); process.exit(1); });
