'use strict';
// Every script of compose/init under the real mongosh, the shell of every 8.0 engine's image
// (mongosh 2.12.0, .tools/bin/mongosh: test/install.d/47-mongosh.sh says why that version), run
// as the containers run it (mongosh --nodb --quiet --norc <script>) against a real server:
// FerretDB v1.24.2 (test/install.d/45-ferretdb.sh) with SCRAM users (--test-enable-new-auth),
// root@admin and __system@local with the keyfile's text as its password, as the lab has them.
// init-scripts.test.js and init-fcv.test.js run the same scripts in vm stand-ins of both shells;
// neither is mongosh, whose async rewriter turns every shell function asynchronous underneath
// (lab.js run() says what that broke: init died on its first command on every 8.0 engine).
//
// The scripts load('/lab/init/lab.js') and read /etc/lab-keyfile and /run/lab-secrets: each runs
// from a temporary copy whose load line loads this repository's lab.js and then points LAB at
// this test's files and server, on the same line (line numbers stay the script's). The
// production paths stay as they are. FerretDB is one standalone server, so every host of LAB is
// 127.0.0.1 on its port: what needs a replica set or a mongos (init past its first step, the sets
// and shards of status.js) cannot succeed here, and the tests check that those scripts stop with
// their own message and exit status, not with an uncaught error.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const DIR = path.join(ROOT, 'compose', 'init');
const MONGOSH = path.join(ROOT, '.tools', 'bin', 'mongosh');
const PINNED = require('../../test/install.d/mongosh/package.json').dependencies.mongosh;
const { FERRETDB_BIN, freePort, accepts } = require('../../loader/test/support/ferretdb');
const HINT = "run 'bash test/install-tools.sh' (test/install.d/47-mongosh.sh installs mongosh, 45-ferretdb.sh builds FerretDB)";
const LOAD = "load('/lab/init/lab.js');";

// The lab's secrets as this test writes them: the keyfile with the whitespace mongod ignores
// (lab.js keyFromFileText), passwords with characters a URI must encode.
const KEYFILE_TEXT = 'abc+/\nDEF 12\n';
const SYSTEM_PASSWORD = 'abc+/DEF12';
const SECRETS = { 'root-password': 'pw+/x:@%\n', 'exporter-password': 'ex+/y\n' };
const ROOT_PASSWORD = SECRETS['root-password'].trim();

let dir;
let server;

// FerretDB as support/ferretdb.js starts it (loopback, telemetry off, no debug listener, its own
// SQLite folder), with authentication on and root@admin made at start.
async function startFerretdb() {
  const data = path.join(dir, 'ferretdb');
  fs.mkdirSync(path.join(data, 'data'), { recursive: true });
  const port = await freePort();
  const proc = spawn(FERRETDB_BIN, ['--handler=sqlite', `--sqlite-url=file:${data}/data/`, `--state-dir=${data}`,
    `--listen-addr=127.0.0.1:${port}`, '--debug-addr=-', '--telemetry=disable', '--log-level=ERROR',
    '--test-enable-new-auth', '--setup-database=admin', '--setup-username=root', `--setup-password=${ROOT_PASSWORD}`],
  { cwd: data, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DO_NOT_TRACK: '1' } });
  const deadline = Date.now() + 30000;
  while (!(await accepts(port))) {
    if (proc.exitCode !== null) throw new Error(`FerretDB exited with ${proc.exitCode} before accepting connections`);
    if (Date.now() > deadline) { proc.kill('SIGKILL'); throw new Error('FerretDB did not accept connections within 30 s'); }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    stop: () => new Promise((r) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return r();
      proc.once('exit', r);
      proc.kill('SIGTERM');
      setTimeout(() => proc.kill('SIGKILL'), 3000).unref();
    }),
  };
}

// mongosh(args, { input }) -> { code, stdout, stderr }. HOME is the test's folder (mongosh writes
// its log there); the global config turns telemetry off (a container without a terminal has it
// off already) and --quiet skips the update check, so mongosh talks to nothing but the server.
function mongosh(args, { input = null, timeoutMs = 60000 } = {}) {
  return new Promise((resolve, reject) => {
    const p = spawn(MONGOSH, args, {
      cwd: dir,
      env: { ...process.env, HOME: dir, MONGOSH_GLOBAL_CONFIG_FILE_FOR_TESTING: path.join(dir, 'mongosh.conf') },
      stdio: [input === null ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    const t = setTimeout(() => { p.kill('SIGKILL'); reject(new Error(`mongosh ${args.join(' ')}: no exit within ${timeoutMs} ms\n${stdout}${stderr}`)); }, timeoutMs);
    p.on('error', (e) => { clearTimeout(t); reject(e); });
    p.on('close', (code) => { clearTimeout(t); resolve({ code, stdout, stderr }); });
    if (input !== null) p.stdin.end(input);
  });
}

// script(name, { source, append }) -> the path of a runnable copy of compose/init/<name> (or of
// `source`, a script of this test that loads lab.js the same way): its load line loads the
// repository's lab.js and points LAB at this test's server and files.
function script(name, { source = null, append = '' } = {}) {
  const text = source === null ? fs.readFileSync(path.join(DIR, name), 'utf8') : source;
  assert.equal(text.split(LOAD).length, 2, `${name} has one ${LOAD} line`);
  const setup = [
    `load(${JSON.stringify(path.join(DIR, 'lab.js'))});`,
    `LAB.port = ${server.port};`,
    `LAB.keyfile = ${JSON.stringify(path.join(dir, 'lab-keyfile', 'keyfile'))};`,
    `LAB.secrets = ${JSON.stringify(path.join(dir, 'lab-secrets'))};`,
    "LAB.cfgrs.hosts = ['127.0.0.1']; LAB.shard.hosts = ['127.0.0.1']; LAB.mongos = '127.0.0.1';",
  ].join(' ');
  const file = path.join(dir, 'scripts', name);
  fs.writeFileSync(file, text.replace(LOAD, setup) + append);
  return file;
}

const run = (file, opts) => mongosh(['--nodb', '--quiet', '--norc', file], opts);

// probe(body) -> the value the body printed as its 'RESULT <json>' line, with lab.js loaded as the
// scripts load it. Fails on a non-zero exit or anything on stderr (an uncaught error).
async function probe(name, body) {
  const r = await run(script(`${name}.js`, { source: `'use strict';\n${LOAD}\n${body}\n` }));
  assert.equal(r.stderr, '', `${name}: nothing on stderr\n${r.stdout}`);
  assert.equal(r.code, 0, `${name}: exit 0\n${r.stdout}`);
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  assert.ok(line, `${name}: a RESULT line\n${r.stdout}`);
  return { result: JSON.parse(line.slice('RESULT '.length)), out: r.stdout.split('\n').filter((l) => l && !l.startsWith('RESULT ')) };
}

before(async () => {
  assert.ok(fs.existsSync(MONGOSH), `mongosh missing at ${MONGOSH}: ${HINT}`);
  assert.ok(fs.existsSync(FERRETDB_BIN), `FerretDB missing at ${FERRETDB_BIN}: ${HINT}`);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-init-mongosh-'));
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.mkdirSync(path.join(dir, 'lab-keyfile'));
  fs.mkdirSync(path.join(dir, 'lab-secrets'));
  fs.writeFileSync(path.join(dir, 'lab-keyfile', 'keyfile'), KEYFILE_TEXT);
  for (const [f, text] of Object.entries(SECRETS)) fs.writeFileSync(path.join(dir, 'lab-secrets', f), text);
  fs.writeFileSync(path.join(dir, 'mongosh.conf'), 'mongosh:\n  forceDisableTelemetry: true\n  updateURL: ""\n');
  server = await startFerretdb();
  // __system@local, the cluster's internal identity, whose password is the keyfile (lab.js).
  const uri = `mongodb://root:${encodeURIComponent(ROOT_PASSWORD)}@127.0.0.1:${server.port}/?authSource=admin&directConnection=true`;
  const made = await mongosh(['--nodb', '--quiet', '--norc', '--eval',
    `new Mongo(${JSON.stringify(uri)}).getDB('local').runCommand({ createUser: '__system', pwd: ${JSON.stringify(SYSTEM_PASSWORD)}, roles: [] }).ok`]);
  assert.equal(made.stdout.trim(), '1', `createUser __system@local: ${made.stdout}${made.stderr}`);
});

after(async () => {
  if (server) await server.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test(`mongosh is the pinned ${PINNED} (test/install.d/mongosh/package.json)`, async () => {
  const r = await mongosh(['--version']);
  assert.equal(r.stdout.trim(), PINNED, `.tools/bin/mongosh prints ${r.stdout.trim()}: ${HINT}`);
});

test('run(): a command the server refuses comes back as { ok: 0, code, codeName, errmsg } under mongosh, not thrown', async () => {
  const { result } = await probe('run', `
var c = connectRoot(LAB.mongos);
var admin = c.getDB('admin');
var refused = run(admin, { replSetGetStatus: 1 });
var answered = run(admin, { ping: 1 });
c.close();
print('RESULT ' + JSON.stringify({ refused: refused, answered: answered.ok, pending: typeof refused.then }));`);
  assert.deepEqual(result, {
    refused: { ok: 0, code: 59, codeName: 'CommandNotFound', errmsg: "no such command: 'replSetGetStatus'" },
    answered: 1,
    pending: 'undefined',
  });
});

test('connections: uri()/openConnection() log in with the credentials in the URI; a wrong password throws at the open', async () => {
  const { result } = await probe('connect', `
function who(conn) {
  var s = run(conn.getDB('admin'), { connectionStatus: 1 });
  conn.close();
  return s.authInfo.authenticatedUsers.map(function (u) { return u.user + '@' + u.db; });
}
var wrong;
try {
  openConnection(LAB.mongos, { user: 'root', password: 'not-the-password' });
  wrong = 'opened';
} catch (e) {
  wrong = { code: e.code, codeName: e.codeName };
}
print('RESULT ' + JSON.stringify({
  legacy: legacyShell(),
  secret: readSecret('root-password'),
  root: who(connectRoot(LAB.mongos)),
  system: who(connectSystem(LAB.cfgrs.hosts[0])),
  wrong: wrong,
}));`);
  assert.deepEqual(result, {
    legacy: false,
    secret: ROOT_PASSWORD,
    root: ['root@admin'],
    system: ['__system@local'],
    // init.js ensureUser: a refused login is how it sees a password to update
    wrong: { code: 18, codeName: 'AuthenticationFailed' },
  });
});

test('hello() and retry(): a primary answers; retry waits out a refusal a second at a time, then gives up by its deadline', async () => {
  const { result, out } = await probe('retry', `
var c = connectSystem(LAB.cfgrs.hosts[0]);
var h = hello(c.getDB('admin'));
var start = Date.now(), tries = 0;
var got = retry('probe', function () {
  tries += 1;
  var r = run(c.getDB('admin'), tries < 3 ? { replSetGetStatus: 1 } : { ping: 1 });
  if (r.ok !== 1) throw new Error(r.errmsg);
  return r;
}, 20000);
var waited = Date.now() - start;
var conn = retry('connect', function () { return connectSystem(LAB.cfgrs.hosts[0]); }, 20000);
var viaRetry = run(conn.getDB('admin'), { connectionStatus: 1 }).authInfo.authenticatedUsers[0].user;
conn.close();
var gaveUp = null;
try { retry('never', function () { return false; }, 1500); } catch (e) { gaveUp = e.message; }
c.close();
print('RESULT ' + JSON.stringify({ writablePrimary: h.writablePrimary, helloOk: h.raw.ok, tries: tries, ok: got.ok,
  waited: waited, viaRetry: viaRetry, gaveUp: gaveUp }));`);
  assert.equal(result.writablePrimary, true);
  assert.equal(result.helloOk, 1);
  assert.equal(result.tries, 3);
  assert.equal(result.ok, 1);
  assert.ok(result.waited >= 1900 && result.waited < 15000, `two sleeps of a second between three tries, took ${result.waited} ms`);
  assert.equal(result.viaRetry, '__system', 'retry() returns the connection itself, not a pending one');
  assert.match(result.gaveUp, /^never: gave up after 2 s; last error: not yet$/);
  assert.deepEqual(out, ["  probe: waiting (no such command: 'replSetGetStatus')"], 'one line per new error');
});

test('init.js: its first step reads the refused replSetGetStatus as a reply and stops with its own line', async () => {
  const r = await run(script('init.js'));
  assert.equal(r.stderr, '', 'no uncaught error');
  assert.equal(r.code, 1);
  // On a fresh 8.0 config server the same reply is NotYetInitialized (94) and init goes on to
  // replSetInitiate; FerretDB has no replication, so init names the step and the server's error.
  assert.equal(r.stdout.trim(), "init: FAILED: cfgrs: replSetGetStatus on 127.0.0.1 failed: no such command: 'replSetGetStatus'");
});

test('smoke.js: the write with w:majority and the read back as root, through lab.js run()', async () => {
  const r = await run(script('smoke.js'));
  assert.equal(r.stderr, '');
  assert.equal(r.code, 0, r.stdout);
  assert.match(r.stdout.trim(), /^smoke write-read ok smoke-\d+-\d+$/);
});

test('status.js: no replica set and no mongos here; it says so per part, exits 1 and prints its summary line', async () => {
  const r = await run(script('status.js'));
  assert.equal(r.stderr, '', 'no uncaught error');
  assert.equal(r.code, 1, r.stdout);
  const lines = r.stdout.trim().split('\n');
  // A replica-set connection to a standalone finds no member of the set (server selection).
  assert.match(lines[0], /^cfgrs {2}unreachable: /);
  assert.match(lines[1], /^shard01 {2}unreachable: /);
  assert.equal(lines[2], "shards  unavailable through mongos: no such command: 'listShards'");
  // FerretDB's serverStatus has no storageEngine (loader/test/support/server-lines.js FERRETDB_DEVIATIONS)
  assert.deepEqual(lines.slice(3, 6), ['engine', '  shard01           undefined', '  cfgrs             undefined']);
  assert.equal(lines[6], 'problems: cfgrs unreachable; shard01 unreachable; shard shard01 is not added');
  assert.equal(lines[7], 'summary engine=undefined shards=- cfgrs=- shard01=-');
  assert.equal(lines.length, 8);
});

test('shell.js: as ./run.sh shell runs it (--shell), root is logged in and `db` is the test database', async () => {
  const r = await mongosh(['--nodb', '--quiet', '--norc', '--shell', script('shell.js')], {
    input: "print('db=' + db.getName() + ' user=' + db.runCommand({ connectionStatus: 1 }).authInfo.authenticatedUsers[0].user)\n",
  });
  assert.equal(r.stderr, '');
  assert.equal(r.code, 0, r.stdout);
  const lines = r.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
  assert.ok(lines.includes(`connected to ${server.port} on this container as root; try sh.status() or rs.status()`), r.stdout);
  assert.ok(lines.some((l) => l.endsWith('db=test user=root')), r.stdout);
});

test('every script of compose/init ran under mongosh here (lab.js through each)', () => {
  const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.js')).sort();
  assert.deepEqual(files, ['init.js', 'lab.js', 'shell.js', 'smoke.js', 'status.js'], 'a new script needs a test above');
});

// The construct mongosh's rewriter leaves unawaited (lab.js run()): `return <call>` inside a try,
// or inside its catch when a finally follows (the finally would run before the call's reply,
// e.g. closing the connection it uses). What the FerretDB runs above do not reach (init.js past its
// first step) is held to it here, with the Babel parser mongosh's rewriter parses with.
test('no script returns a call straight from inside a try (mongosh would not await it there)', () => {
  const rewriter = require.resolve('@mongosh/async-rewriter2', { paths: [path.join(ROOT, '.tools', 'mongosh')] });
  const { parse } = require(require.resolve('@babel/parser', { paths: [rewriter] }));
  const found = [];
  const FUNCTION = /Function/;
  function walk(node, guarded, file) {
    if (!node || typeof node.type !== 'string') return;
    if (FUNCTION.test(node.type) && guarded) guarded = false; // a new function: its own returns
    if (node.type === 'ReturnStatement' && guarded && node.argument && /^(Call|New)Expression$/.test(node.argument.type)) {
      found.push(`${file}:${node.loc.start.line}`);
    }
    if (node.type === 'TryStatement') {
      walk(node.block, true, file);
      if (node.handler) walk(node.handler, guarded || Boolean(node.finalizer), file);
      if (node.finalizer) walk(node.finalizer, guarded, file);
      return;
    }
    for (const key of Object.keys(node)) {
      if (key === 'loc') continue;
      const v = node[key];
      for (const child of Array.isArray(v) ? v : [v]) if (child && typeof child === 'object') walk(child, guarded, file);
    }
  }
  for (const f of fs.readdirSync(DIR).filter((x) => x.endsWith('.js'))) {
    walk(parse(fs.readFileSync(path.join(DIR, f), 'utf8'), { sourceType: 'script' }).program, false, f);
  }
  assert.deepEqual(found, []);
  // The check itself finds the old run().
  const old = 'function run(db, doc) { try { return db.runCommand(doc); } catch (e) { return { ok: 0 }; } }';
  walk(parse(old).program, false, 'old run()');
  assert.deepEqual(found, ['old run():1']);
});
