'use strict';
// One whole-number grammar: src/text/numbers.js gives exactly test/vectors/counts.tsv, as
// lib/common.sh parse_count does (test/numbers.bats); and the loader's flags reach it with a
// negative value (util.parseArgs took "-5" for a flag: "--docs needs a value").
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { wholeNumber } = require('../src/text/numbers');
const { parse } = require('../src/cli/args');

const VECTORS = path.resolve(__dirname, '..', '..', 'test', 'vectors', 'counts.tsv');

test('wholeNumber gives exactly test/vectors/counts.tsv', () => {
  const rows = fs.readFileSync(VECTORS, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t'));
  assert.ok(rows.length >= 20, `${rows.length} vectors`);
  for (const [input, min, max, expected] of rows) {
    const r = wholeNumber('FLAG', input, Number(min), Number(max));
    assert.equal(r.error ? `error: ${r.error}` : String(r.value), expected, `'${input}' ${min}..${max}`);
  }
});

test('negative values reach the grammar, with a space or =, for every numeric flag; a missing value is still "needs a value"', () => {
  const uri = ['--uri', 'mongodb://127.0.0.1:1/'];
  for (const [args, message] of [
    [['--docs', '-5'], '--docs: -5 is out of range 1..9007199254740991'],
    [['--docs=-5'], '--docs: -5 is out of range 1..9007199254740991'],
    [['--rate', '-10'], '--rate: -10 is out of range 1..10000000'],
    [['--seed=-1'], '--seed: -1 is out of range 0..4294967295'],
    [['--workers', '-2'], '--workers: -2 is out of range 1..256'],
    [['--docs', '99999999999999999999999'], '--docs: 99999999999999999999999 is out of range 1..9007199254740991'],
    [['--duration', '-5s'], "--duration '-5s' is not a duration (use a number and a unit: 500ms, 30s, 2m, 1h; decimals allowed)"],
    [['--docs'], '--docs needs a value'],
    [['--docs', '--clients', '1'], '--docs needs a value'],
  ]) {
    assert.throws(() => parse(['experiment1', ...uri, ...args]), (e) => e.message === message, `${args.join(' ')}: expected '${message}'`);
  }
});
