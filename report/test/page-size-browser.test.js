'use strict';
// The page at 5,000 runs (src/page-data.js): index.html embeds the per-run appendix of at most
// APPENDIX_RUNS runs, evenly spaced, says so, and real headless Chromium draws the whole page
// within OPEN_S seconds (a subtest, skipped with its figures where Chromium waited for a CPU).
// Before, the page carried every run's timeline (103 MB at 5,000 runs of this size) and two
// charts per run. Up to APPENDIX_RUNS runs the page data is the report itself.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir, makeRun } = require('./support/fixtures');
const { openPage } = require('./support/browser');
const { main } = require('../src/cli');
const { coresGot } = require(path.join(__dirname, '..', '..', 'loader', 'test', 'support', 'premise.js'));
const { pageData, APPENDIX_RUNS } = require('../src/page-data');

const RUNS = 5000;
const OPEN_S = 60; // measured: about 6 s on this 2-core machine at load 7 (report/README.md)
// The draw is waited for this long, so that a slow one is measured and judged, not cut off.
const WAIT_S = 5 * OPEN_S;
// The premise of the time bound: Chromium and this test had at least half a core over the draw.
// Below that they waited for a CPU most of the time (on a shared CI host a draw took over 30 s
// with the host's CPUs busy with the other suites' lanes).
const PREMISE_CORES = 0.5;
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

test(`a ${RUNS}-run report: the page under ${PAGE_MB} MB, drawn whole by Chromium`, { timeout: 900000 }, async (t) => {
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
  const got = coresGot(process.pid);
  const starved = (cpu) => cpu.cores < PREMISE_CORES
    && `premise not met: Chromium and this test had under the ${PREMISE_CORES} of a core the bound needs`;
  let opened;
  let cpu;
  try {
    // measured before Chromium is closed: its ended renderers' time is no longer in the tree
    opened = await openPage(html, root, { timeout: WAIT_S * 1000, beforeClose: () => { cpu = got.stop(); } });
  } catch (e) {
    if (e.name !== 'TimeoutError' || !starved(cpu)) throw e;
    t.skip(`${starved(cpu)}; not drawn in ${WAIT_S} s with ${cpu.cores} of a core (the host's other processes: ${cpu.others})`);
    return;
  }
  const { page, errors, close } = opened;
  try {
    assert.equal(await page.getAttribute('body', 'data-rendered'), 'true', 'page.js ran to its end');
    const seconds = (Date.now() - t0) / 1000;
    cpu = got.stop();
    const drawn = `drawn in ${seconds.toFixed(1)} s with ${cpu.cores} of a core (the host's other processes: ${cpu.others})`;
    await t.test(`drawn within ${OPEN_S} s`, (st) => {
      if (seconds >= OPEN_S && starved(cpu)) {
        st.skip(`${starved(cpu)}; ${drawn}`);
        return;
      }
      assert.ok(seconds < OPEN_S, drawn);
    });
    assert.deepEqual(errors, []);
    assert.match(await page.textContent('#timelines > summary'), new RegExp(`of ${APPENDIX_RUNS} of ${RUNS} runs, evenly spaced`));
    assert.equal(await page.$$eval('#timelines figure[data-kind="timeline-rate"]', (f) => f.length), APPENDIX_RUNS);
    assert.ok(await page.$$eval('table.runs tr', (r) => r.length) > RUNS, 'every run still described');
    console.log(`# ${RUNS} runs: index.html ${mb.toFixed(1)} MB, ${drawn}`);
  } finally {
    await close();
  }
});
