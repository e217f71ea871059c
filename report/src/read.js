'use strict';
// Finding and reading results folders. A folder is a run when it holds summary.json; `latest`
// links and the report's own folder are not walked (they would count runs twice).
const fs = require('node:fs');
const path = require('node:path');
const { normalise } = require('./normalise');
const { serverSeries } = require('./server-side');
const { checkSummary, BadRun } = require('./check');
const { recordGap } = require('./record-gap');

const SUPPORTED_SCHEMA = [1];
const MAX_DEPTH = 5; // results/<experiment>/<engine>/<stamp>/summary.json is depth 3

class InputError extends Error {}

function findRunDirs(root, depth = 0, out = []) {
  let entries;
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch (e) {
    throw new InputError(`cannot read results folder ${root}: ${e.code || e.message}`);
  }
  if (entries.some((e) => e.isFile() && e.name === 'summary.json')) {
    out.push(root);
    return out;
  }
  if (depth >= MAX_DEPTH) return out;
  for (const e of entries) {
    // isDirectory() is false for symlinks (latest): each run is found once, by its own name.
    if (!e.isDirectory() || e.name === 'report' || e.name.startsWith('.')) continue; // common/reserved-names.js
    findRunDirs(path.join(root, e.name), depth + 1, out);
  }
  return out;
}

function readTimeline(dir, name = 'timeline.ndjson') {
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) return [];
  const parsed = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => {
    try {
      return JSON.parse(l);
    } catch {
      return null; // a loader killed mid-write leaves a torn last line; the seconds before it still count
    }
  });
  // A line that is not an object ('null' from a disk that filled) is no second: left out.
  return parsed.filter(isObject);
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
// What JSON.parse gave, in words: "null", "an array", "a number".
const kindOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);

// readRun(dir) -> { kind: 'experiment', run } | { kind: 'fault', fault } | { kind: 'skipped', dir, why }
function readRun(dir) {
  let s;
  try {
    s = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
  } catch (e) {
    if (e instanceof SyntaxError) return { kind: 'skipped', dir, why: `summary.json is not whole JSON (${e.message.split('\n')[0]}): cut off while written?` };
    return { kind: 'skipped', dir, why: `summary.json unreadable (${e.code || e.message.split('\n')[0]})` };
  }
  // One folder's odd summary (null, a list, a number) is that folder's problem: it is skipped with
  // this line and the other runs are still reported.
  if (!isObject(s)) return { kind: 'skipped', dir, why: `summary.json holds ${kindOf(s)}, not a run's summary object` };
  if (!SUPPORTED_SCHEMA.includes(s.schema_version)) {
    return { kind: 'skipped', dir, why: `schema_version ${JSON.stringify(s.schema_version ?? null)} is not one this report reads (${SUPPORTED_SCHEMA.join(', ')})` };
  }
  if (typeof s.scenario === 'string') return { kind: 'fault', fault: { dir, ...s } };
  try {
    checkSummary(s);
  } catch (e) {
    if (e instanceof BadRun) return { kind: 'skipped', dir, why: `summary.json: ${e.message}` };
    throw e;
  }
  const run = normalise(s, readTimeline(dir), dir);
  // server.ndjson (the loader's server record): each run's series for its appendix, and
  const server = readTimeline(dir, 'server.ndjson');
  run.server_series = serverSeries(server);
  // what of it is missing against summary.json's count (src/record-gap.js); null when whole
  run.server_record_gap = recordGap(s.server_record, server);
  return { kind: 'experiment', run };
}

// readAll(roots, {experiments, engines, since}) -> { runs, faults, skipped }
function readAll(roots, filter = {}) {
  const dirs = [];
  for (const r of roots) {
    if (!fs.existsSync(r)) throw new InputError(`results folder not found: ${r}`);
    findRunDirs(path.resolve(r), 0, dirs);
  }
  const out = { runs: [], faults: [], skipped: [] };
  for (const dir of [...new Set(dirs)].sort()) {
    const r = readRun(dir);
    const engine = r.kind === 'experiment' ? r.run.engine : r.kind === 'fault' ? r.fault.engine : null;
    const started = r.kind === 'experiment' ? r.run.started_at : r.kind === 'fault' ? r.fault.finished : null;
    if (filter.engines?.length && engine !== null && !filter.engines.includes(engine)) continue;
    if (filter.since && started && Date.parse(started) < filter.since.getTime()) continue;
    if (r.kind === 'experiment') {
      if (filter.experiments?.length && !filter.experiments.includes(r.run.experiment)) continue;
      out.runs.push(r.run);
    } else if (r.kind === 'fault') {
      out.faults.push(r.fault);
    } else {
      out.skipped.push({ dir: r.dir, why: r.why });
    }
  }
  return out;
}

module.exports = { readAll, InputError };
