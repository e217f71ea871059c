'use strict';
// src/gridfs/size.js: GNU dd's size grammar (B; KB MB GB TB = 10^3..; K/KiB M/MiB G/GiB T/TiB =
// 2^10..), whole bytes, a unit always, one-line refusals.
const test = require('node:test');
const assert = require('node:assert/strict');
const { parseSize, formatBytes } = require('../src/gridfs/size');
const { UsageError } = require('../src/text/usage');

test('sizes in both families of units, decimals that come to whole bytes', () => {
  const cases = {
    '1B': 1, '1000B': 1000, '1KB': 1000, '1kB': 1000, '1K': 1024, '1KiB': 1024, '255KiB': 261120,
    '64MB': 64e6, '1M': 1048576, '1MiB': 1048576, '5GB': 5e9, '5G': 5368709120, '5GiB': 5368709120,
    '2TB': 2e12, '1TiB': 1024 ** 4, '1.5KB': 1500, '1.1KB': 1100, '0.5KiB': 512, '2.5M': 2621440,
  };
  for (const [text, bytes] of Object.entries(cases)) assert.equal(parseSize('--file-size', text), bytes, text);
});

test('refused with one line naming the flag: zero, no unit, unknown or miscased unit, fractions of a byte, out of range', () => {
  const cases = [
    ['0', /^--file-size: '0' is zero bytes/],
    ['0.0GB', /^--file-size: '0\.0GB' is zero bytes/],
    ['5', /^--file-size: '5' has no unit \(e\.g\. 5MB; units B; KB, MB, GB, TB = 10\^3\.\.; K\/KiB, M\/MiB, G\/GiB, T\/TiB = 2\^10\.\.\)$/],
    ['5gb', /^--file-size: unknown unit 'gb' in '5gb'/],
    ['5Gb', /^--file-size: unknown unit 'Gb'/],
    ['5PB', /^--file-size: unknown unit 'PB'/],
    ['5 MB', /^--file-size: '5 MB' is not a size/],
    ['-5MB', /^--file-size: '-5MB' is not a size/],
    ['MB', /^--file-size: 'MB' is not a size/],
    ['', /^--file-size: '' is not a size/],
    ['1e3B', /^--file-size: '1e3B' is not a size/],
    ['1.0001KB', /^--file-size: '1\.0001KB' is not a whole number of bytes/],
    ['0.3B', /^--file-size: '0\.3B' is not a whole number of bytes/],
    ['2048TiB', /^--file-size: '2048TiB' \(\d+ bytes\) is out of range 1 B\.\.1024 TiB$/],
  ];
  for (const [text, want] of cases) {
    assert.throws(() => parseSize('--file-size', text), (e) => e instanceof UsageError && want.test(e.message) && !e.message.includes('\n'), text);
  }
  assert.throws(() => parseSize('--chunk-size', '2MB', { max: 1e6 }), /^Error: --chunk-size: '2MB' \(2000000 bytes\) is out of range 1 B\.\.1 MB$/);
});

test('formatBytes: the shortest exact form', () => {
  assert.equal(formatBytes(261120), '255 KiB');
  assert.equal(formatBytes(5e9), '5 GB');
  assert.equal(formatBytes(5368709120), '5 GiB');
  assert.equal(formatBytes(1000003), '1000003 B');
});
