'use strict';
// Which measured steps (or cases) are no measurement of the engine, and why: the one rule for the
// loader's --repeat group table (src/results/table.js groupTable: its medians leave them out) and the
// report (report/src/normalise.js takes each point's facts from exclusionFacts, and
// report/src/compare.js judges them with stepExclusion, for its medians and verdicts), so the two
// print one median for the same repetitions. Each is shown, marked and counted, and
// never enters a verdict.
const { stepFailure, notRun } = require('./step-failure');
const { hostSlowed } = require('./host-slowed');

// In the order they are judged.
const EXCLUSIONS = {
  incomplete: 'the run did not complete',
  not_applicable: 'the case does not apply to the topology (not run)',
  unsupported: 'the server could not do it',
  server_ignores: 'the server ignores what the case asks: cannot be tested on this server (its product documents it: loader/src/server/products.js)',
  failed: 'errors above the threshold',
  too_short: 'too short to measure (under one second, or fewer operations than a median second needs: src/results/too-short.js)',
  lost_documents: 'not every document sent arrived',
  paused: 'the server paused inside the step (nothing completed far beyond its own operation times: src/run/pauses.js)',
  loader_limited: 'the loader was the limit',
  shared_host: 'other load on the loader\'s host made the loader late by a material share of what it measured',
  shared_server: 'another loader ran against the same server and collection',
};

// sharedServer(runs, step) -> the other loaders whose run overlapped this step, as one line
// each, or null. runs: summary.json concurrent_runs (src/run/run-registry.js). A run without
// started_at, or a step without times, is taken to overlap.
function sharedServer(runs, step) {
  if (!Array.isArray(runs) || !runs.length) return null;
  const from = Date.parse(step.started_at);
  const to = from + (Number(step.duration_s) || 0) * 1000;
  const hit = runs.filter((o) => {
    const at = Date.parse(o.started_at);
    return !(Number.isFinite(at) && Number.isFinite(from) && o.noticed !== 'at this run\'s start' && at > to);
  });
  return hit.length ? hit.map((o) => `loader pid ${o.pid}${o.host ? ` on ${o.host}` : ''}, started ${o.started_at}${o.results ? `, results ${o.results}` : ''}`) : null;
}

// exclusionFacts(entry, concurrentRuns) -> what the rule reads of a summary.json steps[]/cases[]
// entry (the report keeps them on each point).
function exclusionFacts(e, concurrentRuns) {
  return {
    complete: e.complete !== false,
    loader_limited: Boolean(e.loader && e.loader.limited),
    loader_reasons: (e.loader && e.loader.reasons) || [],
    // Errors above the loader's threshold (src/step-failure.js): the loader's own mark where it
    // wrote one, else the same rule applied here (older summaries). A case the server could not do
    // is `unsupported`, not failed.
    failed: notRun(e) ? null : (e.failed && typeof e.failed === 'object' ? e.failed : stepFailure(e)),
    // Other load on the loader's host that changed what the step measured (common/host-slowed.js:
    // the loader's own delay against the latencies it recorded), not other load alone.
    shared_host: hostSlowed(e),
    // Another loader ran against the same server and collection during this step: both measured
    // the pair, not the engine.
    shared_server: sharedServer(concurrentRuns, e),
    // A case the server could not do; one the loader did not run because the topology cannot
    // satisfy it (writeconcern's w:2 on a standalone); one whose write concern the server's
    // product documents as ignored (FerretDB: w, j; src/server/products.js).
    unsupported: typeof e.unsupported === 'string' ? e.unsupported : null,
    not_applicable: typeof e.not_applicable === 'string' ? e.not_applicable : null,
    server_ignores: typeof e.server_ignores === 'string' ? e.server_ignores : null,
    documents: e.documents && typeof e.documents === 'object' ? e.documents : null,
    // Too few operations or too short a time to measure (src/results/too-short.js).
    too_short: typeof e.too_short === 'string' ? e.too_short : null,
    // Silences the loader judged pauses of the server (steps[].pauses, src/run/pauses.js).
    paused: Array.isArray(e.pauses) && e.pauses.length ? e.pauses : null,
  };
}

// stepExclusion(facts) -> a key of EXCLUSIONS, or null: the step is a measurement. Each key is
// judged by the fact of the same name, except incomplete and lost_documents.
function stepExclusion(p) {
  const d = p.documents;
  const judged = {
    incomplete: !p.complete,
    lost_documents: d && typeof d.sent === 'number' && typeof d.arrived === 'number' && d.arrived < d.sent,
  };
  return Object.keys(EXCLUSIONS).find((k) => (k in judged ? judged[k] : p[k])) ?? null;
}

// stepNamed(run, name) -> the run's step of that name, or null; keptStep(run, name) -> that step
// when it is a measurement (no exclusion), else null: the one lookup every per-step figure makes.
const stepNamed = (run, name) => run.points.find((p) => p.name === name) ?? null;
function keptStep(run, name) {
  const p = stepNamed(run, name);
  return p && stepExclusion(p) === null ? p : null;
}

module.exports = { EXCLUSIONS, exclusionFacts, stepExclusion, stepNamed, keptStep };
