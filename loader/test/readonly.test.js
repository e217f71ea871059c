'use strict';
// A read-only results directory: the loader said "ENOENT ... check that disk" (Node's
// recursive mkdir reports ENOENT for a level it cannot make on a read-only file system), so the
// EROFS message never fired. A real read-only mount: a tmpfs mounted ro in the loader's own mount
// namespace (`unshare -m`, root only; nothing to clean up on the host).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const { testServer, UNREPORTED_ENGINE_FOLDER } = require('./support/server');
const { runLoader, tmpResults, errorLines } = require('./support/loader');

const canUnshare = process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'true']).status === 0;

test('results directory on a read-only mount: one line naming EROFS and the fix, exit 1, before any load', { skip: canUnshare ? false : 'needs root for unshare -m and a tmpfs mount' }, async () => {
  const server = await testServer();
  const mnt = tmpResults();
  try {
    // The premise, measured: the mount really is read-only in the namespace the loader runs in.
    const probe = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs -o ro tmpfs "$0" && ! touch "$0/x" 2>/dev/null', mnt]);
    assert.equal(probe.status, 0, `the tmpfs was not read-only: ${probe.stderr}`);
    const r = await runLoader(['experiment1', '--uri', server.uri, '--docs', '100', '--results-dir', mnt, '--metrics-port', '0'],
      { prefix: ['unshare', '-m', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs -o ro tmpfs "$0" && exec "$@"', mnt] });
    assert.equal(r.code, 1, r.stderr);
    const errors = errorLines(r.stderr); // one message, wrapped within 120 columns: read joined
    assert.deepEqual(errors, [`error: cannot write ${mnt}/experiment1/${UNREPORTED_ENGINE_FOLDER}: EROFS (the file system is read-only); remount it read-write, or pass --results-dir DIR on a writable disk`]);
    assert.doesNotMatch(r.stderr, /ENOENT|check that disk/);
    assert.doesNotMatch(r.stderr, /setup:|preload|started/, 'nothing ran against the server');
  } finally {
    await server.stop();
    fs.rmSync(mnt, { recursive: true, force: true });
  }
});
