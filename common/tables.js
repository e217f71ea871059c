'use strict';
// The lab's tables as data for Node: compose/engines.tsv (engines and their capabilities),
// compose/topology.tsv (every mongod and mongos: set, role, ports) and compose/profiles.tsv. The
// same files lib/tables.sh reads for bash, so no engine, member or set name is written into logic.
// In the loader's image they sit at /lab/compose/ (images/loader/Dockerfile copies them), beside
// /lab/common as in the repository.
const fs = require('node:fs');
const path = require('node:path');

const DEFAULT_ROOT = path.resolve(__dirname, '..');

// parseTable(text) -> [{column: value}]: tab-separated, '#' lines are comments, the first other
// line is the header. "-" is kept as written (the tables use it for "none").
function parseTable(text) {
  let header = null;
  const rows = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const cols = line.split('\t');
    if (!header) { header = cols; continue; }
    rows.push(Object.fromEntries(header.map((h, i) => [h, cols[i] ?? ''])));
  }
  return rows;
}

// readTable(name, root) -> rows of compose/<name>.tsv; throws naming the file when it is missing.
function readTable(name, root = DEFAULT_ROOT) {
  const file = path.join(root, 'compose', `${name}.tsv`);
  return parseTable(fs.readFileSync(file, 'utf8'));
}

// engines(root) -> rows of the engines table, with fault_methods as an array, the yes/no
// columns (YES_NO) as booleans, oplog_mb and mem_beyond_cache_mb as numbers, and "-" as null in
// hold_fcv and platform.
const YES_NO = ['keeps_data', 'journal', 'majority_reads', 'retryable_writes', 'nojournal', 'preallocates'];
function engines(root) {
  const nul = (v) => (v === '-' || v === '' || v === undefined ? null : v);
  return readTable('engines', root).map((r) => ({
    ...r,
    ...Object.fromEntries(YES_NO.map((c) => [c, r[c] === 'yes'])),
    hold_fcv: nul(r.hold_fcv),
    platform: nul(r.platform),
    oplog_mb: Number(r.oplog_mb),
    oplog_share: nul(r.oplog_share) === null ? null : Number(r.oplog_share),
    mem_beyond_cache_mb: Number(r.mem_beyond_cache_mb),
    fault_methods: r.fault_methods ? r.fault_methods.split(',').filter(Boolean) : [],
  }));
}

// oplogMbFor(row, profileRow) -> { oplog_mb, store_mb, share }: the shard members' --oplogSize
// (lib/stack.sh stack_oplog_mb, the same rule). An engine whose oplog lives in its cache flag's
// store (oplog_share: inMemory) gets that share of the profile's data_cache_gb (store_mb), in whole
// MB, at least 1; any other gets oplog_mb, and store_mb and share are null (its store is the disk).
function oplogMbFor(row, profileRow) {
  if (row.oplog_share == null || !profileRow) return { oplog_mb: row.oplog_mb, store_mb: null, share: null };
  const storeMb = Math.round(Number(profileRow.data_cache_gb) * 1024);
  const mb = Math.max(1, Math.floor(row.oplog_share * Number(profileRow.data_cache_gb) * 1024 + 0.5));
  return { oplog_mb: mb, store_mb: storeMb, share: mb / storeMb };
}

// engine(name, root) -> that engine's row, or null.
function engine(name, root) {
  return engines(root).find((e) => e.engine === name) || null;
}

// topology(root) -> rows of the topology table, ports as numbers, "-" as null.
function topology(root) {
  const nul = (v) => (v === '-' || v === '' ? null : v);
  return readTable('topology', root).map((r) => ({
    service: r.service,
    replica_set: nul(r.replica_set),
    role: r.role,
    port: Number(r.port),
    host_port: nul(r.host_port) === null ? null : Number(r.host_port),
    compose_profile: nul(r.compose_profile),
  }));
}

// members({role, replica_set}, root) -> topology rows that match every given field.
function members(filter = {}, root) {
  return topology(root).filter((m) => Object.entries(filter).every(([k, v]) => m[k] === v));
}

// shardSet(root) -> { name, hosts: ['shard01-a:27017', ...] } of the one data-bearing set.
function shardSet(root) {
  const rows = members({ role: 'shard' }, root);
  const sets = [...new Set(rows.map((m) => m.replica_set))];
  if (sets.length !== 1) throw new Error(`compose/topology.tsv: expected one shard replica set, found ${sets.length}`);
  return { name: sets[0], hosts: rows.map((m) => `${m.service}:${m.port}`) };
}

module.exports = { parseTable, readTable, engines, engine, topology, members, shardSet, oplogMbFor };
