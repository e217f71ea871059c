'use strict';
// Every default `./run.sh help` states for an experiment flag, checked against the code that
// applies it: the loader's parser and each experiment file as config.js loads it (issue 38: the
// help said --repeat defaults to 1 while writeconcern and journal ran 3 and gridfs 5, and --seed 4
// for files that set 0..3). Also: the whole help fits 120 columns.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { parse, DEFAULT_METRICS_PORT } = require('../src/args');
const { load } = require('../src/config');

const REPO = path.resolve(__dirname, '..', '..');
const HELP = execFileSync(path.join(REPO, 'run.sh'), ['help'], { encoding: 'utf8' });
const EXPERIMENTS = fs.readdirSync(path.join(REPO, 'experiments')).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)).sort();
const configOf = (name) => load(parse([name, '--experiments-dir', path.join(REPO, 'experiments')])).config;

// entry('--repeat') -> the flag's help text, its continuation lines joined (one space each).
function entry(flag) {
  const lines = HELP.split('\n');
  const i = lines.findIndex((l) => l.startsWith(`  ${flag} `));
  assert.ok(i >= 0, `${flag} is in ./run.sh help`);
  const out = [lines[i]];
  for (let j = i + 1; j < lines.length && /^ {26}\S/.test(lines[j]); j++) out.push(lines[j]);
  return out.map((l) => l.trim()).join(' ');
}

// perExperiment('journal 3, gridfs 5') -> { journal: '3', gridfs: '5' }
const perExperiment = (text) => Object.fromEntries(text.split(/,\s*/).map((p) => p.trim().split(/\s+/)));
const ms = (text) => {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60000, h: 3600000 }[m[2] || 's'];
};

test('./run.sh help fits 120 columns', () => {
  const wide = HELP.split('\n').filter((l) => l.length > 120);
  assert.deepEqual(wide, [], 'lines over 120 columns');
});

test('--repeat: default 1, and each experiment file that sets its own, as the loader applies them', () => {
  const m = /\(default 1; the experiment files: ([^)]*)\)/.exec(entry('--repeat'));
  assert.ok(m, entry('--repeat'));
  const stated = perExperiment(m[1]);
  for (const name of EXPERIMENTS) assert.equal(configOf(name).repeat, Number(stated[name] ?? 1), `${name}: --repeat default`);
});

test('--seed and the warm-up: each experiment file\'s value, as the loader applies it', () => {
  const seeds = perExperiment(/the experiment file's, ([^)]*)\)/.exec(entry('--seed'))[1]);
  const warmups = perExperiment(/--warmup DUR: ([^)]*)\)/.exec(entry('--duration'))[1]);
  for (const name of EXPERIMENTS) {
    assert.equal(configOf(name).seed, Number(seeds[name]), `${name}: --seed default`);
    assert.equal(configOf(name).warmupMs, ms(warmups[name]), `${name}: warm-up`);
  }
});

// A workload kind's own flags state their declared defaults and each file's value: kind-options.test.js.
test('--docs, --preload-docs, --clients, --duration: the defaults stated are the experiment files\'', () => {
  const num = (flag) => Number(/\(default (\d+)/.exec(entry(flag))[1]);
  assert.equal(configOf('experiment1').workload.docs, num('--docs'));
  assert.equal(configOf('experiment2').preload.docs, num('--preload-docs'));
  assert.equal(configOf('experiment3').preload.docs, num('--preload-docs'));
  const clients = /\(default ([\d,]+); experiment1: ([\d,]+)\)/.exec(entry('--clients'));
  assert.deepEqual(configOf('experiment2').workload.clients, clients[1].split(',').map(Number));
  assert.deepEqual(configOf('experiment1').workload.clients, clients[2].split(',').map(Number));
  const duration = ms(/\(default (\w+)\)/.exec(entry('--duration'))[1]);
  for (const name of ['experiment2', 'experiment3', 'ycsb-a']) assert.equal(configOf(name).workload.durationMs, duration, `${name}: --duration`);
});

test('--server-selection-timeout, --stall-timeout, --metrics-port: the parser\'s defaults', () => {
  const o = parse(['experiment2']);
  assert.equal(o.serverSelectionTimeoutMs, ms(/\(default (\w+)\)/.exec(entry('--server-selection-timeout'))[1]));
  assert.equal(o.stallTimeoutMs, ms(/\(default (\w+)\)/.exec(entry('--stall-timeout'))[1]));
  assert.equal(DEFAULT_METRICS_PORT, Number(/\(default (\d+)/.exec(entry('--metrics-port'))[1]));
});

test('README: the exit codes it lists include SIGTERM\'s 143 (./run.sh exits with it: runsh-term.test.js)', () => {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  const codes = /Exit codes: ([^.]*)\./.exec(readme)[1];
  for (const c of ['0 ok', '1 environment', '2 bad usage', '130 interrupted', '143 stopped by SIGTERM']) assert.ok(codes.includes(c), `README exit codes: ${codes}`);
  assert.match(readme, /--results-dir DIR/, 'the flag messages suggest is documented');
});
