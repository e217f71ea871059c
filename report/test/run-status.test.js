'use strict';
// What a run's status says reaches the report's verdicts: a run during which the server restarted
// (the loader marks it incomplete, server.restarted_during_run) is no sample and a note says why;
// a step the loader found too short to measure, or in which the server paused, is left out of
// the verdict with its reason. Hand-made results folders (support/fixtures.js) with the fields the
// loader writes (loader/src/run/runner.js, loader/src/results/too-short.js, loader/src/run/pauses.js).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir, makeRun } = require('./support/fixtures');
const { readAll } = require('../src/read');
const { buildReport } = require('../src/compare');

const edit = (dir, f) => {
  const file = path.join(dir, 'summary.json');
  const s = JSON.parse(fs.readFileSync(file, 'utf8'));
  f(s);
  fs.writeFileSync(file, JSON.stringify(s));
};

test('a run across a server restart is no sample, said in a note; too-short and paused steps are excluded with their reason', () => {
  const root = tmpDir();
  [100, 110, 105].forEach((r, i) => makeRun(root, { engine: 'a', stamp: `a${i}`, steps: [{ name: 's', ops: { find: { rate: r } } }, { name: 't', ops: { find: { rate: r } } }] }));
  const b = [200, 210, 190].map((r, i) => makeRun(root, { engine: 'b', stamp: `b${i}`, steps: [{ name: 's', ops: { find: { rate: r } } }, { name: 't', ops: { find: { rate: r } } }] }));
  const crossed = makeRun(root, { engine: 'a', stamp: 'a9', steps: [{ name: 's', ops: { find: { rate: 900 } } }, { name: 't', ops: { find: { rate: 900 } } }] });
  edit(crossed, (s) => {
    s.complete = false;
    s.exit_code = 1;
    s.reason = 'the server restarted during the run (pid 7 -> 8): not a sample of one server process';
    s.server.process_start = { pid: 7, started_at: '2026-11-01T00:00:00.000Z' };
    s.server.restarted_during_run = true;
    s.server.restart_note = 'the server restarted during the run: pid 7 started 2026-11-01T00:00:00.000Z, at the end pid 8 started 2026-11-01T00:00:30.000Z';
  });
  // Every b run's step t was too short to measure; one b run's step s had the server pause.
  for (const dir of b) edit(dir, (s) => { s.steps[1].too_short = '8 operations in 1 s: fewer than 20 operations, too short to measure'; });
  edit(b[0], (s) => { s.steps[0].pauses = [{ from_s: 3, idle_ms: 2500, op_p99_ms: 4 }]; });
  const report = buildReport(readAll([root], {}));
  const [set] = report.experiments[0].sets;
  assert.equal(set.incomplete.length, 1, 'the restarted run is listed apart');
  const s = set.verdicts.find((v) => v.point === 's');
  assert.deepEqual(s.samples.a, [100, 110, 105], 'never a sample of a verdict');
  assert.deepEqual(s.samples.b, [210, 190], 'the paused run is no sample');
  assert.match(s.sentence, /b: the server paused inside the step .* in 1 of 3 run\(s\), those runs excluded/);
  const t = set.verdicts.find((v) => v.point === 't');
  assert.equal(t.status, 'excluded');
  assert.match(t.sentence, /b: too short to measure .* in 3 of 3 run\(s\)/);
  assert.ok(report.notes.some((n) => /a9|restarted during the run: pid 7 .*not a sample, left out of verdicts/.test(n)), report.notes.join('\n'));
});
