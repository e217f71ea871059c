'use strict';
// Hand-made runs for the seeds' findings (report/claims.json, src/claims.js): repetitions of one
// engine's experiment with known rates (fixtures.js makeRun), the conditions' fields a run records
// (topology, scale, stability, replication), and the claim's verdict on them.
const fs = require('node:fs');
const path = require('node:path');
const assert = require('node:assert/strict');
const { makeRun } = require('./fixtures');
const { readAll } = require('../../src/read');
const { claimsReport, loadClaims } = require('../../src/claims');

const CLAIMS = loadClaims();
const claim = (id) => CLAIMS.find((c) => c.id === id);
let seq = 0;

// what a run records of the seed's conditions
const RS = { topology: { kind: 'replica_set_member', set_name: 'shard01' } };
const W = (docs) => ({ workload: { type: 'insert', docs, clients: [1] } });
const P = (docs) => ({ preload: { docs, batch: 1000 } });

// reps(root, spec): n repetitions whose rates are spec.points' x spread; spec.step(name, i, entry) adds
// fields to a step entry, spec.extra to the summary, spec.parameters to its parameters, spec.p50
// each point's median latency (x (2 - spread)), spec.reported the storage engine the server reports.
// The data against memory the seed's experiments had, recorded as a stack run records it (profile
// and footprint), unless the test sets its own: 10M documents beyond memory (experiment1), 1M within
// it (experiment2 and 3). Unknown is never met, so a test that wants it unknown says footprint: null.
const SEED_MEMORY = {
  experiment1: { profile: 'seed2013', footprint: { end: { data_bytes: 3e9, index_bytes: 2e8 } } },
  experiment2: { profile: 'seed2013', footprint: { end: { data_bytes: 2e8, index_bytes: 2e7 } } },
  experiment3: { profile: 'seed2013', footprint: { end: { data_bytes: 2e8, index_bytes: 2e7 } } },
};

// startedAt(i): a run's start, when the test gives the order (else every run starts at once: no order)
function reps(root, { experiment, engine, points, spread = [0.99, 1, 1.01], extra = {}, step = null, n = 3,
  parameters = {}, p50 = null, reported, startedAt = null }) {
  for (let i = 0; i < n; i++) {
    const f = spread[i % spread.length];
    const dir = makeRun(root, {
      experiment, engine, stamp: `20261101T00${String(seq++).padStart(4, '0')}Z`, extra: { ...SEED_MEMORY[experiment], ...extra }, parameters,
      ...(startedAt ? { started_at: startedAt(i) } : {}),
      steps: Object.entries(points).map(([name, rate]) => ({ name, clients: /^clients-(\d+)/.exec(name) ? Number(/^clients-(\d+)/.exec(name)[1]) : 1, ops: { insert: { rate: rate * f, ...(p50 ? { p: { p50: p50[name] * (2 - f), p99: 9000, p999: 9000 } } : {}) } } })),
    });
    if (step || reported !== undefined) {
      const file = path.join(dir, 'summary.json');
      const s = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (step) for (const e of s.steps) Object.assign(e, step(e.phase, i, e));
      if (reported !== undefined) s.server.storage_engine = reported === null ? null : { name: reported };
      fs.writeFileSync(file, JSON.stringify(s));
    }
  }
}

// judged(root, id or claim) -> the claim's rows on the runs under root; one: its only row
const judged = (root, c) => claimsReport(readAll([root]).runs, [typeof c === 'string' ? claim(c) : c]);
const one = (root, c) => {
  const rows = judged(root, c);
  assert.equal(rows.length, 1, JSON.stringify(rows, null, 1));
  return rows[0];
};

// dips and steadiness as steps[].stability records them; causes matched by id
const dip = (id, says) => ({ start: '2026-01-01T00:00:03Z', length_s: 1, depth: 0.4, causes: id ? [{ id, says }] : [], cause_text: says });
const stab = (dips, seconds = 60) => ({ stability: { seconds, dip_seconds: dips.length, worst_second_fraction: 0.4,
  dips } });
// a step the loader was the limit of: no measurement of the engine (common/step-exclusion.js)
const LIMITED = { loader: { cpu_cores_mean: 0.5, cores: 2, workers: [], limited: true, reasons: ['worker 0 event loop busy 95% of the time (> 90%)'] } };

// reasonsIf(yes): a step's replication.flagged as the loader writes it (server-record/step-facts.js):
// its reasons, or null when the secondaries stayed.
const reasonsIf = (yes) => (yes ? ['shard01-b left SECONDARY (RECOVERING, seen by the primary) at 2026-01-01T00:00:09Z'] : null);

module.exports = { CLAIMS, claim, RS, W, P, reps, judged, one, dip, stab, LIMITED, reasonsIf };
