'use strict';
// common/tables.js reads the real tables of this repository (compose/*.tsv), and agrees with
// lib/tables.sh, the bash reader of the same files.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const tables = require('../../common/tables');

const ROOT = path.resolve(__dirname, '..', '..');

function bashField(table, key, col) {
  const r = spawnSync('bash', ['-c', `source lib/tables.sh; table_field compose/${table}.tsv "$1" "$2"`, '_', key, col],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LAB_ROOT: ROOT } });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

test('parseTable skips comments, keys rows by the header, keeps "-"', () => {
  const rows = tables.parseTable('# c\na\tb\n# x\n1\t-\n2\t3\n');
  assert.deepEqual(rows, [{ a: '1', b: '-' }, { a: '2', b: '3' }]);
});

test('every engine row and column reads the same in Node and in bash', () => {
  const engines = tables.readTable('engines');
  assert.ok(engines.length >= 2, `only ${engines.length} engines read`);
  let cells = 0;
  for (const row of engines) {
    for (const [col, value] of Object.entries(row)) {
      assert.equal(bashField('engines', row.engine, col), value, `${row.engine}.${col}`);
      cells++;
    }
  }
  assert.ok(cells >= 20, `only ${cells} cells compared`);
});

test('engines: capabilities typed (journal, keeps_data, majority_reads booleans; fault_methods a list)', () => {
  for (const e of tables.engines()) {
    assert.equal(typeof e.journal, 'boolean', e.engine);
    assert.equal(typeof e.keeps_data, 'boolean', e.engine);
    assert.equal(typeof e.majority_reads, 'boolean', e.engine);
    assert.ok(Array.isArray(e.fault_methods) && e.fault_methods.length > 0, e.engine);
  }
  assert.equal(tables.engine('no-such-engine'), null);
});

// The columns the loader and init read per server line, typed by the reader; one
// oplog size for every engine (compose.test.js: rendered as each member's --oplogSize).
test('engines: server-line capabilities typed (retryable_writes, hold_fcv, nojournal, oplog_mb, preallocates, mem_beyond_cache_mb)', () => {
  const rows = tables.engines();
  for (const e of rows) {
    for (const col of ['retryable_writes', 'nojournal', 'preallocates']) assert.equal(typeof e[col], 'boolean', `${e.engine}.${col}`);
    assert.ok(e.hold_fcv === null || /^\d+\.\d+$/.test(e.hold_fcv), `${e.engine}.hold_fcv ${e.hold_fcv}`);
    assert.ok(Number.isInteger(e.oplog_mb) && e.oplog_mb > 0, `${e.engine}.oplog_mb`);
    assert.ok(Number.isInteger(e.mem_beyond_cache_mb) && e.mem_beyond_cache_mb >= 0, `${e.engine}.mem_beyond_cache_mb`);
  }
  assert.equal(new Set(rows.map((e) => e.oplog_mb)).size, 1, 'every engine gets the same --oplogSize');
});

test('topology: config and shard sets of three, routers with published ports; same as bash', () => {
  const topo = tables.topology();
  const sets = {};
  for (const m of topo.filter((x) => x.role !== 'router')) (sets[m.replica_set] ||= []).push(m.service);
  assert.deepEqual(Object.values(sets).map((s) => s.length), [3, 3]);
  const routers = tables.members({ role: 'router' });
  assert.ok(routers.length >= 1 && routers.every((r) => Number.isInteger(r.host_port)));
  for (const m of topo) assert.equal(bashField('topology', m.service, 'role'), m.role, m.service);
  const shard = tables.shardSet();
  assert.equal(shard.hosts.length, 3);
  assert.ok(shard.hosts.every((h) => /:\d+$/.test(h)));
});

function bash(script) {
  const r = spawnSync('bash', ['-c', `source lib/common.sh; source lib/tables.sh; ${script}`],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LAB_ROOT: ROOT } });
  return r;
}
const lines = (r) => r.stdout.split('\n').filter(Boolean);

test('bash topology readers (services by role, sets, members, routers) agree with Node', () => {
  for (const role of ['config', 'shard', 'router']) {
    assert.deepEqual(lines(bash(`topology_services ${role}`)), tables.members({ role }).map((m) => m.service), role);
  }
  const shard = tables.shardSet();
  assert.deepEqual(lines(bash('topology_sets shard')), [shard.name]);
  assert.deepEqual(lines(bash(`topology_set_members ${shard.name}`)).map((s) => `${s}:${bashField('topology', s, 'port')}`), shard.hosts);
  const routers = tables.members({ role: 'router' });
  for (let n = 1; n <= routers.length; n++) {
    assert.deepEqual(lines(bash(`topology_routers ${n}`)),
      routers.slice(0, n).map((r) => [r.service, r.host_port, r.compose_profile || '-'].join('\t')), `--mongos ${n}`);
  }
});

test('bash engine capability readers (engine_is, engine_has_fault_method) agree with Node', () => {
  let checked = 0;
  for (const e of tables.engines()) {
    for (const col of ['journal', 'keeps_data', 'majority_reads']) {
      assert.equal(bash(`engine_is ${e.engine} ${col}`).status === 0, e[col], `${e.engine}.${col}`);
      checked++;
    }
    for (const m of ['fsync', 'failpoint', 'netem', 'net', 'sync']) {
      assert.equal(bash(`engine_has_fault_method ${e.engine} ${m}`).status === 0, e.fault_methods.includes(m), `${e.engine} ${m}`);
      checked++;
    }
  }
  assert.ok(checked >= 14, `only ${checked} checked`);
});

// The driver line a row names is the one the loader picks from the hello of the row's server line
// (src/server/driver-line.js lineForWire over the wire version support/server-lines.js cites for it), and
// that line accepts the row's server line.
test('engines: driver_line is the line the loader picks for the wire version of the row\'s server line', () => {
  const { lineForWire, line } = require('../src/server/driver-line');
  const { linesOf } = require('./support/server-lines');
  const engines = tables.engines();
  assert.ok(engines.some((e) => e.driver_line !== 'mongodb'), 'an engine on an older driver line');
  for (const e of engines) {
    for (const [name, { wire }] of linesOf(e)) {
      const picked = lineForWire(wire);
      assert.ok(picked, `${e.engine}: no driver line accepts wire ${wire} (${name})`);
      assert.equal(e.driver_line, picked.name, `${e.engine}: engines.tsv driver_line vs the loader's choice for ${name} (wire ${wire})`);
    }
    const l = line(e.driver_line);
    assert.ok(Number(l.minServer) <= Number(e.server_line), `${e.engine}: ${l.name} needs MongoDB ${l.minServer}+, the row is ${e.server_line}`);
  }
});

// Each engine row against the server line the tests' wire shim plays for it (support/server-lines.js
// LINES: every figure there cited from the server's source). A row is the line whose storage
// engine and release match; its journal, held featureCompatibilityVersion and retryable writes
// must be that line's, and its image's tag its release line. A wrong value in any of those
// columns of any row fails here. A server line the shim does not play fails too: add it there,
// with its source.
test('engines: each row is the server line the wire shim plays (server_line, image tag, server_engine, journal, keeps_data, hold_fcv, retryable_writes, nojournal, preallocates, majority_reads, mem_beyond_cache_mb, journal_dir)', () => {
  const { linesOf, JOURNAL_DIRS } = require('./support/server-lines');
  const rows = tables.readTable('engines');
  for (const e of rows) {
    const lines = linesOf(e);
    assert.ok(lines.length, `${e.engine}: no line in support/server-lines.js plays ${e.server_engine} on MongoDB ${e.server_line}`);
    assert.equal(e.image.split(':').pop().split('-')[0], e.server_line, `${e.engine}: image ${e.image} vs server_line ${e.server_line}`);
    for (const [name, l] of lines) {
      assert.equal(e.journal === 'yes', l.journal, `${e.engine}.journal vs ${name}`);
      // an engine that keeps no data on disk reports persistent: false (serverStatus.storageEngine)
      assert.equal(e.keeps_data === 'yes', l.storageEngine.persistent, `${e.engine}.keeps_data vs ${name} (persistent ${l.storageEngine.persistent})`);
      // The line's featureCompatibilityVersion is held below its release only where init holds it.
      assert.equal(e.hold_fcv, l.fcv === e.server_line ? '-' : l.fcv, `${e.engine}.hold_fcv vs ${name} (fcv ${l.fcv})`);
      const refused = l.behaviours.some((b) => b.startsWith('retryable-writes-refused'));
      assert.equal(e.retryable_writes, refused ? 'no' : 'yes', `${e.engine}.retryable_writes vs ${name}`);
      // --nojournal: the shim plays its getCmdLineOpts only on a line that accepts it
      assert.equal(e.nojournal === 'yes', l.behaviours.includes('cmdline-journal'), `${e.engine}.nojournal vs ${name}`);
      // zero-filled files: MMAPv1's alone (DEVELOPERS.md preallocates: manual v4.0 preallocDataFiles)
      assert.equal(e.preallocates === 'yes', l.storageEngine.name === 'mmapv1', `${e.engine}.preallocates vs ${name}`);
      // majority reads served reliably: committed snapshots (supportsCommittedReads), and not
      // MongoRocks on 3.6, which Percona calls unreliable (DEVELOPERS.md majority_reads cites it)
      assert.equal(e.majority_reads === 'yes', l.storageEngine.supportsCommittedReads && l.storageEngine.name !== 'rocksdb', `${e.engine}.majority_reads vs ${name}`);
      // memory outside the cache flag: MongoRocks' 4 x 64 MB memtables, nothing for the others
      assert.equal(Number(e.mem_beyond_cache_mb), l.storageEngine.name === 'rocksdb' ? 256 : 0, `${e.engine}.mem_beyond_cache_mb`);
      // the journal's directory under --dbpath, none without a journal
      assert.equal(e.journal_dir, l.journal ? JOURNAL_DIRS[l.storageEngine.name] : '-', `${e.engine}.journal_dir vs ${name}`);
    }
  }
});

// Each row against its image's own build (support/server-lines.js IMAGES, cited there): mongod's
// uid (a wrong one leaves the keyfile copy unreadable: the cluster never starts), the platform
// (the one platform the tag is published for, or - when it has several), and the vendor the
// usage text names.
test('engines: mongod_uid and platform are the image\'s, by its Dockerfile and published platforms', () => {
  const { IMAGES } = require('./support/server-lines');
  for (const e of tables.readTable('engines')) {
    const img = IMAGES[e.image];
    assert.ok(img, `${e.engine}: image ${e.image} is not in support/server-lines.js IMAGES: add it with its sources`);
    assert.equal(e.mongod_uid, img.uid, `${e.engine}.mongod_uid for ${e.image}`);
    assert.equal(e.platform, img.platforms.length === 1 ? img.platforms[0] : '-', `${e.engine}.platform: ${e.image} is published for ${img.platforms.join(', ')}`);
  }
});

// The usage text (./run.sh help) says which server a row runs: its storage engine (the server's
// own name for it, serverStatus storageEngine.name), its vendor (only Percona's images say
// Percona) and its release line, as "<vendor> <server_line>".
test('engines: description names the row\'s storage engine, vendor and server line', () => {
  const { IMAGES } = require('./support/server-lines');
  for (const e of tables.readTable('engines')) {
    const { vendor } = IMAGES[e.image];
    const d = e.description;
    assert.match(d, new RegExp(`\\b${e.server_engine}\\b`, 'i'), `${e.engine}.description names ${e.server_engine}`);
    assert.ok(d.includes(`${vendor} ${e.server_line}`), `${e.engine}.description names "${vendor} ${e.server_line}": ${d}`);
    assert.equal(/Percona/.test(d), vendor.includes('Percona'), `${e.engine}.description says Percona only for Percona's image: ${d}`);
  }
});

// fault_methods: the methods replica-lag knows, less those the row's server line lacks
// (support/server-lines.js LINES lacks, cited there).
test('engines: fault_methods are replica-lag\'s methods less what the row\'s server line lacks', () => {
  const { methods } = require('../src/faults/scenarios/replica-lag');
  const { linesOf } = require('./support/server-lines');
  assert.ok(methods.length >= 3, 'replica-lag exports its methods');
  for (const e of tables.engines()) {
    for (const [name, l] of linesOf(e)) {
      assert.deepEqual([...e.fault_methods].sort(), methods.filter((m) => !(l.lacks || []).includes(m)).sort(), `${e.engine}.fault_methods vs ${name}`);
    }
  }
});

// DEVELOPERS.md "Adding an engine" describes the table as it is: one entry per column of the
// header, none for a column that is gone.
test('engines: DEVELOPERS.md lists exactly the columns of the header', () => {
  const text = fs.readFileSync(path.join(ROOT, 'DEVELOPERS.md'), 'utf8');
  const recipe = text.slice(text.indexOf('## Adding an engine'), text.indexOf('\n2. Copy `compose/engines/'));
  const listed = recipe.split('\n').filter((l) => /^ {3}- `/.test(l)).flatMap((l) => l.split(':')[0].match(/`\w+`/g).map((c) => c.slice(1, -1)));
  const header = Object.keys(tables.readTable('engines')[0]);
  assert.deepEqual([...listed].sort(), [...header].sort(), 'DEVELOPERS.md "Adding an engine" columns vs compose/engines.tsv header');
  assert.equal(new Set(listed).size, listed.length, 'each column described once');
});
