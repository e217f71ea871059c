'use strict';
// A fault run's results folder through the experiments' own writer (src/results/run-folder.js, used as is):
// results/fault-<scenario>/<engine>/<UTC>/ created exclusively (never an existing folder, never
// overwritten), latest moved only once it is whole, a placeholder summary from the first moment
// (complete: false, why "running") so a run killed outright still says it did not finish.
// RunDir copies the run's definition file in; for a fault that is scenario.json (name, params,
// plan), written to a private temp folder first.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { RunDir } = require('../results/run-folder');

function openFaultRun({ root, scenario, engine, params, plan, startedAt = new Date() }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-fault-'));
  const def = path.join(tmp, 'scenario.json');
  fs.writeFileSync(def, `${JSON.stringify({ scenario, engine, params, plan }, null, 2)}\n`);
  const run = new RunDir(root, `fault-${scenario}`, engine, startedAt);
  try {
    run.create(def, { scenario, engine, complete: false, why: 'running', started: startedAt.toISOString(), params });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return run;
}

// step(run, name, obj): step-<name>.json beside the summary (what a phase measured); null once
// the final summary is written: a watch left running after a stop (runner.js stopMs) must not
// leave a step newer than the summary that calls its phase unfinished.
function writeStep(run, name, obj) {
  if (run.finished) return null;
  const file = path.join(run.dir, `step-${name}.json`);
  fs.writeFileSync(file, `${JSON.stringify(obj, null, 2)}\n`);
  return file;
}

module.exports = { openFaultRun, writeStep };
