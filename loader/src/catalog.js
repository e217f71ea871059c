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

module.exports = { print, describeFile };
