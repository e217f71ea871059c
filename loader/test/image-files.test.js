'use strict';
// The loader image (images/loader/Dockerfile, built by Compose and by `./run.sh k8s` from the
// repository root, narrowed by .dockerignore) holds every file the loader requires: a relative
// require that leaves loader/ (common/, shared with the report) must be copied by the Dockerfile
// to the same place relative to /lab/loader and let through by .dockerignore. No Docker engine
// runs here, so the test reads the two files the build reads.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const LOADER = path.join(ROOT, 'loader');

// every file reached from loader/bin and loader/src by relative requires, transitively
function reached() {
  const seen = new Set();
  const todo = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.js')) todo.push(p);
    }
  };
  walk(path.join(LOADER, 'bin'));
  walk(path.join(LOADER, 'src'));
  while (todo.length) {
    const f = todo.pop();
    if (seen.has(f)) continue;
    seen.add(f);
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/require\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)) {
      todo.push(require.resolve(path.resolve(path.dirname(f), m[1])));
    }
  }
  return [...seen].map((f) => path.relative(ROOT, f));
}

// Dockerfile COPY lines from the build context: [{ from, to }] with `to` resolved against WORKDIR.
function copies() {
  let workdir = '/';
  const out = [];
  for (const line of fs.readFileSync(path.join(ROOT, 'images', 'loader', 'Dockerfile'), 'utf8').split('\n')) {
    const w = /^WORKDIR\s+(\S+)/.exec(line);
    if (w) workdir = path.posix.resolve(workdir, w[1]);
    const c = /^COPY\s+(?!--from)(.+)$/.exec(line);
    if (!c) continue;
    const args = c[1].trim().split(/\s+/);
    const dest = args.pop();
    // a file copied into a folder ("./", several sources) keeps its name
    const into = dest.endsWith('/') || args.length > 1;
    for (const from of args) out.push({ from: from.replace(/\/$/, ''), to: path.posix.resolve(workdir, dest), into });
  }
  return out;
}

// where file f (relative to the repository) lands in the image, or null
function inImage(f, list) {
  for (const { from, to, into } of list) {
    if (f === from) return into ? path.posix.join(to, path.posix.basename(f)) : to;
    if (f.startsWith(`${from}/`)) return path.posix.join(to, f.slice(from.length + 1));
  }
  return null;
}

test('every file the loader requires is in the image, where its relative require finds it', () => {
  const files = reached();
  const outside = files.filter((f) => !f.startsWith('loader/'));
  assert.ok(outside.some((f) => f.startsWith('common/')), `the loader shares common/ with the report: ${outside}`);
  const list = copies();
  const allowed = fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n').filter((l) => l.startsWith('!')).map((l) => l.slice(1).replace(/\/$/, ''));
  for (const f of files) {
    const at = inImage(f, list);
    assert.equal(at, path.posix.join('/lab', f), `${f}: the Dockerfile copies it to ${at}, the loader requires it at /lab/${f}`);
    assert.ok(allowed.some((a) => f === a || f.startsWith(`${a}/`)), `${f}: .dockerignore keeps it out of the build context`);
  }
});
