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

const WIDTH = 100;
const COL = 26; // where descriptions start, as in run.sh's own usage text

// wrap(text, first, indent): text after a first column of width COL, wrapped at WIDTH.
function wrap(first, text) {
  const out = [];
  let line = first.length >= COL ? `${first} ` : first.padEnd(COL);
  for (const w of String(text).split(/\s+/).filter(Boolean)) {
    if (line.length + w.length > WIDTH && line.trim().length > 0 && line.length > COL) {
      out.push(line.trimEnd());
      line = ' '.repeat(COL);
    }
    line += `${w} `;
  }
  out.push(line.trimEnd());
  return out.join('\n');
}

// usage(dir) -> text: per scenario "fault NAME  summary", then each option that has `help`
// (options without one are tuning knobs for the tests, accepted but not listed).
function usage(dir) {
  const env = { shard: tables.shardSet(), engine: null }; // what a help may name: no engine chosen yet
  const parts = [];
  for (const name of scenarioNames(dir)) {
    const s = loadScenario(name, dir);
    parts.push(wrap(`  fault ${name}`, s.summary || '(no summary: add one to the module)'));
    for (const [flag, o] of Object.entries(s.options || {})) {
      if (!o.help) continue;
      const help = typeof o.help === 'function' ? o.help(env) : o.help;
      const dflt = o.default !== undefined && o.default !== '' ? ` (default ${o.default})` : '';
      parts.push(wrap(`    --${flag}${o.arg ? ` ${o.arg}` : ''}`, `${help}${dflt}`));
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

module.exports = { usage, check, wrap, UsageError };
