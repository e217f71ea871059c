'use strict';
// `./run.sh report | head -1`: the reader closes the pipe before the report has printed its
// summary. That ended in an EPIPE stack trace and exit 1; now the report ends quietly, exit 0, its
// files written (they are written before the summary is printed). A real pipe, closed by us before
// the report writes to it (as head does once it has its line), through the real run.sh.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { tmpDir, makeRun } = require('./support/fixtures');

const RUN_SH = path.resolve(__dirname, '..', '..', 'run.sh');

function fixture() {
  const root = tmpDir();
  [100, 110].forEach((r, i) => makeRun(root, { engine: 'a', stamp: `a${i}`, steps: [{ name: 'clients-1', ops: { find: { rate: r } } }] }));
  [200, 220].forEach((r, i) => makeRun(root, { engine: 'b', stamp: `b${i}`, steps: [{ name: 'clients-1', ops: { find: { rate: r } } }] }));
  return root;
}

// reportWithClosedPipe(root, both) -> { code, signal, stderr }: stdout (and stderr too when both,
// as 2>&1 makes it) is a pipe whose reading end is closed at once.
async function reportWithClosedPipe(root, both) {
  const p = spawn('bash', ['-c', both ? 'exec "$@" 2>&1' : 'exec "$@"', 'bash', RUN_SH, 'report', '--results-dir', root, '--wide'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  p.stdout.destroy();
  let stderr = '';
  p.stderr.on('data', (d) => { stderr += d; });
  const [code, signal] = await new Promise((r) => p.on('close', (c, s) => r([c, s])));
  return { code, signal, stderr };
}

for (const both of [false, true]) {
  test(`a closed ${both ? 'stdout and stderr (2>&1)' : 'stdout'}: the report ends quietly, exit 0, files written`, async () => {
    const root = fixture();
    const r = await reportWithClosedPipe(root, both);
    assert.equal(r.signal, null);
    assert.equal(r.stderr, '', 'no EPIPE stack trace');
    assert.equal(r.code, 0);
    const rep = JSON.parse(fs.readFileSync(path.join(root, 'report', 'latest', 'report.json'), 'utf8'));
    assert.deepEqual(rep.experiments[0].sets[0].sides, ['a', 'b']);
    assert.ok(fs.statSync(path.join(root, 'report', 'latest', 'index.html')).size > 0);
  });
}
