'use strict';
// The loader's modules, the report's and common/ import each other without a cycle, and common/ imports nothing
// of the parts above it (DEVELOPERS.md, Layout: common/ is the lowest layer, shared by the loader
// and the report). A require inside a function counts: it is an edge all the same, and a cycle
// through one works only as long as nobody calls it at load time. The edges are read from the
// source text (every relative require), so a module need not be loaded to be checked.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const PARTS = ['loader/src', 'loader/bin', 'report/src', 'report/bin', 'common'];

function jsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return jsFiles(p);
    return e.name.endsWith('.js') ? [p] : [];
  });
}

// edgesOf(file): the files its relative requires resolve to.
function edgesOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/require\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)].map((m) => {
    const p = path.resolve(path.dirname(file), m[1]);
    return [p, `${p}.js`, path.join(p, 'index.js')].find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
  }).filter(Boolean);
}

function graph() {
  const files = PARTS.flatMap((p) => jsFiles(path.join(ROOT, p)));
  return new Map(files.map((f) => [f, edgesOf(f)]));
}

// cycles(g): the strongly connected components of more than one file, or of one that requires
// itself (Tarjan).
function cycles(g) {
  let n = 0;
  const index = new Map(); const low = new Map(); const stack = []; const on = new Set(); const out = [];
  const visit = (v) => {
    index.set(v, n); low.set(v, n); n++; stack.push(v); on.add(v);
    for (const w of g.get(v) || []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const comp = [];
    let w;
    do { w = stack.pop(); on.delete(w); comp.push(path.relative(ROOT, w)); } while (w !== v);
    if (comp.length > 1 || (g.get(v) || []).includes(v)) out.push(comp.sort());
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out;
}

test('the loader, the report and common/ import with no cycle', () => {
  const g = graph();
  const edges = [...g.values()].reduce((k, e) => k + e.length, 0);
  assert.ok(g.size > 150 && edges > 250, `read ${g.size} files and ${edges} imports`);
  assert.deepEqual(cycles(g), [], 'import cycles');
});

test('the cycle finder finds a cycle through a require inside a function', () => {
  const a = '/x/a.js'; const b = '/x/b.js'; const c = '/x/c.js';
  assert.deepEqual(cycles(new Map([[a, [b]], [b, [c]], [c, [a]]])).map((k) => k.length), [3]);
  assert.deepEqual(cycles(new Map([[a, [b]], [b, [c]], [c, []]])), []);
});

// upward(from, allowed): the imports of files under FROM that leave FROM and the ALLOWED parts.
function upward(from, allowed) {
  const under = (f, dir) => f.startsWith(path.join(ROOT, dir) + path.sep);
  return [...graph()].filter(([f]) => under(f, from))
    .flatMap(([f, deps]) => deps.filter((d) => ![from, ...allowed].some((a) => under(d, a)))
      .map((d) => `${path.relative(ROOT, f)} -> ${path.relative(ROOT, d)}`));
}

test('no import from a lower layer to a higher one: common/ imports only itself, the loader not the report', () => {
  assert.deepEqual(upward('common', []), []);
  assert.deepEqual(upward('loader', ['common']), []);
});

// The rooms of loader/src, top to bottom as DEVELOPERS.md's Layout lists them: a file requires only
// files of its own room or of a room below it, so a room never reaches back into one that uses it.
// '.' is loader/src itself: the two rules the run and the fault tool share (module-contract.js,
// stop-signals.js), and nothing else.
const ROOMS = ['compare', 'cli', 'ycsb-tool', 'run', 'server-record', 'faults', 'results', 'stability', 'experiment', 'kinds',
  'kinds/durability', 'gridfs', 'ycsb', '.', 'server', 'text'];
const SRC = path.join(ROOT, 'loader', 'src');

// roomOf(file): the deepest room of ROOMS that holds FILE (faults/scenarios/ is faults').
function roomOf(file) {
  const dir = path.relative(SRC, path.dirname(file)) || '.';
  return ROOMS.filter((r) => r === '.' ? dir === '.' : dir === r || dir.startsWith(`${r}/`))
    .sort((a, b) => b.length - a.length)[0];
}

test('loader/src is in rooms, and each room requires only itself and the rooms below it', () => {
  const files = jsFiles(SRC);
  assert.deepEqual(files.filter((f) => !roomOf(f)).map((f) => path.relative(ROOT, f)), [], 'files in no room');
  assert.deepEqual(files.filter((f) => roomOf(f) === '.').map((f) => path.basename(f)).sort(),
    ['module-contract.js', 'stop-signals.js'], 'loose files in loader/src');
  const g = graph();
  const back = files.flatMap((f) => g.get(f).filter((d) => d.startsWith(SRC + path.sep))
    .filter((d) => ROOMS.indexOf(roomOf(d)) < ROOMS.indexOf(roomOf(f)))
    .map((d) => `${path.relative(SRC, f)} -> ${path.relative(SRC, d)}`));
  assert.deepEqual(back, [], 'requires into a room above');
});

// The run's two carved rooms, the step loop and the server session, are given a context of what
// they use (the run's log, stop, ...), not the Run: neither requires the run that uses them (nor
// the other), and runner.js hands neither of them `this` whole: the methods moved as they stood
// (this.stop, this.log, ... of the Run) would reach back into runner.js, a circle through the run.
test('the step loop and the server session take a context, not the Run', () => {
  const RUN = path.join(SRC, 'run');
  const carved = ['step-loop.js', 'server-session.js'].map((f) => path.join(RUN, f));
  const g = graph();
  const users = [...g].filter(([, deps]) => deps.some((d) => carved.includes(d))).map(([f]) => path.relative(SRC, f));
  assert.deepEqual(users, ['run/runner.js'], 'who requires the carved rooms');
  const up = ['runner.js', 'repeat.js'].map((f) => path.join(RUN, f));
  const back = carved.flatMap((f) => g.get(f).filter((d) => up.includes(d) || carved.includes(d))
    .map((d) => `${path.relative(SRC, f)} -> ${path.relative(SRC, d)}`));
  assert.deepEqual(back, [], 'requires back into the run');
  const runner = fs.readFileSync(path.join(RUN, 'runner.js'), 'utf8');
  assert.deepEqual(runner.match(/new (?:StepLoop|ServerSession)\(\s*this\s*[,)]/g), null, 'a carved room given the Run');
  assert.match(runner, /new StepLoop\(\{/);
  assert.match(runner, /new ServerSession\(\{/);
});
