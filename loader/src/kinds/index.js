'use strict';
// Workload kinds: one module per kind in this folder (experiments/*.yaml name one as
// workload.type). A kind declares everything the rest of the loader needs to know about it, so
// config, runner, summary, table and report read every kind the same way:
//   name             the workload.type value
//   ops              op names it records (metric label values; summary steps[].ops keys)
//   opsPerIteration  ops in one loop iteration (--rate paces iterations: rate / this)
//   bound            what ends a client step: 'documents' (workload.docs) or 'duration'
//                    (the bound decides the workload flags it takes: BOUND_FLAGS)
//   needsPreload     reads need data: preload.docs must be > 0
//   shape            the result shape it writes: 'steps' (one entry per client step)
//   next(config, col, rng, id, step) -> async (record, intended, now) => bool: one iteration;
//                    false when the client is done (a 'documents' bound).
// Adding a kind is adding one file here: every module in this folder that exports a `name` and
// a `next` is a kind (index.js and helpers such as ops.js are not).
const fs = require('node:fs');

const KINDS = {};
for (const f of fs.readdirSync(__dirname).filter((x) => x.endsWith('.js') && x !== 'index.js').sort()) {
  const k = require(`./${f}`);
  if (typeof k.name === 'string' && typeof k.next === 'function') KINDS[k.name] = k;
}

// Every op any kind records, in a stable order (the recorder keeps one histogram per op).
const OPS = [...new Set(Object.values(KINDS).flatMap((k) => k.ops))];

// The workload flags, by what bounds the kind: a flag of another bound is named as not applying.
const BOUND_FLAGS = {
  documents: { docs: '--docs' },
  duration: { durationMs: '--duration', preloadDocs: '--preload-docs' },
};

const kind = (name) => KINDS[name];

module.exports = { KINDS, OPS, BOUND_FLAGS, kind };
