'use strict';
// compose/init/ping.sh, the healthcheck of every mongod and mongos: exit 0 only when a server
// answers {ping: 1} with ok: 1 over OP_MSG. Against real servers: mongo-java-server (ok as a
// double, as mongod sends it) and FerretDB v1.24.2 (.tools/bin/ferretdb); against servers made
// here that answer wrong (ok: 0, an OP_REPLY, nothing) and a closed port, it fails in one line.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const net = require('node:net');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { startServer } = require('../../loader/test/support/server');
const { startFerretdb, freePort } = require('../../loader/test/support/ferretdb');
const wire = require('../../loader/test/support/wire');

const PING = path.join(__dirname, '..', 'init', 'ping.sh');
// ping(port) -> {status, stdout, stderr}; asynchronous, so that the servers made here can answer
const ping = (port) => new Promise((resolve) => {
  execFile('bash', [PING, '127.0.0.1', String(port)], { encoding: 'utf8', timeout: 20000 }, (e, stdout, stderr) => {
    resolve({ status: e ? e.code : 0, stdout, stderr });
  });
});

// answering(reply) -> {port, close}: a server that answers every message with reply(parsed)
function answering(reply) {
  return new Promise((resolve) => {
    const server = net.createServer((sock) => {
      const split = new wire.Splitter();
      sock.on('data', (d) => { for (const m of split.push(d)) { const r = reply(wire.parse(m)); if (r) sock.write(r); } });
      sock.on('error', () => {});
    });
    server.listen(0, '127.0.0.1', () => resolve({ port: server.address().port, close: () => new Promise((r) => server.close(r)) }));
  });
}

test('mongo-java-server answers the ping: exit 0', async () => {
  const s = await startServer();
  try {
    const r = await ping(s.port);
    assert.equal(r.status, 0, r.stdout + r.stderr);
  } finally {
    await s.stop();
  }
});

test('FerretDB answers the ping: exit 0', async () => {
  const s = await startFerretdb();
  try {
    const r = await ping(s.port);
    assert.equal(r.status, 0, r.stdout + r.stderr);
  } finally {
    await s.stop();
  }
});

test('the request is {ping: 1, $db: "admin"} over OP_MSG', async () => {
  let seen = null;
  const s = await answering((m) => { seen = m; return wire.opMsg(9, m.header.requestId, 0, { ok: 1 }); });
  try {
    assert.equal((await ping(s.port)).status, 0);
    assert.equal(seen.header.opCode, wire.OP_MSG);
    assert.deepEqual(seen.body, { ping: 1, $db: 'admin' });
  } finally {
    await s.close();
  }
});

test('ok: 0, an OP_REPLY and a closed port: exit 1, one line each', async () => {
  const cases = [
    ['ok: 0', (m) => wire.opMsg(9, m.header.requestId, 0, { ok: 0, errmsg: 'no' }), /holds no ok: 1/],
    ['an OP_REPLY', (m) => wire.reply({ header: { ...m.header, opCode: wire.OP_QUERY } }, { ok: 1 }, 9), /not an OP_MSG/],
  ];
  for (const [what, reply, line] of cases) {
    const s = await answering(reply);
    try {
      const r = await ping(s.port);
      assert.equal(r.status, 1, what);
      assert.match(r.stdout.trim(), line, what);
      assert.equal(r.stdout.trim().split('\n').length, 1, what);
    } finally {
      await s.close();
    }
  }
  const closed = await ping(await freePort());
  assert.equal(closed.status, 1);
  assert.match(closed.stdout, /no connection/);
});
