'use strict';
// check-targets.js: the suite's Prometheus (the lab's compose/monitoring/prometheus.yml) scrapes
// every mongodb_exporter target (the mongod and mongos jobs: one exporter per member) and they
// are up, every target at 1 s. Prints one summary line, then each target that is not up.
const http = require('http');
http.get('http://127.0.0.1:9090/api/v1/targets?state=active', (res) => {
  let b = ''; res.on('data', (c) => (b += c)); res.on('end', () => {
    const t = JSON.parse(b).data.activeTargets;
    // the mongod and mongos jobs of compose/monitoring/prometheus.yml: one exporter per member
    const exp = t.filter((x) => x.labels.job === 'mongod' || x.labels.job === 'mongos');
    const up = exp.filter((x) => x.health === 'up');
    console.log(`${up.length} of ${exp.length} mongodb_exporter targets up, node-exporter ${(t.find((x) => x.labels.job === 'node') || {}).health}; scrape interval ${[...new Set(t.map((x) => x.scrapeInterval))].join(',')}`);
    for (const x of t) if (x.health !== 'up') console.log(`  ${x.labels.job} ${x.labels.instance}: ${x.health} ${x.lastError}`);
    process.exit(up.length === 7 && exp.length === 7 && t.every((x) => x.scrapeInterval === '1s') ? 0 : 1);
  });
}).on('error', (e) => { console.log(e.message); process.exit(1); });
