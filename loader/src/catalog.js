'use strict';
// The experiments on offer: every NAME.yaml in the experiments folder, with its description:
// its first comment line without "NAME: ". ./run.sh help reads the same line in bash (so that
// help works without Node).
const fs = require('node:fs');
const path = require('node:path');
const { list, EXPERIMENTS_DIR } = require('./config');

function describeFile(file) {
  const first = /^#[ \t]*(.*)/.exec(fs.readFileSync(file, 'utf8'));
  return first ? first[1].replace(/^[A-Za-z0-9_.-]+:\s*/, '') : '';
}

function print(dir = EXPERIMENTS_DIR, out) {
  for (const name of list(dir)) out.write(`${name}\t${describeFile(path.join(dir, `${name}.yaml`))}\n`);
  return 0;
}

// flagsHelp(name, dir): the flags of experiment NAME's workload kind (NAME --help), or '' when
// NAME is not an experiment or its kind has no flags of its own.
function flagsHelp(name, dir = EXPERIMENTS_DIR) {
  const { load } = require('./config');
  const { kind, flagsOf } = require('./kinds');
  let config;
  try {
    ({ config } = load({ experiment: name, experimentsDir: dir, kindArgs: {} }));
  } catch {
    return '';
  }
  const k = kind(config.workload.type);
  const lines = Object.values(k.options || {}).map((o) => `  ${o.flag.padEnd(32)}${o.help || ''}`);
  return `\n${config.name} (workload ${k.name}) takes ${flagsOf(k).join(', ') || 'no workload flags'}${lines.length ? ':\n' + lines.join('\n') : ''}\n`;
}

// printKindFlags(dir, out): every workload kind's own flags, one line each, named by the
// experiments of that kind (./run.sh help lists them under "Experiment flags": the kinds declare
// them, so a new kind's flags appear with no list to edit). Kinds no experiment uses are left out.
const { wrapLine, WIDTH } = require('./wrap');

function printKindFlags(dir = EXPERIMENTS_DIR, out) {
  const { load } = require('./config');
  const { kind } = require('./kinds');
  const byKind = new Map();
  for (const name of list(dir)) {
    try {
      const { config } = load({ experiment: name, experimentsDir: dir, kindArgs: {} });
      if (!byKind.has(config.workload.type)) byKind.set(config.workload.type, []);
      byKind.get(config.workload.type).push(name);
    } catch { /* a file that does not load says so when it is run or checked */ }
  }
  for (const [type, names] of byKind) {
    // within 120 columns like the rest of the help (src/wrap.js): the text wrapped in its own
    // column, continuation lines under it (the flag's padding is not prose to wrap)
    for (const o of Object.values(kind(type).options || {})) {
      const [first, ...rest] = wrapLine(`${names.join('/')}: ${o.help || ''}`, WIDTH - 26, '').split('\n');
      out.write([`  ${o.flag.padEnd(22)}  ${first}`, ...rest.map((l) => `${' '.repeat(26)}${l}`)].join('\n') + '\n');
    }
  }
  return 0;
}

module.exports = { print, describeFile, flagsHelp, printKindFlags };
