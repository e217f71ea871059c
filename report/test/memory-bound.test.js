'use strict';
// The report's memory does not grow with the runs' per-second series: each run's timeline and
// server series are read from its folder when report.json and the page are written, one run at a
// time (src/lazy-series.js, src/json-stream.js, src/html.js writeHtml), not held for every run
// (about 0.35 MB a run of default length: 10,000 runs peaked at 3.5 GB). 200 runs of default
// length (bench/folders.js) under a 64 MB heap: holding their series (70 MB) and the page's 100
// runs as one string ran out of memory; written one run at a time they need about 32 MB.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { tmpDir } = require('./support/fixtures');
const { makeFolders, STEPS, STEP_S } = require('../bench/folders');

const RUNS = 200;
const HEAP_MB = 64;
const BIN = path.join(__dirname, '..', 'bin', 'lab-report.js');

const TITLE = `${RUNS} runs of default length in a ${HEAP_MB} MB heap, each run's series in report.json`;
test(TITLE, { timeout: 120000 }, () => {
  const root = makeFolders(tmpDir(), RUNS);
  const r = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, BIN, '--results-dir', root],
    { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, `exit ${r.status} ${r.signal ?? ''}: ${r.stderr.split('\n').slice(0, 3).join(' | ')}`);
  const out = path.join(root, 'report', 'latest');
  const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
  const timelines = report.experiments.flatMap((ex) => ex.sets.flatMap((set) => set.timelines));
  assert.equal(timelines.length, RUNS);
  const whole = (series) => series.length === STEPS * STEP_S;
  assert.ok(timelines.every((tl) => whole(tl.seconds)), 'every run\'s seconds, read back from its folder');
  assert.equal(report.server_series.length, RUNS);
  assert.ok(report.server_series.every((s) => whole(s.series)));
  const page = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
  const appendix = /"appendix":\{"runs":200,"shown":100,"server_series":200\}/;
  assert.match(page, appendix, 'the page keeps its appendix of 100 runs');
  fs.rmSync(root, { recursive: true, force: true });
});
