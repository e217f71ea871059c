'use strict';
// The mongosh scripts the containers run (compose/init/*.js): syntax, and the pure functions of
// lab.js evaluated in a bare node:vm context. init-mongosh.test.js runs the scripts under the real
// mongosh against a real server (FerretDB); what needs a replica set and a mongos (initiate,
// users, addShard) is exercised by ./run.sh smoke on a Docker host.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const DIR = path.resolve(__dirname, '..', 'init');
const lab = vm.createContext({});
vm.runInContext(fs.readFileSync(path.join(DIR, 'lab.js'), 'utf8'), lab, { filename: 'lab.js' });

test('every script in compose/init parses', () => {
  const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.js'));
  assert.deepEqual(files.sort(), ['init.js', 'lab.js', 'shell.js', 'smoke.js', 'status.js']);
  for (const f of files) {
    const r = spawnSync(process.execPath, ['--check', path.join(DIR, f)], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${f}: ${r.stderr}`);
  }
});

test('scripts load their helpers from the read-only mount and never take a password argument', () => {
  for (const f of ['init.js', 'status.js', 'shell.js', 'smoke.js']) {
    const src = fs.readFileSync(path.join(DIR, f), 'utf8');
    assert.match(src, /load\('\/lab\/init\/lab\.js'\)/, f);
    assert.doesNotMatch(src, /process\.env|process\.argv/, `${f}: secrets come from files only`);
  }
});

test('replica-set configs use host names and the topology of compose/cluster.yml', () => {
  const cfg = JSON.parse(JSON.stringify(lab.rsConfig('cfgrs', lab.LAB.cfgrs.hosts, { configsvr: true })));
  assert.deepEqual(cfg, {
    _id: 'cfgrs',
    members: [{ _id: 0, host: 'cfg1:27017' }, { _id: 1, host: 'cfg2:27017' }, { _id: 2, host: 'cfg3:27017' }],
    configsvr: true,
  });
  const yml = fs.readFileSync(path.join(DIR, '..', 'cluster.yml'), 'utf8');
  for (const h of [...lab.LAB.cfgrs.hosts, ...lab.LAB.shard.hosts, lab.LAB.mongos]) {
    assert.match(yml, new RegExp(`^  ${h}:$`, 'm'), `service ${h} exists in compose/cluster.yml`);
  }
  assert.match(yml, /--replSet cfgrs /);
  assert.match(yml, /--replSet shard01 /);
});

// The mongosh scripts cannot read compose/topology.tsv (only compose/init is mounted), so lab.js
// holds the topology as constants and this test proves they are the table's.
test('lab.js topology is compose/topology.tsv: sets, members, first router, port', () => {
  const tables = require('../../common/tables');
  const topo = tables.topology();
  const set = (role) => {
    const rows = topo.filter((m) => m.role === role);
    return { name: rows[0].replica_set, hosts: rows.map((m) => m.service) };
  };
  const LAB = JSON.parse(JSON.stringify(lab.LAB));
  assert.deepEqual(LAB.cfgrs, set('config'));
  assert.deepEqual(LAB.shard, set('shard'));
  assert.equal(LAB.mongos, topo.find((m) => m.role === 'router').service);
  for (const m of topo) assert.equal(m.port, LAB.port, `${m.service} listens on LAB.port`);
  assert.equal(lab.shardConnString(lab.LAB.shard), `${tables.shardSet().name}/${tables.shardSet().hosts.join(',')}`);
});

test('a non-persistent shard (inMemory) gets writeConcernMajorityJournalDefault false', () => {
  const persistent = lab.rsConfig('shard01', lab.LAB.shard.hosts, { persistent: true });
  assert.equal(persistent.writeConcernMajorityJournalDefault, undefined);
  assert.equal(persistent.configsvr, undefined);
  const inMemory = lab.rsConfig('shard01', lab.LAB.shard.hosts, { persistent: false });
  assert.equal(inMemory.writeConcernMajorityJournalDefault, false);
});

test('addShard string, keyfile text, role comparison, URIs', () => {
  assert.equal(lab.shardConnString(lab.LAB.shard), 'shard01/shard01-a:27017,shard01-b:27017,shard01-c:27017');
  assert.equal(lab.keyFromFileText('abc+/\nDEF 12\r\n'), 'abc+/DEF12');
  const roles = lab.LAB.users.exporter.roles;
  assert.ok(lab.sameRoles(roles, [...roles].reverse()));
  assert.ok(!lab.sameRoles(roles, [{ role: 'clusterMonitor', db: 'admin' }]));
  assert.deepEqual(JSON.parse(JSON.stringify(roles)), [{ role: 'clusterMonitor', db: 'admin' }, { role: 'read', db: 'local' }]);
  assert.equal(lab.uri('cfg1'), 'mongodb://cfg1:27017/?serverSelectionTimeoutMS=3000&connectTimeoutMS=3000&directConnection=true');
  assert.equal(lab.uri(['cfg1', 'cfg2'], { user: '__system', password: 'a+b/c', authSource: 'local', replicaSet: 'cfgrs' }),
    'mongodb://__system:a%2Bb%2Fc@cfg1:27017,cfg2:27017/?serverSelectionTimeoutMS=3000&connectTimeoutMS=3000&authSource=local&replicaSet=cfgrs');
});

// The legacy mongo shell (mongo:4.0, Percona 3.6: engines.tsv shell "mongo") is SpiderMonkey 45
// with the shell's own built-ins: no require(), no ES2017+ (padEnd, Object.values/entries, async,
// ?. ??, object spread, **). A static check of every script, then lab.js run in a stand-in of each
// shell: a context without require() and with cat() (legacy) and one with require() (mongosh).
test('the scripts use nothing the legacy mongo shell (SpiderMonkey 45) lacks', () => {
  const banned = [/\.pad(End|Start)\(/, /\?\./, /\?\?/, /Object\.(values|entries)\(/, /\basync\b/, /\bawait\b/, /\{\s*\.\.\./, /\*\*/];
  for (const f of fs.readdirSync(DIR).filter((x) => x.endsWith('.js'))) {
    const code = fs.readFileSync(path.join(DIR, f), 'utf8').split('\n').filter((l) => !/^\s*\/\//.test(l)).join('\n');
    for (const re of banned) assert.doesNotMatch(code, re, `${f}: ${re} is not in SpiderMonkey 45`);
    const requires = code.split('\n').filter((l) => /require\(/.test(l));
    assert.deepEqual(requires.map((l) => l.trim()), f === 'lab.js'
      ? ["return legacyShell() ? cat(path) : require('fs').readFileSync(path, 'utf8');"] : [], `${f}: require() only behind legacyShell()`);
    if (f !== 'lab.js') assert.doesNotMatch(code, /new Mongo\(/, `${f}: connections through openConnection() (lab.js)`);
  }
});

// shellStandIn(kind) -> a vm context running lab.js as that shell would, with a Mongo that records
// how it was opened and authenticated, and files served from `files`.
function shellStandIn(kind, files, authResult = 1) {
  const opened = [];
  class Mongo {
    constructor(where) { this.where = where; this.auths = []; opened.push(this); }
    getDB(name) { return { auth: (a) => { this.auths.push({ db: name, ...a }); return authResult; } }; }
  }
  const ctx = { Mongo, print() {}, sleep() {} };
  if (kind === 'legacy') ctx.cat = (p) => { assert.ok(p in files, `cat ${p}`); return files[p]; };
  else ctx.require = (m) => ({ readFileSync: (p) => { assert.equal(m, 'fs'); assert.ok(p in files, `read ${p}`); return files[p]; } });
  vm.createContext(ctx);
  vm.runInContext(fs.readFileSync(path.join(DIR, 'lab.js'), 'utf8'), ctx, { filename: 'lab.js' });
  return { ctx, opened };
}
const FILES = { '/etc/lab-keyfile/keyfile': 'abc+/\nDEF 12\n', '/run/lab-secrets/root-password': 'pw+/x\n' };

test('legacy shell: "set/host:port" connections, then SCRAM-SHA-1 auth (keyfile as __system, root from its file)', () => {
  const { ctx, opened } = shellStandIn('legacy', FILES);
  assert.equal(ctx.legacyShell(), true);
  ctx.connectSystem(ctx.LAB.cfgrs.hosts, { replicaSet: ctx.LAB.cfgrs.name });
  ctx.connectRoot(ctx.LAB.mongos);
  assert.deepEqual(opened.map((m) => m.where), ['cfgrs/cfg1:27017,cfg2:27017,cfg3:27017', 'mongos:27017']);
  assert.deepEqual(opened[0].auths, [{ db: 'local', user: '__system', pwd: 'abc+/DEF12', mechanism: 'SCRAM-SHA-1' }]);
  assert.deepEqual(opened[1].auths, [{ db: 'admin', user: 'root', pwd: 'pw+/x', mechanism: 'SCRAM-SHA-1' }]);
  assert.equal(typeof opened[0].close, 'function', 'close() exists for the scripts\' finally blocks');
  assert.equal(ctx.readSecret('root-password'), 'pw+/x');
  const refused = shellStandIn('legacy', FILES, 0);
  assert.throws(() => refused.ctx.connectRoot('mongos'), /authentication failed for root@admin/);
});

test('mongosh: the same helpers open URIs with the credentials in them, no auth() call', () => {
  const { ctx, opened } = shellStandIn('mongosh', FILES);
  assert.equal(ctx.legacyShell(), false);
  ctx.connectRoot(ctx.LAB.mongos);
  assert.equal(opened[0].where, 'mongodb://root:pw%2B%2Fx@mongos:27017/?serverSelectionTimeoutMS=3000&connectTimeoutMS=3000&authSource=admin&directConnection=true');
  assert.deepEqual(opened[0].auths, []);
});

test('hello(): isMaster on servers without hello (MongoDB < 4.4.2), pad() without padEnd', () => {
  const { ctx } = shellStandIn('legacy', FILES);
  const asked = [];
  const old = { runCommand: (c) => { asked.push(Object.keys(c)[0]); return c.hello ? { ok: 0, code: 59, errmsg: 'no such command: \'hello\'' } : { ok: 1, ismaster: true, me: 'shard01-a:27017' }; } };
  assert.deepEqual(JSON.parse(JSON.stringify(ctx.hello(old))).writablePrimary, true);
  assert.deepEqual(asked, ['hello', 'isMaster']);
  const current = { runCommand: () => ({ ok: 1, isWritablePrimary: false, me: 'shard01-b:27017' }) };
  assert.equal(ctx.hello(current).writablePrimary, false);
  assert.equal(ctx.pad('ab', 5), 'ab   ');
  assert.equal(ctx.pad('abcdef', 3), 'abcdef');
});
