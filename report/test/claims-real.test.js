'use strict';
// The seeds' findings on real loader runs: the loader CLI runs journal
// (seeds/001), writeconcern (seeds/000, also w:1+j with and without --journal-path) and ycsb-a
// (seeds/002) against the wire shim's
// mongod-8.0-wiredtiger-replset line (loader/test/support/server.js startServer({ line })), then
// the report CLI judges the claims. The shim is not WiredTiger: the verdicts are whatever these
// runs show, so the test checks that each claim is judged from them (not "not comparable"), that
// its figure is the ratio the summaries hold, that the verdict follows the claim's rule, that the
// differences from the seed are named, and that the page shows the rows in Chromium.
const test = require('node:test');
const assert = require('node:assert/strict');
// the shared-host rule the report applies (other load counts only where it made the loader late)
const { hostSlowed } = require('../../common/host-slowed');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir } = require('./support/fixtures');
const { openPage } = require('./support/browser');
const { main } = require('../src/cli');

const LOADER_TEST = path.join(__dirname, '..', '..', 'loader', 'test', 'support');
const STATUSES = ['reproduced', 'contradicted', 'inconclusive'];
const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

let line;
let results;
test.before(async () => {
  line = await require(path.join(LOADER_TEST, 'server.js')).startServer({ line: 'mongod-8.0-wiredtiger-replset' });
  results = tmpDir();
});
test.after(async () => { await line?.stop(); });

// summaries(experiment) -> every summary.json the loader wrote for it
function summaries(experiment) {
  const root = path.join(results, experiment, 'wiredtiger');
  return fs.readdirSync(root).filter((d) => d !== 'latest').map((d) => JSON.parse(fs.readFileSync(path.join(root, d, 'summary.json'), 'utf8')));
}
const rateOf = (s, name) => {
  const c = [...(s.cases || []), ...(s.steps || [])].find((x) => (x.name ?? x.phase) === name);
  return Object.values(c.ops).reduce((a, o) => a + o.ops_per_s, 0);
};

test('seeds/001, 000, 002 judged on journal, writeconcern and ycsb-a runs on the WiredTiger replica-set line', { timeout: 600000 }, async (t) => {
  const { runLoader } = require(path.join(LOADER_TEST, 'loader.js'));
  const common = ['--uri', line.uri, '--engine', 'wiredtiger', '--results-dir', results, '--metrics-port', '0'];
  // seeds/000's journal disk: w:1+j with and without --journal-path (as ./run.sh passes it in the
  // stack, with its --profile), recorded in summary.json storage.journal_path; single runs A B B A,
  // as the claim's needs lines make them (one after the other would be no verdict)
  const disk = (apart) => ['writeconcern', '--ops', '100', '--write-concerns', 'w:1+j', '--profile', 'laptop', ...(apart ? ['--journal-path', '/mnt/disk2'] : []), '--repeat', '1'];
  for (const args of [
    ['journal', '--docs', '4000', '--batch', '500', '--commit-intervals', 'none', '--cost-min-time', '1ms', '--repeat', '3'],
    ['writeconcern', '--ops', '100', '--write-concerns', 'w:0,w:1,w:1+j,w:2,w:2+j,majority,majority+j', '--repeat', '3'],
    ['ycsb-a', '--records', '1000', '--threads', '1,2,4', '--duration', '1s', '--repeat', '3'],
    disk(true), disk(false), disk(false), disk(true),
  ]) {
    const r = await runLoader([...args, ...common]);
    assert.equal(r.code, 0, `${args[0]}: ${r.stderr}`);
  }
  let out = '';
  assert.equal(main(['--results-dir', results], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  const seeds = out.slice(out.indexOf("== the seeds' findings"));
  for (const l of seeds.trimEnd().split('\n')) t.diagnostic(l);
  for (const l of out.split('\n')) assert.ok(l.length <= 120, `${l.length}: ${l}`);
  const dir = fs.realpathSync(path.join(results, 'report', 'latest'));
  const rep = JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8'));
  const row = (id) => rep.claims.find((c) => c.id === id);

  // seeds/001 as the lab's stand-in: j:true against j:false, the ratio of geometric means the
  // summaries hold, judged on the claim's size band (and the claims' Holm family)
  const j = row('001-journal-jtrue');
  assert.equal(j.side, 'wiredtiger');
  // the lab's own figure (the seed never measured j:true): shown, never judged
  assert.ok(['lab figure', 'inconclusive'].includes(j.status), JSON.stringify(j));
  const js = summaries('journal');
  assert.equal(js.length, 3);
  const usable = js.filter((s) => s.cases.every((c) => !c.loader?.limited && !hostSlowed(c)));
  if (usable.length === 3 && j.ci) {
    const want = geo(js.map((s) => rateOf(s, 'j:true'))) / geo(js.map((s) => rateOf(s, 'j:false')));
    assert.ok(Math.abs(j.ratio - want) < 1e-9, `${j.ratio} vs ${want}`);
    assert.equal(j.status, 'lab figure');
    assert.equal(j.p, null);
  } else {
    t.diagnostic(`journal: ${3 - usable.length} run(s) loader-limited or sharing the host: no ratio check`);
  }
  assert.match(j.differs, /engine line: wiredtiger on mongod 8\.0\.4 \(seed: MongoDB 1\.8/);
  assert.match(j.differs, /scale: 4,000 docs \(seed: 20,000,000\)/);

  // seeds/000: every pair of write concerns the seed's text orders, measured and judged
  const w = row('000-ordering');
  assert.ok(STATUSES.includes(w.status), JSON.stringify(w));
  assert.deepEqual(w.pairs.map((p) => `${p.a}/${p.b}`), ['w:0/w:1', 'w:1/w:1+j', 'w:1/w:2', 'w:2/w:2+j', 'w:1+j/w:2+j', 'w:2/majority', 'majority/majority+j', 'w:2+j/majority+j']);
  assert.ok(w.pairs.every((p) => p.state !== 'missing'), JSON.stringify(w.pairs));
  assert.match(w.differs, /scale: 100 inserts per case \(seed: 1,000\)/);
  assert.match(w.differs, /topology: replica set member \(seed: "the test environment will involve 4 data nodes across 2 zones"/);
  const reversed = w.pairs.some((p) => p.state === 'reversed');
  // contradicted only by a reversed pair; a reversed pair is contradicted unless Holm's correction
  // over the claims takes it back (then inconclusive, saying so)
  if (w.status === 'contradicted') assert.ok(reversed, JSON.stringify(w.pairs));
  if (reversed) assert.ok(w.status === 'contradicted' || (w.status === 'inconclusive' && /Holm-adjusted/.test(w.why)), JSON.stringify(w));
  if (w.status === 'reproduced') assert.ok(w.pairs.every((p) => ['ordered', 'tie-allowed'].includes(p.state)));

  // seeds/002: a sweep of three steps, throughput and latency judged step to step
  const k = row('002-knee');
  assert.ok(STATUSES.includes(k.status), JSON.stringify(k));
  assert.match(k.lab, /^(sweet spot at \d: )?clients 1 2 4; ops\/s [\d,.-]+ [\d,.-]+ [\d,.-]+; p50 ms \S+ \S+ \S+; ops\/s [<>=?] [<>=?]; latency [<>=?] [<>=?] /);
  assert.match(k.differs, /scale: 1,000 records \(seed: 5,000,000\)/);
  assert.match(k.differs, /topology: replica set member \(seed: a standalone mongod\)/);

  // seeds/000's journal disk: the runs with storage.journal_path against those without, alike
  const d = row('000-journal-disk');
  assert.ok(STATUSES.includes(d.status), JSON.stringify(d));
  assert.match(d.lab, /at w:1\+j$/);
  assert.doesNotMatch(d.why, /not interleaved/); // A B B A: the order guard lets it through
  if (d.ci) assert.ok(d.ratio > 0 && d.ci[0] <= d.ratio && d.ratio <= d.ci[1], JSON.stringify(d));
  else assert.match(d.why, /usable runs|drift|interval/, JSON.stringify(d));

  // the rest say what they need
  for (const id of ['004-insert', '004-storage', '004-dips-mmapv1', '004-dips-rocksdb', '004-stale', '003-os', '003-os-order', '001-journal', '001-prealloc', '001-journal-disk']) {
    assert.equal(row(id).status, 'not comparable', id);
    assert.match(row(id).missing, /^needs /, id);
  }

  // the page: the seeds' section right after the summary, one row per claim row of report.json
  const { page, errors, close } = await openPage(path.join(dir, 'index.html'), results);
  try {
    const seen = await page.evaluate(() => ({
      after: document.querySelector('#summary').nextElementSibling?.id,
      rows: [...document.querySelectorAll('#seeds table.claims tbody tr')].map((tr) => ({ id: tr.dataset.claim, verdict: tr.children[5].textContent })),
    }));
    assert.equal(seen.after, 'seeds');
    assert.deepEqual(seen.rows, rep.claims.map((c) => ({ id: c.id, verdict: c.status })));
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
