// ./run.sh status: <shell> --nodb /lab/init/status.js (mongosh or the legacy mongo, lab.js), run inside the mongos
// container as root (password read from the mounted secret file, never passed on a command line).
// Prints the replica sets with member states and primary, the registered shards, and the storage
// engine as the shard members report it (serverStatus().storageEngine). The last line is a
// summary for scripts (lib/smoke.sh):  summary engine=<name> shards=<ids> cfgrs=<primary> shard01=<primary>
// Exit status: 0 when every member is healthy, both sets have a primary and the shard is added.
'use strict';
load('/lab/init/lab.js');

var problems = [];

function showSet(rs) {
  var c = null, primary = '-';
  try {
    c = connectRoot(rs.hosts, { replicaSet: rs.name, timeoutMS: 5000 });
    var st = run(c.getDB('admin'), { replSetGetStatus: 1 });
    if (st.ok !== 1) throw new Error(st.errmsg);
    print(rs.name + (st.members.some(function (m) { return m.stateStr === 'PRIMARY'; }) ? '' : '  (no primary)'));
    st.members.forEach(function (m) {
      if (m.stateStr === 'PRIMARY') primary = m.name;
      if (m.health !== 1 || ['PRIMARY', 'SECONDARY'].indexOf(m.stateStr) < 0) {
        problems.push(rs.name + ' member ' + m.name + ' is ' + m.stateStr);
      }
      print('  ' + pad(m.name, 18) + pad(m.stateStr, 12) +
        (m.infoMessage ? '  ' + m.infoMessage : '') + (m.lastHeartbeatMessage ? '  ' + m.lastHeartbeatMessage : ''));
    });
    if (primary === '-') problems.push(rs.name + ' has no primary');
  } catch (e) {
    print(rs.name + '  unreachable: ' + ((e && e.message) || e));
    problems.push(rs.name + ' unreachable');
  } finally { if (c) c.close(); }
  return primary;
}

function engineOf(host) {
  var c = null;
  try {
    c = connectRoot(host);
    var se = run(c.getDB('admin'), { serverStatus: 1 }).storageEngine || {};
    return se.name + (se.persistent === false ? ' (not persistent)' : '');
  } catch (e) {
    return 'unknown (' + ((e && e.message) || e) + ')';
  } finally { if (c) c.close(); }
}

var cfgPrimary = showSet(LAB.cfgrs);
var shardPrimary = showSet(LAB.shard);
var shardIds = [];
try {
  var m = connectRoot(LAB.mongos);
  try {
    var ls = run(m.getDB('admin'), { listShards: 1 });
    if (ls.ok !== 1) throw new Error(ls.errmsg);
    print('shards');
    ls.shards.forEach(function (s) { shardIds.push(s._id); print('  ' + pad(s._id, 18) + s.host); });
    if (ls.shards.length === 0) print('  (none)');
  } finally { m.close(); }
} catch (e) {
  print('shards  unavailable through mongos: ' + ((e && e.message) || e));
}
if (shardIds.indexOf(LAB.shard.name) < 0) problems.push('shard ' + LAB.shard.name + ' is not added');

var engine = engineOf(shardPrimary !== '-' ? shardPrimary.split(':')[0] : LAB.shard.hosts[0]);
print('engine');
print('  ' + pad(LAB.shard.name, 18) + engine);
print('  ' + pad(LAB.cfgrs.name, 18) + engineOf(cfgPrimary !== '-' ? cfgPrimary.split(':')[0] : LAB.cfgrs.hosts[0]));
if (problems.length) print('problems: ' + problems.join('; '));
print('summary engine=' + engine.split(' ')[0] + ' shards=' + (shardIds.join(',') || '-') +
  ' ' + LAB.cfgrs.name + '=' + cfgPrimary + ' ' + LAB.shard.name + '=' + shardPrimary);
quit(problems.length ? 1 : 0);
