'use strict';
// What ./run.sh needs to know of an experiment, said by the loader, the one reader of experiment
// files and flags: `lab-loader check NAME [flags]` prints, after the kind's settings, a line per
// fact and per stack hook, which lib/experiment.sh reads (experiment_loader_check); bash never
// parses YAML, so any style the loader accepts works through ./run.sh.
//   @lab-fact<TAB>KEY<TAB>VALUE   kind (workload.type), database, clients (each step's client
//                                 count, space-separated), smoke (the file's smoke: flags)
//   @lab-docker<TAB>0<TAB>OP...   a stack hook the kind asks for (its hooks(config)): a request
//                                 line of the fault tool's protocol (faults/protocol.js), an op of
//                                 kind hook in faults/docker-ops.tsv, performed by bash by name
const { encodeRequest, TABLE } = require('../faults/protocol');
const { kind } = require('../kinds');
const { UsageError } = require('../text/usage');

const FACT = '@lab-fact';

// ofKind(type, dir): the experiments of folder dir whose file loads with workload.type type (a
// file that does not load is no candidate: it says why when it is run or checked).
function ofKind(type, dir) {
  const { list, loaded } = require('../experiment/config');
  return list(dir).filter((name) => loaded(name, dir)?.config.workload.type === type);
}

// checkTool(config, opts): check --tool ycsb (./run.sh's --tool) refuses an experiment whose
// workload is not YCSB's own, naming those that are: the folder's files are read only then (all
// of them cost a check 0.13 CPU s).
function checkTool(config, { tool, experiment, experimentsDir }) {
  if (tool !== 'ycsb' || config.workload.type === 'ycsb') return;
  throw new UsageError(`--tool ycsb runs YCSB's own workloads (${ofKind('ycsb', experimentsDir).join(' ') || 'none'}): ${experiment} is not one (its workload is ${config.workload.type}): drop --tool`);
}

// factLines({ config, smoke }) -> lines; a value never holds a tab or a newline (they split lines).
function factLines({ config, smoke }) {
  const facts = [['kind', config.workload.type], ['database', config.database], ['clients', config.workload.clients.join(' ')]];
  if (smoke) facts.push(['smoke', smoke]);
  return facts.map(([k, v]) => [FACT, k, String(v).replace(/[\t\r\n]+/g, ' ')].join('\t'));
}

// hookLines(config) -> the kind's stack hooks as request lines (id 0: bash performs, nothing
// waits for a reply). A hook that is no hook op of docker-ops.tsv is a bug of the kind: thrown.
function hookLines(config) {
  const k = kind(config.workload.type);
  return (k.hooks ? k.hooks(config) : []).map(({ op, args = {} }) => {
    if (!TABLE[op] || TABLE[op].kind !== 'hook') throw new Error(`${k.name}: '${op}' is not a stack hook (faults/docker-ops.tsv kind hook)`);
    return encodeRequest(0, op, args);
  });
}

// requestLines(loaded, opts): the lines `check` prints for ./run.sh, once checkTool has passed.
function requestLines(loaded, opts) {
  checkTool(loaded.config, opts);
  return [...factLines(loaded), ...hookLines(loaded.config)];
}

module.exports = { requestLines, FACT };
