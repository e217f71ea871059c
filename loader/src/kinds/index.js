'use strict';
// Workload kinds: one module per kind in this folder (experiments/*.yaml name one as
// workload.type). A kind declares everything the rest of the loader needs to know about it, so
// config, runner, summary, table and report read every kind the same way.
//
// Required:
//   name             the workload.type value
//   ops              op names it records (metric label values; summary ops keys)
//   opsPerIteration  ops in one loop iteration (--rate paces iterations: rate / this)
//   bound            what ends a client step: 'documents' (workload.docs), 'duration'
//                    (workload.duration) or 'own' (the kind's next() returns false when its
//                    share is done, e.g. a number of operations or a file's last byte). The bound
//                    decides which of the common workload flags it takes (BOUND_FLAGS).
//   needsPreload     reads need data: preload.docs must be > 0
//   shape            the result list it writes: 'steps' (one entry per client step of a sweep) or
//                    'cases' (one entry per case of a matrix, each with `name` and `parameters`);
//                    both have the same entry shape, and the report reads both alike
//   next(config, col, rng, id, step, env) -> async (record, intended, now) => bool: one
//                    iteration; false when the client is done. step.params is the plan entry's
//                    parameters; step.clientIds the ids of the step's clients, id one of them
//                    (client j of n: j = step.clientIds.indexOf(id), n = step.clientIds.length,
//                    the plan entry's `clients` count); env = { db, client, note(obj) } (note:
//                    facts for the main thread's afterStep, e.g. a GridFS file id, posted at once
//                    so that an interrupted step still has them).
//                    record(op, startMs, endMs, intendedMs, ok, docs, bytes): docs and bytes (0 when
//                    not given) add up per op into docs_per_s and mb_per_s (MB = 10^6 bytes).
// Optional:
//   options          the kind's own settings: { key: { flag: '--ops', file: 'workload.ops', default:
//                    '1000' | required: true, parse(name, text), help, alias } }. config.js takes
//                    each from its flag (or the common flag `alias`, e.g. 'clients'), else the file's
//                    dotted path `file`, else `default` (text as typed; absent: none); all through
//                    parse, so a bad file value names file and key. check prints each with its
//                    source, help its default. Another kind's flag is refused as not applying.
//   configure({ doc, options, settings, config, need, opts }) -> params: the kind's own logic only
//                    (rules across settings, other file keys, config changes such as
//                    workload.clients); options: { key: value }, settings: { key: { value, source,
//                    text } }, need(cond, msg) fails naming the file, opts: the common flags.
//                    Returns summary.json parameters.params (without configure: the options). A
//                    kind with configure checks its own document section; others, and a kind
//                    without makeDoc whose preload runs, use the seed's {x, y} document.
//   plan(config) -> [{ name, clients, params }]: the measured steps in order (default: one per
//                    entry of workload.clients, named clients-N, no params).
//   makeDoc(config, rng, i): the preload's document i (default: the seed's {x: i, y: ...}).
//   beforeStep(ctx, step), afterStep(ctx, step, notes, entry) -> extra fields for the step's
//                    entry: run on the main thread around a step (ctx = { client, db, col,
//                    config, log, description, engine, fail(reason), stopping() }), e.g. set a server
//                    parameter, count what arrived; entry is the step as measured (ops,
//                    docs_per_s, ...). ctx.fail(reason) stops the run as failed (exit 1,
//                    incomplete, reason as its error), e.g. a checksum that does not match.
//                    ctx.stopping(): the run is stopping; a hook still under way changes nothing
//                    more on the server (afterRun may already have run).
//   beforeSetup(ctx), afterRun(ctx): main-thread hooks before the setup's drop and when the run
//                    ends (also on a signal or an error, before the client closes; 10 s, then
//                    a warning and the exit): a server change the setup itself needs, and its
//                    put-back (bulk_import's journal-off case: writeConcernMajorityJournalDefault,
//                    src/kinds/durability/journal-majority.js).
//   stepTotal(config, step) -> { total, unit }: progress for an 'own' bound.
//   hooks(config) -> [{ op, args }]: stack hooks ./run.sh performs for the experiment (ops of
//                    kind hook in faults/docker-ops.tsv, e.g. bulk_import's journal-off case),
//                    printed by `lab-loader check` (src/cli/stack-requests.js)
//   clientWord       what one client is called in the progress line (default 'client'; ycsb's
//                    'thread', as YCSB's own --threads says)
//   refuses          common flags of its bound it does not take, e.g. ycsb: ['--preload-docs']
//                    (its records are --records): refused as not applying, left out of its help
//   fixedClients     what runs instead of a client count, for a kind that takes no --clients
//                    (gridfs: one upload stream, then one download stream): said when it is asked
//                    for clients, and when --loaders N would split them (src/experiment/config.js shareOf)
// Adding a kind is adding one file here: every module in this folder that exports a `name` is a
// kind (index.js and helpers such as ops.js are not), checked against the required parts above as
// it is loaded (src/module-contract.js KIND): one lacking a part stops the loader with one line
// naming the file and the part, exit 2.
const fs = require('node:fs');
const path = require('node:path');
const { KIND, fileProblem, refuseAtLoad } = require('../module-contract');

const KINDS = {};
for (const f of fs.readdirSync(__dirname).filter((x) => x.endsWith('.js') && x !== 'index.js').sort()) {
  const file = path.join(__dirname, f);
  const k = require(file);
  if (k.name === undefined) continue; // a helper
  const problem = fileProblem(file, k, KIND);
  if (problem) refuseAtLoad(problem);
  KINDS[k.name] = k;
}

// Every op any kind records, in a stable order (the recorder keeps one histogram per op).
const OPS = [...new Set(Object.values(KINDS).flatMap((k) => k.ops))];

// The common workload flags, by what bounds the kind: a flag of another bound is named as not
// applying.
const BOUND_FLAGS = {
  documents: { docs: '--docs' },
  duration: { durationMs: '--duration', preloadDocs: '--preload-docs' },
  own: {},
};

const kind = (name) => KINDS[name];

// kindFlags(): every kind's own flag names (--ops, ...), each once.
function kindFlags() {
  return [...new Set(Object.values(KINDS).flatMap((k) => Object.values(k.options || {}).map((o) => o.flag)))].sort();
}

// flagsOf(kind): the flags a kind takes, for messages and NAME --help: its bound's (less those
// it refuses: `refuses`, e.g. ycsb's records are --records, not --preload-docs) and its own.
function flagsOf(k) {
  const refused = new Set(k.refuses || []);
  return [...Object.values(BOUND_FLAGS[k.bound]).filter((f) => !refused.has(f)),
    ...Object.values(k.options || {}).map((o) => o.flag)];
}

// defaultPlan(config): the client sweep, one step per entry of workload.clients.
function defaultPlan(config) {
  return config.workload.clients.map((c) => ({ name: `clients-${c}`, clients: c, params: null }));
}

const planOf = (config) => (kind(config.workload.type).plan || defaultPlan)(config);

module.exports = { KINDS, OPS, BOUND_FLAGS, kind, kindFlags, flagsOf, planOf };
