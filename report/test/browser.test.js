'use strict';
// The HTML in real headless Chromium (Debian's /usr/bin/chromium via playwright-core, flags in
// support/browser.js, a fresh profile): no console error, no network request (works offline from
// disk), every chart's SVG drawn with lines and dots per engine, axis labels, a legend naming every
// engine (and every percentile), the published lines labelled, the loader-limited mark, phases on
// every timeline, verdicts, an incomplete run marked; a screenshot in the test's temporary folder.
// Edge shapes too (one engine, two hosts merged, only incomplete runs, unknown schema). A missing
// Chromium fails with the install hint.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { tmpDir, makeRun, makeFailover } = require('./support/fixtures');
const { openPage } = require('./support/browser');
const { chartsOf } = require('./support/pagecheck');
const { main } = require('../src/cli');

const quiet = { stdout: { write() {} }, stderr: { write(s) { process.stderr.write(s); } } };
const published = { source: 'seeds/004 (Severalnines, 2013), 2 GB RAM / 4 cores each', mongodb_2_4_mmapv1: { updates_per_s_max: 3910 }, tokumx: { updates_per_s_max: 4233 } };

function fixture() {
  const root = tmpDir();
  const rates = { wiredtiger: [1000, 1050, 980], inmemory: [1800, 1850, 1790] };
  for (const [e, rs] of Object.entries(rates)) {
    rs.forEach((r, i) => makeRun(root, {
      engine: e, stamp: `${e}${i}`, group: `g-${e}`, repetition: i + 1, published,
      steps: [
        { name: 'clients-1', ops: { find: { rate: r, lat: [[500, 90], [2000, 10]] }, update: { rate: r, lat: [[800, 95], [5000, 5]] } } },
        { name: 'clients-2', limited: e === 'inmemory', ops: { find: { rate: r * 1.5, lat: [[600, 99], [3000, 1]] }, update: { rate: r * 1.5, lat: [[900, 99], [4000, 1]] } } },
      ],
    }));
  }
  makeRun(root, { engine: 'wiredtiger', stamp: 'x-incomplete', complete: false, steps: [{ name: 'clients-1', ops: { find: { rate: 5 }, update: { rate: 5 } } }] });
  makeFailover(root, { engine: 'wiredtiger', w: 1, stamp: 'f', acknowledged: 20000, lost: 37, recovered: 2 });
  assert.equal(main(['--results-dir', root], quiet), 0);
  return root;
}

test('the report in headless Chromium: every chart drawn, no error, offline, screenshot', async () => {
  const root = fixture();
  const file = path.join(root, 'report', 'latest', 'index.html');
  const { page, errors, close } = await openPage(fs.realpathSync(file), root);
  try {
    assert.equal(await page.getAttribute('body', 'data-rendered'), 'true', 'page script ran to the end');
    const charts = await chartsOf(page);
    const kinds = (k) => charts.filter((c) => c.kind === k);
    assert.equal(kinds('throughput').length, 2, 'one throughput chart per op type (find, update)');
    assert.equal(kinds('latency').length, 2, 'one latency chart per op type');
    assert.equal(kinds('timeline-rate').length, 7, 'a timeline for every run, the incomplete one too');
    assert.equal(kinds('timeline-p99').length, 7);
    for (const c of charts) {
      assert.ok(c.svgs >= 1 && c.box[0] > 300 && c.box[1] > 100, `${c.kind}: an svg of real size ${c.box}`);
      assert.ok(c.axisLabels.length >= 2 && c.axisLabels.every((t) => t.trim()), `${c.kind}: axis labels ${c.axisLabels}`);
      for (const e of c.sides) assert.ok(c.kind.startsWith('timeline') ? c.caption.includes(e) : c.legend.includes(e), `${c.kind}: series named ${e} (legend ${c.legend})`);
    }
    for (const c of kinds('throughput')) {
      assert.equal(c.lines, 2, 'a line per engine');
      assert.ok(c.dots >= 4 + 1, 'a dot per engine and step, plus the loader-limited ring');
      assert.ok(c.axisLabels.some((t) => /ops\/s/.test(t)) && c.axisLabels.some((t) => /step/.test(t)), c.axisLabels);
      assert.ok(c.texts.includes('loader-limited 3/3'), `the loader-limited step is marked: ${c.texts}`);
    }
    const upd = kinds('throughput').find((c) => c.axisLabels.some((t) => t.includes('update')));
    assert.ok(upd.texts.some((t) => t.includes('mongodb_2_4_mmapv1 2013') && t.includes('3,910')), `published reference labelled: ${upd.texts}`);
    assert.ok(upd.texts.some((t) => t.includes('tokumx 2013') && t.includes('4,233')));
    assert.match(upd.caption, /Severalnines, 2013\), 2 GB RAM \/ 4 cores/);
    // published numbers above the measured range are named, not drawn: the y axis stays the measured range
    const yTicks = await page.$$eval('figure.chart[data-kind="throughput"]', (fs) => fs.map((f) => [...f.querySelectorAll('g[aria-label="y-axis tick label"] text')].map((t) => Number(t.textContent.replace(/,/g, '')))));
    for (const t of yTicks) assert.ok(Math.max(...t) < 3910, `y axis not rescaled to the published 3,910: ${t}`);
    assert.ok(upd.texts.some((t) => /published tokumx 2013 .*4,233\/s \(off scale\)/.test(t)), upd.texts.join(' | '));
    // latency: a log axis with 1-2-5 ticks at every decade, n on each p50 dot and in the table
    const latTicks = await page.$$eval('figure.chart[data-kind="latency"]', (fs) => fs.map((f) => [...f.querySelectorAll('g[aria-label="y-axis tick label"] text')].map((t) => t.textContent)));
    for (const t of latTicks) {
      assert.ok(t.length >= 3 && t.every((x) => /^(0\.0*)?[125]0*$/.test(x)), `latency ticks 1-2-5 only: ${t}`);
      const v = t.map(Number);
      assert.ok(v.slice(1).every((x, i) => x / v[i] <= 2.5), `no 1-2-5 step missing: ${t}`);
    }
    assert.ok(kinds('latency').every((c) => c.texts.some((t) => /^n=\d/.test(t))), 'n beside the percentiles');
    const head = await page.$$eval('table.numbers th', (th) => th.map((t) => t.textContent));
    assert.ok(head.includes('find n') && head.includes('update n'), head.join('|'));
    for (const c of kinds('latency')) {
      assert.match(c.caption, /exact percentiles of the repetitions' merged histograms/);
      assert.equal(c.lines, 6, 'p50, p99, p99.9 for each of 2 engines');
      assert.ok(['p50', 'p99', 'p99.9'].every((p) => c.legend.includes(p)), `percentile legend ${c.legend}`);
    }
    for (const c of kinds('timeline-rate')) {
      assert.ok(c.lines >= 1, 'a line per op');
      assert.ok(c.texts.includes('clients-1'), 'phases marked');
    }
    const verdicts = await page.$$eval('ul.verdicts li', (ls) => ls.map((l) => l.textContent));
    assert.equal(verdicts.length, 2);
    assert.match(verdicts[0], /inmemory is 1\.80x wiredtiger \(95% CI/);
    assert.match(verdicts[1], /no verdict possible .*the loader was the limit in 3 of 3/);
    assert.equal(await page.$$eval('table.runs tr.incomplete', (r) => r.length), 1, 'the incomplete run is shown as incomplete');
    assert.match(await page.$eval('table.safety', (t) => t.textContent), /20,000.*37/);
    const shot = path.join(root, 'report.png');
    await page.screenshot({ path: shot, fullPage: true });
    assert.ok(fs.statSync(shot).size > 20000, 'screenshot written');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a missing Chromium fails with the install hint, never a silent skip', () => {
  const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(path.join(__dirname, 'support', 'browser.js'))}).openPage('/x').catch((e) => { console.error(e.message); process.exit(1); })`], { env: { ...process.env, CHROMIUM: '/nonexistent/chromium' }, encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /chromium not found at \/nonexistent\/chromium: run 'bash test\/install-tools.sh'/);
});

test('a page that cannot be opened closes Chromium: the test file\'s process ends by itself', () => {
  // Before, the error left Chromium running and the file's process alive to the runner's limit.
  const script = `require(${JSON.stringify(path.join(__dirname, 'support', 'browser.js'))})
    .openPage('/nonexistent/index.html', ${JSON.stringify(tmpDir())}).catch((e) => console.error(e.message))`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 120000, killSignal: 'SIGKILL' });
  assert.equal(r.signal, null, 'the process did not end by itself within 120 s');
  assert.equal(r.status, 0);
  assert.match(r.stderr, /ERR_FILE_NOT_FOUND/);
});

test('edge shapes render without error: one engine, merged hosts, only incomplete runs, a skipped folder', async () => {
  const root = tmpDir();
  makeRun(root, { experiment: 'solo', engine: 'wt', stamp: 'h1', host: 'hostA', group: 'g', repetition: 1, steps: [{ name: 'clients-1', ops: { insert: { rate: 10, lat: [[100, 10]] } } }] });
  makeRun(root, { experiment: 'solo', engine: 'wt', stamp: 'h2', host: 'hostB', group: 'g', repetition: 1, steps: [{ name: 'clients-1', ops: { insert: { rate: 20, lat: [[300, 10]] } } }] });
  makeRun(root, { experiment: 'broken', engine: 'wt', stamp: 'x', complete: false, steps: [] });
  makeRun(root, { experiment: 'future', engine: 'wt', stamp: 'v9', schema_version: 9, steps: [] });
  assert.equal(main(['--results-dir', root], quiet), 0);
  const { page, errors, close } = await openPage(fs.realpathSync(path.join(root, 'report', 'latest', 'index.html')), root);
  try {
    assert.equal(await page.getAttribute('body', 'data-rendered'), 'true');
    const charts = await chartsOf(page);
    assert.equal(charts.filter((c) => c.kind === 'throughput').length, 1);
    assert.equal(charts.filter((c) => c.kind === 'timeline-rate').length, 2, 'each host\'s timeline on its own');
    const text = await page.textContent('body');
    assert.match(text, /one side only \(wt\): nothing to compare/);
    assert.match(text, /no complete run with these parameters/);
    assert.match(text, /timeline of wt on hostA \(INCOMPLETE\): no complete second recorded/);
    assert.match(text, /schema_version 9 is not one this report reads/);
    assert.match(await page.$$eval('table.runs', (ts) => ts.map((t) => t.textContent).join(' ')), /hostA \+ hostB/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
