'use strict';
// One name grammar: common/names.js gives exactly test/vectors/names.tsv, as lib/common.sh is_name
// does (test/names.bats); the loader's --engine and --comparison and the experiment file's name:
// are judged by it.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { isName, NAME_WORDS, RESERVED_NAMES } = require('../../common/names');

const VECTORS = path.resolve(__dirname, '..', '..', 'test', 'vectors', 'names.tsv');

test('isName gives exactly test/vectors/names.tsv', () => {
  let n = 0;
  for (const line of fs.readFileSync(VECTORS, 'utf8').split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [input, want] = line.split('\t');
    assert.equal(isName(input), want === 'yes', `'${input}'`);
    n += 1;
  }
  assert.ok(n >= 20, `only ${n} vectors read`);
  for (const x of ['', undefined, null, 42]) assert.equal(isName(x), false, String(x));
});

test('the loader refuses, in the grammar\'s own words, what the grammar refuses', () => {
  const { parse } = require('../../loader/src/cli/args');
  assert.throws(() => parse(['experiment1', '--engine', '.hidden']),
    { message: `--engine: '.hidden' is not a valid label (${NAME_WORDS})` });
  assert.throws(() => parse(['experiment1', '--comparison', 'cmp-1:_side:2']), /is not ID:SIDE:POSITION/);
  const c = parse(['experiment1', '--comparison', 'cmp-1:side.a:2']).comparison;
  assert.deepEqual({ ...c }, { id: 'cmp-1', side: 'side.a', position: 2 });
  for (const r of RESERVED_NAMES) assert.ok(isName(r), `${r}: a name, refused by the list, not the grammar`);
});
