'use strict';
// init.js's feature-compatibility step: `up --engine rocksdb` must hold the
// cluster at the featureCompatibilityVersion MongoRocks supports (3.4) before addShard, because 3.6's
// addShard sends the config servers' version to the new shard and fails with the shard's error.
//   1. The whole init.js runs in a stand-in of the legacy mongo shell (as init-scripts.test.js runs
//      lab.js) against a model of a fresh 3.6 cluster that answers as the sources say (lab.js
//      LAB.holdFcv cites them): config servers start at 3.6; mongos forwards
//      setFeatureCompatibilityVersion to the config servers; addShard sends their version to the
//      shard; MongoRocks refuses 3.6 with the message of the shim's table
//      (loader/test/support/server-lines.js fcv-upgrade-refused-rocksdb).
//   2. lab.js's commands and reply parsing through the real 3.6 driver line against the wire shim's
//      psmdb-3.6-rocksdb-replset line: loader/test/init-fcv-line.test.js (the loader's test server).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const DIR = path.resolve(__dirname, '..', 'init');
const { BEHAVIOURS } = require('../../loader/test/support/server-lines');
const REFUSED = BEHAVIOURS['fcv-upgrade-refused-rocksdb'].answer.refuse;

// cluster(shardEngine, opts) -> a model of a freshly started 3.6 sharded cluster, by host.
function cluster(shardEngine, { mongosRefusesFcv = null, cfgIgnoresFcv = false } = {}) {
  const sets = { cfgrs: ['cfg1', 'cfg2', 'cfg3'], shard01: ['shard01-a', 'shard01-b', 'shard01-c'] };
  const st = {
    initiated: { cfgrs: false, shard01: false },
    fcv: { cfgrs: '3.6', shard01: '3.4' }, // a fresh 3.6 shard server is at 3.4 until addShard
    shards: [],
    log: [],
  };
  const setOf = (host) => Object.keys(sets).find((s) => sets[s].includes(host));
  // The shard's answer to setFeatureCompatibilityVersion (what addShard and mongos send it).
  const shardSetFcv = (v) => {
    if (shardEngine === 'rocksdb' && v === '3.6') return { ok: 0, ...REFUSED };
    st.fcv.shard01 = v;
    return { ok: 1 };
  };
  function member(host, cmd) {
    const set = setOf(host);
    const name = Object.keys(cmd)[0];
    switch (name) {
      case 'replSetGetStatus': return st.initiated[set] ? { ok: 1, set } : { ok: 0, code: 94, codeName: 'NotYetInitialized', errmsg: 'no replset config has been received' };
      case 'replSetInitiate': st.initiated[set] = true; return { ok: 1 };
      case 'hello': return { ok: 0, code: 59, codeName: 'CommandNotFound', errmsg: "no such command: 'hello'" };
      case 'isMaster': return { ok: 1, ismaster: st.initiated[set] && sets[set][0] === host, me: `${host}:27017` };
      case 'serverStatus': return { ok: 1, storageEngine: { name: set === 'cfgrs' ? 'wiredTiger' : shardEngine, persistent: true } };
      case 'getParameter': return { ok: 1, featureCompatibilityVersion: { version: st.fcv[set] } };
      case 'usersInfo': return { ok: 1, users: [] };
      case 'createUser': case 'ping': return { ok: 1 };
      default: return { ok: 0, code: 59, errmsg: `no such command: '${name}'` };
    }
  }
  function mongos(cmd) {
    const name = Object.keys(cmd)[0];
    switch (name) {
      case 'listShards': return { ok: 1, shards: st.shards.map((s) => ({ _id: s })) };
      case 'usersInfo': return { ok: 1, users: [] };
      case 'createUser': case 'ping': return { ok: 1 };
      case 'setFeatureCompatibilityVersion': {
        if (mongosRefusesFcv) return { ok: 0, ...mongosRefusesFcv };
        // to the config primary: every added shard first, then itself
        for (const s of st.shards) { const r = shardSetFcv(cmd[name]); if (r.ok !== 1) return r; void s; }
        if (!cfgIgnoresFcv) st.fcv.cfgrs = cmd[name];
        return { ok: 1 };
      }
      case 'addShard': {
        const r = shardSetFcv(st.fcv.cfgrs); // addShard: setFeatureCompatibilityVersion <config's version>
        if (r.ok !== 1) return r;
        st.shards.push(cmd.name);
        return { ok: 1, shardAdded: cmd.name };
      }
      default: return { ok: 0, code: 59, errmsg: `no such command: '${name}'` };
    }
  }
  const answer = (where, cmd) => {
    const host = where.split(':')[0];
    st.log.push({ host, cmd: Object.keys(cmd)[0], arg: cmd[Object.keys(cmd)[0]] });
    return host === 'mongos' ? mongos(cmd) : member(host, cmd);
  };
  return { st, answer };
}

// runInit(model) -> { code, out }: init.js in a legacy-shell stand-in (no require(), cat(), Mongo
// by "host:port", runCommand answered by the model), with a clock that sleep() advances.
function runInit(model) {
  const files = {
    '/etc/lab-keyfile/keyfile': 'abc\n', '/run/lab-secrets/root-password': 'pw\n', '/run/lab-secrets/exporter-password': 'ex\n',
  };
  const out = [];
  let clock = 1e12;
  class Mongo {
    constructor(where) { this.where = where; }
    getDB() { return { auth: () => 1, runCommand: (cmd) => model.answer(this.where, cmd) }; }
  }
  const QUIT = Symbol('quit');
  const ctx = {
    Mongo, print: (...a) => out.push(a.join(' ')), sleep: (ms) => { clock += ms; },
    cat: (p) => { assert.ok(p in files, `cat ${p}`); return files[p]; },
    Date: { now: () => clock },
    quit: (code) => { throw { [QUIT]: true, code }; },
  };
  ctx.load = (p) => {
    assert.equal(p, '/lab/init/lab.js');
    vm.runInContext(fs.readFileSync(path.join(DIR, 'lab.js'), 'utf8'), ctx, { filename: 'lab.js' });
  };
  vm.createContext(ctx);
  let code = 0;
  try {
    vm.runInContext(fs.readFileSync(path.join(DIR, 'init.js'), 'utf8'), ctx, { filename: 'init.js' });
  } catch (e) {
    if (!e || !e[QUIT]) throw e;
    code = e.code;
  }
  return { code, out };
}

test('rocksdb: init holds the config servers at 3.4 through mongos before addShard, and the shard is added at 3.4', () => {
  const model = cluster('rocksdb');
  const { code, out } = runInit(model);
  assert.equal(code, 0, out.join('\n'));
  assert.equal(out.at(-1), 'init: done');
  const order = model.st.log.filter((l) => l.host === 'mongos' && /^(setFeatureCompatibilityVersion|addShard)$/.test(l.cmd));
  assert.deepEqual(order.map((l) => [l.cmd, l.cmd === 'addShard' ? l.arg : l.arg]),
    [['setFeatureCompatibilityVersion', '3.4'], ['addShard', 'shard01/shard01-a:27017,shard01-b:27017,shard01-c:27017']]);
  assert.deepEqual(model.st.shards, ['shard01']);
  assert.deepEqual(model.st.fcv, { cfgrs: '3.4', shard01: '3.4' });
  assert.ok(out.includes('init: cfgrs: featureCompatibilityVersion 3.4 (shard storage engine rocksdb)'), out.join('\n'));
  assert.ok(out.includes('init: shard01: featureCompatibilityVersion 3.4'), out.join('\n'));
});

test('an engine with no version to hold (WiredTiger on 3.6) is added at the config servers\' 3.6, no FCV command sent', () => {
  const model = cluster('wiredTiger');
  const { code, out } = runInit(model);
  assert.equal(code, 0, out.join('\n'));
  assert.equal(model.st.log.filter((l) => l.cmd === 'setFeatureCompatibilityVersion' && l.host === 'mongos').length, 0);
  assert.deepEqual(model.st.fcv, { cfgrs: '3.6', shard01: '3.6' });
});

test('a version that does not take stops init with one line naming the member and the server\'s error', () => {
  const refusal = { code: 13, codeName: 'Unauthorized', errmsg: 'not authorized on admin to execute command' };
  let { code, out } = runInit(cluster('rocksdb', { mongosRefusesFcv: refusal }));
  assert.equal(code, 1);
  assert.equal(out.filter((l) => l.startsWith('init: FAILED')).length, 1);
  assert.equal(out.at(-1), `init: FAILED: featureCompatibilityVersion 3.4 refused by mongos:27017: ${refusal.errmsg}`);
  const model = cluster('rocksdb', { cfgIgnoresFcv: true });
  ({ code, out } = runInit(model));
  assert.equal(code, 1);
  assert.equal(out.at(-1), 'init: FAILED: featureCompatibilityVersion 3.4 did not take on cfg1:27017: it reports 3.6');
  assert.deepEqual(model.st.shards, [], 'no addShard after a version that did not take');
});

test('lab.js LAB.holdFcv is compose/engines.tsv hold_fcv, by the engine the shard reports', () => {
  const lab = vm.createContext({});
  vm.runInContext(fs.readFileSync(path.join(DIR, 'lab.js'), 'utf8'), lab);
  const rows = require('../../common/tables').engines();
  const want = Object.fromEntries(rows.filter((r) => r.hold_fcv).map((r) => [r.server_engine, r.hold_fcv]));
  assert.ok(Object.keys(want).length >= 1, 'some row holds a version');
  assert.deepEqual(JSON.parse(JSON.stringify(lab.LAB.holdFcv)), want);
});
