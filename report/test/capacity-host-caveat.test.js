'use strict';
// A capacity search on a saturated loader host: the loader records
// summary.json capacity.host_caveat (loader/src/experiment/sla.js hostCaveat: steps with event-loop stalls or
// a loader-limited step). The report (src/capacity.js, src/capacity-page.js) shows such a figure
// with its caveat, and leaves it out of the verdict as it leaves out closed-loop steps with the same
// signs (shared host): a verdict never presents a host-limited side's figure as an engine
// difference, and says that a side's runs were host-limited. Real report CLI and real Chromium on
// summaries that pass common/summary.schema.json (the report validates each before reading it).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir, makeRun } = require('./support/fixtures');
const { openPage } = require('./support/browser');
const { main } = require('../src/cli');

// the loader's caveat text (loader/src/experiment/sla.js hostCaveat) for 6 of 8 stalled steps
const CAVEAT = "6 of 8 steps shared the host with other load or were limited by the loader (step 2: worker 0 event-loop delay p99 324.0 ms (> 20 ms) while the loader used 0.9 of 2 cores and the host was 98% busy): the capacity may be this host's, not the server's";

// A search's steps (loader/src/experiment/sla.js judgeStep shape): knee at `cap` ops/s; hostLimited adds the
// loader's host_caveat.
function search(cap, hostLimited) {
  const rates = [cap / 2, cap, cap * 2, cap * 1.5];
  const steps = rates.map((r) => ({ offered_ops_per_s: r, achieved_ops_per_s: Math.min(r, cap), intended_us: r <= cap ? 2000 : 40000, service_us: 1500, passed: r <= cap, why: r <= cap ? null : 'intended p99 40 ms > 10 ms' }));
  const c = { sla: { percentile: 'p99', target_ms: 10, text: 'p99=10ms' }, capacity_ops_per_s: cap, lowest_failing_ops_per_s: cap * 1.5, clients: 16, complete: true, search: { growth: 2, ended: 'refined to within 5%' }, steps };
  if (hostLimited) c.host_caveat = { steps: [2, 3, 4, 5, 6, 7], of: 8, text: CAVEAT };
  return c;
}

// fixture({ engine: [[cap, hostLimited], ...] }) -> results root
function fixture(sides) {
  const root = tmpDir();
  for (const [e, runs] of Object.entries(sides)) {
    runs.forEach(([cap, hostLimited], i) => {
      const c = search(cap, hostLimited);
      makeRun(root, {
        engine: e, stamp: `${e}${i}`, group: `g-${e}`, repetition: i + 1, parameters: { sla: 'p99=10ms' },
        steps: c.steps.map((s) => ({ name: `rate-${s.offered_ops_per_s}`, ops: { find: { rate: s.achieved_ops_per_s } } })),
        extra: { capacity: c },
      });
    });
  }
  return root;
}

function report(root) {
  let out = '';
  let err = '';
  const code = main(['--results-dir', root], { stdout: { write: (s) => { out += s; } }, stderr: { write: (s) => { err += s; } } });
  assert.equal(code, 0, err);
  return { out, rep: JSON.parse(fs.readFileSync(path.join(root, 'report', 'latest', 'report.json'), 'utf8')) };
}

const flat = (t) => t.replace(/\n +/g, ' '); // the caveat line is wrapped at 120 columns

test('every run of a side host-limited: its figure shows the caveat, the verdict is none and says why; the caveat lines within 120 columns', async () => {
  const root = fixture({ wiredtiger: [[1000], [1050], [980]], inmemory: [[7, true], [7, true], [8, true]] });
  const { out, rep } = report(root);
  assert.match(out, /inmemory 7 ops\/s \(host-limited: median of 3\/3 run\(s\), caveat below/);
  assert.ok(flat(out).includes(`inmemory host-limited: ${CAVEAT}`), out);
  const v = rep.capacity[0].verdicts[0];
  assert.equal(v.status, 'excluded');
  assert.doesNotMatch(v.sentence, /sustains/);
  assert.match(v.sentence, /inmemory: host-limited \(capacity\.host_caveat: the loader's host was saturated\) in 3 of 3 run\(s\)/);
  assert.ok(out.includes(v.sentence.slice(0, 60)), out);
  // the caveat's own lines (the capacity line before them is the section's, unchanged here)
  const caveatLines = out.split('\n').filter((x) => /^ {4}inmemory host-limited: |^ {6}\S/.test(x));
  assert.ok(caveatLines.length >= 2, out);
  for (const l of caveatLines) assert.ok(l.length <= 120, `${l.length} columns: ${l}`);

  const { page, errors, close } = await openPage(fs.realpathSync(path.join(root, 'report', 'latest', 'index.html')), root);
  try {
    assert.equal(await page.getAttribute('body', 'data-rendered'), 'true');
    const text = await page.textContent('#capacity');
    assert.match(text, /inmemory: 7 ops\/s \(host-limited: median of 3 host-limited of 3 run\(s\)/);
    assert.ok(text.includes(CAVEAT), text);
    assert.match(text, /no verdict possible between inmemory and wiredtiger .*inmemory: host-limited/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('one run of three host-limited: left out of the verdict and counted in its sentence, shown with its caveat', () => {
  const root = fixture({ wiredtiger: [[1000], [1050], [980]], inmemory: [[1800], [1850], [9, true]] });
  const { out, rep } = report(root);
  const [inmemory] = rep.capacity[0].sides.filter((s) => s.side === 'inmemory');
  assert.deepEqual(inmemory.samples.sort(), [1800, 1850]);
  assert.equal(inmemory.host_limited.length, 1);
  const v = rep.capacity[0].verdicts[0];
  assert.deepEqual(v.usable, [2, 3]);
  assert.match(v.sentence, /^inmemory sustains 1\.\d+x wiredtiger's rate .*inmemory: host-limited \(capacity\.host_caveat: the loader's host was saturated\) in 1 of 3 run\(s\), those runs excluded/);
  assert.match(out, /1 host-limited run\(s\) left out, caveat below/);
  assert.ok(flat(out).includes(`inmemory host-limited: ${CAVEAT}`), out);
});

test('the loader\'s --repeat line and the report give one median for the same searches, a host-limited one marked and left out by both (common/capacity-sample.js)', () => {
  const { capacityGroup } = require('../../loader/src/results/capacity-table');
  const caps = [[1800], [1850], [9, true]];
  const { out, rep } = report(fixture({ inmemory: caps }));
  const [side] = rep.capacity[0].sides;
  assert.equal(side.median, 1825);
  assert.match(out, /inmemory \d+ ops\/s \(geometric mean of 2\/3 run\(s\); median 1825[,;]/);
  const line = capacityGroup({ name: 'experiment2', engine: 'inmemory', group: 'g', results: caps.map(([c, h]) => search(c, h)) });
  // the line wraps at 120 columns (continuation lines indented by two spaces)
  assert.match(line.replace(/\n {2}(?=\S)/g, ' '), /per repetition: 1800, 1850, 9 \(host-limited\) ops\/s; median 1825 of 2 \(the report gives its interval\)/);
});
