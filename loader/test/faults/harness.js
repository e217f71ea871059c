'use strict';
// Test harness for scenario modules: runScenario with a recording docker peer (what bash would be
// asked, answered like lib/fault-bridge.sh), a Members stand-in answering replSetGetStatus from a
// script of documents shaped like mongod 8.0's, a temp results root and an EventEmitter for signals.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { EventEmitter } = require('node:events');
const test = require('node:test');
const { MongoClient } = require('mongodb');
const { startServer } = require('../support/server');
const { runScenario } = require('../../src/faults/runner');
const tables = require('../../../common/tables');

const at = (s) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
const mem = (name, stateStr, sec = 10, extra = {}) => ({ name: `${name}:27017`, stateStr, state: { PRIMARY: 1, SECONDARY: 2, RECOVERING: 3 }[stateStr] ?? 0, health: 1, optimeDate: at(sec), ...extra });
// down(name): a member as replSetGetStatus lists one it cannot reach.
const down = (name) => mem(name, '(not reachable/healthy)', 0, { health: 0 });

// mongosClient(): a mongo-java-server standing in for mongos, and one client on it, for a whole test
// file (started in test.before, closed in test.after); returns the getter scenarios take as mongos.
function mongosClient() {
  let server;
  let client;
  test.before(async () => {
    server = await startServer();
    client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 3000 });
  });
  test.after(async () => { await client.close(); await server.stop(); });
  return () => client;
}

// scriptedMembers(statuses, {hosts}) -> Members stand-in; status() walks the list (the last repeats)
function scriptedMembers(statuses, hosts = tables.shardSet().hosts) {
  let i = 0;
  return {
    hosts,
    resolve: (n) => hosts.find((h) => h === n || h.split(':')[0] === n),
    status: async () => ({ from: hosts[0].split(':')[0], status: statuses[Math.min(i++, statuses.length - 1)] }),
    windows: async () => [],
    window: async () => ({}),
    admin: async () => ({}),
    close: async () => {},
  };
}

// runWith(scenario, params, {statuses, fail: {op: rc}, hang: [op], engine, extra, bounds, withSignals}) ->
// {code, asked, lines, summary, dir}; an op in hang is asked and never answered (bash busy or
// stuck); bounds: runScenario's, shortened
async function runWith(scenario, params, { statuses = [], fail = {}, hang = [], engine = 'wiredtiger', extra = {}, dryRun = false, onAsk = () => {}, signalAfterMs = null, bounds = {}, withSignals = () => {} } = {}) {
  const asked = [];
  const lines = [];
  const signals = new EventEmitter();
  const docker = {
    async ask(op, args, { allowFail = false } = {}) {
      asked.push([op, ...Object.values(args)].join(' '));
      onAsk(op, signals);
      if (hang.includes(op)) return new Promise(() => {});
      const rc = fail[op] ?? 0;
      if (rc && !allowFail) throw new Error(`docker action '${op}' failed (exit ${rc})`);
      return { rc, output: extra.outputs && extra.outputs[op] ? extra.outputs[op] : '' };
    },
  };
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-scenario-'));
  const env = { engine: tables.engine(engine), shard: tables.shardSet(), mongos: 'mongos:27017' };
  const members = scriptedMembers(statuses);
  if (signalAfterMs !== null) setTimeout(() => signals.emit('SIGTERM', 'SIGTERM'), signalAfterMs);
  withSignals(signals); // a test that sends its signal at a point of the run, not after a time
  const r = await runScenario(scenario, {
    params, env, docker, say: (l) => lines.push(l), dryRun, resultsRoot: root, signals, bounds,
    makeContext: async () => ({ members, ...(extra.context || {}) }),
  });
  let summary = null;
  if (r.dir) summary = JSON.parse(fs.readFileSync(path.join(r.dir, 'summary.json'), 'utf8'));
  return { ...r, asked, lines, summary, root };
}

module.exports = { runWith, scriptedMembers, mem, down, at, mongosClient };
