'use strict';
// DEVELOPERS.md "Adding a server-record field", done as written: a copy of the loader gets one row
// in src/server-record/fields.js (network.numRequests as net.requests, a counter), nothing else is
// edited; a real run against the test server then writes it into server.ndjson as a rate per
// second, beside the fields the record already had.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startServer } = require('./support/server');

const REPO = path.join(__dirname, '..', '..');
const ROW = "  { key: 'net.requests', kind: 'counter', paths: [['network', 'numRequests']], unit: 'per second' },\n";

let server;
let root;
test.before(async () => {
  server = await startServer({ line: 'mongod-8.0-wiredtiger-replset' }); // a line that plays serverStatus
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-new-field-'));
  for (const p of ['loader/bin', 'loader/src', 'loader/package.json', 'common', 'experiments']) fs.cpSync(path.join(REPO, p), path.join(root, p), { recursive: true });
  fs.symlinkSync(path.join(REPO, 'loader', 'node_modules'), path.join(root, 'loader', 'node_modules'));
  const file = path.join(root, 'loader', 'src', 'server-record', 'fields.js');
  const src = fs.readFileSync(file, 'utf8');
  const at = src.indexOf("  { key: 'net.bytes_in'");
  assert.ok(at > 0, 'fields.js has the network rows the recipe puts the new one beside');
  fs.writeFileSync(file, src.slice(0, at) + ROW + src.slice(at));
});
test.after(async () => {
  await server?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

// run(args) -> { status, stderr }: the copy's loader, asynchronously (the test server's wire shim
// answers from this process's event loop).
function run(args) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [path.join(root, 'loader', 'bin', 'lab-loader.js'), ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('close', (status) => resolve({ status, stderr }));
  });
}

test('a new server-record field is one row of fields.js: the run records it, a rate per second', async () => {
  const results = path.join(root, 'results');
  const r = await run(['experiment2', '--uri', server.uri, '--engine', 'newfield', '--preload-docs', '300', '--clients', '1', '--duration', '3s',
    '--warmup', '0', '--metrics-port', '0', '--results-dir', results, '--experiments-dir', path.join(root, 'experiments')]);
  assert.equal(r.status, 0, r.stderr);
  const dir = path.join(results, 'experiment2', 'newfield');
  const folder = fs.readdirSync(dir).find((d) => d !== 'latest');
  const rows = fs.readFileSync(path.join(dir, folder, 'server.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const rates = rows.map((x) => x.net?.requests).filter((v) => typeof v === 'number');
  assert.ok(rates.length > 0, `no net.requests in server.ndjson: ${JSON.stringify(rows[1])}`);
  assert.ok(rates.some((v) => v > 0), `requests were made every second: ${rates.join(' ')}`);
  assert.ok(rows.some((x) => typeof x.net?.bytes_in === 'number'), 'the fields the record had are still there');
});
