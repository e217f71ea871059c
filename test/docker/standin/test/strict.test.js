'use strict';
// The stand-in refuses what mongod 8.0 refuses, each mistake planted once in the flags the lab's
// compose/cluster.yml gives (or in the keyfile the lab writes), the stand-in run here as the image
// runs it (node standin.js, FerretDB behind it, real TCP, the real Node.js driver as client).
// The upstream source of each refusal is named beside the stand-in's code. Run by test/docker.sh;
// alone: node --test test/docker/standin/test/strict.test.js (needs .tools/bin/ferretdb).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { BSON } = require('../bson');
const { Cluster, labFlags, setFlag, waitFor } = require('./harness');

const shardFlags = labFlags('shard');
const cfgFlags = labFlags('cfg');

test('a keyfile mongod 8.0 would not read stops the stand-in at startup, saying why', async (t) => {
  const c = new Cluster(28100);
  t.after(() => c.stop());
  const cases = [
    ['written 0644 (the keyfile service with -m 644)', 'abcdefghijkl', 0o644, /permissions on .* are too open/],
    ['a character outside base64', 'abc*defghijkl', 0o400, /invalid char in key file .*: \*/],
    ['5 characters', 'abcde', 0o400, /Security key size is out range/],
  ];
  for (const [what, text, mode, said] of cases) {
    const file = path.join(c.dir, `key-${mode}-${text.length}`);
    fs.writeFileSync(file, `${text}\n`, { mode });
    fs.chmodSync(file, mode);
    const m = await c.start('mongod', shardFlags, { keyfile: file });
    const code = await Promise.race([m.exited, new Promise((r) => setTimeout(() => r('still running'), 5000))]);
    assert.ok(code !== 0 && code !== 'still running', `${what}: the stand-in started (${code})`);
    assert.match(m.log(), said, `${what}: ${m.log()}`);
  }
});

test('__system logs in with SCRAM-SHA-256 only; OP_QUERY carries the handshake only', async (t) => {
  const c = new Cluster(28120);
  t.after(() => c.stop());
  const m = await c.start('mongod', shardFlags);
  const ok = await c.client(m);
  const hello = await ok.db('admin').command({ hello: 1, saslSupportedMechs: 'local.__system' });
  assert.deepStrictEqual(hello.saslSupportedMechs, ['SCRAM-SHA-256']);
  // init forcing SCRAM-SHA-1 for __system (a real 8.0 has no SHA-1 credentials for the key)
  await assert.rejects(c.client(m, { mechanism: 'SCRAM-SHA-1' }), /Unable to use SCRAM-SHA-1 based authentication|Authentication failed/);
  // a client speaking OP_QUERY: isMaster answered, anything else refused with 352
  assert.strictEqual((await opQuery(m.port, { isMaster: 1 })).ok, 1);
  const refused = await opQuery(m.port, { ping: 1 });
  assert.strictEqual(refused.code, 352, JSON.stringify(refused));
  assert.match(refused.errmsg, /^Unsupported OP_QUERY command: ping\. The client driver may require an upgrade/);
});

test('a member started with another --replSet vetoes replSetInitiate and never takes the config', async (t) => {
  const c = new Cluster(28140);
  t.after(() => c.stop());
  const a = await c.start('mongod', shardFlags);
  const b = await c.start('mongod', setFlag(shardFlags, 'replSet', 'shard02'));
  const admin = (await c.client(a)).db('admin');
  const err = await admin.command({ replSetInitiate: { _id: 'shard01', members: [{ _id: 0, host: a.host }, { _id: 1, host: b.host }] } })
    .then(() => null, (e) => e);
  assert.ok(err, 'replSetInitiate succeeded with a member of another set name');
  assert.strictEqual(err.code, 103, err.message);
  assert.match(err.message, new RegExp(`Our set name did not match that of ${b.host}`));
  const bHello = await (await c.client(b)).db('admin').command({ hello: 1 });
  assert.strictEqual(bHello.setName, undefined);
});

// The quorum check's other two vetoes (check_quorum_for_config_change.cpp
// QuorumChecker::_tabulateHeartbeatResponse, _onQuorumCheckComplete): a proposed member that does
// not answer (NodeNotFound, 74), and one that already has a config of its own (103). Either way
// the initiating member takes no config.
test('replSetInitiate fails its quorum check on a member that does not answer and on one already initiated', async (t) => {
  const c = new Cluster(28320);
  t.after(() => c.stop());
  const a = await c.start('mongod', shardFlags);
  const b = await c.start('mongod', shardFlags);
  const admin = (await c.client(a)).db('admin');
  const silent = await new Promise((resolve) => {
    const srv = net.createServer().listen(0, () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
  });
  const initiate = (hosts) => admin.command({ replSetInitiate: { _id: 'shard01', members: hosts.map((host, i) => ({ _id: i, host })) } })
    .then(() => null, (e) => e);
  const noAnswer = await initiate([a.host, `127.0.0.1:${silent}`]);
  assert.ok(noAnswer, 'replSetInitiate succeeded with a member that does not answer');
  assert.strictEqual(noAnswer.code, 74, noAnswer.message);
  assert.match(noAnswer.message, /quorum check failed because not all proposed set members responded affirmatively/);
  const bAdmin = (await c.client(b)).db('admin');
  await bAdmin.command({ replSetInitiate: { _id: 'shard01', members: [{ _id: 0, host: b.host }] } });
  const taken = await initiate([a.host, b.host]);
  assert.ok(taken, 'replSetInitiate succeeded with a member that has a config already');
  assert.strictEqual(taken.code, 103, taken.message);
  assert.match(taken.message, new RegExp(`no larger than the version on ${b.host}`));
  const stillBare = await admin.command({ replSetGetConfig: 1 }).then(() => null, (e) => e);
  assert.strictEqual(stillBare && stillBare.code, 94, 'the initiating member took a config after a failed quorum check');
});

// shardSet(c, timeout) -> { members, admins, primaryOf, initiatedAt }: three shard members
// initiated as one set with electionTimeoutMillis TIMEOUT; primaryOf(among) -> { i } of the member
// among those indexes that is primary, or null (waitFor waits for a truthy answer).
async function shardSet(c, timeout) {
  const members = [];
  for (let i = 0; i < 3; i += 1) members.push(await c.start('mongod', shardFlags));
  const admins = await Promise.all(members.map(async (m) => (await c.client(m)).db('admin')));
  const primaryOf = async (among) => {
    for (const i of among) if ((await admins[i].command({ hello: 1 })).isWritablePrimary) return { i };
    return null;
  };
  const initiatedAt = Date.now();
  await admins[0].command({ replSetInitiate: { _id: 'shard01', settings: { electionTimeoutMillis: timeout }, members: members.map((m, i) => ({ _id: i, host: m.host })) } });
  return { members, admins, primaryOf, initiatedAt };
}

test('a three-member set elects after the election timeout; an isolated primary relinquishes', async (t) => {
  const c = new Cluster(28160);
  t.after(() => c.stop());
  const timeout = 2000;
  const { members, admins, primaryOf, initiatedAt: started } = await shardSet(c, timeout);
  const first = await admins[0].command({ hello: 1 });
  assert.strictEqual(first.isWritablePrimary, false, 'the initiating member is PRIMARY at once');
  assert.strictEqual(first.secondary, true);
  const primaryAt = await waitFor('a primary', async () => {
    const p = await primaryOf([0, 1, 2]);
    return p && { ...p, at: Date.now() };
  }, 10000);
  assert.ok(primaryAt.at - started >= timeout, `elected ${primaryAt.at - started} ms after replSetInitiate, before the ${timeout} ms timeout`);
  // The two others stop (SIGSTOP: no heartbeat from them, as a partition): writes to the old
  // primary must be refused once it has heard from no majority for the election timeout.
  const p = primaryAt.i;
  const db = (await c.client(members[p])).db('suite');
  await db.collection('x').insertOne({ before: 1 });
  for (let i = 0; i < 3; i += 1) if (i !== p) members[i].proc.kill('SIGSTOP');
  const isolated = Date.now();
  const refusedAt = await waitFor('the isolated primary refusing writes', async () => {
    const e = await db.collection('x').insertOne({ during: Date.now() }).then(() => null, (x) => x);
    return e && /not primary|NotWritablePrimary/i.test(`${e.codeName} ${e.message}`) ? Date.now() : null;
  }, timeout + 5000);
  assert.ok(refusedAt - isolated >= timeout - 1000, `refused after ${refusedAt - isolated} ms`);
  assert.match(members[p].log(), /Can't see a majority of the set, relinquishing primary/);
});

// A primary that stops answering (SIGSTOP: its connections stay open and no reply comes, as a
// killed container's address gives no RST) leaves each request to it waiting out the link's 5 s.
// 8.0's election ends on a majority of votes (vote_requester.cpp hasReceivedSufficientResponses),
// so the two others elect without waiting for it; waiting for every answer, their check for a
// primary and their ballot took 5 s each, and two candidates doing so split the votes.
test('a primary that stops answering is replaced without waiting out its requests\' timeouts', async (t) => {
  const c = new Cluster(28360);
  t.after(() => c.stop());
  const timeout = 2000;
  const LINK_MS = 5000; // link.js Link's timeoutMs
  const { members, admins, primaryOf } = await shardSet(c, timeout);
  const { i: old } = await waitFor('a primary', () => primaryOf([0, 1, 2]), 10000);
  const others = [0, 1, 2].filter((i) => i !== old);
  // both others SECONDARY (their initial sync done), each able to stand
  await waitFor('two secondaries', async () => {
    for (const i of others) if (!(await admins[i].command({ hello: 1 })).secondary) return null;
    return true;
  }, 30000);
  members[old].proc.kill('SIGSTOP');
  t.after(() => members[old].proc.kill('SIGCONT'));
  const stopped = Date.now();
  await waitFor('a new primary', () => primaryOf(others), 30000);
  const took = Date.now() - stopped;
  // A secondary notices at its pull's end (within LINK_MS of the stop), then stands at once (the
  // timeout has passed by then), and its check and ballot end on the other's answer: measured
  // 3.1 s here, against 9.2 s when both waited out the stopped member too (2026-12-02).
  assert.ok(took < LINK_MS + timeout, `a new primary ${took} ms after the old one stopped answering`);
  t.diagnostic(`new primary ${took} ms after the old one stopped answering`);
});

test('addShard refuses a set whose members were started without --shardsvr; mongos, fsyncUnlock and optimeDate answer as 8.0', async (t) => {
  const c = new Cluster(28180);
  t.after(() => c.stop());
  const cfg = await c.start('mongod', cfgFlags);
  const shard = await c.start('mongod', setFlag(shardFlags, 'shardsvr', null));
  await (await c.client(cfg)).db('admin').command({ replSetInitiate: { _id: 'cfgrs', configsvr: true, members: [{ _id: 0, host: cfg.host }] } });
  await (await c.client(shard)).db('admin').command({ replSetInitiate: { _id: 'shard01', members: [{ _id: 0, host: shard.host }] } });
  const mongos = await c.start('mongos', ['--configdb', `cfgrs/${cfg.host}`, '--port', '0', '--keyFile', c.keyfile]);
  const admin = (await c.client(mongos)).db('admin');
  const err = await waitFor('addShard answered', async () => admin.command({ addShard: `shard01/${shard.host}` })
    .then(() => ({ added: true }), (e) => (e.code === 133 ? null : e)), 10000);
  assert.strictEqual(err.code, 50876, err.message || 'addShard succeeded');
  assert.match(err.message, /Cannot run addShard on a node started without --shardsvr/);
  // and the smaller answers: replSetGetStatus through mongos, fsyncUnlock when not locked, and
  // optimeDate in whole seconds (the optime's Timestamp seconds)
  const viaMongos = await admin.command({ replSetGetStatus: 1 }).then(() => null, (e) => e);
  assert.strictEqual(viaMongos && viaMongos.code, 76);
  assert.match(viaMongos.message, /replSetGetStatus is not supported through mongos/);
  const cfgAdmin = (await c.client(cfg)).db('admin');
  const unlock = await cfgAdmin.command({ fsyncUnlock: 1 }).then(() => null, (e) => e);
  assert.strictEqual(unlock && unlock.code, 20, unlock && unlock.message);
  assert.match(unlock.message, /fsyncUnlock called when not locked/);
  await (await c.client(cfg)).db('suite').collection('t').insertOne({ at: new Date() });
  const st = await cfgAdmin.command({ replSetGetStatus: 1 });
  assert.ok(st.members[0].optimeDate.getTime() > 0 && st.members[0].optimeDate.getTime() % 1000 === 0, `optimeDate ${st.members[0].optimeDate.toISOString()}`);
});

// opQuery(port, cmd) -> the reply document of a legacy OP_QUERY on admin.$cmd.
function opQuery(port, cmd) {
  return new Promise((resolve, reject) => {
    const body = BSON.serialize(cmd);
    const ns = Buffer.from('admin.$cmd\0');
    const head = Buffer.alloc(16 + 4);
    const tail = Buffer.alloc(8);
    tail.writeInt32LE(0, 0); // numberToSkip
    tail.writeInt32LE(-1, 4); // numberToReturn
    const msg = Buffer.concat([head, ns, tail, body]);
    msg.writeInt32LE(msg.length, 0);
    msg.writeInt32LE(7, 4);
    msg.writeInt32LE(0, 8);
    msg.writeInt32LE(2004, 12); // OP_QUERY
    msg.writeInt32LE(0, 16); // flags
    const sock = net.connect(port, '127.0.0.1', () => sock.write(msg));
    let buf = Buffer.alloc(0);
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= 4 && buf.length >= buf.readInt32LE(0)) {
        sock.destroy();
        resolve(BSON.deserialize(buf.subarray(36, buf.readInt32LE(0)))); // OP_REPLY: 16 + 20 bytes of header
      }
    });
    sock.on('error', reject);
    setTimeout(() => { sock.destroy(); reject(new Error('no OP_QUERY reply within 5 s')); }, 5000).unref();
  });
}

test('mongos waits for a config primary, as 8.0 waits up to 15 s, instead of failing at once', async (t) => {
  const c = new Cluster(28340);
  t.after(() => c.stop());
  const cfg = await c.start('mongod', cfgFlags);
  const mongos = await c.start('mongos', ['--configdb', `cfgrs/${cfg.host}`, '--port', '0', '--keyFile', c.keyfile]);
  const admin = (await c.client(mongos)).db('admin');
  // asked while the config set has no primary yet (not initiated): answered once it has one
  const asked = Date.now();
  const users = admin.command({ usersInfo: 1 })
    .then((r) => ({ r, ms: Date.now() - asked }), (e) => ({ e, ms: Date.now() - asked }));
  await new Promise((r) => setTimeout(r, 2000));
  await (await c.client(cfg)).db('admin').command({ replSetInitiate: { _id: 'cfgrs', configsvr: true, members: [{ _id: 0, host: cfg.host }] } });
  const got = await users;
  assert.ok(!got.e, `usersInfo through mongos failed after ${got.ms} ms: ${got.e && got.e.message}`);
  assert.ok(got.ms >= 2000, `answered after ${got.ms} ms, before the config set had a primary`);
});
