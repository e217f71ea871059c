'use strict';
// The journal-off case (bulk_import, --members-journal off) and w:majority.
// With the shard members on --nojournal and the replica set's writeConcernMajorityJournalDefault
// true (the default with protocolVersion 1), w:majority never completes: mongod waits for a
// journal write that never comes (the 4.0 startup warning quoted in SERVER-49428: "...must be set
// to false or w:majority write concerns will never complete"; DOCS-9367; manual "Replica Set
// Configuration", writeConcernMajorityJournalDefault). Through mongos the case's setup drop goes
// via the config servers, which drop on the shard with majority write concern, so the case failed.
// For the case the shard's set gets writeConcernMajorityJournalDefault false (replSetReconfig on
// its primary, config version + 1: MongoDB 4.0, MMAPv1's last line, has no safe reconfig that
// would itself wait for a majority), and the value it had is put back after the case.
const { withMember } = require('./member-params');
const { dataMembers } = require('./index');

const FIELD = 'writeConcernMajorityJournalDefault';
const byConfig = new WeakMap(); // run config -> { host, before, record } or { error }

// primaryOf(client, hosts) -> the host that answers as the writable primary, or null.
async function primaryOf(client, hosts) {
  for (const host of hosts) {
    try {
      const r = await withMember(client, host, (admin) => admin.command({ isMaster: 1 }));
      if (r.ismaster || r.isWritablePrimary) return host;
    } catch {
      // an unreachable member: ask the next
    }
  }
  return null;
}

// setOnPrimary(client, host, value) -> { before }: the set's value before, reconfigured to value
// when it differs.
function setOnPrimary(client, host, value) {
  return withMember(client, host, async (admin) => {
    const { config } = await admin.command({ replSetGetConfig: 1 });
    const before = config[FIELD] !== false;
    if (before !== value) await admin.command({ replSetReconfig: { ...config, version: config.version + 1,
      [FIELD]: value } });
    return { before };
  });
}

// journalDefaultOff(ctx) -> { record } or { error }: the shard's set set to false for the case
// (held per run config: heldFor).
async function journalDefaultOff(ctx) {
  const hosts = dataMembers(ctx.description, (ctx.client.options.hosts || []).map(String));
  const host = await primaryOf(ctx.client, hosts);
  let held;
  if (!host) {
    held = { error: `no primary among ${hosts.join(', ')} to set ${FIELD} false on (w:majority never completes on members without a journal while it is true)` };
  } else if (ctx.stopping && ctx.stopping()) {
    // primaryOf outlived a stop (each member it cannot reach costs its server selection): the
    // run's afterRun may have found nothing to put back, so nothing is changed now
    held = { error: `the run stopped before ${FIELD} was set false` };
  } else {
    // a put-back that comes while the reconfig is out (a stop) waits for it (journalDefaultBack)
    const setting = setOnPrimary(ctx.client, host, false);
    byConfig.set(ctx.config, { host, setting });
    try {
      const { before } = await setting;
      ctx.log(`journal off: ${FIELD} ${before ? 'true -> false' : 'already false'} on the shard's set (via ${host}), so that w:majority completes without a journal`);
      held = { host, before, record: { before, during: false, set_on: host, why: 'members without a journal never satisfy w:majority while it is true (SERVER-49428, DOCS-9367)' } };
    } catch (e) {
      held = { error: `setting ${FIELD} false on ${host} failed: ${e.codeName || e.name}: ${e.message} (w:majority never completes on members without a journal while it is true)` };
    }
  }
  byConfig.set(ctx.config, held);
  return held;
}

const heldFor = (config) => byConfig.get(config) || null;

// journalDefaultBack(ctx) -> true, or the line saying why it was not put back (null: nothing held).
async function journalDefaultBack(ctx) {
  let held = byConfig.get(ctx.config);
  if (held && held.setting) {
    // journalDefaultOff's reconfig still out: its own continuation records what it did first
    await held.setting.catch(() => {});
    held = byConfig.get(ctx.config);
  }
  if (!held || held.error) return null;
  byConfig.delete(ctx.config);
  if (held.before === false) return true;
  const hosts = dataMembers(ctx.description, (ctx.client.options.hosts || []).map(String));
  const host = (await primaryOf(ctx.client, hosts)) || held.host;
  try {
    await setOnPrimary(ctx.client, host, held.before);
    ctx.log(`journal off: ${FIELD} put back to ${held.before} (via ${host})`);
    return true;
  } catch (e) {
    const why = `NOT restored: ${FIELD} is still false on the shard's set: ${e.codeName || e.name}: ${e.message}`;
    ctx.log(`journal off: ${why}`);
    return why;
  }
}

module.exports = { journalDefaultOff, journalDefaultBack, heldFor };
