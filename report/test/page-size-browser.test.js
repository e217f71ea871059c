'use strict';
// The page at 5,000 runs (src/page-data.js): index.html embeds the per-run appendix of at most
// APPENDIX_RUNS runs, evenly spaced, says so, and real headless Chromium draws the whole page
// within OPEN_S seconds. Before, the page carried every run's timeline (103 MB at 5,000 runs of
// this size) and two charts per run. Up to APPENDIX_RUNS runs the page data is the report itself.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir, makeRun } = require('./support/fixtures');
const { openPage } = require('./support/browser');
const { main } = require('../src/cli');
const { pageData, APPENDIX_RUNS } = require('../src/page-data');

const RUNS = 5000;
const OPEN_S = 60; // measured: about 6 s on this 2-core machine at load 7 (report/README.md)
const PAGE_MB = 20;

test('up to the bound the page embeds the report as it is', () => {
  const tl = (i) => ({ id: `r${i}`, seconds: [] });
  const report = { experiments: [{ sets: [{ timelines: Array.from({ length: APPENDIX_RUNS }, (_, i) => tl(i)) }] }],
    server_series: [], run_dips: [] };
  assert.equal(pageData(report), report);
  report.experiments[0].sets[0].timelines.push(tl(APPENDIX_RUNS));
  const page = pageData(report);
  assert.equal(page.experiments[0].sets[0].timelines.length, APPENDIX_RUNS);
  assert.deepEqual(page.experiments[0].sets[0].timelines.map((t) => t.id).slice(0, 2), ['r0', 'r1']);
  assert.equal(page.experiments[0].sets[0].timelines.at(-1).id, `r${APPENDIX_RUNS}`, 'first and last kept');
  assert.equal(report.experiments[0].sets[0].timelines.length, APPENDIX_RUNS + 1, 'the report itself unchanged');
});

test(`a ${RUNS}-run report: the page under ${PAGE_MB} MB, drawn by Chromium within ${OPEN_S} s`, { timeout: 600000 }, async () => {
  const root = tmpDir();
  const at = (i) => new Date(Date.parse('2026-11-01T00:00:00Z') + i * 60000).toISOString();
  for (let i = 0; i < RUNS; i++) {
    const engine = i % 2 ? 'b' : 'a';
    makeRun(root, { engine, stamp: `r${i}`, started_at: at(i), steps: [{ name: 'clients-1', ops: { find: { rate: (engine === 'a' ? 1500 : 1000) * (1 + 0.01 * Math.sin(i)) } } }] });
  }
  let out = '';
  assert.equal(main(['--results-dir', root], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  const dir = fs.realpathSync(path.join(root, 'report', 'latest'));
  const html = path.join(dir, 'index.html');
  const mb = fs.statSync(html).size / 1e6;
  assert.ok(mb < PAGE_MB, `index.html ${mb.toFixed(1)} MB`);
  const t0 = Date.now();
  const { page, errors, close } = await openPage(html, root);
  try {
    assert.equal(await page.getAttribute('body', 'data-rendered'), 'true', 'page.js ran to its end');
    const seconds = (Date.now() - t0) / 1000;
    assert.ok(seconds < OPEN_S, `drawn in ${seconds.toFixed(1)} s`);
    assert.deepEqual(errors, []);
    assert.match(await page.textContent('#timelines > summary'), new RegExp(`of ${APPENDIX_RUNS} of ${RUNS} runs, evenly spaced`));
    assert.equal(await page.$$eval('#timelines figure[data-kind="timeline-rate"]', (f) => f.length), APPENDIX_RUNS);
    assert.ok(await page.$$eval('table.runs tr', (r) => r.length) > RUNS, 'every run still described');
    console.log(`# ${RUNS} runs: index.html ${mb.toFixed(1)} MB, drawn in ${seconds.toFixed(1)} s`);
  } finally {
    await close();
  }
});
