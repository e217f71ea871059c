'use strict';
// A run that never reached the server: one line naming what to check, quickly where the failure
// is immediate, no results folder, `latest` left where it was. Real failures each time: a closed
// port, a name that does not resolve, a network namespace with no route, a silent listener,
// mongo-java-server refusing the password (as mongod does, code 18), a replica-set name that the
// server does not have.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { startServer, UNREPORTED_ENGINE_FOLDER } = require('./support/server');
const { runLoader, tmpResults, BIN, errorLines, unwrap } = require('./support/loader');

// A port with nothing listening on it: bind to 0, note the port, close.
async function deadPort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

// An earlier, complete run that latest points at: a failed start must leave both alone.
function earlierRun(root) {
  const parent = path.join(root, 'experiment1', UNREPORTED_ENGINE_FOLDER);
  fs.mkdirSync(path.join(parent, '20200101T000000Z'), { recursive: true });
  fs.writeFileSync(path.join(parent, '20200101T000000Z', 'summary.json'), '{"complete": true}\n');
  fs.symlinkSync('20200101T000000Z', path.join(parent, 'latest'));
  return parent;
}

function assertNothingWritten(root, parent) {
  assert.deepEqual(fs.readdirSync(root), ['experiment1'], 'no other experiment or engine folder');
  assert.deepEqual(fs.readdirSync(path.join(root, 'experiment1')), [UNREPORTED_ENGINE_FOLDER]);
  assert.deepEqual(fs.readdirSync(parent).sort(), ['20200101T000000Z', 'latest'], 'no new run folder');
  assert.equal(fs.readlinkSync(path.join(parent, 'latest')), '20200101T000000Z', 'latest did not move');
}

// A limit missed on a busy host is the premise failing, not the loader: each limit allows the
// loader's start-up 2.5 s (Node's start and the loader's require, 0.4 CPU s; with the shared test
// VM at load 50 these tests took 9-10 s against limits of 4.5 and 9 s). So a run that misses its
// limit has the start-up measured at once (a usage error: the same start, nothing connects); over
// the allowance, the test is skipped with both figures and its other checks still made; within
// it, the miss is the loader's and the test fails.
const STARTUP_ALLOWANCE_MS = 2500;
async function withinLimit(t, tookMs, maxMs) {
  if (tookMs < maxMs) return;
  const start = await runLoader(['experiment1', '--docs', '0', '--metrics-port', '0']);
  assert.equal(start.code, 2, start.stderr);
  if (start.ms > STARTUP_ALLOWANCE_MS) {
    t.skip(`premise not met: the loader took ${start.ms} ms to start and refuse a flag (allowed ${STARTUP_ALLOWANCE_MS} ms: `
      + `a busy host); this run took ${tookMs} ms (limit ${maxMs})`);
    return;
  }
  assert.fail(`took ${tookMs} ms (limit ${maxMs}; the loader's start measured after it: ${start.ms} ms)`);
}

// failing(t, args) -> the loader's result, checked for what every such failure shares.
async function failing(t, uri, extra = [], { maxMs }) {
  const root = tmpResults();
  const parent = earlierRun(root);
  try {
    const r = await runLoader(['experiment1', '--uri', uri, '--docs', '100', '--results-dir', root, '--metrics-port', '0', ...extra]);
    assert.equal(r.code, 1, r.stderr);
    const errors = errorLines(r.stderr); // a message past 120 columns is wrapped: read it joined
    assert.equal(errors.length, 1, `one error line:\n${r.stderr}`);
    // every line within 120 columns (the message for a silent listener ran to 190 on one line)
    assert.deepEqual(r.stderr.split('\n').filter((l) => l.length > 120), []);
    assert.doesNotMatch(r.stderr, /stopping:|incomplete run|partial results/);
    assert.doesNotMatch(r.stdout, /results:/, 'no results line: this run wrote no folder');
    // Node's start-up and a loaded 2-core machine included; today's code waited the full 10 s.
    assertNothingWritten(root, parent);
    if (maxMs) await withinLimit(t, r.ms, maxMs);
    return { ...r, error: errors[0] };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

test('connection refused: named as such within 2 s (plus start-up), not after the 10 s timeout', async (t) => {
  const port = await deadPort();
  const r = await failing(t, `mongodb://127.0.0.1:${port}/?directConnection=true`, [], { maxMs: 4500 });
  assert.match(r.error, new RegExp(`^error: connection refused by 127\\.0\\.0\\.1:${port}: nothing listens there \\(is the server running, is the port in --uri right\\?\\)$`));
});

test('DNS failure: names the host that does not resolve', async (t) => {
  const r = await failing(t, 'mongodb://no-such-host.invalid:27017/', [], { maxMs: 9000 });
  assert.match(r.error, /^error: cannot resolve no-such-host\.invalid \(DNS lookup failed\): check the host name in --uri$/);
});

test('host unreachable (no route, in a network namespace of its own): said so at once', async (t) => {
  const probe = spawnSync('unshare', ['-n', 'true']);
  if (probe.status !== 0) { t.skip('unshare -n needs root'); return; }
  const root = tmpResults();
  const parent = earlierRun(root);
  try {
    const t0 = Date.now();
    const r = spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up 2>/dev/null; exec "$0" "$@"', process.execPath, BIN,
      'experiment1', '--uri', 'mongodb://10.213.0.1:27017/', '--docs', '100', '--results-dir', root, '--metrics-port', '0'], { encoding: 'utf8', timeout: 30000 });
    assert.equal(r.status, 1, r.stderr);
    assert.match(unwrap(r.stderr), /^error: host 10\.213\.0\.1:27017 is unreachable \(no route to it\): check the address in --uri and the network$/m);
    const took = Date.now() - t0;
    assertNothingWritten(root, parent);
    await withinLimit(t, took, 4500);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a host that accepts TCP and never answers: said so (not "a firewall drops the packets"), after the selection timeout', async (t) => {
  const sockets = [];
  const silent = net.createServer((s) => sockets.push(s));
  await new Promise((r) => silent.listen(0, '127.0.0.1', r));
  try {
    const { port } = silent.address();
    const r = await failing(t, `mongodb://127.0.0.1:${port}/`, ['--server-selection-timeout', '1.5s'], { maxMs: 9000 });
    // It took the connection: "host down, or a firewall drops the packets" would send the user
    // the wrong way.
    assert.match(r.error, new RegExp(`^error: 127\\.0\\.0\\.1:${port} accepted the TCP connection but sent no MongoDB reply within 1\\.5s: `));
    assert.doesNotMatch(r.error, /firewall/);
  } finally {
    for (const s of sockets) s.destroy();
    silent.close();
  }
});

test('authentication failed: says so with user, auth source and mechanism, not "cannot reach"', async (t) => {
  const server = await startServer({ rejectAuth: true });
  const pw = path.join(tmpResults(), 'pw');
  fs.writeFileSync(pw, 'wrong\n');
  try {
    const r = await failing(t, server.uri, ['--username', 'alice', '--password-file', pw], { maxMs: 4500 });
    assert.match(r.error, /^error: authentication failed for user 'alice' \(auth source 'admin', mechanism [^)]*\): check --username, --password-file/);
    assert.doesNotMatch(r.error, /cannot reach/);
  } finally {
    fs.rmSync(path.dirname(pw), { recursive: true, force: true });
    await server.stop();
  }
});

test('replica-set name that the server does not have: named, at once', async (t) => {
  const server = await startServer();
  try {
    const r = await failing(t, `${server.uri}?replicaSet=rs-typo`, [], { maxMs: 4500 });
    assert.match(r.error, new RegExp(`^error: 127\\.0\\.0\\.1:${server.port} is not a member of replica set 'rs-typo' \\(it reports no replica set\\): check replicaSet= in --uri$`));
  } finally {
    await server.stop();
  }
});

// What listens at the port, asked with a plain hello (src/server/probe-port.js), names the cause the
// driver's errors hid.
test('--server-selection-timeout 1ms against a healthy server: the timeout is named, not the server', async (t) => {
  const server = await startServer();
  try {
    const r = await failing(t, server.uri, ['--server-selection-timeout', '1ms'], { maxMs: 9000 });
    assert.match(r.error, new RegExp(`^error: 127\\.0\\.0\\.1:${server.port} answers as a MongoDB server, but no server was selected within 1ms: --server-selection-timeout is too short for a first connection .*: raise it \\(default 10s\\)$`));
    assert.doesNotMatch(r.error, /not answering|hung mongod/);
  } finally {
    await server.stop();
  }
});

test('an HTTP server at the port: said to be a web server within seconds, not "cannot reach ... closed" after 10 s', async (t) => {
  const web = require('node:http').createServer((req, res) => res.end('hello'));
  await new Promise((r) => web.listen(0, '127.0.0.1', r));
  try {
    const { port } = web.address();
    const r = await failing(t, `mongodb://127.0.0.1:${port}/`, [], { maxMs: 7000 });
    assert.match(r.error, new RegExp(`^error: 127\\.0\\.0\\.1:${port} is a web server, not MongoDB \\(it answered 'HTTP/1\\.1 400 Bad Request'\\): check the host and port in --uri$`));
  } finally {
    web.close();
  }
});

test('tls=true against a server without TLS: says the server speaks none (add tls=false), within seconds', async (t) => {
  const server = await startServer();
  try {
    const r = await failing(t, `${server.uri}?tls=true`, [], { maxMs: 7000 });
    assert.match(r.error, /answers as a MongoDB server without TLS, and --uri asks for TLS \(tls=true, or mongodb\+srv:\/\/, which turns TLS on\): add tls=false to --uri/);
    assert.doesNotMatch(r.error, /without tls=true/, 'the hint was backwards');
  } finally {
    await server.stop();
  }
});

test('a TLS port without tls=true in --uri: says it speaks TLS (add tls=true) (the other way)', async (t) => {
  const dir = tmpResults();
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  // Closes a plain connection, as mongod with requireTLS does.
  const front = require('node:tls').createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (s) => s.end());
  await new Promise((r) => front.listen(0, '127.0.0.1', r));
  try {
    const { port } = front.address();
    const r = await failing(t, `mongodb://127.0.0.1:${port}/`, ['--server-selection-timeout', '3s'], { maxMs: 12000 });
    assert.match(r.error, new RegExp(`^error: 127\\.0\\.0\\.1:${port} speaks TLS and --uri does not: add tls=true to --uri`));
  } finally {
    front.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('tlsCAFile= naming a file that does not exist: a usage error naming tlsCAFile, exit 2, nothing connects', async () => {
  const r = await runLoader(['experiment1', '--uri', 'mongodb://127.0.0.1:1/?tls=true&tlsCAFile=/nonexistent.pem', '--metrics-port', '0']);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim(), 'error: --uri: tlsCAFile=/nonexistent.pem cannot be read (ENOENT): give the path of the CA certificate (PEM)');
});
