'use strict';
// Talking to the cluster for the fault scenarios: one direct connection per shard member (never
// through mongos for member-level commands: fsyncLock through mongos locks the whole cluster from
// 7.0.2), plus mongos for the application-level writers and the final majority read.
const { driver } = require('../server/driver-line');
const { readSecret } = require('../server/clients');
const { oplogRange } = require('../server/oplog-range');
const d = require('./decisions');

// Short timeouts: a stopped or partitioned member must cost one tick (1 s), not the driver's
// default 30 s server selection.
const MEMBER_OPTS = { directConnection: true, serverSelectionTimeoutMS: 1500, connectTimeoutMS: 1500,
  socketTimeoutMS: 5000, maxPoolSize: 2 };

// The same secret file the loader reads, read the same way (clients.js), with a message that
// names what it was for.
function readPassword(file) {
  try {
    return readSecret(file);
  } catch (e) {
    throw new Error(`cannot read the root password from ${file}: ${e.message}`);
  }
}

function auth(opts) {
  if (!opts.user) return {};
  return { auth: { username: opts.user, password: readPassword(opts.passwordFile) }, authSource: 'admin' };
}

// opts.retryWrites false: the engine's shard refuses the txnNumber of retryable writes
// (compose/engines.tsv retryable_writes: MMAPv1, MongoRocks at FCV 3.4; src/server/retry-writes.js),
// which the driver attaches to every write through mongos and to a replica-set member even on a
// direct connection (mongodb 6.x lib/utils.js supportsRetryableWrites: any server but a
// standalone that reports logicalSessionTimeoutMinutes).
const retry = (opts) => ({ retryWrites: opts.retryWrites !== false });

class Members {
  // hosts: ['shard01-a:27017', ...]
  constructor(hosts, opts) {
    this.hosts = hosts;
    this.opts = opts;
    this.clients = new Map();
  }

  client(host) {
    const h = this.resolve(host);
    if (!this.clients.has(h)) {
      const { MongoClient } = driver(this.opts.driverLine);
      this.clients.set(h, new MongoClient(`mongodb://${h}/`, { ...MEMBER_OPTS, ...auth(this.opts), ...retry(this.opts), appName: 'lab-fault' }));
    }
    return this.clients.get(h);
  }

  resolve(name) {
    const h = this.hosts.find((x) => x === name || x.split(':')[0] === name);
    if (!h) {
      const e = new Error(`unknown member '${name}' (members: ${this.hosts.map(d.shortName).join(', ')})`);
      e.usage = true; // a bad name from the command line, not a cluster problem
      throw e;
    }
    return h;
  }

  async admin(host, cmd) {
    return this.client(host).db('admin').command(cmd);
  }

  // status(): replSetGetStatus from every member at once (a stopped one costs its timeout once, not
  // once per member in turn); which view is believed: decisions.js pickStatusView.
  async status() {
    const views = await Promise.allSettled(this.hosts.map(async (h) => ({ from: d.shortName(h),
      status: await this.admin(h, { replSetGetStatus: 1 }) })));
    return d.pickStatusView(views.filter((v) => v.status === 'fulfilled').map((v) => v.value));
  }

  async selfStatus(host) {
    return this.admin(host, { replSetGetStatus: 1 });
  }

  // window(host): the oldest and newest oplog entry of one member, read from its own oplog.
  async window(host) {
    const { first, last, stats } = await oplogRange(this.client(host));
    return {
      member: d.shortName(host),
      host: this.resolve(host),
      first: first ? d.toTs(first) : null,
      last: last ? d.toTs(last) : null,
      maxSizeMB: stats?.maxSize ? Math.round(stats.maxSize / 1048576) : null,
      sizeMB: stats?.size != null ? +(stats.size / 1048576).toFixed(1) : null,
    };
  }

  async windows(hosts) {
    return Promise.all(
      hosts.map((h) => this.window(h).catch((e) => ({ member: d.shortName(h), host: h, first: null, last: null, error: e.message.split('\n')[0] }))),
    );
  }

  async close() {
    await Promise.all([...this.clients.values()].map((c) => c.close().catch(() => {})));
  }
}

// fsyncUnlockAll(members, host) -> how many unlocks it took: each fsyncLock increments a count (a
// repeated run may have locked twice), so unlock until it is 0, at most 20 times; 'not locked' ends
// it too. Any other error is thrown.
async function fsyncUnlockAll(members, host) {
  let n = 0;
  while (n < 20) {
    let r;
    try {
      r = await members.admin(host, { fsyncUnlock: 1 });
    } catch (e) {
      if (/not locked/i.test(e.message)) break;
      throw e;
    }
    n++;
    if (!r.lockCount) break;
  }
  return n;
}

// opts.driverLine: the engine's driver line (compose/engines.tsv driver_line, src/server/driver-line.js):
// the old server lines (3.6, 4.0) refuse the current driver.
function mongosClient(opts) {
  const { MongoClient } = driver(opts.driverLine);
  return new MongoClient(`mongodb://${opts.mongos}/`, { serverSelectionTimeoutMS: 10000, ...auth(opts), ...retry(opts), appName: 'lab-fault' });
}

module.exports = { Members, mongosClient, fsyncUnlockAll };
