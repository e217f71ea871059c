'use strict';
// launcherFlags(pin, env) -> the node flags bin/lab-loader would give a process started under pin
// (e.g. ['taskset', '-c', '0']): --single-threaded-gc where that placement leaves one CPU
// (LAB_LOADER_GC auto, the default; parallel: none), then LAB_LOADER_NODE_FLAGS split on spaces.
// The bench starts the loader through the launcher and its floor with these, so that both run
// under the same V8 flags (the floor without them had V8's parallel GC beside a loader that had
// not). Keep in step with bin/lab-loader.
const { spawnSync } = require('node:child_process');

function cpusUnder(pin) {
  const r = pin.length ? spawnSync(pin[0], [...pin.slice(1), 'nproc'], { encoding: 'utf8' }) : spawnSync('nproc', [], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.trim()) : null;
}

function launcherFlags(pin, env = process.env) {
  const gc = (env.LAB_LOADER_GC ?? 'auto') === 'auto' && cpusUnder(pin) === 1 ? ['--single-threaded-gc'] : [];
  return [...gc, ...String(env.LAB_LOADER_NODE_FLAGS ?? '').split(' ').filter(Boolean)];
}

module.exports = { launcherFlags };
