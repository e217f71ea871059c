// Helpers shared by the shell scripts in this folder (init.js, status.js, shell.js, smoke.js).
// Loaded with load('/lab/init/lab.js') inside the lab's containers, where this folder is mounted
// read-only at /lab/init and the secrets at /run/lab-secrets (see compose/cluster.yml).
// Top-level declarations only: compose/test/init-scripts.test.js evaluates this file in a bare
// node:vm context to test the pure functions without a server.
//
// Two shells run these scripts, whichever the engine's image has (compose/engines.tsv, shell):
// mongosh (6.0+ images) and the legacy mongo shell of the 3.6 and 4.0 images (mongo:4.0,
// Percona 3.6), a SpiderMonkey 45 shell. So the scripts keep to what both have: ES5 and the ES2015
// SpiderMonkey 45 knows (no String.prototype.padEnd: pad() below), files read with cat() where
// there is no require('fs'), connections opened by openConnection() below, and isMaster where
// hello does not exist (MongoDB < 4.4.2). compose/test/init-scripts.test.js runs every script in
// a stand-in of each shell; compose/test/init-mongosh.test.js runs them under the real mongosh
// against a real server (see run() for what only mongosh shows); the legacy shell cannot be
// installed on the test machines.

// The topology, by host name (never IPs: see compose/cluster.yml).
var LAB = {
  port: 27017,
  cfgrs: { name: 'cfgrs', hosts: ['cfg1', 'cfg2', 'cfg3'] },
  shard: { name: 'shard01', hosts: ['shard01-a', 'shard01-b', 'shard01-c'] },
  mongos: 'mongos',
  keyfile: '/etc/lab-keyfile/keyfile',
  secrets: '/run/lab-secrets',
  users: {
    root: { roles: [{ role: 'root', db: 'admin' }], secret: 'root-password' },
    exporter: {
      roles: [{ role: 'clusterMonitor', db: 'admin' }, { role: 'read', db: 'local' }],
      secret: 'exporter-password',
    },
  },
};

function hostPort(host) { return host + ':' + LAB.port; }

// The featureCompatibilityVersion init holds the cluster at before addShard, by the storage engine
// the shard reports: compose/engines.tsv hold_fcv (this folder cannot read the table; the test
// init-scripts.test.js checks that this map is the table's). MongoRocks on Percona 3.6 refuses the
// upgrade to 3.6 ("storage engine does not support upgrading featureCompatibilityVersion to 3.6",
// docs.percona.com percona-server-for-mongodb/3.6/mongorocks.html), and addShard sends the config
// servers' FCV to the new shard and fails with the shard's error (mongodb/mongo
// src/mongo/db/s/config/sharding_catalog_manager_shard_operations.cpp, addShard: "The
// featureCompatibilityVersion should be the same throughout the cluster", then
// setFeatureCompatibilityVersion <the config server's version> to the shard). A fresh 3.6 config
// server starts at 3.6, so the config servers are set first, through mongos: mongos forwards
// setFeatureCompatibilityVersion to the config primary as _configsvrSetFeatureCompatibilityVersion
// (src/mongo/s/commands/cluster_set_feature_compatibility_version_cmd.cpp), which sets it on every
// shard already added (none yet) and then on itself
// (src/mongo/db/s/config/configsvr_set_feature_compatibility_version_command.cpp). Then addShard
// sends 3.4 to a shard already at 3.4.
LAB.holdFcv = { rocksdb: '3.4' };

// fcvOf(reply) -> the version in a getParameter featureCompatibilityVersion reply, or null: a
// document { version } from 3.6 on, a plain string on 3.4.
function fcvOf(reply) {
  if (!reply || reply.ok !== 1) return null;
  var v = reply.featureCompatibilityVersion;
  if (typeof v === 'string') return v;
  return v && typeof v.version === 'string' ? v.version : null;
}

// setFcv(db, where, version): setFeatureCompatibilityVersion, or one line naming where it was sent
// and the server's error.
function setFcv(db, where, version) {
  var r = run(db, { setFeatureCompatibilityVersion: version });
  if (r.ok !== 1) {
    throw new Error('featureCompatibilityVersion ' + version + ' refused by ' + where + ': ' +
      (r.errmsg || r.codeName || ('code ' + r.code)));
  }
}

// checkFcv(db, where, version): the member reports that featureCompatibilityVersion, or one line
// naming it, what it reports and, when it answered none, its error.
function checkFcv(db, where, version) {
  var r = run(db, { getParameter: 1, featureCompatibilityVersion: 1 });
  var got = fcvOf(r);
  if (got !== version) {
    throw new Error('featureCompatibilityVersion ' + version + ' did not take on ' + where + ': it reports ' +
      (got === null ? 'none (' + (r.errmsg || r.codeName || 'no featureCompatibilityVersion in the reply') + ')' : got));
  }
}

// replSetInitiate document. Shard members on an engine that does not journal (inMemory) need
// writeConcernMajorityJournalDefault false: with true, w:majority waits for a journal that never
// comes and majority writes hang (MongoDB docs, in-memory "Durability"; SERVER-31158).
function rsConfig(name, hosts, opts) {
  opts = opts || {};
  var cfg = {
    _id: name,
    members: hosts.map(function (h, i) { return { _id: i, host: hostPort(h) }; }),
  };
  if (opts.configsvr) cfg.configsvr = true;
  if (opts.persistent === false) cfg.writeConcernMajorityJournalDefault = false;
  return cfg;
}

// The shard's connection string for addShard: "<set>/<host:port>,...".
function shardConnString(rs) { return rs.name + '/' + rs.hosts.map(hostPort).join(','); }

// Roles compared without regard to order.
function sameRoles(a, b) {
  function key(r) { return r.db + '.' + r.role; }
  var x = (a || []).map(key).sort(), y = (b || []).map(key).sort();
  return x.length === y.length && x.every(function (k, i) { return k === y[i]; });
}

// Keyfile contents as mongod reads them: whitespace is not part of the key.
function keyFromFileText(text) { return String(text).replace(/\s+/g, ''); }

// legacyShell(): true in the legacy mongo shell, which has no require() (mongosh has Node's).
function legacyShell() { return typeof require !== 'function'; }

// readText(path): a file's text: Node's fs in mongosh, the shell's cat() in the legacy shell.
function readText(path) {
  return legacyShell() ? cat(path) : require('fs').readFileSync(path, 'utf8');
}

function readSecret(name) {
  return String(readText(LAB.secrets + '/' + name)).trim();
}

// pad(text, width): text padded with spaces to width (String.prototype.padEnd is ES2017).
function pad(text, width) {
  text = String(text);
  while (text.length < width) text += ' ';
  return text;
}

// legacyHosts(hosts, replicaSet): the legacy shell's connection string, "set/h:p,h:p" or "h:p".
function legacyHosts(hosts, replicaSet) {
  var list = [].concat(hosts).map(hostPort).join(',');
  return replicaSet ? replicaSet + '/' + list : list;
}

// openConnection(hosts, opts) -> a connection, authenticated when opts.user is given
// (opts: user, password, authSource, replicaSet, timeoutMS). mongosh takes the credentials in
// the URI; the legacy shell's Mongo() takes "host:port" or "set/hosts" and authenticates with
// auth() (SCRAM-SHA-1: both 3.6 and 4.0 accept it for users and for __system's keyfile).
function openConnection(hosts, opts) {
  opts = opts || {};
  if (!legacyShell()) return new Mongo(uri(hosts, opts));
  var m = new Mongo(legacyHosts(hosts, opts.replicaSet));
  if (typeof m.close !== 'function') m.close = function () {};
  if (opts.user) {
    var ok = m.getDB(opts.authSource || 'admin').auth({ user: opts.user, pwd: opts.password, mechanism: 'SCRAM-SHA-1' });
    if (!ok) throw new Error('authentication failed for ' + opts.user + '@' + (opts.authSource || 'admin'));
  }
  return m;
}

// hello(db) -> { writablePrimary, me, raw }: hello where it exists (4.4.2+), isMaster before.
function hello(db) {
  var h = run(db, { hello: 1 });
  if (h.ok !== 1) h = run(db, { isMaster: 1 });
  return { writablePrimary: Boolean(h.isWritablePrimary || h.ismaster), me: h.me, raw: h };
}

// mongodb:// URI for one server (directConnection) or a replica set.
function uri(hosts, opts) {
  opts = opts || {};
  var auth = opts.user
    ? encodeURIComponent(opts.user) + ':' + encodeURIComponent(opts.password) + '@'
    : '';
  var params = ['serverSelectionTimeoutMS=' + (opts.timeoutMS || 3000), 'connectTimeoutMS=3000'];
  if (opts.user) params.push('authSource=' + (opts.authSource || 'admin'));
  if (opts.replicaSet) params.push('replicaSet=' + opts.replicaSet);
  else params.push('directConnection=true');
  return 'mongodb://' + auth + [].concat(hosts).map(hostPort).join(',') + '/?' + params.join('&');
}

// run(db, doc): a command's reply, never a throw for a server error. The legacy shell answers a
// failed command with ok:0; mongosh throws a MongoServerError (code, codeName), turned here into
// { ok: 0, code, codeName, errmsg }. Network errors still throw.
// The reply is taken into a variable: under mongosh the call must not be the operand of a return
// inside the try. mongosh's async rewriter (mongodb-js/mongosh packages/async-rewriter2) makes
// every function async underneath and awaits each expression that is a shell call's pending
// result, except a return's own operand (src/stages/transform-maybe-await.ts, the
// isReturnStatement case: `return _srv = db.runCommand(doc), ...`; the same in
// @mongosh/async-rewriter2 1.10.6, 2.0.0, 2.4.19 and 2.6.0, mongosh 2.12.0's). So the old
// `return db.runCommand(doc)` left the try before the reply came, and a refusal escaped this
// catch: init died on its first command, replSetGetStatus on a fresh config server
// (NotYetInitialized), on every 8.0 engine. The rewriter's README has no list of limitations;
// mongosh's manual lists the contexts that cannot take a shell call's result at all ("Script
// Considerations": class constructors, non-async generators, sort() callbacks, class setters),
// and these scripts use none. compose/test/init-mongosh.test.js runs every script here under the
// real mongosh, and fails on a return of a call inside a try (or inside its catch when a finally
// follows).
function run(db, doc) {
  var reply;
  try {
    reply = db.runCommand(doc);
  } catch (e) {
    if (e && (e.code !== undefined || e.codeName)) {
      return { ok: 0, code: e.code, codeName: e.codeName, errmsg: e.message };
    }
    throw e;
  }
  return reply;
}

// retry(label, fn, deadlineMs): call fn until it returns a value other than undefined/false,
// once a second, up to the deadline. A bounded poll, not a sleep standing in for readiness.
function retry(label, fn, deadlineMs) {
  var end = Date.now() + (deadlineMs || 120000), last = '';
  for (;;) {
    try {
      var v = fn();
      if (v !== undefined && v !== false) return v;
      last = 'not yet';
    } catch (e) {
      var msg = (e && e.message) || String(e);
      if (msg !== last) print('  ' + label + ': waiting (' + msg + ')');
      last = msg;
    }
    if (Date.now() > end) {
      throw new Error(label + ': gave up after ' + Math.round((deadlineMs || 120000) / 1000) +
        ' s; last error: ' + last);
    }
    sleep(1000);
  }
}

// Connections. __system@local is the cluster's internal identity: its password is the keyfile,
// so init can initiate and create the first users from its own container (the localhost
// exception only covers connections made inside each member's container).
// opts: replicaSet, timeoutMS (see openConnection).
function connectSystem(hosts, opts) {
  var key = keyFromFileText(readText(LAB.keyfile));
  return openConnection(hosts, Object.assign({ user: '__system', password: key, authSource: 'local' }, opts));
}
function connectRoot(hosts, opts) {
  return openConnection(hosts, Object.assign({ user: 'root', password: readSecret('root-password') }, opts));
}
