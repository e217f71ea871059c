'use strict';
// One owner per rule: the lab's tables are data files that both languages read,
// bash through lib/tables.sh (table_rows, table_field) and Node through common/tables.js
// (parseTable). The rule of how a table is read (comments, header, tabs, "-") is therefore written
// twice; this test makes the two readers agree on every cell of every table both read, so a
// change to one reader, or a row only one of them would read, fails here.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { parseTable } = require('../../common/tables');

const ROOT = path.join(__dirname, '..', '..');
const TABLES = ['compose/engines.tsv', 'compose/profiles.tsv', 'compose/topology.tsv', 'loader/src/faults/docker-ops.tsv'];

// bashCells(file) -> the same [key, column, value] triples, as lib/tables.sh reads them: the keys
// from table_rows, each cell from table_field (one bash for the whole table).
function bashCells(file, columns) {
  const script = `source lib/common.sh; source lib/tables.sh
    f="$LAB_ROOT/${file}"
    table_rows "$f" | cut -f1 | while IFS= read -r key; do
      for col in ${columns.join(' ')}; do printf '%s\\t%s\\t%s\\n' "$key" "$col" "$(table_field "$f" "$key" "$col")"; done
    done`;
  const r = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LAB_ROOT: ROOT } });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\n').filter(Boolean).map((l) => l.split('\t'));
}

for (const file of TABLES) {
  test(`${file}: bash and Node read the same rows, columns and cells`, () => {
    const rows = parseTable(fs.readFileSync(path.join(ROOT, file), 'utf8'));
    assert.ok(rows.length >= 2, `${file}: rows`);
    const columns = Object.keys(rows[0]);
    const node = rows.flatMap((r) => columns.map((c) => [r[columns[0]], c, r[c]]));
    const bash = bashCells(file, columns);
    assert.equal(bash.length, node.length, `${file}: cell count`);
    assert.deepEqual(bash, node);
  });
}

// The shard members' --oplogSize is one rule written twice: lib/stack.sh
// stack_oplog_mb (what Compose gets) and common/tables.js oplogMbFor (what summary.json records).
test('the oplog rule: bash stack_oplog_mb and Node oplogMbFor agree for every engine and profile', () => {
  const { engines, readTable, oplogMbFor } = require('../../common/tables');
  const profiles = readTable('profiles');
  const pairs = engines().flatMap((e) => profiles.map((p) => [e, p]));
  const script = `source lib/common.sh; source lib/tables.sh; source lib/stack.sh
    ${pairs.map(([e, p]) => `stack_oplog_mb ${e.engine} ${p.profile}`).join('\n')}`;
  const r = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LAB_ROOT: ROOT } });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.split('\n').filter(Boolean).map(Number), pairs.map(([e, p]) => oplogMbFor(e, p).oplog_mb));
  assert.ok(pairs.some(([e]) => e.oplog_share != null), 'an engine with an oplog share is in the table');
});
