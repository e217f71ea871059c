'use strict';
// ./run.sh NAME --repeat 2, stdout and stderr into one pipe as a terminal shows them
// ("repetition 2/2" once came before repetition 1's table: the header went to stderr, straight
// out, while the table went to stdout through run.sh's tee and filter). The real run.sh, loader
// and server.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startServer } = require('./support/server');
const { tmpResults } = require('./support/loader');

const RUN_SH = path.resolve(__dirname, '..', '..', 'run.sh');

test('./run.sh experiment1 --repeat 2 2>&1: each repetition header comes before its own table and after the previous one', async () => {
  const server = await startServer();
  const results = tmpResults();
  try {
    const p = spawn('bash', ['-c', 'exec "$@" 2>&1', 'bash', RUN_SH, 'experiment1', '--uri', server.uri, '--docs', '300',
      '--repeat', '2', '--warmup', '0', '--results-dir', results, '--metrics-port', '0', '--engine', 'order'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    const code = await new Promise((r) => p.on('close', r));
    assert.equal(code, 0, out);
    const lines = out.split('\n');
    const at = (re) => lines.findIndex((l) => re.test(l));
    const header1 = at(/^repetition 1\/2 /);
    const header2 = at(/^repetition 2\/2 /);
    const tables = lines.map((l, i) => (/^experiment1 on order$/.test(l) ? i : -1)).filter((i) => i >= 0);
    assert.equal(tables.length, 2, `two tables, one per repetition\n${out}`);
    assert.ok(header1 >= 0 && header1 < tables[0], `repetition 1/2 heads the first table\n${out}`);
    assert.ok(header2 > tables[0] && header2 < tables[1], `repetition 2/2 comes after the first table, before the second\n${out}`);
  } finally {
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});
