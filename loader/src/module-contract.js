'use strict';
// The plug-in contracts, checked when a module is loaded rather than when a part is first used: a
// workload kind (src/kinds/, its parts documented in src/kinds/index.js) and a fault scenario
// (src/faults/scenarios/, src/faults/runner.js). A kind without `bound` used to die inside `check`
// with a TypeError, one without `shape` passed, and a scenario without `heal` was found after
// `apply` had changed the cluster. The tests call the same check (fileProblem).
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

const typed = (type) => ({ holds: (v) => typeof v === type, says: `a ${type}` });
const oneOf = (values) => ({ holds: (v) => values.includes(v), says: `one of ${values.join(', ')}` });
const opNames = {
  holds: (v) => Array.isArray(v) && v.length > 0 && v.every((o) => typeof o === 'string'),
  says: 'a list of op names',
};
const positive = { holds: (v) => typeof v === 'number' && v > 0, says: 'a number above 0' };

const KIND = {
  name: typed('string'),
  ops: opNames,
  opsPerIteration: positive,
  bound: oneOf(['documents', 'duration', 'own']),
  needsPreload: typed('boolean'),
  shape: oneOf(['steps', 'cases']),
  next: typed('function'),
};

// Each of a kind's own settings (kinds/index.js `options`): its flag, its parser, its help, which
// leaves the default and the file key to the declaration (the help text prints them from it).
const OPTION = {
  flag: { holds: (v) => typeof v === 'string' && /^--[a-z][a-z-]*$/.test(v), says: 'a flag such as --limit' },
  parse: typed('function'),
  help: { holds: (v) => typeof v === 'string' && !/\(default|\(file:|file: /.test(v),
    says: 'a string that leaves the default and the file key out (they are printed from the declaration)' },
};

// optionsProblem(options) -> null or the first option that is not a whole declaration: the parts
// above, a default or `required` (not both), a `file` key for a required one, a default its own
// parser takes.
function optionsProblem(options) {
  for (const [key, o] of Object.entries(options || {})) {
    let problem = contractProblem(o, OPTION);
    if (!problem && o.required && 'default' in o) problem = 'a default or `required`, not both';
    if (!problem && o.required && typeof o.file !== 'string') problem = 'required, with no `file` key to read it from';
    if (!problem && 'default' in o) {
      try {
        o.parse(o.flag, o.default);
      } catch (e) {
        problem = `its default '${o.default}' does not parse: ${e.message}`;
      }
    }
    if (problem) return `options.${key}: ${problem}`;
  }
  return null;
}

const SCENARIO = {
  name: typed('string'),
  summary: typed('string'),
  ...Object.fromEntries(['check', 'plan', 'apply', 'watch', 'heal', 'verdict'].map((part) => [part, typed('function')])),
};

// contractProblem(mod, contract) -> null, or the first part the module lacks or has wrong, said as
// "no `bound` (one of documents, duration, own)" or "`shape` is 'rows', not one of steps, cases".
function contractProblem(mod, contract) {
  for (const [part, want] of Object.entries(contract)) {
    const value = mod ? mod[part] : undefined;
    if (value === undefined) return `no \`${part}\` (${want.says})`;
    if (!want.holds(value)) return `\`${part}\` is ${JSON.stringify(value)}, not ${want.says}`;
  }
  return null;
}

// shownPath(file): the file as a reader finds it, from the repository's root when it is inside.
function shownPath(file) {
  const rel = path.relative(REPO_ROOT, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}

// fileProblem(file, mod, contract) -> null or the one line: the file, then what it lacks (a kind's
// options too).
function fileProblem(file, mod, contract) {
  const problem = contractProblem(mod, contract) || (contract === KIND ? optionsProblem(mod.options) : null);
  return problem && `${shownPath(file)}: ${problem}`;
}

// refuseAtLoad(line): the one line and exit 2, the loader's usage-error exit (bin/lab-loader.js).
// The kinds are read while the loader's modules load, before a command's own error handling runs,
// so a thrown error would end in a stack trace and exit 1.
function refuseAtLoad(line) {
  process.stderr.write(`error: ${line}\n`);
  process.exit(2);
}

module.exports = { KIND, SCENARIO, contractProblem, optionsProblem, fileProblem, shownPath, refuseAtLoad };
