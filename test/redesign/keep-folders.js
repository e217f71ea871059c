'use strict';
// Preloaded (NODE_OPTIONS=--require) into a test suite's every Node process by
// test/redesign/same-output.sh: nothing under LAB_KEEP_ROOT is removed, so that the results
// folders the tests make outlive them and both commits' report can be run over each.
const fs = require('node:fs');
const path = require('node:path');

const root = process.env.LAB_KEEP_ROOT && path.resolve(process.env.LAB_KEEP_ROOT);
const kept = (p) => root && path.resolve(String(p)).startsWith(`${root}${path.sep}`);
for (const [obj, name] of [[fs, 'rmSync'], [fs, 'rmdirSync'], [fs.promises, 'rm'], [fs.promises, 'rmdir']]) {
  const real = obj[name];
  obj[name] = function keep(p, ...rest) {
    if (kept(p)) return name.endsWith('Sync') ? undefined : Promise.resolve();
    return real.call(this, p, ...rest);
  };
}
for (const name of ['rm', 'rmdir']) {
  const real = fs[name];
  fs[name] = function keep(p, ...rest) {
    if (!kept(p)) return real.call(this, p, ...rest);
    const cb = rest.find((a) => typeof a === 'function');
    if (cb) process.nextTick(cb, null);
    return undefined;
  };
}
