'use strict';
// FerretDB v1.24.2 (SQLite backend) as the tests' second real server: an independently written
// MongoDB-compatible server, built by test/install.d/45-ferretdb.sh into .tools/bin/ferretdb. The
// suite 45-ferretdb starts one for MONGODB_URI and sets LAB_TEST_SERVER=ferretdb, so that tests
// which start a server of their own to kill or freeze (support/server.js startServer) get a
// FerretDB process too. Loopback only, telemetry off (it would otherwise report to its vendor),
// no debug HTTP listener, a fresh SQLite directory per server, removed when it stops.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const BIN = path.resolve(__dirname, '..', '..', '..', '.tools', 'bin', 'ferretdb');
const HINT = "run 'bash test/install-tools.sh' (builds FerretDB v1.24.2 from the Go module proxy into .tools/bin/ferretdb)";

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

function accepts(port) {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host: '127.0.0.1' }, () => { sock.destroy(); resolve(true); });
    sock.once('error', () => resolve(false));
  });
}

// startFerretdb() -> { uri, port, proc, dir, kill(), stop() }, resolved once it accepts connections.
async function startFerretdb() {
  if (!fs.existsSync(BIN)) throw new Error(`FerretDB missing at ${BIN}: ${HINT}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-ferretdb-'));
  fs.mkdirSync(path.join(dir, 'data'));
  const port = await freePort();
  const proc = spawn(BIN, ['--handler=sqlite', `--sqlite-url=file:${dir}/data/`, `--state-dir=${dir}`, `--listen-addr=127.0.0.1:${port}`,
    '--debug-addr=-', '--telemetry=disable', '--log-level=ERROR'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DO_NOT_TRACK: '1' } });
  const gone = () => proc.exitCode !== null || proc.signalCode !== null;
  const deadline = Date.now() + 30000;
  while (!(await accepts(port))) {
    if (gone()) throw new Error(`FerretDB exited with ${proc.exitCode ?? proc.signalCode} before accepting connections`);
    if (Date.now() > deadline) { proc.kill('SIGKILL'); throw new Error('FerretDB did not accept connections within 30 s'); }
    await new Promise((r) => setTimeout(r, 50));
  }
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  return {
    uri: `mongodb://127.0.0.1:${port}/`,
    port,
    proc,
    dir,
    kill() { proc.kill('SIGKILL'); proc.once('exit', cleanup); },
    stop() {
      return new Promise((r) => {
        if (gone()) { cleanup(); return r(); }
        proc.once('exit', () => { cleanup(); r(); });
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 3000).unref();
      });
    },
  };
}

// suiteClient(): a client of the suite's FerretDB (MONGODB_URI, started by
// test/suites/45-ferretdb.sh), connected, after checking that the server is FerretDB v1.24.2: the
// loader/test/ferretdb/ files are about that server and no other.
async function suiteClient() {
  const assert = require('node:assert/strict');
  const { MongoClient } = require('mongodb');
  assert.ok(process.env.MONGODB_URI, 'MONGODB_URI names the FerretDB server (test/suites/45-ferretdb.sh starts it)');
  const client = new MongoClient(process.env.MONGODB_URI, { serverSelectionTimeoutMS: 10000 });
  await client.connect();
  const build = await client.db('admin').command({ buildInfo: 1 });
  assert.equal(build.ferretdbVersion, 'v1.24.2', 'the server is FerretDB v1.24.2');
  return client;
}

module.exports = { startFerretdb, FERRETDB_BIN: BIN, freePort, accepts, suiteClient };
