'use strict';
// Every flag is used or refused: --username without a password source, credentials in
// --uri and in --password-file at once, an experiment file whose name: differs from its file name
// or that has a key nobody reads. And auth options in --uri are honoured: authSource= is not
// replaced by the loader's default (checked against a server that refuses the password, whose
// message names the auth source the driver used).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { startServer } = require('./support/server');
const { runLoader, tmpResults } = require('./support/loader');

const EXPERIMENTS = path.resolve(__dirname, '..', '..', 'experiments');

// usage(args) -> the one error line of a run refused as a usage error (exit 2, no results folder).
async function usage(args) {
  const root = tmpResults();
  try {
    const r = await runLoader([...args, '--results-dir', root, '--metrics-port', '0']);
    assert.equal(r.code, 2, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `one line:\n${r.stderr}`);
    assert.deepEqual(fs.readdirSync(root), [], 'no results folder');
    return lines[0];
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

test('--username without --password-file: refused (it ran unauthenticated, exit 0)', async () => {
  const line = await usage(['experiment1', '--uri', 'mongodb://127.0.0.1:1/', '--username', 'bob']);
  assert.equal(line, 'error: --username bob needs --password-file FILE (the password is read from a file, never from the command line), or user and password in --uri');
});

test('user and password in --uri and --password-file too: refused (the flags would replace the URI\'s)', async () => {
  const dir = tmpResults();
  const pw = path.join(dir, 'pw');
  fs.writeFileSync(pw, 'x\n');
  try {
    const line = await usage(['experiment1', '--uri', 'mongodb://alice:secret@127.0.0.1:1/', '--password-file', pw]);
    assert.equal(line, "error: --uri names user 'alice' and --password-file is given too: use one (the user and password in --uri, or --username with --password-file)");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('authSource= in --uri is the one used with --password-file (was replaced by admin)', async () => {
  const server = await startServer({ rejectAuth: true });
  const dir = tmpResults();
  const pw = path.join(dir, 'pw');
  fs.writeFileSync(pw, 'wrong\n');
  try {
    const r = await runLoader(['experiment1', '--uri', `${server.uri}?authSource=labusers`, '--username', 'alice', '--password-file', pw,
      '--docs', '10', '--results-dir', dir, '--metrics-port', '0']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^error: authentication failed for user 'alice' \(auth source 'labusers', /m);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await server.stop();
  }
});

// experimentCopy(name, edit) -> a folder with experiments/experiment1.yaml copied as NAME.yaml, edited.
function experimentCopy(name, edit) {
  const dir = tmpResults();
  fs.writeFileSync(path.join(dir, `${name}.yaml`), edit(fs.readFileSync(path.join(EXPERIMENTS, 'experiment1.yaml'), 'utf8')));
  return dir;
}

test("an experiment file whose name: differs from its file name: refused naming both (it filed results under the other name)", async () => {
  const dir = experimentCopy('mine', (t) => t);
  try {
    const line = await usage(['check', 'mine', '--experiments-dir', dir]);
    assert.equal(line, `error: ${path.join(dir, 'mine.yaml')}: name: 'experiment1' differs from the file's name 'mine' (results are filed under name:, so ./run.sh mine would fill results/experiment1/): make them the same`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an unknown key in an experiment file: refused naming it and the known keys (it was accepted silently)', async () => {
  const dir = experimentCopy('experiment1', (t) => `${t}\ncolour: blue\n`);
  try {
    const line = await usage(['check', 'experiment1', '--experiments-dir', dir]);
    assert.match(line, /: unknown key 'colour' \(known: name, database, collection, [a-z_, ]*workload[a-z_, ]*\)$/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an experiment file that is not valid YAML: one line naming the file, the reason and its place', async () => {
  for (const [bad, reason] of [
    [(t) => `${t}\ndatabase: twice\n`, /duplicated mapping key \(line \d+, column 1\)$/],
    [(t) => `${t}\n\tworkload: indented with a tab\n`, /tab characters must not be used in indentation \(line \d+, column \d+\)$/],
    [(t) => `${t}\n---\nname: second\n`, /expected a single document in the stream/],
  ]) {
    const dir = experimentCopy('experiment1', bad);
    try {
      const line = await usage(['check', 'experiment1', '--experiments-dir', dir]);
      assert.ok(line.startsWith(`error: ${path.join(dir, 'experiment1.yaml')}: not valid YAML: `), line);
      assert.match(line, reason);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
});
