'use strict';
// A password in --uri never appears in anything the lab prints or writes (usage
// errors echoed the whole URI). The real ./run.sh, the real loader, a real server that lets a
// PLAIN login in (support/LabMongoServer.java LAB_ACCEPT_PLAIN), so a run with a user and password
// in its URI goes all the way through; then everything it produced is searched: stdout, stderr,
// every file under the results folder and the private TMPDIR the run used (run.sh's capture of
// the loader's output, the loader's run registry).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startServer } = require('./support/server');
const { tmpResults } = require('./support/loader');
const { redactUri, redactText } = require('../src/text/redact-uri');

const RUN_SH = path.resolve(__dirname, '..', '..', 'run.sh');
const SECRET = 'Sekr1tPw';

function runSh(args, env = {}) {
  return new Promise((resolve) => {
    const p = spawn(RUN_SH, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// Every file under DIR (symlinks not followed), with its text.
function filesUnder(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const f = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(f));
    else if (e.isFile()) out.push({ file: f, text: fs.readFileSync(f, 'latin1') });
  }
  return out;
}

test('redactUri masks the password up to the last @, keeps the user, masks secret options', () => {
  assert.equal(redactUri(`mongodb://root:${SECRET}@h:1/`), 'mongodb://root:***@h:1/');
  assert.equal(redactUri('mongodb://root:p@ss@127.0.0.1:1/'), 'mongodb://root:***@127.0.0.1:1/');
  assert.equal(redactUri('mongodb://root:pa/ss@h:1/?authSource=admin'), 'mongodb://root:***@h:1/?authSource=admin');
  // A password typed with an unescaped ? or # cannot be told from a query holding an @: both are
  // masked (more hidden, never less).
  assert.equal(redactUri('mongodb://root:Sekr3t?x#y@h:1/'), 'mongodb://root:***@h:1/');
  assert.equal(redactUri('mongodb://root:Se/kr:3t%@h:1/?w=1'), 'mongodb://root:***@h:1/?w=1');
  assert.equal(redactUri('mongodb://h:1/?appName=a@b'), 'mongodb://h:***@b', 'an @ in the query masks what comes before it');
  assert.equal(redactUri('mongodb+srv://u:x@c.example/?tlsCertificateKeyFilePassword=kp&w=1'), 'mongodb+srv://u:***@c.example/?tlsCertificateKeyFilePassword=***&w=1');
  assert.equal(redactText(`error: --uri 'mongodb://root:${SECRET}@h:1/' bad`), "error: --uri 'mongodb://root:***@h:1/' bad");
});

test('usage errors and dry-runs of ./run.sh with a password in the URI print it masked, exit 2 (or 0 for a dry run)', async () => {
  const cases = [
    [['experiment2', '--uri', `mongodb://root:${SECRET}@127.0.0.1:1/?authMechanism=BOGUS`], 2, /authMechanism/],
    [['experiment2', '--uri', `mongodb://root:p@${SECRET}@127.0.0.1:1/`], 2, /%40/],
    [['experiment2', `mongodb://root:${SECRET}@127.0.0.1:1/`], 2, /does not take/],
    [[`mongodb://root:${SECRET}@127.0.0.1:1/`], 2, /unknown verb/],
    [['experiment2', '--uri', `mongodb://root:${SECRET}@127.0.0.1:1/?tlsCertificateKeyFilePassword=${SECRET}`, '--dry-run'], 0, /lab-loader/],
  ];
  for (const [args, code, said] of cases) {
    const r = await runSh(args);
    const out = r.stdout + r.stderr;
    assert.equal(r.code, code, `${args.join(' ')}\n${out}`);
    assert.match(out, said, `${args.join(' ')}: says what is wrong\n${out}`);
    assert.doesNotMatch(out, new RegExp(SECRET), `${args.join(' ')}: the password printed\n${out}`);
    assert.match(out, /root:\*\*\*@/, `${args.join(' ')}: the URI shown masked, user kept\n${out}`);
  }
});

test('a whole ./run.sh experiment1 --uri mongodb://root:PASSWORD@... run: the password is nowhere in its output, results or temporary files', async () => {
  const server = await startServer({ acceptPlain: true });
  const results = tmpResults();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-no-secret-tmp-'));
  try {
    const uri = `mongodb://root:${SECRET}@127.0.0.1:${server.port}/?authMechanism=PLAIN&authSource=%24external`;
    const r = await runSh(['experiment1', '--uri', uri, '--docs', '300', '--results-dir', results, '--metrics-port', '0',
      '--engine', 'secret', '--warmup', '0'], { TMPDIR: tmp });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /connecting to mongodb:\/\/root:\*\*\*@/, `the run connected as root\n${r.stderr}`);
    const written = [...filesUnder(results), ...filesUnder(tmp)];
    assert.ok(written.some((f) => f.file.endsWith('summary.json')), `a summary was written: ${written.map((f) => f.file).join(', ')}`);
    const summary = JSON.parse(written.find((f) => f.file.endsWith('summary.json')).text);
    assert.equal(summary.complete, true, 'the run went through the login');
    assert.equal(summary.parameters.uri, `mongodb://root:***@127.0.0.1:${server.port}/?authMechanism=PLAIN&authSource=%24external`);
    assert.doesNotMatch(r.stdout + r.stderr, new RegExp(SECRET), 'printed');
    for (const { file, text } of written) assert.doesNotMatch(text, new RegExp(SECRET), `${file} holds the password`);
  } finally {
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
