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

const FACT = '@lab-fact';

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

const requestLines = (loaded) => [...factLines(loaded), ...hookLines(loaded.config)];

module.exports = { requestLines, FACT };
