'use strict';
// The stand-in mongos: answers as a router (hello "isdbgrid", no storage engine), keeps the
// cluster's users and shard registry on the config servers' primary (as mongos stores them in the
// config database), and passes every other command to the primary of the one registered shard
// over a connection of its own per client connection, so that a cursor's getMore reaches the
// member that holds it. Sharding commands (enableSharding, shardCollection, the balancer) are
// recorded on the config servers and acknowledged: with one shard every chunk lives on it.
const { BSON } = require('./bson');
const { Link } = require('./link');
const { serve, error } = require('./session');
const common = require('./common');

const FIND_HOST_TIMEOUT_MS = 15000;
const FIND_HOST_REFRESH_MS = 500;
const CONFIG_RECORDED = new Set(['enableSharding', 'enablesharding', 'shardCollection', 'shardcollection', 'balancerStart', 'balancerStop', 'split', 'moveChunk', 'configureCollectionBalancing']);

async function startRouter(opts) {
  const key = common.keyOf(opts.keyFile);
  const stats = common.newStats();
  const started = Date.now();
  const [cfgSet, cfgList] = String(opts.configdb).split('/');
  const cfgHosts = cfgList.split(',');
  const links = new Map();
  const linkTo = (host) => {
    if (!links.has(host)) links.set(host, new Link(host, key, { timeoutMs: 10000 }));
    return links.get(host);
  };

  // primaryOf(hosts, setName) -> host:port of the set's primary, asking each member's hello, and
  // again every 500 ms for up to 15 s before FailedToSatisfyReadPreference, as mongos's replica set
  // monitor waits (src/mongo/client/replica_set_monitor_interface.h kDefaultFindHostTimeout{15};
  // streamable_replica_set_monitor.cpp kExpeditedRefreshPeriod, 500 ms): a set between two
  // primaries (an election, a step-down under load) delays a command, it does not fail it. Failing
  // at once, init's usersInfo through mongos failed a Docker suite run on a busy host.
  async function primaryOf(hosts, setName) {
    const giveUpAt = Date.now() + FIND_HOST_TIMEOUT_MS;
    for (;;) {
      for (const h of hosts) {
        try {
          const r = await linkTo(h).request({ hello: 1, $db: 'admin' });
          if (r.setName === setName && r.isWritablePrimary) return h;
          if (r.setName === setName && r.primary) return r.primary;
        } catch { /* try the next */ }
      }
      if (Date.now() >= giveUpAt) break;
      await common.sleep(FIND_HOST_REFRESH_MS);
    }
    throw error(133, 'FailedToSatisfyReadPreference', `Could not find host matching read preference { mode: "primary" } for set ${setName}`);
  }
  const configPrimary = () => primaryOf(cfgHosts, cfgSet);
  async function onConfig(body) { return linkTo(await configPrimary()).request(body); }

  async function shards() {
    const r = await onConfig({ find: 'shards', filter: {}, $db: 'standin' });
    if (r.ok !== 1) throw error(r.code || 1, r.codeName || 'InternalError', `config servers: ${r.errmsg}`);
    return r.cursor.firstBatch;
  }

  async function lookupUser(db, user) {
    const r = await onConfig({ _standinUser: 1, db, user, $db: 'admin' });
    return r.ok === 1 ? r.credentials : null;
  }

  async function addShard(body) {
    const m = /^([^/]+)\/(.+)$/.exec(String(body.addShard));
    if (!m) throw error(96, 'OperationFailed', 'the stand-in adds replica-set shards only ("set/host:port,...")');
    const name = body.name || m[1];
    const hosts = m[2].split(',');
    let hello;
    try { hello = await linkTo(hosts[0]).request({ hello: 1, $db: 'admin' }); } catch (e) {
      throw error(96, 'OperationFailed', `failed to connect to ${hosts[0]}: ${e.message}`);
    }
    if (hello.setName !== m[1]) throw error(96, 'OperationFailed', `host ${hosts[0]} belongs to set "${hello.setName}", not "${m[1]}"`);
    const known = await shards();
    if (known.some((s) => s._id === name)) return { shardAdded: name, ok: 1 };
    // The shard's own half of addShard, on its primary: 8.0 runs _shardsvrAddShard there, which a
    // member started without --shardsvr refuses (src/mongo/db/s/shardsvr_add_shard_command.cpp,
    // 50876 "Cannot run addShard on a node started without --shardsvr"); the error comes back
    // through addShard as it is.
    const shardPrimaryHost = await primaryOf(hosts, m[1]);
    const joined = await linkTo(shardPrimaryHost).request({ _shardsvrAddShard: 1, shardIdentity: { shardName: name }, $db: 'admin' });
    if (joined.ok !== 1) throw error(joined.code, joined.codeName, joined.errmsg);
    const w = await onConfig({ insert: 'shards', documents: [{ _id: name, host: `${m[1]}/${hosts.join(',')}`, state: 1, topologyTime: new BSON.Timestamp({ t: Math.floor(Date.now() / 1000), i: 1 }) }], writeConcern: { w: 'majority', wtimeout: 60000 }, $db: 'standin' });
    if (w.ok !== 1) return w;
    return { shardAdded: name, ok: 1 };
  }

  // The primary of the one shard, found again after an error (a failover moves it).
  let shardPrimary = null;
  async function shardTarget() {
    if (shardPrimary) return shardPrimary;
    const list = await shards();
    if (!list.length) throw error(70, 'ShardNotFound', 'no shard has been added (addShard)');
    const m = /^([^/]+)\/(.+)$/.exec(list[0].host);
    shardPrimary = await primaryOf(m[2].split(','), m[1]);
    return shardPrimary;
  }

  async function forward(conn, cmd) {
    const target = await shardTarget();
    if (!conn.state.shard || conn.state.shard.target !== target) {
      if (conn.state.shard) conn.state.shard.close();
      conn.state.shard = new Link(target, key, { timeoutMs: 120000 });
      conn.onClose = () => conn.state.shard && conn.state.shard.close();
    }
    try {
      const r = await conn.state.shard.request({ ...cmd.body, $db: cmd.db }, { moreToCome: cmd.moreToCome });
      if (r && r.code === 10107) shardPrimary = null;
      return r;
    } catch (e) {
      shardPrimary = null;
      conn.state.shard.close();
      conn.state.shard = null;
      throw error(e.code || 6, e.codeName || 'HostUnreachable', `shard primary ${target}: ${e.message}`);
    }
  }

  async function handle(conn, cmd) {
    const { name, body } = cmd;
    switch (name) {
      case 'hello': case 'isMaster': case 'ismaster': {
        const h = { ...common.helloBase(stats), isWritablePrimary: true, ismaster: true, msg: 'isdbgrid' };
        if (body.saslSupportedMechs) h.saslSupportedMechs = ['SCRAM-SHA-1', 'SCRAM-SHA-256'];
        return h;
      }
      case 'buildInfo': case 'buildinfo': return common.buildInfo();
      case 'ping': return { ok: 1 };
      case 'serverStatus': stats.opcounters.command += 1; return common.serverStatusBase(stats, started, 'mongos');
      case 'getDiagnosticData': return { data: { start: new Date(), serverStatus: common.serverStatusBase(stats, started, 'mongos'), end: new Date() }, ok: 1 };
      case 'getCmdLineOpts': return { argv: opts.argv, parsed: opts.parsed, ok: 1 };
      case 'getLog': return { totalLinesWritten: 0, log: [], ok: 1 };
      case 'hostInfo': return common.hostInfo();
      case 'listShards': return { shards: (await shards()).map((s) => ({ _id: s._id, host: s.host, state: s.state, topologyTime: s.topologyTime })), ok: 1 };
      case 'addShard': case 'addshard': return addShard(body);
      case 'createUser': case 'updateUser': case 'dropUser': case 'usersInfo':
      case 'setFeatureCompatibilityVersion':
        return onConfig({ ...body, $db: cmd.db });
      // src/mongo/s/commands/cluster_repl_set_get_status_cmd.cpp: NoReplicationEnabled (76), info "mongos"
      case 'replSetGetStatus': return { info: 'mongos', ok: 0, code: 76, codeName: 'NoReplicationEnabled', errmsg: 'replSetGetStatus is not supported through mongos' };
      case 'balancerStatus': return { mode: 'full', inBalancerRound: false, numBalancerRounds: BSON.Long.fromNumber(0), ok: 1 };
      default: break;
    }
    if (CONFIG_RECORDED.has(name)) {
      await onConfig({ update: 'sharding', updates: [{ q: { _id: `${name}:${JSON.stringify(body[name])}` }, u: { _id: `${name}:${JSON.stringify(body[name])}`, at: new Date() }, upsert: true }], $db: 'standin' });
      return { ok: 1 };
    }
    if (['insert', 'update', 'delete'].includes(name)) common.countWrite(stats.opcounters, name, body);
    else common.countRead(stats.opcounters, name);
    return forward(conn, cmd);
  }

  serve({ port: opts.port, key, lookupUser, handle, stats });
  common.log(`stand-in mongos listening on ${opts.port} (config servers ${opts.configdb})`);
  return { stop() { process.exit(0); } };
}

module.exports = { startRouter };
