'use strict';
// `lab-loader summary-facts DIR...` (src/results/summary-facts.js): what ./run.sh reads of the runs
// it started (lib/summary-merge.sh summary_facts), one line per folder in the order given, from
// summary.json parsed, whatever its layout: bash used to grep the file by its indentation.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const BIN = path.join(__dirname, '..', 'bin', 'lab-loader.js');

function folder(summary, indent = 2) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-facts-'));
  if (summary !== undefined) fs.writeFileSync(path.join(dir, 'summary.json'), JSON.stringify(summary, null, indent));
  return dir;
}

test('one line per folder, in order: documents_written and how many runs overlapped, "-" where unknown', () => {
  const dirs = [
    folder({ complete: true, documents_written: 2500, concurrent_runs: [] }),
    // another layout than the loader's own: the facts do not depend on it
    folder({ documents_written: 7, concurrent_runs: [{ pid: 1 }, { pid: 2 }] }, 0),
    folder({ complete: false, steps: [] }), // a loader that did not finish
    folder(undefined), // no summary at all
    folder({ documents_written: -3, concurrent_runs: 'x' }),
  ];
  const r = spawnSync(process.execPath, [BIN, 'summary-facts', ...dirs], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.split('\n'), [
    'documents_written=2500 concurrent_runs=0',
    'documents_written=7 concurrent_runs=2',
    'documents_written=- concurrent_runs=-',
    'documents_written=- concurrent_runs=-',
    'documents_written=- concurrent_runs=-',
    '',
  ]);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

test('summary-facts with no folder: a usage line, exit 2', () => {
  const r = spawnSync(process.execPath, [BIN, 'summary-facts'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /summary-facts needs the results folders to read/);
});
