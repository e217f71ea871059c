'use strict';
// Experiment files (experiments/*.yaml) -> one checked, effective configuration: the file's
// values with the command line's overrides applied. The effective configuration is what
// summary.json records as "parameters", so a run can be repeated from its results alone.
const fs = require('node:fs');
const path = require('node:path');
// js-yaml, not the yaml package: every loader start (each ./run.sh, each check) parses one file,
// and yaml cost 73 ms of CPU to load and parse one, js-yaml 28 (2026-12-01, 2-core machine). The
// YAML 1.2 core schema, as yaml's default: no timestamps or merge keys, `yes` stays a string.
const YAML = require('js-yaml');
const { UsageError, CLIENTS, parseWarmup, parseDuration } = require('../text/usage');
const { KINDS, BOUND_FLAGS, kind: kindOf, flagsOf } = require('../kinds');
const { isName, NAME_WORDS } = require('../../../common/names');

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const EXPERIMENTS_DIR = path.join(REPO_ROOT, 'experiments');

// experimentPath('experiment2', dir) -> dir/experiment2.yaml; a .yaml path is taken as it is.
// Any file in the experiments folder is an experiment: there is no list of names in code.
function experimentPath(nameOrFile, dir = EXPERIMENTS_DIR) {
  return /\.ya?ml$/.test(nameOrFile) ? path.resolve(nameOrFile) : path.join(path.resolve(dir), `${nameOrFile}.yaml`);
}

// The keys an experiment file may have (a kind's own settings live under workload:). smoke: is
// for ./run.sh smoke (`check` prints it: src/cli/stack-requests.js), warmup: for the runner.
const FILE_KEYS = ['name', 'database', 'collection', 'write_concern', 'read_preference', 'read_concern', 'seed',
  'setup', 'document', 'preload', 'workload', 'repeat', 'warmup', 'published', 'smoke'];

function fail(file, msg) {
  throw new UsageError(`${file}: ${msg}`);
}

// readFile(opts) -> { file, text, doc }: the experiment file, read and parsed as YAML.
function readFile(opts) {
  const file = experimentPath(opts.experiment, opts.experimentsDir);
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if (e.code === 'ENOENT' && !/\.ya?ml$/.test(opts.experiment)) {
      throw new UsageError(`unknown experiment '${opts.experiment}': no ${file} (experiments: ${list(path.dirname(file)).join(' ') || 'none'}, or a .yaml file)`);
    }
    throw new UsageError(`cannot read experiment file ${file}: ${e.code || e.message}`);
  }
  let doc;
  try {
    doc = YAML.load(text, { schema: YAML.CORE_SCHEMA });
  } catch (e) {
    // e.message quotes the file's lines under the error: the reason and its place, on one line
    const at = e.mark ? ` (line ${e.mark.line + 1}, column ${e.mark.column + 1})` : '';
    fail(file, `not valid YAML: ${e.reason ?? e.message}${at}`);
  }
  if (!doc || typeof doc !== 'object') fail(file, 'empty or not a mapping');
  return { file, text, doc };
}

// load(opts) -> { file, text, config }. Throws UsageError on a missing or malformed file.
function load(opts) {
  const { file, text, doc } = readFile(opts);
  const w = doc.workload || {};
  const pre = doc.preload || {};
  const d = doc.document || {};
  const need = (cond, msg) => { if (!cond) fail(file, msg); };
  // name: the results folder's, in the lab's one name grammar (common/names.js)
  need(isName(doc.name), `name: ${NAME_WORDS} only, starting with a letter or digit`);
  // An unknown key (a typo, a setting of another version) would be ignored without a word.
  const unknown = Object.keys(doc).filter((k) => !FILE_KEYS.includes(k));
  need(!unknown.length, `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')} (known: ${FILE_KEYS.join(', ')})`);
  // Results are filed under name:, the command line names the file: the two must agree.
  const base = path.basename(file).replace(/\.ya?ml$/, '');
  need(doc.name === base, `name: '${doc.name}' differs from the file's name '${base}' (results are filed under name:, so ./run.sh ${base} would fill results/${doc.name}/): make them the same`);
  need(typeof doc.database === 'string' && doc.database !== '', 'database: required');
  need(typeof doc.collection === 'string' && doc.collection !== '', 'collection: required');
  need(Object.hasOwn(KINDS, w.type), `workload.type: one of ${Object.keys(KINDS).join(', ')}`);
  const kind = kindOf(w.type);
  // The seed's {x, y} document (kinds/ops.js makeDoc): what a kind without configure writes, and
  // what the preload writes for a kind without a makeDoc of its own. A kind with configure and
  // no preload reads its own document section. (Deciding on configure alone let a new kind that
  // reads its own settings pass check and crash in its first preload.)
  const seedDoc = !kind.configure || (!kind.makeDoc && (opts.preloadDocs ?? pre.docs ?? 0) > 0);
  if (seedDoc) {
    need(Number.isInteger(d.y_length) && d.y_length >= 0, 'document.y_length: whole number');
    need(typeof d.alphabet === 'string' && d.alphabet.length > 0, 'document.alphabet: required');
  }
  need(doc.warmup === undefined || parseFileWarmup(doc.warmup) !== null, `warmup: '${doc.warmup}' is not a duration (e.g. 10s, 500ms; 0 = none)`);
  need(doc.repeat === undefined || (Number.isInteger(doc.repeat) && doc.repeat >= 1 && doc.repeat <= 1000), 'repeat: whole number 1..1000 (the default of --repeat)');

  const config = {
    name: doc.name,
    database: doc.database,
    collection: doc.collection,
    writeConcern: doc.write_concern || { w: 1 },
    readPreference: doc.read_preference || 'primary',
    readConcern: doc.read_concern || 'local',
    seed: opts.seed ?? doc.seed ?? 0,
    setup: { drop: doc.setup?.drop !== false, indexes: doc.setup?.indexes || [] },
    document: seedDoc ? { yLength: d.y_length, alphabet: d.alphabet } : null,
    preload: {
      docs: opts.preloadDocs ?? pre.docs ?? 0,
      batch: pre.batch ?? 1000,
    },
    workload: {
      type: w.type,
      docs: kind.bound === 'documents' ? (opts.docs ?? w.docs) : undefined,
      clients: opts.clients ?? w.clients ?? [1],
      durationMs: kind.bound === 'duration' ? (opts.durationMs ?? parseFileDuration(file, w.duration)) : undefined,
    },
    rate: opts.rate ?? null,
    // --sla: a capacity search over offered rates at one client count (src/experiment/sla.js, step-plan.js).
    sla: opts.sla ?? null,
    warmupMs: null, // below, once the kind's configure has bounded its steps
    published: doc.published ?? null, // the seed's numbers, carried into summary.json for reports
    repeat: doc.repeat ?? 1, // the default of --repeat
    params: null, // the kind's own parameters (configure)
  };
  // A workload flag of another bound or another kind (or one the kind refuses) does not apply to
  // this kind: say which flags it takes instead.
  const takes = flagsOf(kind);
  const notHere = (flag) => new UsageError(`${flag} does not apply to ${config.name} (its ${kind.name} workload takes ${takes.join(', ') || 'no workload flags'})`);
  for (const [key, flag] of Object.values(BOUND_FLAGS).flatMap(Object.entries)) {
    if (opts[key] !== undefined && !takes.includes(flag)) throw notHere(flag);
  }
  const settings = kindSettings(kind, doc, opts, file, notHere);
  const options = Object.fromEntries(Object.entries(settings).map(([key, s]) => [key, s.value]));
  const configured = kind.configure ? kind.configure({ doc, options, settings, config, need, opts }) : undefined;
  config.params = kind.configure ? configured ?? null : (kind.options ? options : null);
  // Each step's warm-up (ms): run and shown, not measured (runner.js). --warmup; else none for a
  // duration-bound kind whose steps the flags bound by their work instead (ycsb's --operations:
  // measured whole, as YCSB's operationcount is; the file's warmup: is for its duration-bound
  // steps); else the file's warmup:, else DEFAULT_WARMUP_MS by what bounds the kind's steps.
  const countBound = kind.bound === 'duration' && !config.workload.durationMs;
  config.warmupMs = opts.warmupMs ?? (countBound ? DEFAULT_WARMUP_MS.own
    : doc.warmup !== undefined ? parseFileWarmup(doc.warmup) : DEFAULT_WARMUP_MS[kind.bound]);
  if (config.sla) slaClients(config, kind, opts);
  if (kind.bound === 'documents') need(Number.isInteger(config.workload.docs) && config.workload.docs > 0, 'workload.docs: whole number > 0 (or --docs)');
  if (kind.needsPreload) need(Number.isInteger(config.preload.docs) && config.preload.docs > 0, 'preload.docs: whole number > 0 (reads need data)');
  if (opts.shareOf > 1) config.workload.clients = shareOf(config.workload.clients, opts.shareOf, kind,
    clientsFrom(opts));
  need(Array.isArray(config.workload.clients) && config.workload.clients.length > 0 &&
    config.workload.clients.every((c) => Number.isInteger(c) && c >= CLIENTS.min && c <= CLIENTS.max), `workload.clients: list of whole numbers ${CLIENTS.min}..${CLIENTS.max}`);
  // smoke: the flags ./run.sh smoke runs the experiment with, at a tiny scale (check prints them).
  need(doc.smoke === undefined || typeof doc.smoke === 'string', 'smoke: the flags of a tiny run, as one string (e.g. "--docs 2000")');
  return { file, text, config, settings, smoke: doc.smoke ?? null };
}

// kindSettings -> { key: { flag, value, source, text } }: each option the kind declares
// (kinds/index.js) from its flag (or the common flag it aliases), else the file's key, else its
// default; a file value and a default go through the flag's own parser.
function kindSettings(kind, doc, opts, file, notHere) {
  const declared = Object.entries(kind.options || {});
  for (const flag of Object.keys(opts.kindArgs || {})) {
    if (!declared.some(([, o]) => o.flag === flag)) throw notHere(flag);
  }
  return Object.fromEntries(declared.map(([key, o]) => {
    const flagged = opts.kindArgs?.[o.flag];
    const alias = o.alias && opts[o.alias] !== undefined ? String(opts[o.alias]) : undefined;
    if (flagged !== undefined && alias !== undefined) throw new UsageError(`${o.flag} and --${o.alias} are the same setting: give one`);
    const inFile = o.file && o.file.split('.').reduce((v, k) => v?.[k], doc);
    const [source, text] = flagged !== undefined ? ['flag', flagged] : alias !== undefined ? ['flag', alias]
      : inFile !== undefined && inFile !== null ? ['file', [].concat(inFile).join(',')] : ['default', o.default ?? null];
    if (text === null && o.required) fail(file, `${o.file}: required (or ${o.flag})`);
    let value = null;
    try {
      if (text !== null) value = o.parse(source === 'file' ? o.file : o.flag, text);
    } catch (e) {
      if (source === 'file' && e instanceof UsageError) fail(file, e.message);
      throw e;
    }
    return [key, { flag: o.flag, value, source, text: text ?? 'none' }];
  }));
}

// shareOf(steps, n, kind, from) -> each step's clients / n: this loader's share when n loaders run
// the experiment together (--share-of; ./run.sh NAME --on k8s --loaders N), so that they run the
// steps asked for between them and the report merges their runs as one. Refused in one line within
// 120 columns ('error: ' included; the step list cut), advising the flag the kind takes its client
// steps by (ycsb: --threads), or --loaders 1 for a kind that takes none (gridfs: fixedClients).
// clientsFrom(opts): where the client steps came from, for a message: the flag given, or the file.
const clientsFrom = (opts) => (opts.clients ? '--clients' : opts.kindArgs?.['--threads'] !== undefined ? '--threads' : 'workload.clients');

function shareOf(steps, n, kind, from) {
  if (steps.every((c) => Number.isInteger(c) && c % n === 0)) return steps.map((c) => c / n);
  if (kind.fixedClients) throw new UsageError(`--loaders ${n}: ${kind.name} runs ${kind.fixedClients}: they do not split; run it with --loaders 1`);
  const flag = flagsOf(kind).includes('--threads') ? '--threads' : '--clients';
  const given = steps.join(',');
  const shown = given.length > 10 ? `${given.slice(0, 8).replace(/,[^,]*$/, '')},...` : given;
  throw new UsageError(`--loaders ${n}: ${from} ${shown} does not divide by ${n}, one share per loader (e.g. ${flag} ${n * 2},${n * 4})`);
}

// slaClients: --sla searches over offered rates on an open loop whose steps last --duration; a
// step bounded by its work has no rate to hold, and a sweep of client counts is what it replaces.
function slaClients(config, kind, opts) {
  if (kind.bound !== 'duration') throw new UsageError(`--sla does not apply to ${config.name}: its ${kind.name} steps are bounded by ${kind.bound === 'own' ? 'their own work' : 'documents'}, not --duration (experiments whose steps last --duration: experiment2, experiment3, ycsb-a)`);
  // A kind may bound its steps by a count instead (ycsb-a --operations: durationMs null).
  if (!config.workload.durationMs) throw new UsageError(`--sla needs steps that last --duration: ${config.name}'s are bounded by a count of operations here (drop --operations)`);
  // The clients asked for: --clients, or ycsb's --threads (the same list, which its configure put
  // in workload.clients); else the default. The file's list is a sweep's, not a search's.
  const threads = opts.kindArgs && opts.kindArgs['--threads'] !== undefined;
  const given = opts.clients ?? (threads ? config.workload.clients : undefined);
  if (given && given.length !== 1) throw new UsageError(`--sla runs every step at one client count: ${threads ? '--threads' : '--clients'} N, not ${given.join(',')}`);
  config.workload.clients = given ?? [require('./sla').DEFAULT_CLIENTS];
}

// loaded(name, dir): experiment NAME as load() reads it without flags, or null (a file that does
// not load says why when it is run or checked).
function loaded(name, dir) {
  try {
    return load({ experiment: name, experimentsDir: dir, kindArgs: {} });
  } catch {
    return null;
  }
}

// list(dir): the experiment names in dir (its *.yaml files), for messages and `lab-loader list`.
function list(dir = EXPERIMENTS_DIR) {
  try {
    return fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)).sort();
  } catch {
    return [];
  }
}

// The default warm-up. A step that runs for a duration starts with DEFAULT_WARMUP_MS.duration of
// warm-up (loader/README.md, "Warm-up": what the loader's own client CPU per operation does in a
// step's first seconds, before and after the clients' code path is warmed in setup). A step bounded
// by its work (documents, a write concern's inserts, a file) is measured whole by default, as its
// seed timed it: a warm-up there is asked for in the file or with --warmup, and its operations
// are part of the work but not of the measurement.
const DEFAULT_WARMUP_MS = { duration: 5000, documents: 0, own: 0 };

// parseFileWarmup(v) -> ms, or null when v is not a duration (0 = none).
function parseFileWarmup(v) {
  try {
    return parseWarmup('warmup', v);
  } catch {
    return null;
  }
}

function parseFileDuration(file, v) {
  if (v === undefined) fail(file, 'workload.duration: required (e.g. 2m)');
  try {
    return parseDuration('workload.duration', v);
  } catch (e) {
    fail(file, e.message); // throws
  }
}

module.exports = { load, loaded, list, REPO_ROOT, EXPERIMENTS_DIR, DEFAULT_WARMUP_MS };
