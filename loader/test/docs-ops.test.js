'use strict';
// DEVELOPERS.md names the op label's values of lab_loader_ops_total: exactly the kinds' op names
// (src/kinds/index.js OPS), in their order. It once named insert|find|update only, while the
// kinds record upload, download and read too.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { OPS } = require('../src/kinds');

test('DEVELOPERS.md lists every op the kinds record, and no other', () => {
  const text = fs.readFileSync(path.join(__dirname, '..', '..', 'DEVELOPERS.md'), 'utf8');
  const m = /lab_loader_ops_total\{experiment,op,outcome\}[^]*?OPS: ([a-z_|]+)\)/.exec(text);
  assert.ok(m, 'DEVELOPERS.md: lab_loader_ops_total names its ops as "OPS: a|b|..."');
  assert.deepEqual(m[1].split('|'), OPS);
});
