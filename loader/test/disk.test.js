'use strict';
// A full, read-only or forbidden results disk loses no measurement and corrupts nothing. Each case
// runs the real loader with a real tmpfs mounted over its results folder in a mount namespace of
// its own (`unshare -m`, root only), and fills that tmpfs for real, from outside, through
// /proc/<pid>/root (the loader's view of the mounts).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { startServer, UNREPORTED_ENGINE_FOLDER: FOLDER } = require('./support/server');
const { startLoader, errorLines, unwrap } = require('./support/loader');
const { checkSummary, checkTimelineLine } = require('./support/summary-schema');

const canUnshare = process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'true']).status === 0;
const opts = { skip: canUnshare ? false : 'needs root for unshare -m and a tmpfs' };
const MNT = '/tmp/lab-disk-test-results'; // a mount point, only ever mounted inside the namespaces
let server;
test.before(async () => {
  fs.mkdirSync(MNT, { recursive: true });
  if (canUnshare) server = await startServer();
});
test.after(async () => { if (server) await server.stop(); });

// loaderOnTmpfs(args): the loader under unshare -m with a fresh tmpfs on MNT; `setup` is shell run
// after the mount, before the loader. When the loader exits, the tmpfs's contents are copied to
// `out` (the tmpfs dies with the namespace) and the loader's exit code is passed on.
function loaderOnTmpfs(args, { size = '1m', inodes = 400, setup = 'true', asNobody = false, spawnOptions = {} } = {}) {
  const out = fs.mkdtempSync('/tmp/lab-disk-out-');
  const as = asNobody ? 'setpriv --reuid 65534 --regid 65534 --clear-groups ' : '';
  const script = `mount -t tmpfs -o size=${size},nr_inodes=${inodes},mode=0755 lab-test "${MNT}" && ${setup} || exit 99
${as}"$@"; rc=$?; cp -a "${MNT}/." "${out}/"; exit $rc`;
  const l = startLoader([...args, '--results-dir', MNT, '--metrics-port', '0', '--progress-interval', '1s'],
    { prefix: ['unshare', '-m', '--propagation', 'private', 'sh', '-c', script, 'sh'], spawnOptions });
  return { l, out, cleanup: () => { l.proc.kill('SIGKILL'); fs.rmSync(out, { recursive: true, force: true }); } };
}

// The tmpfs as the loader sees it, from outside its namespace (through the shell that mounted it).
const seen = (pid, ...p) => path.join(`/proc/${pid}/root`, MNT, ...p);

// fillBlocks / fillInodes: use up the tmpfs's space / its inodes, for real.
function fillBlocks(dir) {
  const fd = fs.openSync(path.join(dir, 'filler'), 'w');
  const chunk = Buffer.alloc(4096, 1);
  try { for (;;) fs.writeSync(fd, chunk); } catch (e) { assert.equal(e.code, 'ENOSPC'); } finally { fs.closeSync(fd); }
}
function fillInodes(dir) {
  fs.mkdirSync(path.join(dir, 'inodes'));
  try { for (let i = 0; ; i++) fs.writeFileSync(path.join(dir, 'inodes', String(i)), ''); } catch (e) { assert.equal(e.code, 'ENOSPC'); }
}

// runFolders(root): the run folders (not latest) under experiment2/<the test server's folder>.
function runFolders(root) {
  const parent = path.join(root, 'experiment2', FOLDER);
  if (!fs.existsSync(parent)) return [];
  return fs.readdirSync(parent).filter((f) => /^\d{8}T\d{6}Z/.test(f)).map((f) => path.join(parent, f));
}

// Everything a disk failure must leave true: whole timeline lines, no .tmp, a whole summary.
function checkLeftBehind(dir) {
  assert.ok(!fs.existsSync(path.join(dir, 'summary.json.tmp')), 'no summary.json.tmp left');
  const text = fs.readFileSync(path.join(dir, 'timeline.ndjson'), 'utf8');
  assert.ok(text === '' || text.endsWith('\n'), 'the timeline ends with a whole line');
  const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l)); // throws on a cut line
  lines.forEach(checkTimelineLine);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
  checkSummary(summary);
  return { summary, lines };
}

// An earlier complete run with latest on it: a failed start must leave both as they were.
const EARLIER = `mkdir -p "${MNT}/experiment2/${FOLDER}/20200101T000000Z" && echo '{"complete": true}' > "${MNT}/experiment2/${FOLDER}/20200101T000000Z/summary.json" && ln -s 20200101T000000Z "${MNT}/experiment2/${FOLDER}/latest"`;
function assertStartRefused(r, out, code, why) {
  assert.equal(r.code, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /Uncaught|    at |ENOENT/, 'no stack trace, no secondary ENOENT');
  const errors = errorLines(r.stderr); // wrapped within 120 columns: read joined
  assert.equal(errors.length, 1, r.stderr);
  assert.match(errors[0], new RegExp(`^error: cannot write ${MNT}/experiment2/${FOLDER}/\\S+: ${code} \\(${why}\\); .*--results-dir DIR`));
  assert.doesNotMatch(r.stdout, /results:/, 'no results line: no folder was written');
  assert.deepEqual(fs.readdirSync(path.join(out, 'experiment2', FOLDER)).sort(), ['20200101T000000Z', 'latest'], 'no new folder');
  assert.equal(fs.readlinkSync(path.join(out, 'experiment2', FOLDER, 'latest')), '20200101T000000Z', 'latest did not move');
}

// paced: the subject is what a full or read-only disk does to a run, not its speed (unpaced, the
// file took 21 CPU s)
const args = (duration = '60s') => ['experiment2', '--uri', server.uri, '--preload-docs', '500', '--clients', '2,4', '--duration', duration,
  '--rate', '200'];

test('ENOSPC mid-run: clean stop, the measured step kept and printed, summary says why, whole lines, exit 1', opts, async () => {
  const { l, out, cleanup } = loaderOnTmpfs(args());
  try {
    await l.waitFor(/step 1\/2 \(2 clients\): \d+\/60 s/);
    fillBlocks(seen(l.proc.pid));
    const r = await l.done;
    assert.equal(r.code, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /Uncaught|    at /, 'no stack trace');
    assert.match(unwrap(r.stderr), /error: cannot write \S+\/timeline\.ndjson: ENOSPC \(the disk is full\); free space there, or pass --results-dir DIR on a disk with room \(results folder \S+\)/);
    assert.match(r.stdout, new RegExp(`experiment2 on ${FOLDER} \\(INCOMPLETE\\)\\n\\s*step\\s+clients\\s+op`), 'the usual table');
    assert.match(r.stdout, /\n1\s+2\s+find\s+[1-9]\d*/, 'with the measured step');
    const dirs = runFolders(out);
    assert.equal(dirs.length, 1);
    assert.match(r.stdout, new RegExp(`results: ${MNT}/experiment2/${FOLDER}/${path.basename(dirs[0])}\\n`));
    const { summary, lines } = checkLeftBehind(dirs[0]);
    assert.equal(summary.complete, false);
    assert.equal(summary.exit_code, 1);
    assert.match(summary.reason, /ENOSPC \(the disk is full\)/);
    assert.equal(summary.steps.length, 1);
    assert.equal(summary.steps[0].complete, false);
    assert.ok(summary.steps[0].ops.find.count > 0, 'the measurement is kept');
    assert.ok(lines.length >= 1);
  } finally {
    cleanup();
  }
});

test('no inode left for the final summary (ENOSPC at the end): the reserve makes room, the run is whole', opts, async () => {
  const { l, out, cleanup } = loaderOnTmpfs(args('3s'));
  try {
    await l.waitFor(/step 1\/2 \(2 clients\): started/);
    fillInodes(seen(l.proc.pid)); // timeline appends need no inode; summary.json.tmp does
    const r = await l.done;
    assert.equal(r.code, 0, r.stderr);
    const dirs = runFolders(out);
    assert.equal(dirs.length, 1);
    const { summary } = checkLeftBehind(dirs[0]);
    assert.equal(summary.complete, true);
    assert.equal(summary.steps.length, 2);
    assert.ok(!fs.existsSync(path.join(dirs[0], '.reserve')));
  } finally {
    cleanup();
  }
});

test('ENOSPC at the start: no folder, latest not moved, one line naming the folder and the fix', opts, async () => {
  const { l, out, cleanup } = loaderOnTmpfs(args(), { setup: `${EARLIER} && { cat /dev/zero > "${MNT}/filler" 2>/dev/null; mkdir "${MNT}/i" && i=0 && while { true > "${MNT}/i/$i"; } 2>/dev/null; do i=$((i+1)); done; true; }` });
  try {
    assertStartRefused(await l.done, out, 'ENOSPC', 'the disk is full');
  } finally {
    cleanup();
  }
});

test('ENOSPC right after the folder was made (its reserve does not fit): the half-made folder is removed', opts, async () => {
  // 64 KiB left: the folder, the experiment copy and the timeline fit, the 128 KiB reserve not.
  const { l, out, cleanup } = loaderOnTmpfs(args(), { setup: `${EARLIER} && { cat /dev/zero > "${MNT}/filler" 2>/dev/null; truncate -s -64K "${MNT}/filler"; }` });
  try {
    const r = await l.done;
    assertStartRefused(r, out, 'ENOSPC', 'the disk is full');
    assert.match(unwrap(r.stderr), /\.reserve: ENOSPC/, 'it failed after the folder was made');
  } finally {
    cleanup();
  }
});

test('read-only results disk (EROFS) at the start: the same, no secondary ENOENT', opts, async () => {
  const { l, out, cleanup } = loaderOnTmpfs(args(), { setup: `${EARLIER} && mount -o remount,ro "${MNT}"` });
  try {
    assertStartRefused(await l.done, out, 'EROFS', 'the file system is read-only');
  } finally {
    cleanup();
  }
});

test('results folder not writable by this user (EACCES) at the start: the same', opts, async () => {
  // The loader runs as nobody (65534) on a root-owned 0755 folder: the kernel says EACCES.
  const { l, out, cleanup } = loaderOnTmpfs(args(), { setup: EARLIER, asNobody: true });
  try {
    const r = await l.done;
    assertStartRefused(r, out, 'EACCES', 'permission denied');
  } finally {
    cleanup();
  }
});
