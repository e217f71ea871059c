'use strict';
// The real percona/mongodb_exporter (.tools/bin/mongodb_exporter, as the lab's image runs it: the
// diagnostic data collector) scraping a stand-in member under load emits every WiredTiger series
// the generated dashboards query (mongodb_ss_wt_*), with values that move with the load. Run by
// test/docker.sh; alone: node --test test/docker/standin/test/exporter.test.js
const test = require('node:test');
const assert = require('node:assert');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { Cluster, labFlags, setFlag, waitFor } = require('./harness');

const LAB_ROOT = path.resolve(__dirname, '../../../..');
// every mongodb_ss_wt_* metric any generated dashboard's panel queries
function dashboardWtMetrics() {
  const dir = path.join(LAB_ROOT, 'dashboards');
  const names = new Set();
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json'))) {
    for (const m of fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/mongodb_ss_wt_[A-Za-z_]+/g)) names.add(m[0]);
  }
  return [...names].filter((n) => !n.endsWith('_'));
}

const sample = (text, name) => text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

test('the real exporter emits every WiredTiger series the dashboards query, moving with the load', async (t) => {
  const wanted = dashboardWtMetrics();
  assert.ok(wanted.length >= 8, `only ${wanted.length} WiredTiger series in the dashboards`);
  const c = new Cluster(28280);
  t.after(() => c.stop());
  const m = await c.start('mongod', setFlag(labFlags('shard'), 'wiredTigerCacheSizeGB', 0.25));
  const client = await c.client(m);
  await client.db('admin').command({ replSetInitiate: { _id: 'shard01', members: [{ _id: 0, host: m.host }] } });
  await waitFor('a primary', async () => (await client.db('admin').command({ hello: 1 })).isWritablePrimary, 8000);
  const port = 28298;
  const exporter = spawn(path.join(LAB_ROOT, '.tools/bin/mongodb_exporter'), [
    `--mongodb.uri=mongodb://__system:${encodeURIComponent(c.key)}@${m.host}/admin?authSource=local`,
    '--mongodb.direct-connect', '--collector.diagnosticdata', `--web.listen-address=127.0.0.1:${port}`,
  ], { stdio: 'ignore' });
  t.after(() => exporter.kill('SIGKILL'));
  const scrape = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const first = await waitFor('the exporter answering', async () => { const x = await scrape(); return /mongodb_ss_wt_/.test(x) && x; }, 15000);
  for (let i = 0; i < 20; i += 1) await client.db('suite').collection('wt').insertOne({ pad: 'x'.repeat(50000) });
  const second = await scrape();
  const missing = wanted.filter((n) => sample(second, n).length === 0);
  assert.deepStrictEqual(missing, [], `series the dashboards query that the exporter does not emit: ${missing.join(' ')}`);
  const value = (text, n) => Number(sample(text, n)[0].split(' ').pop());
  assert.ok(value(second, 'mongodb_ss_wt_cache_bytes_currently_in_the_cache') > value(first, 'mongodb_ss_wt_cache_bytes_currently_in_the_cache'), 'the cache does not move with the load');
  assert.ok(sample(second, 'mongodb_ss_wt_concurrentTransactions_totalTickets').some((l) => /txn_rw="write"/.test(l)), 'no txn_rw="write" tickets');
});
