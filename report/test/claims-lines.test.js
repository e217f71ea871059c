'use strict';
// seeds/004's engine claims on real loader runs against the shim's two old lines: experiment1, experiment2 and
// experiment3 with --engine mmapv1 on mongod-4.0-mmapv1-replset and --engine rocksdb on psmdb-3.6-rocksdb-replset
// (loader/test/support/server.js), each through the driver line the server's wire version picks, in four rounds
// A B B A A B B A (experiment1 in the first two); then the
// report CLI. Both lines stand in front of one Java test server, so the verdicts measure the shim, not the engines: the
// test checks that each claim is judged from these runs with the figure the summaries hold, and
// that the rows name both server lines and the scale against the seed's.
const test = require('node:test');
const assert = require('node:assert/strict');
// the shared-host rule the report applies (other load counts only where it made the loader late)
const { hostSlowed } = require('../../common/host-slowed');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir } = require('./support/fixtures');
const { main } = require('../src/cli');

const LOADER_TEST = path.join(__dirname, '..', '..', 'loader', 'test', 'support');
const LINES = { mmapv1: 'mongod-4.0-mmapv1-replset', rocksdb: 'psmdb-3.6-rocksdb-replset' };
const STATUSES = ['reproduced', 'contradicted', 'inconclusive'];
const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

test('seeds/004: inserts, read+update peaks and reads judged on the MMAPv1 and MongoRocks lines', { timeout: 900000 }, async (t) => {
  const { startServer } = require(path.join(LOADER_TEST, 'server.js'));
  const { runLoader } = require(path.join(LOADER_TEST, 'loader.js'));
  const results = tmpDir();
  // both lines up at once, their runs interleaved A B B A (as ./run.sh compare runs them): runs of
  // one engine all before the other's get no verdict, in the summary and in the claims alike
  const lines = {};
  try {
    for (const [engine, lineName] of Object.entries(LINES)) lines[engine] = await startServer({ line: lineName });
    for (const round of [0, 1, 2, 3]) {
      for (const engine of round % 2 ? ['rocksdb', 'mmapv1'] : ['mmapv1', 'rocksdb']) {
        const common = ['--uri', lines[engine].uri, '--engine', engine, '--results-dir', results, '--metrics-port', '0', '--repeat', '1'];
        // experiment1 in the first A B B A only: its claim is judged on the data against memory,
        // which 4 runs show as well as 8 (each run costs about 2.5 CPU s here)
        for (const args of [...(round < 2 ? [['experiment1', '--docs', '3000']] : []), ['experiment2', '--preload-docs', '500', '--clients', '1,2', '--duration', '1s'],
          ['experiment3', '--preload-docs', '500', '--clients', '1,2', '--duration', '1s']]) {
          const r = await runLoader([...args, ...common]);
          assert.equal(r.code, 0, `${engine} ${args[0]}: ${r.stderr}`);
        }
      }
    }
  } finally {
    for (const line of Object.values(lines)) await line.stop();
  }
  let out = '';
  assert.equal(main(['--results-dir', results], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  for (const l of out.slice(out.indexOf("== the seeds' findings")).trimEnd().split('\n')) t.diagnostic(l);
  const rep = JSON.parse(fs.readFileSync(path.join(fs.realpathSync(path.join(results, 'report', 'latest')), 'report.json'), 'utf8'));
  const row = (id) => rep.claims.find((c) => c.id === id);

  for (const id of ['004-read-update', '004-reads']) {
    const r = row(id);
    assert.ok(STATUSES.includes(r.status), `${id}: ${JSON.stringify(r)}`);
    assert.match(r.differs, /engine line: (mmapv1 on mongod 4\.0\.28, rocksdb on mongod 3\.6\.23-13\.0|rocksdb on mongod 3\.6\.23-13\.0, mmapv1 on mongod 4\.0\.28)/, id);
    assert.match(r.differs, /topology: replica set member \(seed: "1 shard \(replica set\) with 3 shard servers"; "We connected the clients directly on the PRIMARY/, id);
  }
  assert.match(row('004-reads').differs, /scale: 500 docs preloaded \(seed: 1,000,000\)/);
  assert.match(row('004-reads').stands_for, /rocksdb stands in for TokuMX 1\.x; mmapv1 stands in for MongoDB 2\.4 MMAPv1/);
  // 3,000 inserted documents are far less than any profile's memory: the insert finding, about
  // 10M documents that did not fit in RAM, is not tested on them (the memory of the shim is not recorded)
  assert.equal(row('004-insert').status, 'not comparable', JSON.stringify(row('004-insert')));
  assert.match(row('004-insert').missing, /data against memory: [\d.]+ MB of data and indexes in 4 of 4 runs, less than any profile's 1,611 MB/);

  // 004-reads' figure is mmapv1 / rocksdb of the summaries' geometric means, each at its own
  // maximum step (the seed's "Max throughput" of each), when every run counts
  const reads = row('004-reads');
  const [, atM, atR] = /mmapv1 at (clients-\d+), rocksdb at (clients-\d+)\)/.exec(reads.lab ?? '') ?? [];
  const stepOf = (engine, at) => {
    const root = path.join(results, 'experiment3', engine);
    return fs.readdirSync(root).filter((d) => d !== 'latest').map((d) => JSON.parse(fs.readFileSync(path.join(root, d, 'summary.json'), 'utf8')).steps.find((s) => s.phase === at));
  };
  const steps = atM ? [...stepOf('mmapv1', atM), ...stepOf('rocksdb', atR)] : [];
  if (atM && reads.ci && steps.every((s) => s && !s.loader?.limited && !hostSlowed(s) && s.complete !== false)) {
    const total = (s) => Object.values(s.ops).reduce((a, o) => a + o.ops_per_s, 0);
    const want = geo(stepOf('mmapv1', atM).map(total)) / geo(stepOf('rocksdb', atR).map(total));
    assert.ok(Math.abs(reads.ratio - want) < 1e-9, `${reads.ratio} vs ${want}`);
    // the size rule ("about equal": 0.87-1.15), then the claims' Holm family
    const [lo, hi] = reads.ci;
    const rule = !(hi > lo * (1 + 1e-9)) ? 'inconclusive' : lo >= 0.87 && hi <= 1.15 ? 'reproduced' : hi < 0.87 || lo > 1.15 ? 'contradicted' : 'inconclusive';
    assert.equal(reads.status, rule !== 'inconclusive' && !(reads.p_holm <= 0.05) ? 'inconclusive' : rule);
  } else {
    t.diagnostic('experiment3: some runs loader-limited or sharing the host: no ratio check');
    assert.match(reads.why, /excluded|no difference|interval|usable runs|drift/);
  }
  // interleaved: no row says the runs were one engine after the other, unless the report left some
  // runs out of a point (loader-limited, sharing the host, too short): the usable runs may then be
  // one engine's before the other's, and the report rightly says so (a fresh-clone run on a busy
  // host). Each aggregate's usable runs against its runs, as the report counted them.
  const allUsable = (experiment) => rep.experiments.filter((x) => x.name === experiment).flatMap((x) => x.sets)
    .flatMap((st) => st.aggregates).every((a) => a.usable && a.usable.runs === a.runs);
  for (const [id, experiment] of [['004-read-update', 'experiment2'], ['004-reads', 'experiment3']]) {
    if (allUsable(experiment)) assert.doesNotMatch(row(id).why, /not interleaved/, id);
    else t.diagnostic(`${id}: some ${experiment} runs left out of a point: ${row(id).why}`);
  }
  // the read+update claim compares each side at its own maximum
  if (row('004-read-update').ratio) assert.match(row('004-read-update').lab, /at each side's maximum \(rocksdb at clients-[12], mmapv1 at clients-[12]\)$/);
});
