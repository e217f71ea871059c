'use strict';
// The real percona/mongodb_exporter (.tools/bin/mongodb_exporter, with the collectors
// compose/monitoring.yml gives it) scraping a stand-in member under load emits every member series
// the generated dashboards query (serverStatus mongodb_ss_*, replSetGetStatus mongodb_rs_*, the
// oplog's mongodb_oplog_stats_*; not the inMemory engine's), the cache moving with the load. Run by
// test/docker.sh; alone: node --test test/docker/standin/test/exporter.test.js
const test = require('node:test');
const assert = require('node:assert');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { Cluster, labFlags, setFlag, waitFor } = require('./harness');

const LAB_ROOT = path.resolve(__dirname, '../../../..');
// The engine row the stand-in plays (compose/engines.tsv wiredtiger: mongo:8.0), for the panels'
// rules: a panel whose note says its series are collected only where the row does not meet the
// rule (dashboards/src/generate.js onlyWhere, e.g. the 4.x oplog name) asks nothing of it.
function engineRow(name) {
  const lines = fs.readFileSync(path.join(LAB_ROOT, 'compose/engines.tsv'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  const head = lines[0].split('\t');
  const row = lines.map((l) => l.split('\t')).find((r) => r[0] === name);
  return Object.fromEntries(head.map((h, i) => [h, row[i]]));
}
function collected(rule, e) {
  return rule.split('|').some((alt) => alt.split('&').every((term) => {
    const m = /^\s*([a-z_]+)\s*(>=|=)\s*(\S+)\s*$/.exec(term);
    if (!m) throw new Error(`unreadable rule term '${term}'`);
    return m[2] === '=' ? String(e[m[1]]) === m[3] : Number(e[m[1]]) >= Number(m[3]);
  }));
}
// every member series (serverStatus, replSetGetStatus, oplog stats) a generated dashboard's panel
// queries on this engine's server line, as one list of alternatives per query: a query `A or B`
// reads the name each server line reports (8.0's checkpoint progress state or 4.0's "currently
// running"; 7.0+'s oplog storageStats or the older top-level size), so the exporter must emit every
// series of one alternative, not of all.
const METRIC = /mongodb_(ss|rs|oplog_stats)_[A-Za-z_]+/g;
// alternatives(expr): expr split on its top-level `or` (outside parentheses and braces)
function alternatives(expr) {
  const out = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < expr.length; i += 1) {
    if ('({['.includes(expr[i])) depth += 1;
    else if (')}]'.includes(expr[i])) depth -= 1;
    else if (depth === 0 && /^\sor\s/.test(expr.slice(i, i + 4))) { out.push(expr.slice(start, i)); start = i + 4; }
  }
  out.push(expr.slice(start));
  return out.map((a) => [...a.matchAll(METRIC)].map((m) => m[0]).filter((n) => !n.endsWith('_'))).filter((a) => a.length);
}
function dashboardMemberQueries() {
  const dir = path.join(LAB_ROOT, 'dashboards');
  const row = engineRow('wiredtiger');
  const queries = [];
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json'))) {
    for (const p of JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).panels || []) {
      const note = (p.fieldConfig && p.fieldConfig.defaults && p.fieldConfig.defaults.noValue) || '';
      const rule = /\(collected where: ([^;]+);/.exec(note);
      if (rule && !collected(rule[1], row)) continue;
      for (const t of p.targets || []) {
        const alts = alternatives(String(t.expr));
        if (alts.length) queries.push(alts);
      }
    }
  }
  return queries;
}

const sample = (text, name) => text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

test('the real exporter emits every member series the dashboards query, moving with the load', async (t) => {
  const queries = dashboardMemberQueries();
  assert.ok(new Set(queries.flat(2)).size >= 20, `only ${new Set(queries.flat(2)).size} member series in the dashboards`);
  const c = new Cluster(28280);
  t.after(() => c.stop());
  const m = await c.start('mongod', setFlag(labFlags('shard'), 'wiredTigerCacheSizeGB', 0.25));
  const client = await c.client(m);
  await client.db('admin').command({ replSetInitiate: { _id: 'shard01', members: [{ _id: 0, host: m.host }] } });
  await waitFor('a primary', async () => (await client.db('admin').command({ hello: 1 })).isWritablePrimary, 8000);
  const port = 28298;
  const exporter = spawn(path.join(LAB_ROOT, '.tools/bin/mongodb_exporter'), [
    `--mongodb.uri=mongodb://__system:${encodeURIComponent(c.key)}@${m.host}/admin?authSource=local`,
    '--mongodb.direct-connect', '--collector.diagnosticdata', '--collector.replicasetstatus', '--compatible-mode',
    `--web.listen-address=127.0.0.1:${port}`,
  ], { stdio: 'ignore' });
  t.after(() => exporter.kill('SIGKILL'));
  const scrape = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const first = await waitFor('the exporter answering', async () => { const x = await scrape(); return /mongodb_ss_wt_/.test(x) && x; }, 15000);
  for (let i = 0; i < 20; i += 1) await client.db('suite').collection('wt').insertOne({ pad: 'x'.repeat(50000) });
  const second = await scrape();
  const emitted = (n) => sample(second, n).length > 0;
  // of each query whose alternatives are all incomplete, the series its first alternative lacks
  const missing = [...new Set(queries.filter((alts) => !alts.some((a) => a.every(emitted)))
    .flatMap((alts) => alts[0].filter((n) => !emitted(n))))];
  assert.deepStrictEqual(missing, [], `series the dashboards query that the exporter does not emit: ${missing.join(' ')}`);
  const value = (text, n) => Number(sample(text, n)[0].split(' ').pop());
  assert.ok(value(second, 'mongodb_ss_wt_cache_bytes_currently_in_the_cache') > value(first, 'mongodb_ss_wt_cache_bytes_currently_in_the_cache'), 'the cache does not move with the load');
  assert.ok(sample(second, 'mongodb_ss_wt_concurrentTransactions_totalTickets').some((l) => /txn_rw="write"/.test(l)), 'no txn_rw="write" tickets');
});
