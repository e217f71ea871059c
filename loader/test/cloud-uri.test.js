'use strict';
// A cloud cluster's URI: mongodb+srv://NAME/ resolved through a real DNS server (a small
// one on 127.0.0.1, support/dns-server.js, which the loader's node:dns is pointed at by
// support/dns-preload.js), the hosts it resolved to recorded in summary.json, TLS and auth as the
// driver applied them recorded, and no secret from the URI written anywhere in the results.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const net = require('node:net');
const tls = require('node:tls');
const { execFileSync } = require('node:child_process');
const { startServer } = require('./support/server');
const { startDns } = require('./support/dns-server');
const { runLoader, tmpResults, latestRun, errorLines } = require('./support/loader');
const { checkSummary } = require('./support/summary-schema');

let server;
let dns;
let results;
test.before(async () => {
  server = await startServer();
  dns = await startDns({
    '_mongodb._tcp.cluster0.lab.test': { SRV: [{ port: server.port, target: 'node1.lab.test' }] },
    'cluster0.lab.test': {}, // no TXT record: NOERROR without an answer (node: ENODATA)
    'node1.lab.test': { A: ['127.0.0.1'] },
    'tls1.lab.test': { A: ['127.0.0.1'] },
  });
  results = tmpResults();
});
test.after(async () => {
  await server?.stop();
  await dns?.stop();
  if (results) fs.rmSync(results, { recursive: true, force: true });
});

const env = () => ({
  NODE_OPTIONS: `--require ${path.join(__dirname, 'support', 'dns-preload.js')}`,
  LAB_TEST_DNS: `127.0.0.1:${dns.port}`,
  LAB_TEST_DNS_DOMAIN: 'lab.test',
});

test('mongodb+srv://: the SRV record is looked up, the run completes, summary.json records the hosts it resolved to and no secret', async () => {
  // tls=false: the test server speaks no TLS (mongodb+srv:// turns TLS on by default, as a cloud
  // cluster wants). No user: the test server has no SASL (a password in the URI is redacted as
  // before, summary.test.js); the key-file passphrase must appear nowhere in the results.
  const uri = 'mongodb+srv://cluster0.lab.test/?tls=false&tlsCertificateKeyFilePassword=k3y-pass';
  const r = await runLoader(['experiment1', '--uri', uri, '--docs', '200', '--clients', '1', '--results-dir', results,
    '--metrics-port', '0', '--engine', 'srv'], { env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(dns.queries.includes('SRV _mongodb._tcp.cluster0.lab.test'), `asked: ${dns.queries.join(', ')}`);
  const { dir, summary } = latestRun(results, 'experiment1', 'srv');
  checkSummary(summary);
  assert.deepEqual(summary.connection.srv, {
    name: 'cluster0.lab.test', record: '_mongodb._tcp.cluster0.lab.test', resolved_hosts: [`node1.lab.test:${server.port}`],
  });
  assert.equal(summary.connection.tls.enabled, false);
  assert.equal(summary.connection.tls.certificate_key_file_password, 'given (not recorded)');
  assert.equal(summary.connection.auth, null, 'no credentials given');
  assert.ok(summary.steps[0].ops.insert.count > 0, 'documents were inserted through the resolved host');
  for (const f of fs.readdirSync(dir)) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    assert.doesNotMatch(text, /k3y-pass/, `${f} holds a secret from the URI`);
  }
  assert.doesNotMatch(r.stderr + r.stdout, /k3y-pass/, 'a secret printed');
});

test('mongodb+srv:// whose SRV name does not exist: one line naming the SRV record, exit 1, no results folder', async () => {
  const root = tmpResults();
  try {
    const r = await runLoader(['experiment1', '--uri', 'mongodb+srv://nowhere.lab.test/', '--docs', '100', '--results-dir', root,
      '--metrics-port', '0'], { env: env() });
    assert.equal(r.code, 1, r.stderr);
    const errors = errorLines(r.stderr); // wrapped within 120 columns: read joined
    assert.deepEqual(errors, ["error: SRV lookup failed for _mongodb._tcp.nowhere.lab.test (no such name in DNS): check the cluster's name in --uri and that this machine's DNS resolves it"]);
    assert.deepEqual(fs.readdirSync(root), [], 'no results folder');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('mongodb+srv:// with TLS on (its default) and tlsCAFile=: the loader connects over TLS, and records it', async () => {
  // A TLS front for the test server: a self-signed certificate for the SRV target's name, made
  // with openssl here; the driver must verify it against tlsCAFile from the URI.
  const dir = tmpResults();
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1',
    '-subj', '/CN=tls1.lab.test', '-addext', 'subjectAltName=DNS:tls1.lab.test'], { stdio: 'ignore' });
  let handshakes = 0;
  const front = tls.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (sock) => {
    handshakes++;
    const back = net.connect(server.port, '127.0.0.1');
    sock.pipe(back).pipe(sock);
    sock.on('error', () => back.destroy());
    back.on('error', () => sock.destroy());
  });
  await new Promise((r) => front.listen(0, '127.0.0.1', r));
  const records = { '_mongodb._tcp.tlscluster.lab.test': { SRV: [{ port: front.address().port, target: 'tls1.lab.test' }] }, 'tlscluster.lab.test': {} };
  const tlsDns = await startDns({ ...records, 'tls1.lab.test': { A: ['127.0.0.1'] } });
  try {
    const r = await runLoader(['experiment1', '--uri', `mongodb+srv://tlscluster.lab.test/?tlsCAFile=${encodeURIComponent(cert)}`, '--docs', '200',
      '--clients', '1', '--results-dir', results, '--metrics-port', '0', '--engine', 'srv-tls'],
    { env: { ...env(), LAB_TEST_DNS: `127.0.0.1:${tlsDns.port}` } });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(handshakes > 0, 'no TLS connection reached the front');
    const { summary } = latestRun(results, 'experiment1', 'srv-tls');
    assert.equal(summary.connection.tls.enabled, true);
    assert.equal(summary.connection.tls.ca_file, cert);
    assert.equal(summary.connection.tls.allow_invalid_certificates, false);
    assert.deepEqual(summary.connection.srv.resolved_hosts, [`tls1.lab.test:${front.address().port}`]);
  } finally {
    front.close();
    await tlsDns.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
