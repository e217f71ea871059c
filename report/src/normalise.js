'use strict';
// The one adapter from a results folder's summary.json to the report's result shape. Everything
// after this file reads only this shape, so a new experiment kind (client steps, write-concern
// cases) needs no code here or elsewhere: each kind is a list of measured points.
//
// Normalised run:
//   { dir, experiment, engine, engine_source, group, repetition, host, complete, reason,
//     started_at, labels, profile, identity {server, loader} (src/identity.js), parameters (what
//     makes two runs comparable), description (shown beside the numbers), published (the seed's
//     numbers), points: [{ name, list, order, clients, started_at, duration_s, complete,
//       loader_limited, loader_reasons, failed, shared_host, shared_server, parameters, ops: { <op>: { count,
//       errors, ops_per_s, latency_us {p50, p99, p999, ...}, histogram, docs_per_s, mb_per_s } },
//       ops_per_s, unsupported, documents, relative_to_baseline, latency_meaning, journal }],
//     timeline: [...] }

// Lists of measured points a summary may hold, in the order they are shown: `steps` (a client
// sweep) and `cases` (e.g. a write-concern matrix), one shape (loader/src/kinds/index.js shape).
const POINT_LISTS = ['steps', 'cases'];
// Which points are no measurement, and the facts that say so: the loader's one rule, shared with
// its --repeat group table (a failed step: common/step-failure.js).
const { exclusionFacts } = require('../../common/step-exclusion');
const { serverIdentity, loaderIdentity } = require('./identity');
const { stabilityOf } = require('./stability-of');

// Parameters that describe where or how the loader ran, not the load it applied: runs that differ
// only here are the same experiment (e.g. two client hosts with different --uri).
const NOT_COMPARED = new Set(['name', 'uri', 'workers', 'server_selection_timeout_ms', 'stall_timeout_ms', 'database', 'collection']);

const comparableParameters = (p) => Object.fromEntries(Object.entries(p || {}).filter(([k]) => !NOT_COMPARED.has(k)));

const pointName = (entry, i) => String(entry.name ?? entry.phase ?? `#${entry.index ?? i + 1}`);

function normOps(ops) {
  return Object.fromEntries(Object.entries(ops || {}).map(([op, o]) => [op, {
    count: o.count ?? 0,
    errors: o.errors ?? 0,
    ops_per_s: o.ops_per_s ?? null,
    latency_us: o.latency_us ?? null,
    // HdrHistogram, compressed base64 (report/README.md: the contract); null in older runs.
    histogram: typeof o.histogram === 'string' ? o.histogram : null,
    // What the ops moved, where the kind records it (bulk import: documents, BSON MB = 10^6 bytes).
    docs_per_s: typeof o.docs_per_s === 'number' ? o.docs_per_s : null,
    mb_per_s: typeof o.mb_per_s === 'number' ? o.mb_per_s : null,
  }]));
}

function sumRates(ops) {
  const xs = Object.values(ops).map((o) => o.ops_per_s).filter((x) => typeof x === 'number');
  return xs.length ? xs.reduce((a, b) => a + b, 0) : null;
}

// serverOf(step) -> { write_bytes_per_doc, cpu_ms_per_1000_ops, lag_p99_s, flagged } where the
// run recorded the server, else null; each figure null where the line reports none.
function serverOf(e) {
  if (!e.write_cost && !e.replication) return null;
  const lags = e.replication ? Object.values(e.replication.lag_s || {}).map((l) => l.p99).filter((x) => typeof x === 'number') : [];
  return {
    write_bytes_per_doc: e.write_cost?.bytes_per_doc ?? null,
    write_reason: e.write_cost?.bytes_per_doc == null ? e.write_cost?.reason ?? 'not recorded' : null,
    // What each figure counts on the run's server (common/meanings.js), null where the run did
    // not record it (a run before the table: never compared).
    write_quantity: e.write_cost?.quantity ?? null,
    cpu_ms_per_1000_ops: e.write_cost?.cpu_ms_per_1000_ops?.value ?? null,
    lag_p99_s: lags.length ? Math.max(...lags) : null,
    lag_quantity: e.replication?.lag_quantity ?? null,
    lag_note: e.replication?.lag_note ?? null,
    // The loader's reasons (server-record/step-facts.js: a list, or null when none); anything
    // else is no reason to flag a run and is read as none, never a crash of the whole report.
    flagged: Array.isArray(e.replication?.flagged) && e.replication.flagged.length
      ? e.replication.flagged.map(String) : null,
  };
}

function points(summary) {
  const out = [];
  for (const list of POINT_LISTS) {
    const entries = Array.isArray(summary[list]) ? summary[list] : [];
    entries.forEach((e, i) => {
      const ops = normOps(e.ops);
      out.push({
        name: pointName(e, i),
        list,
        order: out.length,
        clients: e.clients ?? null,
        started_at: e.started_at ?? null,
        duration_s: e.duration_s ?? null,
        // complete, failed, loader_limited, shared_host, shared_server, unsupported, not_applicable,
        // server_ignores, documents: the facts the loader's one exclusion rule reads
        // (common/step-exclusion.js; src/compare.js judges them with it)
        ...exclusionFacts(e, summary.concurrent_runs),
        parameters: e.parameters ?? null, // a case's own settings (e.g. its write concern)
        ops,
        ops_per_s: sumRates(ops),
        relative_to_baseline: e.relative_to_baseline ?? null,
        latency_meaning: e.latency_meaning ?? null,
        journal: typeof e.journal === 'boolean' ? e.journal : null,
        journal_source: e.journal_source ?? null,
        // The server's side of the point (loader/src/server-record/step-facts.js), or null.
        server: serverOf(e),
        // How steady the point was, its dips and their causes (src/stability-of.js), or null.
        stability: stabilityOf(e),
        // The step's replication, read by src/claims.js when present.
        replication: e.replication ?? null,
      });
    });
  }
  return out;
}

function storageEngine(server) {
  if (!server) return 'not recorded';
  return server.storage_engine?.name || `not reported${server.storage_engine_note ? ` (${server.storage_engine_note})` : ''}`;
}

function topology(t) {
  if (!t) return 'not recorded';
  const parts = [t.kind];
  if (t.set_name) parts.push(`set ${t.set_name}`);
  if (Array.isArray(t.shards)) parts.push(`${t.shards.length} shard(s)`);
  return parts.join(', ');
}

// summary.json placement (the loader's CPUs against the members'): a run where they shared CPUs is
// marked, since the loader then took cycles from the engine under test. Nothing for older runs.
function placementMark(p) {
  if (!p) return '';
  return p.shared ? `, LOADER SHARED CPUs WITH THE MEMBERS (${p.member_cpus})` : `, loader on CPUs ${p.loader_cpus} apart from the members' ${p.member_cpus}`;
}

// Does j:true mean a journal write on this run's server (durability cases record it)?
function journalOf(s) {
  const p = POINT_LISTS.flatMap((list) => (Array.isArray(s[list]) ? s[list] : [])).find((e) => 'journal' in e);
  if (!p) return 'not recorded';
  if (p.journal === null) return `not known (${p.journal_source ?? 'not reported'})`;
  return p.journal ? 'yes' : `NO JOURNAL (${p.journal_source ?? 'recorded'})`;
}

// What the run says about itself, shown beside its numbers; absent fields say "not recorded"
// instead of being guessed.
function description(s) {
  const l = s.loader || {};
  const images = Object.entries(s.images || {}).map(([k, v]) => `${k}=${v}`);
  return {
    server_version: s.server?.version ?? 'not recorded',
    storage_engine: storageEngine(s.server),
    images: images.length ? images.join(', ') : 'none recorded (--uri run)',
    profile: s.profile ?? s.parameters?.profile ?? 'not recorded',
    topology: topology(s.topology),
    loader: (l.version ? `lab-loader ${l.version}, ${l.node ?? '?'}, ${l.driver ?? '?'}` : 'not recorded') + placementMark(s.placement),
    host: l.hostname ?? 'not recorded',
    host_cpus: l.host_cores ?? l.cpus ?? 'not recorded',
    cpu_model: l.cpu_model ?? 'not recorded',
    journal: journalOf(s),
  };
}

// timeline.ndjson lines -> [{elapsed_s, phase, partial, ops: {op: {ops_per_s, p99_us}}}]
function timeline(lines) {
  return lines.map((l) => {
    // A damaged line's op that is no object (null) is no reading, never a crash of the report.
    const ops = Object.fromEntries(Object.entries(l.ops || {}).map(([op, o]) => [op, { ops_per_s: o?.ops_per_s ?? null,
      p99_us: o?.latency_us?.p99 ?? null }]));
    return { elapsed_s: l.elapsed_s, phase: l.phase ?? null, partial: Boolean(l.partial), ops };
  });
}

// normalise(summary, timelineLines, dir): schema_version 1 summary -> normalised run.
function normalise(s, timelineLines, dir) {
  const d = description(s);
  return {
    dir,
    experiment: s.experiment,
    engine: s.tool && s.tool.name !== 'lab-loader' ? `${s.engine} (${s.tool.name} ${s.tool.version})` : s.engine, // YCSB runs: their own series beside the loader's
    engine_source: s.engine_source ?? null, // none: the server reported no storage engine
    labels: s.labels && typeof s.labels === 'object' && !Array.isArray(s.labels) ? s.labels : {},
    profile: s.profile ?? s.parameters?.profile ?? null,
    identity: { server: serverIdentity(s), loader: loaderIdentity(s) },
    // Runs without a group (written before --repeat existed) are each their own group of one.
    group: s.group ?? null,
    repetition: Number.isInteger(s.repetition) ? s.repetition : 1,
    // ./run.sh compare's {id, side, position} (src/drift.js reads the order from it); null without
    comparison: s.comparison && typeof s.comparison === 'object' ? s.comparison : null,
    host: d.host,
    complete: s.complete === true,
    reason: s.reason ?? null,
    started_at: s.started_at ?? null,
    // the server process measured, and whether it restarted during the run (src/restarts.js)
    process_start: s.server?.process_start ?? null,
    restarted_during_run: s.server?.restarted_during_run ?? null,
    restart_note: s.server?.restart_note ?? null,
    parameters: comparableParameters(s.parameters),
    description: d,
    published: s.published ?? null,
    points: points(s),
    capacity: s.capacity ?? null, // --sla runs: the capacity search (src/capacity.js)
    footprint: s.footprint ?? null, // the collection's size after the load and at the end
    // ./run.sh on Compose: the shard members' block writes over the loader's invocation (their cgroups)
    block_writes: s.block_writes ?? null,
    // What the server and the stack record beyond the loader's timing (the footprint, the
    // storage facts), read by src/claims.js when present.
    record: { footprint: s.footprint ?? null, storage: s.storage ?? null },
    timeline: timeline(timelineLines),
  };
}

module.exports = { normalise, timeline, sumRates, POINT_LISTS, NOT_COMPARED };
