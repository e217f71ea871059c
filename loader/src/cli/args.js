'use strict';
// Command line: util.parseArgs in strict mode (an unknown flag is an error, never ignored), then
// every value is checked before anything connects. Usage errors exit 2 (see bin/lab-loader.js).
const fs = require('node:fs');
const { parseArgs } = require('node:util');

const { UsageError, parseDuration, parseWarmup, parseCount, parseClients } = require('../text/usage');
const { redactUri, redactText } = require('../text/redact-uri');
const { NAME_WORDS, isName, RESERVED_NAMES } = require('../../../common/names');
const { kindFlags } = require('../kinds');
const { COMMON_FLAGS, DEFAULT_METRICS_PORT } = require('./common-flags');

// parseSpec(row) -> its util.parseArgs option, a key left out where the row has none (parseArgs
// checks a default that is there, even an undefined one).
const parseSpec = ({ type = 'string', default: d, multiple, short }) =>
  Object.fromEntries(Object.entries({ type, default: d, multiple, short }).filter(([, v]) => v !== undefined));
const COMMON_OPTIONS = Object.fromEntries(COMMON_FLAGS.map((row) => [row.flag.slice(2), parseSpec(row)]));
// A workload kind's own flags (kinds/<kind>.js `options`), e.g. --ops: taken here as text and
// parsed by config.js once the experiment file says which kind runs, so that a flag of another
// kind is named as not applying to this experiment rather than as unknown.
const KIND_FLAGS = kindFlags().filter((f) => !Object.hasOwn(COMMON_OPTIONS, f.slice(2)));
const OPTIONS = { ...COMMON_OPTIONS, ...Object.fromEntries(KIND_FLAGS.map((f) => [f.slice(2), { type: 'string' }])) };

// usage(dir): the help, its flag rows and their defaults from src/cli/flag-help.js (the experiment
// files in dir give the defaults).
const usage = (dir) => `Usage: lab-loader [check|estimate] <NAME|FILE.yaml> [flags]
       lab-loader list [--experiments-dir DIR]
       lab-loader flags [NAME] [--experiments-dir DIR]
       lab-loader merge-summary DIR... < MEASURED.json
       lab-loader summary-facts DIR...

NAME is any experiments/NAME.yaml (experiment1, experiment2, experiment3, ...). "check" parses
and validates NAME and the flags exactly as a run would, connects to nothing, and exits 0 or 2;
"estimate" does the same and prints how long the measured steps of one run last (seconds=N, or
unknown when they end by their work).
"list" prints each experiment's name and description (its first comment line); "flags" the
experiment flags as ./run.sh help lists them (NAME: as ./run.sh NAME --help does);
"merge-summary" what ./run.sh measured around a run (JSON on stdin) into each folder's summary.json;
"summary-facts" one line per folder of what ./run.sh reads from its summary.json.

Runs one experiment of seeds/004 against a MongoDB deployment and writes
results/<experiment>/<engine>/<UTC time>/ (summary.json, timeline.ndjson, the experiment file).

${require('./flag-help').loaderFlags(dir)}

DUR is a number with a unit: 500ms, 30s, 2m, 1h (decimals allowed: 1.5s). Exit codes: 0 complete,
1 runtime error or incomplete run, 2 usage error, 130 interrupted by Ctrl-C (SIGINT), 143 stopped
by SIGTERM, 129 by SIGHUP or a closed terminal; a second signal exits at once, keeping the steps
measured so far. Partial results are written whenever a results folder was created (only after
the server answered).`;


// parseComparison('cmp-1:mmapv1:3') -> { id, side, position }: which comparison a run belongs to
// (./run.sh compare), on which side, at which place in the order the comparison ran its runs; the
// report looks for a trend across positions (drift) with it. undefined when not given.
function parseComparison(text) {
  if (text === undefined) return undefined;
  const m = /^([^:]*):([^:]*):([^:]*)$/.exec(text);
  if (!m || !isName(m[1]) || !isName(m[2])) {
    throw new UsageError(`--comparison: '${text}' is not ID:SIDE:POSITION (ID and SIDE: ${NAME_WORDS}; `
      + 'e.g. cmp-20261126T1440Z:mmapv1:3)');
  }
  return { id: m[1], side: m[2], position: parseCount('--comparison POSITION', m[3], 1, 100000) };
}

// parseUri: a mongodb:// URI with at least one host ("mongodb://" alone is a usage error, not a
// server that cannot be reached), parsed by the driver's own parser: its options.
function parseUri(flag, uri) {
  // Every message shows the URI as redactUri does: the one a user typed may hold a password.
  const shown = redactUri(uri);
  if (!/^mongodb(\+srv)?:\/\//.test(uri)) throw new UsageError(`${flag} '${shown}' is not a mongodb:// URI (e.g. mongodb://127.0.0.1:27017/)`);
  // The driver parses the URI when a client is constructed (nothing connects until connect()).
  const { MongoClient } = require('mongodb');
  let o;
  try {
    o = new MongoClient(uri).options;
  } catch (e) {
    // mongodb://root:p@ss@host/: the driver says only "Invalid connection string".
    const userInfo = /^[^:]*:\/\/([^?]*)@/.exec(uri)?.[1] ?? '';
    if (userInfo.includes('@')) throw new UsageError(`${flag} '${shown}': the user or password holds an @; write it as %40 (percent-encoded, as any of : / ? # [ ] @)`);
    throw new UsageError(`${flag} '${shown}' names no server or is malformed (${redactText(e.message)}); e.g. mongodb://127.0.0.1:27017/`);
  }
  checkTlsFiles(flag, o);
  // mongodb+srv://NAME/: no hosts until connect() looks up _mongodb._tcp.NAME (SRV) and NAME
  // (TXT); the driver keeps NAME as srvHost (mongodb lib/connection_string.js parseOptions).
  const hosts = o.srvHost ? [o.srvHost] : o.hosts;
  if (!hosts || !hosts.length) throw new UsageError(`${flag} '${shown}' names no server (e.g. mongodb://127.0.0.1:27017/)`);
  return o;
}



// checkTlsFiles: the files a URI names for TLS are read by the driver only when it connects, and
// a missing one came out as "cannot reach the server ... ENOENT", exit 1: a usage error instead,
// naming the option.
const TLS_FILES = { tlsCAFile: 'the CA certificate (PEM)', tlsCertificateKeyFile: 'the client certificate and key (PEM)', tlsCRLFile: 'the certificate revocation list' };
function checkTlsFiles(flag, o) {
  for (const [option, what] of Object.entries(TLS_FILES)) {
    if (!o[option]) continue;
    try {
      fs.accessSync(o[option], fs.constants.R_OK);
    } catch (e) {
      throw new UsageError(`${flag}: ${option}=${o[option]} cannot be read (${e.code}): give the path of ${what}`);
    }
  }
}

// pairs(flag, list, re, form, check) -> { KEY: VALUE } from items KEY=VALUE that re matches (form
// names the shape when one does not), each KEY once; check(KEY) may refuse a key.
function pairs(flag, list, re, form, check = () => {}) {
  const out = {};
  for (const item of list) {
    const m = re.exec(item);
    if (!m) throw new UsageError(`${flag}: '${item}' is not ${form}`);
    check(m[1]);
    if (m[1] in out) throw new UsageError(`${flag}: ${m[1]} given twice`);
    out[m[1]] = m[2];
  }
  return out;
}

// parseImages(['mongod=mongo:8.0@sha256:...']) -> { mongod: 'mongo:8.0@sha256:...' }. The same
// tag can point at another build tomorrow; the digest says which one was measured.
const parseImages = (list) => pairs('--image', list, /^([A-Za-z0-9][A-Za-z0-9_.-]*)=(\S+)$/,
  'NAME=REF (e.g. mongod=mongo:8.0@sha256:...)');

// parseLabels(['platform=aws-m5.large']) -> { platform: 'aws-m5.large' }. Keys are lower-case words;
// engine, server and profile are the report's own dimensions (report --by), so no label takes them.
const RESERVED_LABELS = new Set(['engine', 'server', 'profile']);
const parseLabels = (list) => pairs('--label', list, /^([a-z][a-z0-9_]*)=([A-Za-z0-9][A-Za-z0-9_.:+-]*)$/,
  'KEY=VALUE (KEY: a-z 0-9 _, VALUE: letters, digits, . _ : + -; e.g. platform=aws-m5.large)', (key) => {
    if (RESERVED_LABELS.has(key)) throw new UsageError(`--label: '${key}' is the report's own dimension (--engine, the server, --profile), not a label`);
  });

// checkCredentials(values): --username is the user of --password-file: alone it would run
// unauthenticated, exit 0. Credentials in --uri and --password-file together: the flags' user
// and password would silently replace the URI's (clients.js passes them as the auth option).
// uriOptions: the driver's options of --uri (parseUri).
function checkCredentials(v, uriOptions) {
  if (v.username !== undefined && v['password-file'] === undefined) {
    throw new UsageError(`--username ${v.username} needs --password-file FILE (the password is read from a file, never from the command line), or user and password in --uri`);
  }
  const inUri = uriOptions.credentials?.username;
  if (inUri && v['password-file'] !== undefined) {
    throw new UsageError(`--uri names user '${inUri}' and --password-file is given too: use one (the user and password in --uri, or --username with --password-file)`);
  }
}

// --stall-timeout: the runner checks it every 25 ms (run/step-loop.js, STALL_CHECK_MS), so it stops within
// 100 ms of the deadline; a shorter timeout would be below that resolution.
const MIN_STALL_TIMEOUT_MS = 100;
function parseStallTimeout(text) {
  const ms = parseDuration('--stall-timeout', text);
  if (ms < MIN_STALL_TIMEOUT_MS) throw new UsageError(`--stall-timeout: ${text} is under 100ms (the loader checks for a stall every 25 ms and promises to stop within 100 ms of the deadline)`);
  return ms;
}

// --sla p99=10ms -> { percentile, key, target_ms, text } (src/experiment/sla.js parseSla), else one line.
function parseSlaFlag(text) {
  const sla = require('../experiment/sla').parseSla(text);
  if (sla.error) throw new UsageError(sla.error);
  return sla;
}

// withNegatives(argv): "--docs -5" as "--docs=-5". util.parseArgs takes a value that starts with
// a dash for a flag ("--docs needs a value"); a negative number is a value, and its own grammar
// (src/text/numbers.js, src/text/duration.js) says what is wrong with it.
function withNegatives(argv) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([^=]+)$/.exec(argv[i]);
    if (m && OPTIONS[m[1]]?.type === 'string' && /^-[\d.]/.test(argv[i + 1] ?? '')) out.push(`${argv[i]}=${argv[++i]}`);
    else out.push(argv[i]);
  }
  return out;
}

function parseOnOff(flag, text) {
  if (text === 'on' || text === 'off') return text === 'on';
  throw new UsageError(`${flag}: '${text}' is not on or off`);
}

function label(flag, x) {
  if (x !== undefined && !isName(x)) throw new UsageError(`${flag}: '${x}' is not a valid label (${NAME_WORDS})`);
  return x;
}

// checkTogether(opts) -> opts: what no flag's own parser can see (one flag against another, an address, a URL).
function checkTogether(opts) {
  // A comparison's position is one run's place in its order: several repetitions would share it.
  if (opts.comparison && opts.repeat > 1) throw new UsageError(`--comparison names one run of a comparison: it goes with --repeat 1 (got --repeat ${opts.repeat}; ./run.sh compare --repeat N makes N positions per side)`);
  if (!/^[0-9A-Za-z.:-]+$/.test(opts.metricsHost)) {
    throw new UsageError(`--metrics-host: '${opts.metricsHost}' is not an address`);
  }
  if (opts.grafanaUrl !== undefined && !/^https?:\/\//.test(opts.grafanaUrl)) {
    throw new UsageError(`--grafana-url: '${opts.grafanaUrl}' is not an http(s) URL`);
  }
  return opts;
}

// util.parseArgs' settings (tokens: for uriOf, whether --uri was given)
const PARSE_ARGS = { options: OPTIONS, allowPositionals: true, strict: true, tokens: true };

// uriOf(parsed): --uri as given, else LAB_LOADER_URI, else the default. ./run.sh hands a --uri
// run's URI over in the environment, not on the command line, where `ps` shows it, password and
// all, to every user of the host (/proc/PID/environ: its own user only).
function uriOf(parsed) {
  const given = parsed.tokens.some((t) => t.kind === 'option' && t.name === 'uri');
  return !given && process.env.LAB_LOADER_URI ? process.env.LAB_LOADER_URI : parsed.values.uri;
}

function parse(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: withNegatives(argv), ...PARSE_ARGS });
  } catch (e) {
    // util.parseArgs' own messages run to several lines; one line naming the flag instead.
    const flag = /'(-[^' ]*)/.exec(e.message)?.[1];
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown flag '${flag}' (./run.sh help lists the flags)`);
    if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new UsageError(`${flag} needs a value`);
    throw new UsageError(e.message.split('\n')[0]);
  }
  const v = parsed.values;
  v.uri = uriOf(parsed);
  const positionals = [...parsed.positionals];
  // NAME --help: the common flags and that experiment's own (its workload kind's).
  if (v.help) return { help: true, experiment: positionals.find((p) => !['check', 'list', 'flags', 'estimate'].includes(p)), experimentsDir: v['experiments-dir'] };
  // Subcommands: check (validate only; prints the experiment's facts and stack hooks for
  // ./run.sh), list, flags [NAME] (./run.sh help's experiment flags, or NAME --help's), estimate (a
  // run's measured time, for ./run.sh compare's plan); anything else names the experiment to run.
  const command = ['check', 'list', 'flags', 'estimate', 'merge-summary', 'summary-facts'].includes(positionals[0]) ? positionals.shift() : 'run';
  // merge-summary DIR...: ./run.sh's measurements into those folders' summaries (src/results/merge-summary.js);
  // summary-facts DIR...: what ./run.sh reads of them (src/results/summary-facts.js)
  if (command === 'merge-summary' || command === 'summary-facts') {
    if (!positionals.length) throw new UsageError(`${command} needs the results folders to ${command === 'merge-summary' ? 'merge into' : 'read'}`);
    return { command, dirs: positionals };
  }
  if (command === 'list' || (command === 'flags' && positionals.length !== 1)) {
    if (positionals.length) throw new UsageError(`${command} takes ${command === 'flags' ? 'one experiment at most' : 'no experiment'} (got: ${positionals.join(' ')})`);
    return { command, experimentsDir: v['experiments-dir'] };
  }
  if (command === 'flags') return { command, experiment: positionals[0], experimentsDir: v['experiments-dir'] };
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0
      ? 'name an experiment (experiments/NAME.yaml, e.g. experiment2) or a .yaml file'
      : `one experiment at a time (got: ${positionals.join(' ')})`);
  }
  const experiment = positionals[0];
  if (!isName(experiment) && !/\.ya?ml$/.test(experiment)) {
    throw new UsageError(`'${experiment}' is not an experiment name (${NAME_WORDS}) or a .yaml file`);
  }
  // The driver parses a URI that was given (loading it costs about 0.25 CPU s): the default one,
  // which a stack run's check also leaves in place, holds one host and no user, TLS file or option.
  checkCredentials(v, v.uri === OPTIONS.uri.default ? {} : parseUri('--uri', v.uri));
  label('--engine', v.engine);
  // A run filed under results/<experiment>/report/ or latest/ would vanish from every report.
  if (RESERVED_NAMES.includes(v.engine)) throw new UsageError(`--engine: '${v.engine}' is a name the results folders keep for themselves (${RESERVED_NAMES.join(', ')}): choose another label`);
  // --tool: ./run.sh's, given to check only (the loader is the lab tool; YCSB runs in its image)
  if (v.tool !== undefined && command !== 'check') throw new UsageError(`--tool goes with check (got ${command === 'run' ? 'a run' : command})`);
  if (v.tool !== undefined && !['lab', 'ycsb'].includes(v.tool)) throw new UsageError(`--tool needs lab or ycsb (got '${v.tool}')`);
  const opts = {
    command,
    tool: v.tool,
    experiment,
    experimentsDir: v['experiments-dir'],
    // Not given: the experiment file's `repeat:` (e.g. writeconcern repeats each case 3 times), else 1.
    repeat: v.repeat !== undefined ? parseCount('--repeat', v.repeat, 1, 1000) : undefined,
    group: label('--group', v.group),
    comparison: parseComparison(v.comparison),
    shareOf: v['share-of'] !== undefined ? parseCount('--share-of', v['share-of'], 1, 99) : 1,
    profile: label('--profile', v.profile),
    journalPath: v['journal-path'],
    // mongod takes any --oplogSize above 0 (mongo src/mongo/db/mongod_options.cpp storeMongodOptions)
    oplogMb: v['oplog-size'] !== undefined ? parseCount('--oplog-size', v['oplog-size'], 1, 9999999) : undefined,
    uri: v.uri,
    username: v.username ?? 'root',
    passwordFile: v['password-file'],
    engine: v.engine,
    docs: v.docs !== undefined ? parseCount('--docs', v.docs) : undefined,
    preloadDocs: v['preload-docs'] !== undefined ? parseCount('--preload-docs', v['preload-docs']) : undefined,
    clients: v.clients !== undefined ? parseClients('--clients', v.clients) : undefined,
    durationMs: v.duration !== undefined ? parseDuration('--duration', v.duration) : undefined,
    rate: v.rate !== undefined ? parseCount('--rate', v.rate, 1, 10000000) : undefined,
    sla: v.sla !== undefined ? parseSlaFlag(v.sla) : undefined,
    seed: v.seed !== undefined ? parseCount('--seed', v.seed, 0, 0xffffffff) : undefined,
    workers: v.workers !== undefined ? parseCount('--workers', v.workers, 1, 256) : undefined,
    resultsDir: v['results-dir'],
    // Not given: 9464, or any free port when 9464 is taken (printed); given: that port or an error.
    metricsPort: v['metrics-port'] !== undefined ? parseCount('--metrics-port', v['metrics-port'], 0, 65535) : DEFAULT_METRICS_PORT,
    metricsPortGiven: v['metrics-port'] !== undefined,
    metricsHost: v['metrics-host'],
    grafanaUrl: v['grafana-url'],
    grafanaPasswordFile: v['grafana-password-file'],
    serverSelectionTimeoutMs: parseDuration('--server-selection-timeout', v['server-selection-timeout']),
    stallTimeoutMs: parseStallTimeout(v['stall-timeout']),
    serverRecord: parseOnOff('--server-record', v['server-record']),
    warmupMs: v.warmup !== undefined ? parseWarmup('--warmup', v.warmup) : undefined,
    progressIntervalMs: parseDuration('--progress-interval', v['progress-interval']),
    images: parseImages(v.image ?? []),
    labels: parseLabels(v.label ?? []),
    wide: Boolean(v.wide),
    // The kind flags given, as text (config.js parses them with the kind's own parser).
    kindArgs: Object.fromEntries(KIND_FLAGS.filter((f) => v[f.slice(2)] !== undefined).map((f) => [f, v[f.slice(2)]])),
  };
  return checkTogether(opts);
}

module.exports = { parse, parseDuration, parseImages, UsageError, usage, COMMON_OPTIONS };
