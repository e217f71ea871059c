'use strict';
// The seed's published figures under a set's table are printed as published (gridfs'
// 27.25, 21.19, 14.36 MiB/s printed as 27, 21, 14). Real loader runs (gridfs, 4 MB, against the
// loader's test server), then the report's --wide text.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir } = require('./support/fixtures');
const { main } = require('../src/cli');

const LOADER_TEST = path.resolve(__dirname, '..', '..', 'loader', 'test', 'support');

test('published: gridfs\'s MiB/s figures unrounded (27.25, 21.19, 14.36)', async () => {
  const server = await require(path.join(LOADER_TEST, 'server.js')).testServer();
  const results = tmpDir();
  try {
    const { runLoader } = require(path.join(LOADER_TEST, 'loader.js'));
    const r = await runLoader(['gridfs', '--uri', server.uri, '--file-size', '4MB', '--repeat', '1', '--results-dir', results, '--metrics-port', '0', '--engine', 'pub']);
    assert.equal(r.code, 0, r.stderr);
    let out = '';
    assert.equal(main(['--results-dir', results, '--wide'], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
    // The measured side in the published unit too: MB/s (10^6 bytes) and MiB/s (2^20) per chunk op.
    const head = out.split('\n').find((l) => /^point\s+engine/.test(l));
    assert.ok(head, out);
    for (const col of ['MB/s median', 'MiB/s median']) assert.match(head, new RegExp(`(upload|download|chunk)\\S* ${col.replace('/', '\\/')}`), head);
    const cols = head.trim().split(/\s{2,}/);
    const rows = out.split('\n').filter((l) => /^(upload|download)\s+pub\s/.test(l)).map((l) => l.trim().split(/\s+/));
    let pairs = 0;
    for (const cells of rows) {
      cols.forEach((h, i) => {
        if (!/ MB\/s median$/.test(h) || !/ MiB\/s median$/.test(cols[i + 1]) || cells[i] === '-') return;
        const mb = Number(cells[i]);
        const mib = Number(cells[i + 1]);
        assert.ok(mb > 0 && Math.abs(mib - (mb * 1e6) / 2 ** 20) < 0.002, `${h}: ${mb} MB/s, ${mib} MiB/s`);
        pairs++;
      });
    }
    assert.equal(pairs, 2, `one MB/s and MiB/s pair for the upload and one for the download:\n${out}`);
    for (const [label, value] of [['ubuntu_10_04', '27.25'], ['centos_6_2', '21.19'], ['freebsd_9_0', '14.36']]) {
      assert.match(out, new RegExp(`^published: ${label} mib_per_s = ${value.replace('.', '\\.')} \\(`, 'm'), out);
    }
  } finally {
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});

// the HTML's GridFS section had no MB/s or MiB/s column and never drew the
// seed's MiB/s, which the README promises beside the results. Real loader runs, real Chromium.
test('HTML: the GridFS numbers table has MB/s and MiB/s per chunk op, and the MB/s charts draw the seed\'s 27.25/21.19/14.36 MiB/s', async () => {
  const { openPage } = require('./support/browser');
  const { chartsOf } = require('./support/pagecheck');
  const server = await require(path.join(LOADER_TEST, 'server.js')).testServer();
  const results = tmpDir();
  try {
    const { runLoader } = require(path.join(LOADER_TEST, 'loader.js'));
    const r = await runLoader(['gridfs', '--uri', server.uri, '--file-size', '4MB', '--repeat', '1', '--results-dir', results, '--metrics-port', '0', '--engine', 'pub']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(main(['--results-dir', results], { stdout: { write() {} }, stderr: process.stderr }), 0);
    const { page, errors, close } = await openPage(fs.realpathSync(path.join(results, 'report', 'latest', 'index.html')), results);
    try {
      const heads = await page.$$eval('table.numbers th', (ths) => ths.map((t) => t.textContent));
      for (const op of ['upload', 'download']) for (const col of ['MB/s median', 'MiB/s median']) assert.ok(heads.includes(`${op} ${col}`), `${op} ${col} in ${heads}`);
      const mb = (await chartsOf(page)).filter((c) => c.kind === 'throughput-mb');
      assert.ok(mb.length >= 1, 'a MB/s chart');
      for (const c of mb) {
        for (const v of ['27.25', '21.19', '14.36']) assert.ok(c.texts.some((t) => t.includes(`${v} MiB/s`)), `${v} MiB/s drawn: ${c.texts}`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  } finally {
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});
