'use strict';
// packageLoaded(bin, pkg, args) -> { loaded, status, stdout, stderr }: runs `node BIN ARGS...` as
// a user runs it, with this file as a preload (node -r) that says at the process's exit whether
// any module of package PKG was loaded. A preload, not `node -e` requiring the bin: that way the
// bin is the main module, as under its own name (a bin that runs main() only when
// `require.main === module` ran nothing when required from -e, and every such test passed).
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ENV = 'LAB_TEST_LOADED_PACKAGE';
const LAST_LINE = /\nloaded [^\n]*: (true|false)\n$/;

function packageLoaded(bin, pkg, args) {
  const r = spawnSync(process.execPath, ['-r', __filename, bin, ...args],
    { encoding: 'utf8', env: { ...process.env, [ENV]: pkg }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 20000 });
  const m = LAST_LINE.exec(r.stderr);
  return { loaded: m ? m[1] === 'true' : null, status: r.status, stdout: r.stdout, stderr: m ? r.stderr.slice(0, m.index) : r.stderr };
}

if (process.env[ENV]) {
  const part = `${path.sep}node_modules${path.sep}${process.env[ENV]}${path.sep}`;
  process.on('exit', () => {
    process.stderr.write(`\nloaded ${process.env[ENV]}: ${Object.keys(require.cache).some((f) => f.includes(part))}\n`);
  });
}

module.exports = { packageLoaded };
