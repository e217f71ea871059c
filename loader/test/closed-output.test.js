'use strict';
// `./run.sh experiment2 ... 2>&1 | head -3`: the reader of the output exits
// while the run goes on. The loader used to die at its next progress line (EPIPE, unhandled:
// exit 1 with no word, the "running" placeholder summary and the 128 KB .reserve left). Now the
// run stops as a signal stops it: the summary is final, marked incomplete with the reason, no
// .reserve, and run.sh exits with the loader's code (not killed by SIGPIPE). The real run.sh,
// the real loader and server; the test is `head`: it reads 3 lines and closes the pipe.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startServer } = require('./support/server');
const { tmpResults } = require('./support/loader');

const RUN_SH = path.resolve(__dirname, '..', '..', 'run.sh');

test('./run.sh experiment2 ... 2>&1 | head -3: the run stops cleanly, summary final and marked, no .reserve, exit 1', async () => {
  const server = await startServer();
  const results = tmpResults();
  try {
    // One pipe for stdout and stderr, as 2>&1 makes it; closed by us after three lines, as head does.
    const p = spawn('bash', ['-c', 'exec "$@" 2>&1', 'bash', RUN_SH, 'experiment2', '--uri', server.uri, '--preload-docs', '300',
      '--clients', '1', '--duration', '60s', '--rate', '100', '--warmup', '0', '--progress-interval', '200ms',
      '--results-dir', results, '--metrics-port', '0', '--engine', 'closed'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let seen = '';
    const t0 = Date.now();
    p.stdout.on('data', (d) => {
      seen += d;
      if (seen.split('\n').length > 3) p.stdout.destroy();
    });
    const guard = setTimeout(() => p.kill('SIGKILL'), 40000);
    const [code, signal] = await new Promise((r) => p.on('exit', (c, s) => r([c, s])));
    clearTimeout(guard);
    assert.equal(signal, null, 'run.sh was not killed (by SIGPIPE or the guard)');
    assert.equal(code, 1, 'an incomplete run: the loader\'s exit code, through run.sh');
    assert.ok(Date.now() - t0 < 30000, `stopped soon after the pipe closed, not after the 60 s step (${Date.now() - t0} ms)`);
    const base = path.join(results, 'experiment2', 'closed');
    const dirs = fs.readdirSync(base).filter((d) => d !== 'latest');
    assert.equal(dirs.length, 1, 'one run folder');
    const dir = path.join(base, dirs[0]);
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.startsWith('.')), [], 'no .reserve (the final summary gives it back)');
    const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
    assert.equal(summary.complete, false);
    assert.equal(summary.exit_code, 1);
    assert.match(summary.reason, /^(stdout|stderr) closed: nothing reads the loader's output any more/);
  } finally {
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});
