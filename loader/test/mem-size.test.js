'use strict';
// One Compose memory-size rule per language: common/mem-size.js gives exactly
// test/vectors/mem-sizes.tsv, as lib/common.sh's mem_bytes does (test/numbers.bats). The report's
// data-against-memory claim reads the profiles' data_mem through it.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { memBytes } = require('../../common/mem-size');
const tables = require('../../common/tables');

const VECTORS = path.resolve(__dirname, '..', '..', 'test', 'vectors', 'mem-sizes.tsv');

test('memBytes gives exactly test/vectors/mem-sizes.tsv', () => {
  const lines = fs.readFileSync(VECTORS, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  assert.ok(lines.length >= 15, `only ${lines.length} vectors`);
  for (const line of lines) {
    const [input, want] = line.split('\t');
    assert.equal(memBytes(input), want === '-' ? null : Number(want), `'${input}'`);
  }
});

test('every profile\'s data_mem and cfg_mem is a size by that rule', () => {
  for (const p of tables.readTable('profiles')) {
    for (const col of ['data_mem', 'cfg_mem']) assert.ok(memBytes(p[col]) > 0, `${p.profile}.${col} '${p[col]}'`);
  }
});
