'use strict';
// Excluded runs drawn as excluded (src/usable.js): a side's median dot and the
// numbers table come from its usable runs only; each excluded run is a hollow grey dot of its
// own. Side a: two usable runs at 1000 and 1100 ops/s and one loader-limited run at 5000; the
// side's figure is 1050, never the all-runs median 1100 or anything near 5000.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir, makeRun } = require('./support/fixtures');
const { openPage } = require('./support/browser');
const { main } = require('../src/cli');

test('the side\'s figure from its usable runs; excluded runs hollow and grey, one dot each', { timeout: 120000 }, async () => {
  const root = tmpDir();
  const one = (rate) => ({ find: { rate } });
  makeRun(root, { engine: 'a', stamp: 'a1', steps: [{ name: 'clients-1', ops: one(1000) }] });
  makeRun(root, { engine: 'a', stamp: 'a2', steps: [{ name: 'clients-1', ops: one(1100) }] });
  makeRun(root, { engine: 'a', stamp: 'a3', steps: [{ name: 'clients-1', ops: one(5000), limited: true }] });
  [800, 820].forEach((r, i) => makeRun(root, { engine: 'b', stamp: `b${i}`, steps: [{ name: 'clients-1', ops: one(r) }] }));
  let wide = '';
  assert.equal(main(['--results-dir', root, '--wide'], { stdout: { write: (x) => { wide += x; } }, stderr: process.stderr }), 0);
  // the terminal's --wide table too: a's row reads 2/3 runs and the usable median 1,050
  assert.match(wide, /clients-1 +a +2\/3 +1,100(\.0)? +1,050(\.0)? +1,000(\.0)?/);
  const rep = JSON.parse(fs.readFileSync(path.join(root, 'report', 'latest', 'report.json'), 'utf8'));
  const a = rep.experiments[0].sets[0].aggregates.find((x) => x.side === 'a');
  assert.equal(a.usable.ops.find.median, 1050);
  assert.deepEqual(a.excluded_values.find, [5000]);
  const { page, errors, close } = await openPage(fs.realpathSync(path.join(root, 'report', 'latest', 'index.html')), root);
  try {
    assert.deepEqual(errors, []);
    const chart = 'figure.chart[data-kind="throughput"]';
    assert.equal(await page.$$eval(`${chart} g.excluded-run circle`, (c) => c.length), 1, 'one hollow dot for the excluded run');
    assert.equal(await page.$eval(`${chart} g.excluded-run circle`, (c) => c.getAttribute('fill') ?? c.closest('g').getAttribute('fill')), 'none');
    const row = await page.$$eval('table.numbers tr', (rs) => rs.map((r) => r.textContent).find((t) => /clients-1a/.test(t.replace(/\s+/g, ''))));
    assert.match(row, /clients-1\s*a\s*2\/3/, 'the runs cell as the terminal writes it: 2 usable of 3');
    assert.match(row, /1,050/);
    assert.doesNotMatch(row, /1,100\.0.*1,100\.0/, 'the all-runs median is not the side\'s figure');
    assert.match(await page.textContent(chart), /hollow grey dots: excluded runs/);
  } finally {
    await close();
  }
});
