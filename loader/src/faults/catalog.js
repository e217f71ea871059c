'use strict';
// The fault scenarios as ./run.sh sees them, read from the modules themselves (as src/cli/catalog.js
// reads experiments/*.yaml): every module in scenarios/ is a scenario, its `summary` and the
// `help` of its options are its usage, its check() is the only validator and its hooks() the
// named stack hooks bash performs before the process starts (docker-ops.tsv, kind hook).
//   usage(dir)        the "Fault flags" section of ./run.sh help
//   check(argv)       lab-fault.js check: parse + check, then one protocol request line per hook
const { scenarioNames, loadScenario, parse, UsageError } = require('./process');
const { encodeRequest, TABLE } = require('./protocol');
const tables = require('../../../common/tables');

const { columns } = require('../../../common/text');

// row(first, text): a scenario or option row of the help, its text from column 26 within 120
// columns like the rest of ./run.sh help (common/text.js columns), the module's whitespace (a
// summary written over several lines) as single spaces.
const row = (first, text) => columns(first, String(text).split(/\s+/).filter(Boolean).join(' '));

// usage(dir) -> text: per scenario "fault NAME  summary", then each option that has `help`
// (options without one are tuning knobs for the tests, accepted but not listed).
function usage(dir) {
  const env = { shard: tables.shardSet(), engine: null }; // what a help may name: no engine chosen yet
  const parts = [];
  for (const name of scenarioNames(dir)) {
    const s = loadScenario(name, dir);
    parts.push(row(`  fault ${name}`, s.summary || '(no summary: add one to the module)'));
    for (const [flag, o] of Object.entries(s.options || {})) {
      if (!o.help) continue;
      const help = typeof o.help === 'function' ? o.help(env) : o.help;
      const dflt = o.default !== undefined && o.default !== '' ? ` (default ${o.default})` : '';
      parts.push(row(`    --${flag}${o.arg ? ` ${o.arg}` : ''}`, `${help}${dflt}`));
    }
  }
  return `${parts.join('\n')}\n`;
}

// check(argv) -> lines: the scenario's flags parsed and checked (UsageError otherwise), then its
// stack hooks as protocol request lines (id 0: no reply is awaited; bash performs them).
function check(argv) {
  const { scenario, params, env } = parse(argv);
  const hooks = scenario.hooks ? scenario.hooks(params, env) : [];
  return hooks.map(({ op, args = {} }) => {
    if (!TABLE[op] || TABLE[op].kind !== 'hook') throw new Error(`${scenario.name}: '${op}' is not a stack hook (docker-ops.tsv kind hook)`);
    return encodeRequest(0, op, args);
  });
}

module.exports = { usage, check, row, UsageError };
