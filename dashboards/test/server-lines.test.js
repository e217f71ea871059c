'use strict';
// Panels whose series only some engines or server lines produce (compose/engines.tsv) say so
// instead of showing an empty panel: Grafana's "no value" text starts "not collected on this server
// line" and names exactly the engines that leave the panel empty. Keyed on the series each panel
// reads, so a new panel reading such a series without the note fails here.
// Run: node --test dashboards/test/server-lines.test.js (the monitoring suite runs it).
const { test } = require('node:test');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const assert = require('node:assert/strict');
const { DASHBOARDS, NOT_COLLECTED, reports, SHARD_MEMBER, CONFIG_SERVER } = require('../src/generate');
const ENGINES = require('../../common/tables').engines();

// collectedWhere(noValue) -> the rule's text in a panel's note (generate.js onlyWhere), or null.
function collectedWhere(noValue) {
  const m = /\(collected where: ([^;]+); compose\/engines\.tsv\)$/.exec(noValue || '');
  return m ? m[1] : null;
}
const line = (e) => Number(e.server_line);
// series prefix -> which engines produce it (facts: dashboards/metrics-catalog, MongoDB release notes)
// A panel over the config servers alone reads their WiredTiger, which every engine runs there.
const configOnly = (exprs) => {
  const sels = [...exprs.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  return sels.length > 0 && sels.every((x) => x === CONFIG_SERVER);
};
const ONLY = [
  [{ test: configOnly }, () => true],
  [/mongodb_ss_flowControl_/, (e) => line(e) >= 4.2], // flow control: MongoDB 4.2+
  [/mongodb_ss_wt_concurrentTransactions_/, (e) => e.server_engine === 'wiredTiger' || (e.server_engine === 'inMemory' && line(e) >= 7)],
  [/mongodb_ss_wt_/, (e) => e.server_engine === 'wiredTiger'],
  [/mongodb_ss_inMemory_/, (e) => e.server_engine === 'inMemory'],
];

function panels() {
  const out = [];
  for (const [file, d] of Object.entries(DASHBOARDS)) {
    for (const p of d.panels) if (p.targets) out.push({ file, p, exprs: p.targets.map((t) => t.expr).join('\n') });
  }
  return out;
}

// The config servers run WiredTiger on every engine: a WiredTiger panel over every member would
// fill with cfg1-3 where the shard members run mmapv1, rocksdb or inMemory, and its note would
// never show. Every engine panel reads the shard members or the config servers, never both.
test('WiredTiger panels read the shard members or the config servers, never both; the shard panels carry the note, the config ones are collected on every engine', () => {
  const wt = panels().filter(({ exprs }) => /mongodb_ss_wt_/.test(exprs));
  assert.ok(wt.length >= 8, `${wt.length} WiredTiger panels`);
  let shard = 0;
  let config = 0;
  for (const { file, p, exprs } of wt) {
    const sels = [...exprs.matchAll(/mongodb_ss_wt_\w+\{([^}]*)\}/g)].map((m) => m[1]);
    const nv = p.fieldConfig?.defaults?.noValue;
    if (sels.every((x) => x === SHARD_MEMBER)) {
      shard++;
      assert.ok(nv && nv.startsWith(NOT_COLLECTED), `${file} "${p.title}": shard members' WiredTiger without the note`);
      for (const e of ENGINES.filter((x) => x.server_engine !== 'wiredTiger' && x.server_engine !== 'inMemory')) assert.equal(reports(collectedWhere(nv), e), false, `${file} "${p.title}" on ${e.engine}`);
    } else if (sels.every((x) => x === CONFIG_SERVER)) {
      config++;
      assert.ok(!nv || !nv.startsWith(NOT_COLLECTED), `${file} "${p.title}": the config servers' WiredTiger is collected on every engine`);
    } else {
      assert.fail(`${file} "${p.title}" reads WiredTiger series of other members: ${sels.join(' ; ')}`);
    }
  }
  assert.ok(shard >= 5 && config >= 2, `${shard} shard panels, ${config} config-server panels`);
  assert.match(SHARD_MEMBER, /instance=~"shard01-a\|shard01-b\|shard01-c\|lab-rs0-\.\+"/);
  assert.match(CONFIG_SERVER, /instance=~"cfg1\|cfg2\|cfg3\|lab-cfg-\.\+"/);
});

// 4.0's and 3.6's WiredTiger report the checkpoint flag under wiredTiger.transaction, and before
// 7.0 the oplog's size sits at the top of its stats: the panels read those names where the lines
// report them (the names themselves: metrics-catalog naming-rule rows over the 4.0/3.6 fixtures).
test("the checkpoint and oplog-size panels read 4.0's and 3.6's names beside 8.0's, with no note", () => {
  const all = panels();
  const checkpoint = all.filter(({ p }) => /checkpoint running/i.test(p.title));
  assert.ok(checkpoint.length >= 2);
  for (const { p, exprs } of checkpoint) {
    assert.match(exprs, /mongodb_ss_wt_checkpoint_progress_state\{[^}]*\}, 1\) or mongodb_ss_wt_txn_transaction_checkpoint_currently_running\{/, p.title);
  }
  const [oplog] = all.filter(({ p }) => p.title === 'Oplog size used vs maximum');
  assert.match(oplog.exprs, /mongodb_oplog_stats_storageStats_size\{[^}]*\} or mongodb_oplog_stats_size\{/);
  assert.match(oplog.exprs, /mongodb_oplog_stats_storageStats_maxSize\{[^}]*\} or mongodb_oplog_stats_maxSize\{/);
  assert.ok(!oplog.p.fieldConfig.defaults.noValue?.startsWith(NOT_COLLECTED), 'collected on every line');
});

test('the old lines are in the table, so the notes have something to name', () => {
  assert.ok(ENGINES.some((e) => line(e) < 4.2), 'an engine before flow control (mmapv1 4.0, rocksdb 3.6)');
});

test('a panel reading series some engines lack says so in its no-value text, by the rule and never by engine name', () => {
  let noted = 0;
  for (const { file, p, exprs } of panels()) {
    const rule = ONLY.find(([re]) => re.test(exprs));
    const nv = p.fieldConfig?.defaults?.noValue;
    if (!rule) {
      if (nv) assert.ok(!nv.startsWith(NOT_COLLECTED), `${file} "${p.title}": reads series every engine has, yet says "${nv}"`);
      continue;
    }
    if (!ENGINES.some((e) => !rule[1](e))) continue;
    noted++;
    assert.ok(nv && nv.startsWith(`${NOT_COLLECTED}: `), `${file} "${p.title}" has no "${NOT_COLLECTED}" text`);
  }
  assert.ok(noted >= 9, `only ${noted} panels carry the note`);
});

test('each note carries its rule as data, and the rule says what the series facts say, for every engine of the table', () => {
  let checked = 0;
  for (const { file, p, exprs } of panels()) {
    const nv = p.fieldConfig?.defaults?.noValue;
    if (!nv || !nv.startsWith(NOT_COLLECTED)) continue;
    const where = collectedWhere(nv);
    assert.ok(where, `${file} "${p.title}": no "(collected where: ...)" rule in "${nv}"`);
    const fact = ONLY.find(([re]) => re.test(exprs));
    assert.ok(fact, `${file} "${p.title}": a note on series every engine has`);
    for (const e of ENGINES) {
      assert.equal(reports(where, e), fact[1](e), `${file} "${p.title}" on ${e.engine}: rule '${where}'`);
      checked++;
    }
  }
  assert.ok(checked >= 9 * ENGINES.length, `checked ${checked} panel x engine pairs`);
});

test('the smoke check in bash (lib/monitoring.sh monitoring_collected) reads each rule as generate.js does', () => {
  const root = path.join(__dirname, '..', '..');
  const notes = [...new Set(panels().map(({ p }) => p.fieldConfig?.defaults?.noValue)
    .filter((nv) => nv && nv.startsWith(NOT_COLLECTED)))];
  assert.ok(notes.length >= 4, `${notes.length} distinct notes`);
  const script = 'source lib/tables.sh; source lib/monitoring.sh; while IFS=$\'\\t\' read -r e nv; do if monitoring_collected "$e" "$nv"; then echo yes; else echo no; fi; done';
  const pairs = ENGINES.flatMap((e) => notes.map((nv) => [e, nv]));
  const r = spawnSync('bash', ['-c', script], { cwd: root, encoding: 'utf8', env: { ...process.env, LAB_ROOT: root }, input: pairs.map(([e, nv]) => `${e.engine}\t${nv}`).join('\n') + '\n' });
  assert.equal(r.status, 0, r.stderr);
  const got = r.stdout.trim().split('\n');
  assert.equal(got.length, pairs.length, r.stderr);
  pairs.forEach(([e, nv], i) => assert.equal(got[i] === 'yes', reports(collectedWhere(nv), e), `${e.engine}: ${nv}`));
});

// Nothing generated is committed with data it can go stale on: no engine of the
// table appears in a dashboard, and a new engine row leaves `generate.js --check` passing.
test('no committed dashboard names an engine of compose/engines.tsv', () => {
  const dir = path.join(__dirname, '..');
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json'))) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    for (const e of ENGINES) assert.ok(!new RegExp(`\\b${e.engine}\\b`).test(text), `dashboards/${f} names engine ${e.engine}`);
  }
});

test('adding an engine row regenerates nothing: generate.js --check passes in a copy with one more engine', () => {
  const root = path.join(__dirname, '..', '..');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-dash-'));
  try {
    for (const d of ['dashboards', 'compose', 'loader/src', 'common']) fs.cpSync(path.join(root, d), path.join(tmp, d), { recursive: true, filter: (src) => !src.includes('node_modules') });
    const tsv = path.join(tmp, 'compose', 'engines.tsv');
    const row = fs.readFileSync(tsv, 'utf8').split('\n').find((l) => l.startsWith('percona-wt\t'));
    fs.appendFileSync(tsv, `${row.replace(/^percona-wt\t/, 'percona-zstd\t')}\n`);
    assert.ok(require(path.join(tmp, 'common/tables')).engines().some((e) => e.engine === 'percona-zstd'));
    const r = spawnSync(process.execPath, [path.join(tmp, 'dashboards/src/generate.js'), '--check'], { encoding: 'utf8', timeout: 60000 });
    assert.equal(r.status, 0, r.stderr);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
