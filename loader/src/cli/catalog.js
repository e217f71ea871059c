'use strict';
// The experiments on offer: every NAME.yaml in the experiments folder, with its description:
// its first comment line without "NAME: ". ./run.sh help reads the same line in bash (so that
// help works without Node).
const fs = require('node:fs');
const path = require('node:path');
const { list, loaded, EXPERIMENTS_DIR } = require('../experiment/config');
const { wrapLine } = require('../text/wrap');
// row(flag, text): one help row as the rest of the help has it (flag-help.js)
const { row } = require('./flag-help');

function describeFile(file) {
  const first = /^#[ \t]*(.*)/.exec(fs.readFileSync(file, 'utf8'));
  return first ? first[1].replace(/^[A-Za-z0-9_.-]+:\s*/, '') : '';
}

function print(dir = EXPERIMENTS_DIR, out) {
  for (const name of list(dir)) out.write(`${name}\t${describeFile(path.join(dir, `${name}.yaml`))}\n`);
  return 0;
}

// declared(o, values): beside a kind option's help, its declared default (or required) and file
// key with the value each experiment file gives there, e.g. "[default 5s; file: workload.wtimeout = 5s]".
function declared(o, values) {
  const set = values.map(([name, text]) => (values.length > 1 ? `${text} (${name})` : text)).join(', ');
  return `[${o.required ? 'required' : `default ${o.default ?? 'none'}`}${o.file ? `; file: ${o.file}${set && ` = ${set}`}` : ''}]`;
}

// fileValues(runs, key): [[experiment, text]] for each loaded experiment whose file sets option key.
const fileValues = (runs, key) => runs.filter((r) => r.settings[key]?.source === 'file').map((r) => [r.config.name, r.settings[key].text]);

// settingsLines(kind, settings): `check`'s account of the kind's own settings and where each came
// from (flag, file or default), within 120 columns, each kept whole; '' for a kind without any.
function settingsLines(kindName, settings) {
  const items = Object.values(settings).map((s) => `${s.flag} ${s.text} (${s.source})`.replaceAll(' ', '\u00a0'));
  return items.length ? wrapLine(`${kindName} settings: ${items.join(', ')}`).replaceAll('\u00a0', ' ') : '';
}

// flagsHelp(name, dir): the flags of experiment NAME's workload kind (NAME --help), or '' when
// NAME is not an experiment.
function flagsHelp(name, dir = EXPERIMENTS_DIR) {
  const { kind, flagsOf } = require('../kinds');
  const run = loaded(name, dir);
  if (!run) return '';
  const k = kind(run.config.workload.type);
  const lines = Object.entries(k.options || {}).map(([key, o]) => row(o.flag, `${o.help} ${declared(o, fileValues([run], key))}`));
  return `\n${wrapLine(`${run.config.name} (workload ${k.name}) takes ${flagsOf(k).join(', ') || 'no workload flags'}${lines.length ? ':' : ''}`)}\n${lines.map((l) => `${l}\n`).join('')}`;
}

// printKindFlags(dir, out): every workload kind's own flags, one row each, named by the
// experiments of that kind, with each flag's default and file key (./run.sh help lists them under
// "Experiment flags": the kinds declare them, so a new kind's flags appear with no list to edit).
// Kinds no experiment uses are left out.
function printKindFlags(dir = EXPERIMENTS_DIR, out) {
  const { kind } = require('../kinds');
  const byKind = new Map();
  for (const run of list(dir).map((name) => loaded(name, dir)).filter(Boolean)) {
    byKind.set(run.config.workload.type, [...(byKind.get(run.config.workload.type) || []), run]);
  }
  for (const [type, runs] of byKind) {
    for (const [key, o] of Object.entries(kind(type).options || {})) {
      out.write(`${row(o.flag, `${runs.map((r) => r.config.name).join('/')}: ${o.help} ${declared(o, fileValues(runs, key))}`)}\n`);
    }
  }
  return 0;
}

module.exports = { print, flagsHelp, printKindFlags, settingsLines };
