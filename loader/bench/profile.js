'use strict';
// Where a loader's CPU goes: reads the .cpuprofile files of one `node --cpu-prof` run (one file
// per thread: the main thread and each worker) and sums self time by who spends it: the driver
// (mongodb), bson, hdr-histogram-js, the loader's own code, Node's runtime (natives, sockets,
// microtasks, module loading), the garbage collector. Idle time is left out.
// Usage: node bench/profile.js DIR [TOP]   (also used by bench.js --profile)
const fs = require('node:fs');
const path = require('node:path');

function category(frame) {
  const u = frame.url || '';
  if (frame.functionName === '(idle)') return 'idle';
  if (frame.functionName === '(garbage collector)') return 'gc';
  if (frame.functionName === '(program)') return 'program';
  if (/node_modules\/bson\//.test(u)) return 'bson';
  if (/node_modules\/mongodb[^/]*\//.test(u)) return 'driver';
  if (/node_modules\/hdr-histogram-js\//.test(u)) return 'hdr';
  if (/node_modules\//.test(u)) return 'other packages';
  if (/\/loader\/(src|bench|bin)\//.test(u)) return 'loader';
  return 'node runtime';
}

// summarize(dir, top) -> [{ file, busy_s, categories: {name: share}, top: [{share, fn}] }]
function summarize(dir, top = 12) {
  const out = [];
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.cpuprofile')).sort()) {
    const p = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    const self = new Map();
    for (let i = 0; i < p.samples.length; i++) {
      self.set(p.samples[i], (self.get(p.samples[i]) || 0) + (p.timeDeltas[i] || 0));
    }
    const cats = {};
    const fns = {};
    let busy = 0;
    for (const [id, t] of self) {
      const cf = byId.get(id).callFrame;
      const c = category(cf);
      if (c === 'idle') continue;
      busy += t;
      cats[c] = (cats[c] || 0) + t;
      const where = (cf.url || '').replace(/.*node_modules\//, '').replace(/.*\/loader\//, '');
      const k = `${cf.functionName || '(anonymous)'} ${where}${where ? `:${cf.lineNumber + 1}` : ''}`;
      fns[k] = (fns[k] || 0) + t;
    }
    const share = (t) => Math.round((1000 * t) / busy) / 10;
    out.push({
      file: f,
      busy_s: Math.round(busy / 1e4) / 100,
      categories: Object.fromEntries(Object.entries(cats).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, share(v)])),
      top: Object.entries(fns).sort((a, b) => b[1] - a[1]).slice(0, top).map(([fn, t]) => ({ share: share(t), fn })),
    });
  }
  return out;
}

function print(summaries, write = (s) => process.stdout.write(s)) {
  for (const s of summaries) {
    write(`  ${s.file}: busy ${s.busy_s} s; ${Object.entries(s.categories).map(([k, v]) => `${k} ${v}%`).join(', ')}\n`);
    for (const t of s.top) write(`    ${String(t.share).padStart(5)}%  ${t.fn}\n`);
  }
}

if (require.main === module) print(summarize(process.argv[2], Number(process.argv[3]) || 12));

module.exports = { summarize, print };
