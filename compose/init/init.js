// The `init` service (compose/cluster.yml): <shell> --nodb /lab/init/init.js (mongosh, or the
// legacy mongo shell of the 3.6/4.0 images: see lab.js)
// Brings a freshly started cluster to a usable state and exits 0; on a cluster that is already
// initialised it changes nothing and exits 0 (idempotent: `./run.sh up` may run it many times).
//   1. initiate the config server replica set cfgrs by host name (if not yet), wait for a primary
//   2. wait until mongos answers
//   3. initiate the shard replica set shard01 (if not yet), wait for a primary
//   4. users root and exporter, on the shard (shard-local users: direct connections to a shard
//      member, as the exporters make, authenticate there) and through mongos (cluster users,
//      stored on the config servers)
//   5. hold the cluster at the featureCompatibilityVersion the shard's engine supports
//      (LAB.holdFcv, lab.js: MongoRocks on 3.6 stays at 3.4): set through mongos, read back on the
//      config primary, before addShard, which sends the config servers' version to the shard
//   6. add shard01 through mongos (if not yet); with a held version, read it back on the shard
// Every wait is a bounded poll; on a timeout the script exits non-zero naming the step.
'use strict';
load('/lab/init/lab.js');

var DEADLINE_MS = 180000; // per step; a cold start of three members takes ~10-30 s

function log(msg) { print('init: ' + msg); }

function replStatus(conn) {
  return run(conn.getDB('admin'), { replSetGetStatus: 1 });
}

// initiate(rs, opts) -> 'initiated' | 'already': opts as for rsConfig().
function initiate(rs, opts) {
  var first = rs.hosts[0];
  var conn = retry('connect ' + first, function () { return connectSystem(first); }, DEADLINE_MS);
  try {
    var st = replStatus(conn);
    if (st.ok === 1) {
      if (st.set !== rs.name) {
        throw new Error(first + ' belongs to replica set "' + st.set + '", expected "' + rs.name + '"');
      }
      log(rs.name + ': already initiated');
      return 'already';
    }
    if (st.codeName !== 'NotYetInitialized' && st.code !== 94) {
      throw new Error(rs.name + ': replSetGetStatus on ' + first + ' failed: ' + st.errmsg);
    }
    var cfg = rsConfig(rs.name, rs.hosts, opts);
    var r = run(conn.getDB('admin'), { replSetInitiate: cfg });
    if (r.ok !== 1 && r.codeName !== 'AlreadyInitialized' && r.code !== 23) {
      throw new Error(rs.name + ': replSetInitiate failed: ' + r.errmsg);
    }
    log(rs.name + ': initiated with ' + cfg.members.map(function (m) { return m.host; }).join(',') +
      (cfg.writeConcernMajorityJournalDefault === false ? ' (writeConcernMajorityJournalDefault false)' : ''));
    return 'initiated';
  } finally {
    conn.close();
  }
}

// waitPrimary(rs) -> host:port of the writable primary.
function waitPrimary(rs) {
  return retry(rs.name + ' primary', function () {
    for (var i = 0; i < rs.hosts.length; i++) {
      var c = connectSystem(rs.hosts[i]);
      try {
        var h = hello(c.getDB('admin'));
        if (h.writablePrimary) return h.me || hostPort(rs.hosts[i]);
      } finally { c.close(); }
    }
    return false;
  }, DEADLINE_MS);
}

// ensureUser(conn, where, name, host): create the user, or bring its password and roles in line
// with the secret file; leave it alone when both already match.
function ensureUser(conn, where, name, hosts) {
  var spec = LAB.users[name], pwd = readSecret(spec.secret), admin = conn.getDB('admin');
  var info = run(admin, { usersInfo: { user: name, db: 'admin' } });
  if (info.ok !== 1) throw new Error('usersInfo on ' + where + ': ' + info.errmsg);
  var wc = { w: 'majority', wtimeout: 60000 };
  if (info.users.length === 0) {
    var c = run(admin, { createUser: name, pwd: pwd, roles: spec.roles, writeConcern: wc });
    if (c.ok !== 1) throw new Error('createUser ' + name + ' on ' + where + ': ' + c.errmsg);
    log(where + ': user ' + name + ' created');
    return;
  }
  var changes = {};
  if (!sameRoles(info.users[0].roles, spec.roles)) changes.roles = spec.roles;
  var probe = null;
  try {
    probe = openConnection(hosts, { user: name, password: pwd });
    run(probe.getDB('admin'), { ping: 1 });
  } catch (e) {
    changes.pwd = pwd; // the secret file was regenerated since the user was made
  } finally { if (probe) probe.close(); }
  if (Object.keys(changes).length === 0) { log(where + ': user ' + name + ' up to date'); return; }
  var u = run(admin, Object.assign({ updateUser: name, writeConcern: wc }, changes));
  if (u.ok !== 1) throw new Error('updateUser ' + name + ' on ' + where + ': ' + u.errmsg);
  log(where + ': user ' + name + ' updated (' + Object.keys(changes).join(', ') + ')');
}

function main() {
  var cfgrs = LAB.cfgrs, shard = LAB.shard;

  initiate(cfgrs, { configsvr: true });
  log(cfgrs.name + ': primary ' + waitPrimary(cfgrs));

  var mongos = retry('mongos', function () {
    var c = connectSystem(LAB.mongos);
    var p = run(c.getDB('admin'), { listShards: 1 });
    if (p.ok !== 1) { c.close(); throw new Error(p.errmsg); }
    return c;
  }, DEADLINE_MS);
  try {
    var shards = run(mongos.getDB('admin'), { listShards: 1 }).shards || [];
    var registered = shards.some(function (s) { return s._id === shard.name; });

    // The shard's engine decides its replica-set settings (see rsConfig).
    var first = retry('connect ' + shard.hosts[0], function () { return connectSystem(shard.hosts[0]); }, DEADLINE_MS);
    var engine, persistent, fresh;
    try {
      var ss = run(first.getDB('admin'), { serverStatus: 1 });
      engine = ss.storageEngine && ss.storageEngine.name;
      persistent = !(ss.storageEngine && ss.storageEngine.persistent === false);
      fresh = replStatus(first).ok !== 1;
    } finally { first.close(); }
    if (registered && fresh) {
      throw new Error(shard.name + ' is registered with the config servers but its members have ' +
        'no replica-set config: its data is gone (a non-persistent engine such as inMemory after ' +
        'all members restarted). Start over: ./run.sh destroy --engine <engine> --yes, then up.');
    }
    initiate(shard, { persistent: persistent });
    var primary = waitPrimary(shard);
    log(shard.name + ': primary ' + primary + ' (storage engine ' + engine + ')');

    var sp = retry('connect ' + primary, function () { return connectSystem(primary.split(':')[0]); }, DEADLINE_MS);
    try {
      ['root', 'exporter'].forEach(function (u) { ensureUser(sp, shard.name, u, primary.split(':')[0]); });
    } finally { sp.close(); }
    ['root', 'exporter'].forEach(function (u) { ensureUser(mongos, 'cluster', u, LAB.mongos); });

    // 5. The version the shard's engine supports, before addShard (see LAB.holdFcv in lab.js).
    var holdFcv = LAB.holdFcv[engine] || null;
    var cfgPrimary = waitPrimary(cfgrs);
    if (holdFcv) {
      setFcv(mongos.getDB('admin'), hostPort(LAB.mongos), holdFcv);
      var cp = retry('connect ' + cfgPrimary, function () { return connectSystem(cfgPrimary.split(':')[0]); }, DEADLINE_MS);
      try { checkFcv(cp.getDB('admin'), cfgPrimary, holdFcv); } finally { cp.close(); }
      log(cfgrs.name + ': featureCompatibilityVersion ' + holdFcv + ' (shard storage engine ' + engine + ')');
    }

    if (registered) {
      log('shard ' + shard.name + ': already added');
    } else {
      var r = retry('addShard', function () {
        var a = run(mongos.getDB('admin'), { addShard: shardConnString(shard), name: shard.name });
        if (a.ok !== 1) throw new Error(a.errmsg);
        return a;
      }, DEADLINE_MS);
      log('shard ' + r.shardAdded + ': added (' + shardConnString(shard) + ')');
    }
    if (holdFcv) {
      var sc = retry('connect ' + primary, function () { return connectSystem(primary.split(':')[0]); }, DEADLINE_MS);
      try { checkFcv(sc.getDB('admin'), primary, holdFcv); } finally { sc.close(); }
      log(shard.name + ': featureCompatibilityVersion ' + holdFcv);
    }
  } finally {
    mongos.close();
  }
  log('done');
}

try {
  main();
} catch (e) {
  print('init: FAILED: ' + ((e && e.message) || e));
  quit(1);
}
