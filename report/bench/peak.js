'use strict';
// Preloaded into the report under measure (node -r bench/peak.js): on exit, its peak resident
// memory and CPU time on fd 3, which bench/report.js reads.
const fs = require('node:fs');

process.on('exit', () => {
  const u = process.resourceUsage();
  fs.writeSync(3, JSON.stringify({ peak_rss_kb: u.maxRSS, cpu_s: (u.userCPUTime + u.systemCPUTime) / 1e6 }));
});
