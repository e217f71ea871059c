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

module.exports = { print, describeFile, flagsHelp };
