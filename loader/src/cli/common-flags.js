'use strict';
// The loader's common flags, each declared once: how util.parseArgs reads it (args.js) and its help
// row (flag-help.js: `lab-loader --help`, `./run.sh help`, `./run.sh NAME --help`). A new common
// flag is one row here, then its check in args.js parse. A workload kind's own flags are the kind's
// (kinds/<kind>.js `options`).
//
// A row:
//   flag, short         the flag (--help also -h)
//   type, multiple      util.parseArgs' type ('string' unless given) and repeatable (a list)
//   default             the parser's default, shown in the help as "(default ...)"
//   group, arg, help    the --help section (Connection, Workload, Output), the value's name, the text
//   runsh: true         ./run.sh shows it as the loader does
//          'uri'        ./run.sh shows it for --uri runs only (the stack's loader has it from the stack)
//          false        ./run.sh sets it itself (its own --engine, --profile, --journal-path, --oplog-size; the
//                       stack's metrics address, Grafana, image digests, experiments folder)
//   file: (config)      the value an experiment file gives, as text: the defaults column reads every
//                       experiment that takes the flag (kinds/index.js flagsOf for the workload flags)
//   dflt                the default shown when neither the parser nor a file gives one, as text
const { durationText } = require('../text/duration');

const DEFAULT_METRICS_PORT = 9464;

const COMMON_FLAGS = [
  { group: 'Connection', flag: '--uri', default: 'mongodb://127.0.0.1:27017/', arg: 'URI', runsh: false, help: 'server or mongos (not given: $LAB_LOADER_URI, which ./run.sh sets, out of sight of ps, when it has one)' },
  // --username: root is applied in args.js parse (given alone it is refused)
  { group: 'Connection', flag: '--username', arg: 'NAME', runsh: 'uri', help: 'user for --password-file', dflt: 'root' },
  { group: 'Connection', flag: '--password-file', arg: 'FILE', runsh: 'uri', help: 'read the password of --username from FILE (never from the command line)' },
  { group: 'Connection', flag: '--server-selection-timeout', default: '10s', arg: 'DUR', runsh: true, help: 'give up on an unreachable server after DUR' },
  { group: 'Workload', flag: '--docs', arg: 'N', runsh: true, help: 'documents to insert', file: (c) => c.workload.docs },
  { group: 'Workload', flag: '--preload-docs', arg: 'N', runsh: true, help: 'documents loaded first, not measured', file: (c) => c.preload.docs },
  { group: 'Workload', flag: '--clients', arg: 'LIST', runsh: true, help: 'client steps, e.g. 1,2,4,6 (each 1..1000 in one process)', file: (c) => c.workload.clients.join(',') },
  { group: 'Workload', flag: '--duration', arg: 'DUR', runsh: true, help: 'length of each client step after its warm-up, e.g. 30s, 2m', file: (c) => durText(c.workload.durationMs) },
  { group: 'Workload', flag: '--warmup', arg: 'DUR', runsh: true, help: "each step's first DUR, 0 for none: run and shown in the timeline, left out of its throughput, percentiles and verdicts", file: (c) => durText(c.warmupMs) },
  { group: 'Workload', flag: '--rate', arg: 'N', runsh: true, help: "pace all clients together at N ops/s (experiment2: a find+update pair counts as 2) and also report latency from each op's intended start (coordinated omission corrected)" },
  { group: 'Workload', flag: '--sla', arg: 'PCT=DUR', runsh: true, help: 'capacity under a latency SLA, e.g. p99=10ms (p50, p90, p99, p99.9): instead of the client sweep, search the highest offered rate whose intended PCT stays <= DUR (duration-bound experiments; --clients N one count, default 32; --rate N the first rate)' },
  { group: 'Workload', flag: '--seed', arg: 'N', runsh: true, help: 'random generator seed', file: (c) => c.seed },
  { group: 'Workload', flag: '--repeat', arg: 'N', runsh: true, help: 'run the same parameters N times back to back, each against a freshly set-up collection, each its own results folder', file: (c) => c.repeat },
  { group: 'Workload', flag: '--group', arg: 'ID', runsh: true, help: "the run group's id in summary.json (default: made per invocation); give the same ID on several hosts of one run" },
  { group: 'Workload', flag: '--comparison', arg: 'ID:SIDE:POSITION', runsh: false, help: 'this run is POSITION (1-based, in the order run) of comparison ID, on side SIDE; recorded in summary.json "comparison" (./run.sh compare passes it; one run, so not with --repeat above 1)' },
  { group: 'Workload', flag: '--share-of', arg: 'N', runsh: false, help: 'this loader is one of N that run the experiment together (./run.sh NAME --on k8s --loaders N): it runs 1/N of each step\'s clients, which must divide by N' },
  { group: 'Workload', flag: '--tool', arg: 'lab|ycsb', runsh: false, help: "check only: the program ./run.sh runs NAME with (its --tool): ycsb refuses an experiment whose workload is not YCSB's own" },
  { group: 'Workload', flag: '--workers', arg: 'N', runsh: true, help: 'worker threads (default min(max clients, CPU cores))' },
  { group: 'Output', flag: '--engine', arg: 'LABEL', runsh: false, help: 'results label (default: the storage engine the server reports)' },
  { group: 'Output', flag: '--results-dir', arg: 'DIR', runsh: 'uri', help: 'results root', dflt: '<checkout>/results' },
  { group: 'Output', flag: '--metrics-port', arg: 'PORT', runsh: 'uri', help: `Prometheus endpoint port, 0 = any free port (default ${DEFAULT_METRICS_PORT}, or any free port when ${DEFAULT_METRICS_PORT} is taken; the port is printed)` },
  { group: 'Output', flag: '--metrics-host', default: '127.0.0.1', arg: 'ADDR', runsh: false, help: 'address it listens on (default 127.0.0.1; ./run.sh passes 0.0.0.0 inside the stack, whose network only Prometheus shares)' },
  { group: 'Output', flag: '--grafana-url', arg: 'URL', runsh: false, help: 'post phase annotations to Grafana at URL' },
  { group: 'Output', flag: '--grafana-password-file', arg: 'FILE', runsh: false, help: 'Grafana admin password for the annotations' },
  { group: 'Output', flag: '--stall-timeout', default: '15s', arg: 'DUR', runsh: true, help: 'stop the run when no operation completes for DUR, at least 100ms (checked every 25 ms)' },
  { group: 'Output', flag: '--server-record', default: 'on', arg: 'on|off', runsh: true, help: "sample each reachable member's serverStatus and replication once a second over its own connection into server.ndjson; off only to measure its cost (loader/README.md)" },
  { group: 'Output', flag: '--progress-interval', default: '5s', arg: 'DUR', runsh: true, help: 'plain progress line period when not on a terminal' },
  { group: 'Output', flag: '--wide', type: 'boolean', arg: '', runsh: true, help: 'the --repeat group table with fastest, median and slowest docs/s and MB/s too (default: their medians, within 120 columns)' },
  { group: 'Output', flag: '--profile', arg: 'NAME', runsh: false, help: "the lab resource profile, recorded in summary.json (./run.sh passes it)" },
  { group: 'Output', flag: '--journal-path', arg: 'PATH', runsh: false, help: "where ./run.sh put each shard member's journal (PATH/<member>, its own disk: seeds/000), recorded in summary.json storage.journal_path" },
  { group: 'Output', flag: '--oplog-size', arg: 'MB', runsh: false, help: "the --oplogSize ./run.sh started the shard members with (its --oplog-size), recorded in summary.json storage.oplog_mb in place of the engines table's" },
  { group: 'Output', flag: '--label', multiple: true, arg: 'KEY=VALUE', runsh: true, help: 'a label of your own, recorded in summary.json "labels" (repeatable; e.g. --label platform=aws-m5.large --label os=ubuntu-24.04); ./run.sh report --by KEY compares along it' },
  { group: 'Output', flag: '--experiments-dir', arg: 'DIR', runsh: false, help: 'where NAME.yaml is looked up', dflt: '<checkout>/experiments' },
  { group: 'Output', flag: '--image', multiple: true, arg: 'NAME=REF', runsh: false, help: 'record which image ran NAME (repeatable; ./run.sh passes the engine image\'s digest), copied into summary.json "images"' },
  { group: 'Output', flag: '--help', short: 'h', type: 'boolean', runsh: false, help: "this text; NAME --help adds that experiment's own flags" },
];

// durText(120000) -> '2m'; 0 or null -> 'none': a file's duration as a flag takes it (src/text/duration.js).
const durText = (ms) => (ms ? durationText(ms) : 'none');

module.exports = { COMMON_FLAGS, DEFAULT_METRICS_PORT, durText };
