'use strict';
// The experiment flags' help is the loader's, once (src/cli/flag-help.js): `./run.sh help` and
// `./run.sh NAME --help` print what `lab-loader flags` gives, and each default they state is the
// value config.js applies to each experiment file (help's defaults are read from the files).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { parse, usage, COMMON_OPTIONS } = require('../src/cli/args');
const { load, list } = require('../src/experiment/config');
const { durText } = require('../src/cli/common-flags');

const REPO = path.resolve(__dirname, '..', '..');
const DIR = path.join(REPO, 'experiments');
const runsh = (...args) => execFileSync(path.join(REPO, 'run.sh'), args, { encoding: 'utf8' });
const loader = (...args) => execFileSync(process.execPath, [path.join(REPO, 'loader', 'bin', 'lab-loader.js'), ...args, '--experiments-dir', DIR], { encoding: 'utf8' });
const configOf = (name) => load(parse([name, '--experiments-dir', DIR])).config;

// entry(text, flag) -> the flag's help row, its continuation lines joined (one space each).
function entry(text, flag) {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.startsWith(`  ${flag} `) || l === `  ${flag}`);
  assert.ok(i >= 0, `${flag} is in the help`);
  const out = [lines[i]];
  for (let j = i + 1; j < lines.length && /^ {26}\S/.test(lines[j]); j++) out.push(lines[j]);
  return out.map((l) => l.trim()).join(' ');
}

// valuesIn('(default 1; journal/writeconcern 3, gridfs 5)', names) -> { experiment: '1', ... }
function valuesIn(row, names) {
  const m = /\(((?:default [^;)]+)?(?:;\s*)?[^()]*)\)$/.exec(row);
  assert.ok(m, `a defaults list closes the row: ${row}`);
  const out = {};
  let dflt;
  for (const part of m[1].split(/;\s*|,\s+(?=[A-Za-z])/)) {
    const d = /^default (.+)$/.exec(part);
    if (d) { dflt = d[1]; continue; }
    const [who, value] = part.split(/\s+/);
    for (const n of who.split('/')) out[n] = value;
  }
  for (const n of names) out[n] ??= dflt;
  return out;
}

test('./run.sh help prints the loader\'s experiment flags, within 120 columns', () => {
  const help = runsh('help');
  const flags = loader('flags');
  for (const line of flags.split('\n').filter(Boolean)) assert.ok(help.includes(line), `./run.sh help lacks: ${line}`);
  assert.deepEqual(help.split('\n').filter((l) => l.length > 120), [], 'lines over 120 columns');
});

test('NAME --help: the loader\'s flags for NAME, within 120 columns', () => {
  const names = list(DIR);
  assert.ok(names.length >= 5, `experiments: ${names}`);
  for (const name of names) {
    const help = runsh(name, '--help');
    const flags = loader('flags', name);
    // the flags every experiment takes, each in NAME's list: an empty list would check nothing
    for (const flag of ['--repeat N', '--seed N', '--warmup DUR', '--results-dir DIR']) {
      assert.ok(flags.split('\n').some((l) => l.startsWith(`  ${flag} `)), `lab-loader flags ${name} lacks ${flag}:\n${flags}`);
    }
    for (const line of flags.split('\n').filter(Boolean)) assert.ok(help.includes(line), `${name} --help lacks: ${line}`);
    assert.deepEqual(help.split('\n').filter((l) => l.length > 120), [], `${name} --help: lines over 120 columns`);
  }
});

test('each default the help states for a flag the files set is the value the loader applies to each file', () => {
  const help = loader('flags');
  const names = list(DIR);
  const checks = {
    '--repeat N': (c) => String(c.repeat),
    '--seed N': (c) => String(c.seed),
    '--warmup DUR': (c) => durText(c.warmupMs),
    '--clients LIST': (c) => c.workload.clients.join(','),
  };
  for (const [flag, value] of Object.entries(checks)) {
    const stated = valuesIn(entry(help, flag), names);
    for (const name of names) assert.equal(stated[name], value(configOf(name)), `${name}: ${flag} in help: ${entry(help, flag)}`);
  }
  // a flag some experiments take: only those, each with its value
  const docs = valuesIn(entry(help, '--docs N'), []);
  const taking = names.filter((n) => configOf(n).workload.docs !== undefined);
  assert.deepEqual(Object.keys(docs).sort(), taking.sort(), entry(help, '--docs N'));
  for (const n of taking) assert.equal(docs[n], String(configOf(n).workload.docs), `${n}: --docs`);
});

// One table holds each common flag's parse spec and help row (src/cli/common-flags.js); this holds the
// two together where they are used: a flag parsed without a row in --help (a row whose group no
// section shows, an option added to the parser alone), or a row the parser does not take.
test('every common flag the parser takes has a row in lab-loader --help, and every row there parses', () => {
  const rows = usage(DIR).split('\n').map((l) => /^ {2}(?:-\w, )?(--[a-z-]+)/.exec(l)?.[1]).filter(Boolean);
  assert.deepEqual([...rows].sort(), Object.keys(COMMON_OPTIONS).map((k) => `--${k}`).sort());
  for (const flag of rows) {
    try {
      parse(['experiment1', flag]);
    } catch (e) {
      assert.doesNotMatch(e.message, /unknown flag/, `${flag} has a help row the parser does not take`);
    }
  }
});

test('README: the exit codes it lists include SIGTERM\'s 143 (./run.sh exits with it: runsh-term.test.js)', () => {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  const codes = /Exit codes: ([^.]*)\./.exec(readme)[1];
  for (const c of ['0 ok', '1 environment', '2 bad usage', '130 interrupted', '143 stopped by SIGTERM']) assert.ok(codes.includes(c), `README exit codes: ${codes}`);
  assert.match(readme, /--results-dir DIR/, 'the flag messages suggest is documented');
});
