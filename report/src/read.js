'use strict';
// Finding and reading results folders. A folder is a run when it holds summary.json; `latest`
// links and the report's own folder are not walked (they would count runs twice).
const fs = require('node:fs');
const path = require('node:path');
const { normalise, timeline: timelineOf } = require('./normalise');
const { LazySeries } = require('./lazy-series');
const { serverSeries } = require('./server-side');
const { checkSummary, BadRun } = require('./check');
const { recordGap } = require('./record-gap');
const { RESERVED_NAMES } = require('../../common/names');

const SUPPORTED_SCHEMA = [1];
const MAX_DEPTH = 5; // results/<experiment>/<engine>/<stamp>/summary.json is depth 3

class InputError extends Error {}

// findRunDirs(root, depth, out, skipped, seen): the run folders under root into out. A folder
// below root that cannot be read (another user's, mode 700) is that folder's problem: one line in
// skipped, the others still read (it took the whole report down, exit 2). A symbolic link to a
// folder (a run or a side kept on another disk) is followed like a folder; `latest` (the link to
// the newest run, found again by its own name) is not, and a folder reached twice (two links, a
// loop) is read once (seen: real paths).
function findRunDirs(root, depth = 0, out = [], skipped = [], seen = new Set()) {
  let entries;
  try {
    const real = fs.realpathSync(root);
    if (seen.has(real)) return out;
    seen.add(real);
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch (e) {
    if (depth === 0) throw new InputError(`cannot read results folder ${root}: ${e.code || e.message}`);
    skipped.push({ dir: root, why: `the folder cannot be read (${e.code || e.message.split('\n')[0]})` });
    return out;
  }
  if (entries.some((e) => (e.isFile() || e.isSymbolicLink()) && e.name === 'summary.json')) {
    out.push(root);
    return out;
  }
  if (depth >= MAX_DEPTH) return out;
  for (const e of entries) {
    if (RESERVED_NAMES.includes(e.name) || e.name.startsWith('.')) continue; // the lab's own, or hidden
    if (e.isSymbolicLink()) {
      let target = null;
      try { target = fs.statSync(path.join(root, e.name)); } catch { /* a link to nothing: no run */ }
      if (!target || !target.isDirectory()) continue;
    } else if (!e.isDirectory()) continue;
    findRunDirs(path.join(root, e.name), depth + 1, out, skipped, seen);
  }
  return out;
}

// readTimeline(dir, name): its objects, one a line; a file that cannot be read throws Unreadable
// (readRun skips the run with one line: a stack trace was all an unreadable timeline gave).
class Unreadable extends Error {}
const readTimeline = (dir, name = 'timeline.ndjson') => linesOf(dir, name).map(parsed).filter(isObject);

// hasSecond(dir, name) -> whether the file holds a second (readTimeline's first), the rest unparsed
const hasSecond = (dir, name) => linesOf(dir, name).some((l) => isObject(parsed(l)));

function linesOf(dir, name) {
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) return [];
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new Unreadable(`${name} cannot be read (${e.code || e.message.split('\n')[0]})`);
  }
  return text.split('\n').filter((l) => l.trim());
}

// A line that is not an object ('null' from a disk that filled) is no second: left out.
function parsed(line) {
  try {
    return JSON.parse(line);
  } catch {
    return null; // a loader killed mid-write leaves a torn last line; the seconds before it still count
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
// What JSON.parse gave, in words: "null", "an array", "a number".
const kindOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);

// readRun(dir) -> { kind: 'experiment', run } | { kind: 'fault', fault } | { kind: 'skipped', dir, why }
function readRun(dir) {
  let s;
  try {
    // A byte-order mark (an editor's UTF-8 save) is no part of the JSON: it read as "cut off".
    s = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8').replace(/^\uFEFF/, ''));
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
  // The per-second series are read here only to know that they can be read and hold a second
  // (and what of the server record is missing against summary.json's count: src/record-gap.js),
  // then dropped: they are read again when written (src/lazy-series.js), never all held at once.
  let hasTimeline;
  let hasServer;
  let gap = null;
  try {
    hasTimeline = hasSecond(dir, 'timeline.ndjson');
    // server.ndjson (the loader's server record): each run's series for its appendix
    if (s.server_record) {
      const server = readTimeline(dir, 'server.ndjson');
      hasServer = server.length > 0;
      gap = recordGap(s.server_record, server);
    } else hasServer = hasSecond(dir, 'server.ndjson');
  } catch (e) {
    if (e instanceof Unreadable) return { kind: 'skipped', dir, why: e.message };
    throw e;
  }
  // A field the schema leaves open (a step's stability, replication) in a shape no loader writes:
  // that folder's problem, said with the error, as a summary that fails its check is.
  let run;
  try {
    run = normalise(s, [], dir);
  } catch (e) {
    if (e instanceof TypeError) return { kind: 'skipped', dir, why: `summary.json: a field in a shape this report cannot read (${e.message})` };
    throw e;
  }
  run.timeline = hasTimeline ? new LazySeries(() => timelineOf(readTimeline(dir))) : [];
  run.server_series = hasServer ? new LazySeries(() => serverSeries(readTimeline(dir, 'server.ndjson'))) : null;
  run.server_record_gap = gap; // null when whole
  return { kind: 'experiment', run };
}

// readAll(roots, {experiments, engines, since}) -> { runs, faults, skipped }
function readAll(roots, filter = {}) {
  const dirs = [];
  const out = { runs: [], faults: [], skipped: [] };
  const seen = new Set();
  for (const r of roots) {
    if (!fs.existsSync(r)) throw new InputError(`results folder not found: ${r}`);
    // a run's summary.json named instead of its folder (ENOTDIR): the folder is meant
    const root = path.basename(r) === 'summary.json' && fs.statSync(r).isFile() ? path.dirname(r) : r;
    findRunDirs(path.resolve(root), 0, dirs, out.skipped, seen);
  }
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
