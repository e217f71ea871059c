'use strict';
// makeFolders(root, count) -> root holding `count` results folders of default length: experiment2
// as its file runs it (6 steps of 1 to 6 clients, 2 minutes each: 720 per-second timeline lines
// and 720 server.ndjson lines), engines a and b in turn, each run started a minute after the last,
// throughput scattered 2% a run. The summaries are the report tests' (test/support/fixtures.js);
// the two per-second files are written once and hard-linked into every folder (the report reads
// and parses each link as its own file; the disk holds one copy).
const fs = require('node:fs');
const path = require('node:path');
const { makeRun } = require('../test/support/fixtures');
const { Rng } = require('../../common/rng');

const STEPS = 6;
const STEP_S = 120;
const T0 = Date.parse('2026-11-01T00:00:00Z');

function perSecondFiles(dir) {
  const timeline = [];
  const server = [];
  for (let s = 1; s <= STEPS * STEP_S; s++) {
    const step = Math.ceil(s / STEP_S);
    const t = new Date(T0 + s * 1000).toISOString();
    const op = (rate) => ({ ok: rate, err: 0, ops_per_s: rate,
      latency_us: { count: rate, mean: 900, p50: 800, p90: 1500, p99: 2900, p999: 5200, max: 9100 } });
    timeline.push(JSON.stringify({ t, elapsed_s: s, interval_s: 1, partial: false, phase: `clients-${step}`, step, clients: step,
      ops: { update: op(500 + (s % 37)), find: op(520 + (s % 29)) },
        loader: { cpu_cores: 0.4, workers: [{ id: 0, cpu: 0.4, loop_busy: 0.3 }] } }));
    server.push(JSON.stringify({ t, member: 'mongod:27017', role: 'primary', repl: { state: 'PRIMARY', lag_s: 0 },
      wt: { cache_bytes: 5e8 + s * 1e5, cache_dirty_bytes: 2e7, checkpoint_running: s % 60 < 3 ? 1 : 0 },
        opcounters: { insert: 0, query: s * 520, update: s * 500 } }));
  }
  fs.writeFileSync(path.join(dir, 'timeline.ndjson'), `${timeline.join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'server.ndjson'), `${server.join('\n')}\n`);
}

function makeFolders(root, count) {
  const shared = path.join(root, '.per-second');
  fs.mkdirSync(shared, { recursive: true });
  perSecondFiles(shared);
  const rng = new Rng(57, 1);
  const scatter = () => 1 + 0.02 * (2 * rng.float() - 1);
  for (let i = 0; i < count; i++) {
    const engine = i % 2 ? 'b' : 'a';
    const started = new Date(T0 + i * 60000).toISOString();
    const steps = Array.from({ length: STEPS }, (_, k) => ({
      name: `clients-${k + 1}`, clients: k + 1, duration_s: STEP_S, started_at: started,
      ops: { update: { rate: (engine === 'a' ? 500 : 450) * (k + 1) * scatter() }, find: { rate: 520 * (k + 1) * scatter() } },
    }));
    const dir = makeRun(root, {
      experiment: 'experiment2', engine, stamp: `r${String(i).padStart(6, '0')}`, started_at: started, steps,
      extra: { server_record: { members: [{ host: 'mongod:27017', lines: STEPS * STEP_S }] } },
    });
    for (const f of ['timeline.ndjson', 'server.ndjson']) {
      fs.rmSync(path.join(dir, f), { force: true });
      fs.linkSync(path.join(shared, f), path.join(dir, f));
    }
  }
  return root;
}

module.exports = { makeFolders, STEPS, STEP_S };
