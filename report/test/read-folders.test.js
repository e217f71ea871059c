'use strict';
// How the report finds and reads results folders as users keep them: a run or a whole side linked
// from another disk (a symbolic link was silently left out: "one side only"), a folder of another
// user's it may not read (exit 2, no report), a timeline.ndjson it may not read (a stack trace),
// a summary.json saved with a byte-order mark ("cut off while written"), and summary.json named
// instead of its folder (ENOTDIR).
// The tests run as root, which reads any file whatever its mode: the unreadable cases run the
// report as the unprivileged user nobody (setpriv), who is refused as another user would be.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { tmpDir, makeRun } = require('./support/fixtures');

const BIN = path.join(__dirname, '..', 'bin', 'lab-report.js');
const run = (dir, rate) => ({ steps: [{ name: 'clients-1', ops: { find: { rate } } }], ...dir });
const report = (args, asNobody = false) => spawnSync(asNobody ? 'setpriv' : process.execPath,
  [...(asNobody ? ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath] : []), BIN, ...args], { encoding: 'utf8' });

// twoSides(root): engine a (two runs) at root, engine b's two runs elsewhere; returns b's folder.
function twoSides(root) {
  [100, 110].forEach((r, i) => makeRun(root, run({ engine: 'a', stamp: `a${i}` }, r)));
  const elsewhere = tmpDir();
  [200, 220].forEach((r, i) => makeRun(elsewhere, run({ engine: 'b', stamp: `b${i}` }, r)));
  return path.join(elsewhere, 'expX', 'b');
}

test('a side folder and a run folder that are symbolic links are read like folders; latest is not counted again', () => {
  const root = tmpDir();
  const b = twoSides(root);
  fs.symlinkSync(b, path.join(root, 'expX', 'b')); // the whole side on another disk
  const r = spawnSync(process.execPath, [BIN, '--results-dir', root], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^ {2}clients-1 +b 2\.00x a .* 2\/2 v 2\/2$/m, `both sides compared\n${r.stdout}`);

  const root2 = tmpDir();
  [100, 110].forEach((r2, i) => makeRun(root2, run({ engine: 'a', stamp: `a${i}` }, r2)));
  makeRun(root2, run({ engine: 'b', stamp: 'b0' }, 200));
  fs.symlinkSync(path.join(b, 'b1'), path.join(root2, 'expX', 'b', 'b1')); // one run linked
  fs.symlinkSync('b1', path.join(root2, 'expX', 'b', 'latest'));
  const r2 = spawnSync(process.execPath, [BIN, '--results-dir', root2], { encoding: 'utf8' });
  assert.equal(r2.status, 0, r2.stderr);
  const rep = JSON.parse(fs.readFileSync(path.join(root2, 'report', 'latest', 'report.json'), 'utf8'));
  assert.equal(rep.experiments[0].sets[0].runs.length, 4, 'the linked run counted once, latest not again');
});

test('a run folder another user keeps to themselves (mode 700) and an unreadable timeline.ndjson: each skipped with one line, the rest reported', () => {
  const root = tmpDir();
  const b = twoSides(root);
  fs.renameSync(b, path.join(root, 'expX', 'b'));
  const hidden = makeRun(root, run({ engine: 'b', stamp: 'b9' }, 300));
  const noTimeline = makeRun(root, run({ engine: 'a', stamp: 'a9' }, 120));
  fs.writeFileSync(path.join(noTimeline, 'timeline.ndjson'), '{"t":1}\n');
  // every other folder and file readable by nobody; the report written into root by nobody
  for (const d of [root, path.join(root, 'expX'), path.join(root, 'expX', 'a'), path.join(root, 'expX', 'b')]) fs.chmodSync(d, 0o777);
  fs.chmodSync(hidden, 0o700);
  fs.chmodSync(path.join(noTimeline, 'timeline.ndjson'), 0o600);
  const r = report(['--results-dir', root], true);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /\n\s+at /, 'no stack trace');
  assert.match(r.stdout, /^ {2}clients-1 +b 2\.00x a .* 2\/2 v 2\/2$/m, `the readable runs compared\n${r.stdout}`);
  const joined = r.stdout.replace(/\n {4}(?=\S)/g, ' ');
  assert.equal(joined.split('\n').filter((l) => l.includes(hidden)).length, 1, joined);
  assert.match(joined, new RegExp(`^skipped: ${hidden}: the folder cannot be read \\(EACCES\\)$`, 'm'));
  assert.match(joined, new RegExp(`^skipped: ${noTimeline}: timeline.ndjson cannot be read \\(EACCES\\)$`, 'm'));
});

test('a summary.json with a UTF-8 byte-order mark is read; summary.json named instead of its folder reads the folder', () => {
  const root = tmpDir();
  twoSides(root);
  const bom = makeRun(root, run({ engine: 'a', stamp: 'a5' }, 105));
  const file = path.join(bom, 'summary.json');
  fs.writeFileSync(file, `\uFEFF${fs.readFileSync(file, 'utf8')}`);
  const r = spawnSync(process.execPath, [BIN, '--results-dir', root], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /cut off while written/);
  const rep = JSON.parse(fs.readFileSync(path.join(root, 'report', 'latest', 'report.json'), 'utf8'));
  assert.equal(rep.skipped.length, 0, JSON.stringify(rep.skipped));
  const one = spawnSync(process.execPath, [BIN, '--results-dir', root, file], { encoding: 'utf8' });
  assert.doesNotMatch(one.stderr, /ENOTDIR/, one.stderr);
  assert.equal(one.status, 0, one.stderr);
});
