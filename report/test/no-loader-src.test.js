'use strict';
// The report reads results, never the loader's source: what both compute lives in common/
// (DEVELOPERS.md, Layout), so the report runs from a checkout or an image without loader/src.
// Every module of report/src is loaded (bin/lab-report.js is src/cli.js run) and the files Node
// loaded are listed.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const REPORT = path.resolve(__dirname, '..');
const LOADER = path.resolve(REPORT, '..', 'loader');

test('no module of the report loads a file of loader/', () => {
  const src = path.join(REPORT, 'src');
  const modules = fs.readdirSync(src).filter((f) => f.endsWith('.js')).map((f) => path.join(src, f));
  assert.ok(modules.length > 20, `found ${modules.length} report modules`);
  for (const m of modules) {
    // the browser's scripts (page.js and the sections html.js inlines) need a page to load in
    try { require(m); } catch (e) { if (!/document|window/.test(e.message)) throw e; }
  }
  const fromLoader = Object.keys(require.cache).filter((f) => f.startsWith(LOADER + path.sep) && !f.includes(`${path.sep}node_modules${path.sep}`));
  assert.deepEqual(fromLoader, [], 'report modules that load loader/ files');
});
