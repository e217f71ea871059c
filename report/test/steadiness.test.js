'use strict';
// The report compares steadiness: real loader runs, two repetitions a side,
// against the wire shim's 8.0 WiredTiger line as is ('steady') and its variant whose checkpoint
// holds writes 1 s every 10 s ('stalls', loader/test/support/server-lines.js VARIANTS); paced, so
// the shared test VM's neighbours leave a steady side's seconds steady (loader/README.md
// "Stability"). The report says which side was steadier with compare.js's verdict and why (the
// other's dips during a checkpoint), on the summary's row too, and shades each run's dips with
// their causes on its appendix timeline.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir } = require('./support/fixtures');
const { main } = require('../src/cli');
const { openPage } = require('./support/browser');

const LOADER_TEST = path.join(__dirname, '..', '..', 'loader', 'test', 'support');
const { holdUnseen } = require(path.join(LOADER_TEST, 'premise.js'));
const { readTimeline } = require(path.join(LOADER_TEST, 'loader.js'));

// checkpointUnseen(run, held) -> null, or why the stall run's checkpoint could not show as a dip
// named for it on this host: a write hold inside its measured part with no dip during a checkpoint
// over it, under loader/test/support/premise.js holdUnseen's measured premise (the same one the
// loader's stability tests skip on). A CI run on a host 97 % busy (2026-12-02): one stall run's
// only dip, 20.7-21.7 s, said "no server event recorded".
const CHECKPOINT_DIP = /(during|coincides with) a checkpoint/;
function checkpointUnseen(run, held) {
  const step = JSON.parse(fs.readFileSync(path.join(run, 'summary.json'), 'utf8')).steps[0];
  const from = Date.parse(step.measured_from ?? step.started_at);
  const to = Date.parse(step.started_at) + step.duration_s * 1000;
  const named = (w) => (step.stability.dips || []).some((d) => CHECKPOINT_DIP.test(d.cause_text)
    && Date.parse(d.start) < w.to && Date.parse(d.end) > w.from);
  const lines = readTimeline(run);
  return held.filter((w) => w.from >= from && w.to <= to - 500 && !named(w))
    .map((w) => holdUnseen(step.stability, lines, w)).find(Boolean) || null;
}

const SIDES = { steady: 'mongod-8.0-wiredtiger-replset', stalls: 'mongod-8.0-wiredtiger-replset+checkpoint-stall' };

test('report: the steadier engine by the verdict over repetitions, why the other dropped, dips shaded on the timelines', { timeout: 600000 }, async (t) => {
  const { startServer } = require(path.join(LOADER_TEST, 'server.js'));
  const { runLoader } = require(path.join(LOADER_TEST, 'loader.js'));
  const results = tmpDir();
  let held = []; // the stall side's write holds (support/wire-shim.js stats.held)
  // Both sides at once, each against its own server: paced at 200 ops/s with 2 clients, a side
  // takes little of a core, and the test's time halves (about 60 s one side after the other). At
  // 400 ops/s the file took 54 CPU s, at 200 41 (idle host, 2026-11-30): a held second is a dip at either.
  await Promise.all(Object.entries(SIDES).map(async ([engine, line]) => {
    const server = await startServer({ line });
    try {
      // 22 s measured: two whole held windows of the 10 s period in each repetition (with one, a
      // stall repetition whose one window the dip rule did not flag left no dip at all: seen once
      // in a fresh-clone run of the suite, the two sides running at once)
      const r = await runLoader(['experiment2', '--uri', server.uri, '--engine', engine, '--results-dir', results, '--metrics-port', '0',
        '--preload-docs', '300', '--clients', '2', '--rate', '200', '--duration', '23s', '--warmup', '1s', '--progress-interval', '1s', '--repeat', '2'],
      // ahead of the host's other work: on a busy host every window was the loader's own stall and
      // a stall run's one dip was put down to it, not to the checkpoint (a fresh-clone CI, 2026-12-02)
      { ahead: true });
      assert.equal(r.code, 0, r.stderr);
      if (engine === 'stalls') held = server.shim.stats.held.slice();
    } finally {
      await server.stop();
    }
  }));
  let out = '';
  assert.equal(main(['--results-dir', results], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  const rep = JSON.parse(fs.readFileSync(path.join(fs.realpathSync(path.join(results, 'report', 'latest')), 'report.json'), 'utf8'));
  assert.equal(rep.steadiness.length, 1, JSON.stringify(rep.experiments[0].differences));
  const [p] = rep.steadiness[0].points;
  assert.equal(p.point, 'clients-2');
  // two runs a side; a step left out (the shared host on a busy machine) is no sample
  for (const side of Object.values(p.worst_second_fraction.sides)) {
    assert.ok(side.samples.length <= 2, JSON.stringify(side));
  }
  // compare.js's verdict on both figures; on the shared test VM the steady side's seconds are
  // not steady enough for 2 repetitions to decide (its neighbours' load: loader/README.md
  // "Stability"), so the steadier sentence itself is checked on hand-made runs
  // (test/steadiness-unit.test.js); here it names the steady side if it names one.
  // A held second that swallowed a whole second of the clock leaves a worst second of 0
  // operations: no ratio then, and the sentence says why (verdict.js; a fresh-clone run of the
  // suite, both cores busy, 2026-12-01). Only a zero sample excuses the verdict.
  for (const f of [p.worst_second_fraction, p.steady_s_per_min]) {
    assert.equal(f.verdicts.length, 1);
    if (Object.values(f.sides).some((side) => side.samples.length < 2)) {
      assert.equal(f.verdicts[0].status, 'no-verdict', f.verdicts[0].sentence);
      continue;
    }
    const zero = Object.values(f.sides).some((side) => side.samples.some((x) => !(x > 0)));
    if (zero && f.verdicts[0].status === 'no-verdict') {
      assert.match(f.verdicts[0].sentence, /a ratio needs values above 0/);
      continue;
    }
    assert.ok(['verdict', 'no-difference'].includes(f.verdicts[0].status), f.verdicts[0].sentence);
    assert.match(f.verdicts[0].sentence, /(steady|stalls) is [\d.]+x (steady|stalls) \(95% CI|no difference shown between/);
  }
  // Both stall runs' steps left out (the suite's own load on the 2-core host: a fresh-clone run,
  // 2026-12-01) leave that side no sample: its dips per minute are not judged and name no cause;
  // its runs' dips are still on their timelines (below).
  const stallsKept = p.worst_second_fraction.sides.stalls.samples.length > 0;
  if (stallsKept) {
    assert.ok(p.dip_s_per_min.stalls > 0, JSON.stringify(p.dip_s_per_min));
  } else {
    assert.equal(p.dip_s_per_min.stalls, null, JSON.stringify(p.dip_s_per_min));
    assert.deepEqual(p.why.stalls, [], JSON.stringify(p.why));
    assert.match(out, /seconds in dips per minute \(median\): .*stalls n\/a/);
  }
  assert.ok(!p.why.steady.some((w) => /checkpoint/.test(w)), JSON.stringify(p.why));
  if (p.steadier) assert.match(p.steadier, /^clients-2: steady was steadier than stalls \(.*\); stalls's dips: /);
  assert.ok(rep.summary.some((r) => r.point === 'clients-2' && r.steadier === p.steadier), JSON.stringify(rep.summary));
  assert.match(out, /Steadiness \(higher is steadier\):\n {2}experiment2 set 1 clients-2: seconds in dips per minute \(median\): /);
  assert.match(out, /clients-2: seconds in dips per minute \(median\): .*\n {4}(steady was steadier than stalls|no side shown steadier)/);
  // Every stall run's dips are kept for its timeline, on its axis (seconds since its start).
  const stallRuns = rep.run_dips.filter((r) => /stalls/.test(r.run));
  for (const r of stallRuns) assert.ok(r.dips.every((d) => d.to_s > d.from_s && d.from_s > 0), JSON.stringify(r));
  // The page: the section's sentences, the summary's steadier line, shaded dips with their causes.
  const file = fs.realpathSync(path.join(results, 'report', 'latest', 'index.html'));
  const { page, errors, close } = await openPage(file, results);
  let whyCells;
  let shaded;
  try {
    const li = await page.$$eval('#steadiness li', (ls) => ls.map((l) => l.textContent));
    assert.ok(li.includes(p.worst_second_fraction.verdicts[0].sentence), li.join('\n'));
    whyCells = await page.$$eval('#steadiness table.steadiness td', (ts) => ts.map((c) => c.textContent));
    if (p.steadier) {
      assert.ok(li.includes(p.steadier), li.join('\n'));
      const under = await page.$$eval('ul.steadier li', (ls) => ls.map((l) => l.textContent));
      assert.ok(under.includes(`experiment2: ${p.steadier}`), under.join('\n'));
    }
    shaded = await page.$$eval('#timelines figure title', (ts) => ts.map((c) => c.textContent).filter((c) => /^dip to \d+ % of the median: /.test(c)));
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
  // The checkpoint named: each stall run's dips name it; at least one run's as the cause ("during a
  // checkpoint"), in the report's why and the page's, and shaded on a timeline. On a busy host one
  // run's only dip can span a host stall and a checkpoint, and is then said as "with the loader's
  // host stalled or busy; coincides with a checkpoint" (a fresh-clone run of the suite, both cores
  // busy, 2026-11-30). A run whose hold this host could not show (checkpointUnseen, measured) is a
  // premise not met: its check skipped with the figure, and the checks over the runs with it.
  const stallsDir = path.join(results, 'experiment2', 'stalls');
  const stallDirs = fs.readdirSync(stallsDir).map((n) => path.join(stallsDir, n))
    .filter((d) => fs.lstatSync(d).isDirectory());
  assert.equal(stallDirs.length, 2, stallDirs.join(' '));
  const unseen = stallDirs.map((d) => checkpointUnseen(d, held));
  for (const [i, dir] of stallDirs.entries()) {
    await t.test(`stall run ${i + 1}: its dips on its timeline name the checkpoint`, (st) => {
      if (unseen[i]) { st.skip(`premise: a hold that can show as a dip here; ${unseen[i]}`); return; }
      const r = stallRuns.find((x) => path.basename(x.run) === path.basename(dir));
      assert.ok(r && r.dips.some((d) => CHECKPOINT_DIP.test(d.cause_text)), JSON.stringify(r ?? rep.run_dips));
    });
  }
  await t.test("the stall side's dips during a checkpoint: in the report's why, on the page, shaded on a timeline", (st) => {
    const why = unseen.filter(Boolean);
    if (why.length) { st.skip(`premise: a hold that can show as a dip here; ${why.join('; ')}`); return; }
    assert.ok(stallRuns.some((r) => r.dips.some((d) => /during a checkpoint/.test(d.cause_text))), JSON.stringify(stallRuns));
    assert.ok(shaded.some((c) => /during a checkpoint/.test(c)), `shaded dips on the timelines: ${shaded.join(' | ')}`);
    if (p.steadier) assert.match(p.steadier, /; stalls's dips: .*during a checkpoint/);
    if (!stallsKept) return;
    assert.ok(p.why.stalls.some((w) => /^\d+ during a checkpoint$/.test(w)), JSON.stringify(p.why));
    assert.ok(whyCells.some((c) => /during a checkpoint/.test(c)), whyCells.join(' | '));
  });
});
