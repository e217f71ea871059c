'use strict';
// Panels whose series only some engines or server lines produce (compose/engines.tsv) say so
// instead of showing an empty panel: Grafana's "no value" text starts "not collected on this server
// line" and names exactly the engines that leave the panel empty. Keyed on the series each panel
// reads, so a new panel reading such a series without the note fails here.
// Run: node --test dashboards/test/server-lines.test.js (the monitoring suite runs it).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { DASHBOARDS, NOT_COLLECTED } = require('../src/generate');
const ENGINES = require('../../loader/src/tables').engines();

const line = (e) => Number(e.server_line);
// series prefix -> which engines produce it (facts: dashboards/metrics-catalog, MongoDB release notes)
const ONLY = [
  [/mongodb_ss_flowControl_/, (e) => line(e) >= 4.2], // flow control: MongoDB 4.2+
  [/mongodb_oplog_stats_storageStats_/, (e) => line(e) >= 7], // the exporter's 7.0+ name
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

test('the old lines are in the table, so the notes have something to name', () => {
  assert.ok(ENGINES.some((e) => line(e) < 4.2), 'an engine before flow control (mmapv1 4.0, rocksdb 3.6)');
});

test('a panel reading series some engines lack names exactly those engines in its no-value text', () => {
  let noted = 0;
  for (const { file, p, exprs } of panels()) {
    const rule = ONLY.find(([re]) => re.test(exprs));
    const nv = p.fieldConfig?.defaults?.noValue;
    if (!rule) {
      if (nv) assert.ok(!nv.startsWith(NOT_COLLECTED), `${file} "${p.title}": reads series every engine has, yet says "${nv}"`);
      continue;
    }
    const missing = ENGINES.filter((e) => !rule[1](e)).map((e) => e.engine);
    if (!missing.length) continue;
    noted++;
    assert.ok(nv && nv.startsWith(`${NOT_COLLECTED}: `), `${file} "${p.title}" has no "${NOT_COLLECTED}" text`);
    const named = /; empty for (.*)$/.exec(nv)[1].split(', ').map((x) => x.split(' ')[0]);
    assert.deepEqual(named, missing, `${file} "${p.title}": engines named`);
  }
  assert.ok(noted >= 9, `only ${noted} panels carry the note`);
});
