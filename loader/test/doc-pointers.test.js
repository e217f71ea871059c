'use strict';
// What the documents point at exists: every repository path and every backticked function name in
// README.md, DEVELOPERS.md, the packages' READMEs, docs/ and the header comment of each file the
// repository tracks. A file moved or a helper removed leaves a pointer that sends the next reader
// nowhere (the engines table's header named the tables module where it no longer was, and
// DEVELOPERS.md a timing helper that was gone). A path relative to a package (as the headers write
// the loader's own files) is looked up from the repository's root, the file's own package and
// folder, and the loader's and the report's packages.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');
const DOCS = ['README.md', 'DEVELOPERS.md', 'loader/README.md', 'report/README.md', 'docs/design.md'];
const FOLDERS = ['lib', 'loader', 'report', 'common', 'compose', 'test', 'dashboards', 'docs', 'experiments', 'images', 'k8s'];
const PATH = new RegExp(`(?<![\\w/.$@-])(?:\\./)?((?:${FOLDERS.join('|')}|src|bin)/[\\w./-]*\\w)`, 'g');
// Paths in other projects' repositories that headers cite as the source of a fact (the MongoDB
// server, its Node driver, mongosh), the module a test writes into a copy of the loader, and
// prose that reads like a path ("loader/YCSB": the loader or YCSB).
const ELSEWHERE = new RegExp(['^src/(mongo|third_party|stages)/', '^lib/(cmap|operations)/', '^lib/(utils|connection_string)\\.js$',
  '^src/gridfs/upload\\.ts$', '^src/kinds/scan\\.js$', '^loader/(YCSB|Node)\\b'].join('|'));
// Backticked calls that are not the lab's: the MongoDB driver's API, and arithmetic (min(a, b)).
const NOT_OURS = new Set(['findOne', 'updateOne', 'min']);

const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n')
  .filter((f) => f && fs.existsSync(path.join(ROOT, f)) && fs.statSync(path.join(ROOT, f)).isFile());
const read = (f) => fs.readFileSync(path.join(ROOT, f), 'utf8');

// header(text): the comment lines a file opens with (after a shebang, 'use strict' and blanks).
function header(text) {
  const lines = [];
  for (const line of text.split('\n')) {
    if (!lines.length && /^(#!|'use strict'|\s*$)/.test(line)) continue;
    if (!/^\s*(\/\/|#)/.test(line)) break;
    lines.push(line);
  }
  return lines.join('\n');
}

const COMMENTED = /\.(js|mjs|sh|bash|bats|tsv|ya?ml|go|conf)$|(^|\/)(Dockerfile|run\.sh|lab-loader)$/;
const SOURCES = [
  ...DOCS.map((f) => ({ where: f, text: read(f), bases: ['.', 'loader', 'report'] })),
  ...tracked.filter((f) => COMMENTED.test(f)).map((f) => ({ where: f, text: header(read(f)), bases: ['.', f.split('/')[0], path.dirname(f), 'loader', 'report'] })),
];

// pathsIn(text) -> the repository paths it names, less placeholders (<engine>, *, {a,b}, NAME)
// and "docs/s" (documents per second).
function pathsIn(text) {
  const out = [];
  for (const m of text.matchAll(PATH)) {
    const rest = text.slice(m.index + m[0].length, m.index + m[0].length + 2);
    if (/^[-.]?[<*{]/.test(rest) || /NAME|\.\.\.|^docs\/s$/.test(m[1]) || ELSEWHERE.test(m[1])) continue;
    out.push(m[1]);
  }
  return out;
}

test('every repository path in README.md, DEVELOPERS.md and the files\' headers exists', () => {
  const missing = [];
  for (const { where, text, bases } of SOURCES) {
    for (const p of pathsIn(text)) if (!bases.some((b) => fs.existsSync(path.join(ROOT, b, p)))) missing.push(`${where}: ${p}`);
  }
  assert.ok(SOURCES.length > 100, 'the headers were read');
  assert.deepEqual(missing, []);
});

// defined(name): a definition of NAME in a tracked JavaScript or shell file: `function name`,
// `name = (`/`name: (` (an arrow or function value), a method `name(...) {`, or bash's `name() {`.
function definedNames() {
  const names = new Set();
  const forms = [/\bfunction\s+([\w$]+)/g, /\b([\w$]+)\s*[:=]\s*(?:async\s*)?(?:\(|function\b|[\w$]+\s*=>)/g,
    /^\s*(?:async\s+|static\s+|get\s+)*([\w$]+)\s*\([^)]*\)\s*\{/gm, /^([\w-]+)\(\)\s*\{/gm];
  for (const f of tracked.filter((x) => /\.(js|sh|bash)$|^run\.sh$/.test(x))) {
    const text = read(f);
    for (const re of forms) for (const m of text.matchAll(re)) names.add(m[1]);
  }
  return names;
}

test('every backticked function name in README.md, DEVELOPERS.md and the files\' headers is defined', () => {
  const names = definedNames();
  const missing = [];
  for (const { where, text } of SOURCES) {
    for (const m of text.matchAll(/`([A-Za-z_$][\w$]*)\([^`]*\)`/g)) {
      if (!NOT_OURS.has(m[1]) && !names.has(m[1])) missing.push(`${where}: ${m[1]}()`);
    }
  }
  assert.deepEqual(missing, []);
});
