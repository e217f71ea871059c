'use strict';
// `lab-fault run SCENARIO [common flags] [scenario flags]`: the one long-lived fault process per
// scenario (lib/fault.sh starts it in the fault-tool service and answers its docker requests).
// Common flags: --engine E (a row of compose/engines.tsv), --results-dir (default /lab/results),
// --dry-run, --members h:p,... and --mongos h:p (default: the topology table), --user,
// --password-file, --scenarios-dir (tests only: where scenario modules live).
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const tables = require('../../../common/tables');
const { DockerPeer } = require('./protocol');
const { runScenario } = require('./runner');
const { Members, mongosClient } = require('./cluster');
const { SCENARIO, fileProblem, shownPath } = require('../module-contract');

class UsageError extends Error {}

const COMMON = {
  engine: { type: 'string', default: 'wiredtiger' },
  'results-dir': { type: 'string', default: '/lab/results' },
  'dry-run': { type: 'boolean', default: false },
  members: { type: 'string' },
  mongos: { type: 'string' },
  user: { type: 'string', default: 'root' },
  'password-file': { type: 'string', default: '/run/lab-secrets/root-password' },
  'scenarios-dir': { type: 'string', default: path.join(__dirname, 'scenarios') },
};

function scenarioNames(dir) {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => f.slice(0, -3)).sort();
}

// loadScenario(name, dir) -> the module, checked as it is loaded (src/module-contract.js SCENARIO):
// one lacking a part (a heal) is refused in one line naming the file and the part, exit 2, before
// anything is applied to the cluster.
function loadScenario(name, dir) {
  const names = scenarioNames(dir);
  if (!name) throw new UsageError(`fault needs a scenario (choose one of: ${names.join(' ')})`);
  if (!names.includes(name)) throw new UsageError(`unknown fault scenario '${name}' (choose one of: ${names.join(' ')})`);
  const file = path.join(dir, `${name}.js`);
  const scenario = require(file);
  const problem = fileProblem(file, scenario, SCENARIO);
  if (problem) throw new UsageError(problem);
  if (scenario.name !== name) throw new UsageError(`${shownPath(file)}: \`name\` is '${scenario.name}', not its file's name '${name}'`);
  return scenario;
}

// parseError(name, options, e) -> one line: node:util's parseArgs messages, said as run.sh says them
function parseError(name, options, e) {
  const flag = (/'(-[^' ]+)/.exec(e.message) || [])[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const listed = Object.keys(options).filter((k) => options[k].help).map((k) => `--${k}`);
    return `fault ${name} does not take ${flag}${listed.length ? ` (its flags: ${listed.join(' ')})` : ''}`;
  }
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag) return `${flag} needs a value`;
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `fault ${name} does not take '${(/'([^']*)'/.exec(e.message) || [])[1]}'`;
  return `fault ${name}: ${e.message}`;
}

// parse(argv) -> {scenario, params, common}: the scenario's own options beside the common ones;
// a flag of another scenario is an unknown flag here.
function parse(argv) {
  const [name, ...rest] = argv;
  const dirArg = rest.indexOf('--scenarios-dir');
  const dir = dirArg >= 0 ? rest[dirArg + 1] : COMMON['scenarios-dir'].default;
  const scenario = loadScenario(name, dir);
  const own = scenario.options || {};
  let values;
  try {
    ({ values } = parseArgs({ args: rest, options: { ...COMMON, ...own }, allowPositionals: false, strict: true }));
  } catch (e) {
    throw new UsageError(parseError(name, own, e));
  }
  for (const [k, v] of Object.entries(values)) if (k in own && v === '') throw new UsageError(`--${k} needs a value`);
  const common = {};
  const params = {};
  for (const [k, v] of Object.entries(values)) (k in COMMON ? common : params)[k] = v;
  const engine = tables.engine(common.engine);
  if (!engine) throw new UsageError(`unknown engine '${common.engine}' (choose one of: ${tables.engines().map((e) => e.engine).join(' ')})`);
  const shard = tables.shardSet();
  if (common.members) shard.hosts = common.members.split(',');
  const mongos = common.mongos || (() => { const r = tables.members({ role: 'router' }).find((x) => !x.compose_profile); return `${r.service}:${r.port}`; })();
  const env = { engine, shard, mongos };
  try {
    if (scenario.check) scenario.check(params, env);
  } catch (e) {
    throw new UsageError(e.message);
  }
  return { scenario, params, common, env };
}

async function runCommand(argv, { input = process.stdin, output = process.stdout } = {}) {
  const { scenario, params, common, env } = parse(argv);
  const say = (s) => output.write(`${s}\n`);
  const docker = new DockerPeer({ input, output });
  const auth = { user: common.user, passwordFile: common['password-file'], driverLine: env.engine.driver_line, retryWrites: env.engine.retryable_writes };
  const makeContext = async () => {
    const members = new Members(env.shard.hosts, auth);
    let mongos = null;
    return {
      members,
      mongos: () => (mongos = mongos || mongosClient({ mongos: env.mongos, ...auth })),
      close: async () => { await members.close(); if (mongos) await mongos.close(); },
    };
  };
  try {
    return await runScenario(scenario, { params, env, docker, say, dryRun: common['dry-run'], resultsRoot: common['results-dir'], makeContext, relayed: docker });
  } finally {
    // a signal relayed after the run ended is the one it already answered: not raised again
    docker.on('signal', () => {});
    docker.close();
  }
}

module.exports = { runCommand, parse, loadScenario, scenarioNames, UsageError };
