'use strict';
// node report/bench/report.js [COUNT ...] -> the report's wall time, CPU time, peak memory and
// output sizes over COUNT results folders of default length (bench/folders.js), by default 10, 100,
// 1,000 and 10,000. Each report runs as ./run.sh report runs it (node bin/lab-report.js), in its
// own process; the folders are made in a temporary folder and removed after (LAB_KEEP_TMP=1 keeps).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { makeFolders } = require('./folders');

const counts = process.argv.slice(2).map(Number);
const BIN = path.join(__dirname, '..', 'bin', 'lab-report.js');

function sizeOf(dir) {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? sizeOf(p) : fs.statSync(p).size;
  }
  return total;
}
const mb = (b) => (b / 1e6).toFixed(1);

console.log(`report over results folders of default length (${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')})`);
console.log('folders    wall s    CPU s   peak MB   report.json MB   index.html MB   beside MB   exit');
for (const count of counts.length ? counts : [10, 100, 1000, 10000]) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-report-bench-'));
  try {
    makeFolders(root, count);
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['-r', path.join(__dirname, 'peak.js'), BIN, '--results-dir', root],
      { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 });
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    const used = JSON.parse(r.output[3].toString() || '{}');
    const out = path.join(root, 'report', 'latest');
    const has = (f) => fs.existsSync(path.join(out, f));
    const file = (f) => (has(f) ? mb(fs.statSync(path.join(out, f)).size) : '-');
    const beside = has('runs') ? mb(sizeOf(path.join(out, 'runs'))) : '-';
    console.log(`${String(count).padEnd(8)} ${wall.toFixed(1).padStart(8)} ${used.cpu_s?.toFixed(1).padStart(8)} ${String(Math.round(used.peak_rss_kb / 1024)).padStart(9)} `
      + `${file('report.json').padStart(16)} ${file('index.html').padStart(15)} ${beside.padStart(11)}   ${r.status}`);
    if (r.status !== 0) console.log(`  ${r.stderr.toString().trim().split('\n').slice(-3).join('\n  ')}`);
  } finally {
    if (!process.env.LAB_KEEP_TMP) fs.rmSync(root, { recursive: true, force: true });
  }
}
