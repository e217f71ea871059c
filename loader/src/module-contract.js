'use strict';
// The plug-in contracts, checked when a module is loaded rather than when a part is first used: a
// workload kind (src/kinds/, its parts documented in src/kinds/index.js) and a fault scenario
// (src/faults/scenarios/, src/faults/runner.js). A kind without `bound` used to die inside `check`
// with a TypeError, one without `shape` passed, and a scenario without `heal` was found after
// `apply` had changed the cluster. The tests call the same check (contractProblem).
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

const SCENARIO = {
  name: typed('string'),
  summary: typed('string'),
  check: typed('function'),
  plan: typed('function'),
  apply: typed('function'),
  watch: typed('function'),
  heal: typed('function'),
  verdict: typed('function'),
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

// fileProblem(file, mod, contract) -> null or the one line: the file, then what it lacks.
function fileProblem(file, mod, contract) {
  const problem = contractProblem(mod, contract);
  return problem && `${shownPath(file)}: ${problem}`;
}

// refuseAtLoad(line): the one line and exit 2, the loader's usage-error exit (bin/lab-loader.js).
// The kinds are read while the loader's modules load, before a command's own error handling runs,
// so a thrown error would end in a stack trace and exit 1.
function refuseAtLoad(line) {
  process.stderr.write(`error: ${line}\n`);
  process.exit(2);
}

module.exports = { KIND, SCENARIO, contractProblem, fileProblem, shownPath, refuseAtLoad };
