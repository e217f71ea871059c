'use strict';
// Which members the server record samples, from what the run already knows (src/server/describe.js) and
// what the members say about themselves; never from a list of the lab's service names, so a
// --uri run, a Compose stack and a Kubernetes cluster are sampled alike.
//  - a replica-set member (the URI names a set): every member its hello lists (hosts, passives);
//  - a standalone: the one host;
//  - mongos: each mongos the URI names, each shard's members (listShards' host "set/h1,h2"), and
//    the config servers, learned from the first serverStatus that carries
//    sharding.configsvrConnectionString (8.0 src/mongo/s/s_sharding_server_status.cpp:70 on
//    mongos, src/mongo/db/s/sharding_server_status.cpp:93 on a shard member;
//    "cfgrs/cfg1:27019,..."). The issue asks for the config primary; every config
//    member is sampled (one connection each) so that a config failover is seen too.

function hostsOfSetString(s) {
  const m = /^([^/]+)\/(.+)$/.exec(s || '');
  return m ? { set: m[1], hosts: m[2].split(',').filter(Boolean) } : null;
}

// initialMembers(description, seedHosts) -> [{ host, role, set }]
function initialMembers(description, seedHosts) {
  const topo = (description && description.topology) || {};
  const out = [];
  const add = (host, role, set = null) => {
    if (host && !out.some((m) => m.host === host)) out.push({ host, role, set });
  };
  if (topo.kind === 'replica_set_member') {
    for (const h of [...(topo.hosts || []), ...(topo.passives || [])]) add(h, 'shard', topo.set_name);
  } else if (topo.kind === 'mongos') {
    for (const h of seedHosts) add(h, 'router');
    for (const sh of topo.shards || []) {
      const parsed = hostsOfSetString(sh.host);
      if (parsed) for (const h of parsed.hosts) add(h, 'shard', parsed.set);
      else add(sh.host, 'shard', sh.id);
    }
  } else {
    for (const h of seedHosts.slice(0, 1)) add(h, 'standalone');
  }
  return out;
}

// configMembers(status) -> [{ host, role: 'config', set }] from a serverStatus reply, or [].
function configMembers(status) {
  const parsed = hostsOfSetString(status && status.sharding && status.sharding.configsvrConnectionString);
  return parsed ? parsed.hosts.map((host) => ({ host, role: 'config', set: parsed.set })) : [];
}

// memberUri(runUri, host): the run's URI pointed at one host, directConnection=true, the set and
// SRV dropped (the record connects to that member only), credentials and other options kept.
function memberUri(runUri, host) {
  const m = /^(mongodb(?:\+srv)?):\/\/(?:([^@/]*)@)?[^/?]*(\/[^?]*)?(?:\?(.*))?$/.exec(runUri);
  if (!m) return `mongodb://${host}/?directConnection=true`;
  const [, scheme, userinfo, dbPath, query] = m;
  const params = (query || '').split('&').filter((p) => p && !/^(replicaSet|directConnection|srvServiceName|srvMaxHosts|loadBalanced)=/i.test(p));
  // mongodb+srv:// turns TLS on by default (the driver's lib/connection_string.js); keep that.
  if (scheme === 'mongodb+srv' && !params.some((p) => /^(tls|ssl)=/i.test(p))) params.push('tls=true');
  params.push('directConnection=true');
  return `mongodb://${userinfo ? `${userinfo}@` : ''}${host}${dbPath || '/'}?${params.join('&')}`;
}

module.exports = { initialMembers, configMembers, memberUri };
