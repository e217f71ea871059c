'use strict';
// The capacity section (src/capacity-page.js) in real headless Chromium, on
// summaries with the loader's capacity block: the verdict sentence, each engine's
// latency-throughput curve (intended p99 on a log axis with 1-2-5 ticks against the achieved
// rate, the SLA as a line, a dot per step), placed right after the summary; the terminal opens
// with the capacity lines; a search's rate-N steps get no throughput rows in the summary.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir, makeRun } = require('./support/fixtures');
const { openPage } = require('./support/browser');
const { chartsOf } = require('./support/pagecheck');
const { main } = require('../src/cli');

// A search's steps (loader/src/experiment/sla.js judgeStep shape): knee at `cap` ops/s.
function search(cap) {
  const rates = [cap / 4, cap / 2, cap, cap * 2, cap * 1.5];
  const steps = rates.map((r) => ({ offered_ops_per_s: r, achieved_ops_per_s: Math.min(r, cap * 1.02), intended_us: r <= cap ? 2000 + r : 40000 + r * 10, service_us: 1500, latency: {}, clients_busy: 0.1, passed: r <= cap, why: r <= cap ? null : `intended p99 ${(40 + r / 100).toFixed(2)} ms > 10 ms` }));
  return { sla: { percentile: 'p99', target_ms: 10, text: 'p99=10ms' }, capacity_ops_per_s: cap, lowest_failing_ops_per_s: cap * 1.5, clients: 32, complete: true, search: { ended: 'refined to within 5%' }, steps };
}

function fixture() {
  const root = tmpDir();
  const caps = { wiredtiger: [1000, 1050, 980], inmemory: [1800, 1850, 1790] };
  for (const [e, cs] of Object.entries(caps)) {
    cs.forEach((cap, i) => {
      const c = search(cap);
      makeRun(root, {
        engine: e, stamp: `${e}${i}`, group: `g-${e}`, repetition: i + 1, parameters: { sla: 'p99=10ms' },
        steps: c.steps.map((s) => ({ name: `rate-${s.offered_ops_per_s}`, ops: { find: { rate: s.achieved_ops_per_s } } })),
        extra: { capacity: c },
      });
    });
  }
  return root;
}

test('capacity: the sentence, the curves on a log latency axis with the SLA line, first on a page of searches alone; the terminal opens with it', async () => {
  const root = fixture();
  let out = '';
  assert.equal(main(['--results-dir', root], { stdout: { write(s) { out += s; } }, stderr: { write(s) { process.stderr.write(s); } } }), 0);
  assert.match(out, /^== capacity under a latency SLA/);
  assert.match(out, /^ {2}inmemory sustains 1\.8\dx wiredtiger's rate at p99 <= 10 ms \(95% CI \d\.\d\d-\d\.\d\d with the searches' brackets, 3 runs each\)(?: |\n {4})\[Holm-adjusted p [<=] 0\.\d+, 1 comparison\]$/m);
  const capacityLines = out.slice(0, out.indexOf('\n\n')).split('\n');
  for (const line of capacityLines) assert.ok(line.length <= 120, `${line.length} columns: ${line}`);
  const report = JSON.parse(fs.readFileSync(path.join(root, 'report', 'latest', 'report.json'), 'utf8'));
  assert.equal(report.summary.filter((r) => /^rate-/.test(r.point)).length, 0, 'no per-step throughput rows for a search');
  const file = path.join(root, 'report', 'latest', 'index.html');
  const { page, errors, close } = await openPage(fs.realpathSync(file), root);
  try {
    assert.equal(await page.getAttribute('body', 'data-rendered'), 'true');
    const order = await page.$$eval('#report > section', (ss) => ss.map((s) => s.id));
    // capacity searches alone: the page opens with the capacities (no empty throughput summary)
    assert.equal(order[0], 'capacity', `capacity first: ${order}`);
    assert.ok(!order.includes('summary'), `no throughput summary: ${order}`);
    assert.match(await page.textContent('#report'), /capacity searches \(--sla\): their steps are offered rates/);
    const li = await page.$$eval('#capacity li', (ls) => ls.map((l) => l.textContent));
    assert.match(li[0], /inmemory sustains 1\.8\dx wiredtiger's rate at p99 <= 10 ms \(95% CI/);
    // each side's figure with its own interval
    assert.match(await page.textContent('#capacity p.meta'), /inmemory: \d+ ops\/s \(geometric mean, 95% CI \d+-\d+; median/);
    const [c] = (await chartsOf(page)).filter((x) => x.kind === 'capacity-curve');
    assert.ok(c, 'a capacity-curve chart');
    assert.deepEqual(c.legend.sort(), ['inmemory', 'wiredtiger']);
    assert.equal(c.dots, 6 * 5, 'a dot per step of each of the 6 searches');
    assert.equal(c.lines, 6, 'a curve per search');
    assert.ok(c.texts.some((t) => t === 'SLA p99 <= 10 ms'), c.texts.join('|'));
    assert.ok(c.axisLabels.some((t) => /achieved ops\/s/.test(t)) && c.axisLabels.some((t) => /intended p99 ms/.test(t)), c.axisLabels.join('|'));
    const ticks = await page.$eval('figure.chart[data-kind="capacity-curve"]', (f) => [...f.querySelectorAll('g[aria-label="y-axis tick label"] text')].map((t) => t.textContent));
    assert.ok(ticks.length >= 3 && ticks.every((x) => /^[125]0*$/.test(x)), `1-2-5 ticks: ${ticks}`);
    // the SLA line sits at 10 ms on the log axis: between the 5 and 20 ticks
    const y = await page.$eval('figure.chart[data-kind="capacity-curve"]', (f) => {
      const tickY = (v) => { const t = [...f.querySelectorAll('g[aria-label="y-axis tick label"] text')].find((x) => x.textContent === v); return t ? t.getBoundingClientRect().y : null; };
      const rule = f.querySelector('g[aria-label="rule"] line').getBoundingClientRect().y;
      return { rule, t10: tickY('10') };
    });
    assert.ok(y.t10 !== null && Math.abs(y.rule - (y.t10 + 6)) < 8, `SLA rule at the 10 ms tick: ${JSON.stringify(y)}`);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
