'use strict';
// resync MEMBER: rebuild one member by initial sync: stop it, remove it and its data volume,
// start it empty (it finds itself in the replica set config by host name), watch until it is
// SECONDARY again. Refuses the PRIMARY (step it down first).
const d = require('../decisions');
const { watchStep } = require('../watch');
const { setTimeout: sleep } = require('node:timers/promises');

// ownView(ctx, member) -> {state, uptimeSeconds} | {error}: the member's own replSetGetStatus, its
// self entry: its state and how long its mongod has run (8.0 src/mongo/db/repl/
// topology_coordinator.cpp, TopologyCoordinator::prepareStatusResponse: the self entry's "uptime",
// seconds since the process started). The set's view of a member comes from heartbeats (every
// 2 s): right after the resync started it, the others may still show the mongod that was removed
// as SECONDARY, and that was taken as the resync's success.
async function ownView(ctx, member) {
  try {
    const st = await ctx.members.selfStatus(member);
    const self = (st.members || []).find((x) => x.self) || {};
    return { state: self.stateStr ?? null, uptimeSeconds: typeof self.uptime === 'number' ? self.uptime : null };
  } catch (e) {
    return { error: e.message.split('\n')[0] };
  }
}
// resynced(own, sinceUpSeconds): the member says it is SECONDARY, and its mongod started after the
// resync's `up` (1 s of slack for the clocks' rounding)
const resynced = (own, sinceUpSeconds) => own.state === 'SECONDARY' && own.uptimeSeconds != null && own.uptimeSeconds <= sinceUpSeconds + 1;
const ownText = (own) => (own.error ? `it does not answer (${own.error})` : `it says ${own.state || '?'}, its mongod up ${own.uptimeSeconds ?? '?'} s`);

module.exports = {
  name: 'resync',
  summary: 'stop --member, delete its data volume, start it, wait for initial sync to finish (SECONDARY); also ./run.sh resync MEMBER',
  options: {
    member: { type: 'string', arg: 'NAME', help: (env) => `${d.memberNames(env).join('|')}, not the PRIMARY (required)` },
    timeout: { type: 'string', default: '3600' },
  },
  hooks: () => [{ op: 'running-stack' }], // acts on the running cluster; never starts one

  check(params, env) {
    if (!params.member) throw new Error(`resync needs a member (choose one of: ${d.memberNames(env).join(' ')})`);
    d.checkMember(env, params.member);
    if (d.parseDuration(params.timeout) == null) throw new Error(`--timeout '${params.timeout}' is not a duration`);
  },

  plan({ member }) {
    return {
      lines: [
        `member: ${member}; its data volume (mounted at /data/db) is removed`,
        `1. docker compose stop ${member}; docker compose rm -f ${member} (a volume in use cannot be removed)`,
        '2. docker volume rm <project>_<member>-data',
        `3. docker compose up -d --no-deps ${member}: it starts empty, finds itself in the replica set config by host name and runs initial sync`,
        `4. wait until ${member} is SECONDARY (initial sync copies every collection, then applies the oplog it buffered)`,
      ],
      actions: ['stop', 'rm', 'volume-rm', 'up'].map((op) => ({ op, args: { member } })),
    };
  },

  async ready(ctx) {
    const { member } = ctx.params;
    const st = await ctx.members.status();
    if (!st) throw new Error('could not read the replica set state: no shard member answers replSetGetStatus');
    const me = d.findMember(st.status, member);
    ctx.say(`${member}: ${me ? me.stateStr : 'not in the replica set config'} (seen from ${st.from})`);
    if (me && me.stateStr === 'PRIMARY') {
      throw Object.assign(new Error(`${member} is the PRIMARY; resync a secondary (or step ${member} down first: rs.stepDown())`), { usage: true });
    }
  },

  async apply(ctx) {
    const { member } = ctx.params;
    ctx.state.removed = true; // from here on, heal must bring the member back
    for (const op of ['stop', 'rm', 'volume-rm', 'up']) await ctx.docker.ask(op, { member });
    ctx.state.upAt = Date.now();
    ctx.state.removed = false;
  },

  // until the set shows the member SECONDARY and the member itself confirms it (ownView): its own
  // state SECONDARY, its mongod started by this resync
  async watch(ctx) {
    const { member } = ctx.params;
    const deadline = Date.now() + d.parseDuration(ctx.params.timeout) * 1000;
    for (;;) {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      ctx.state.watch = await watchStep(ctx, 'state=SECONDARY', left, 'resync', { member, step: 'resync' });
      if (!ctx.state.watch.reached) return;
      const sinceUp = (Date.now() - ctx.state.upAt) / 1000;
      ctx.state.own = { ...(await ownView(ctx, member)), sinceUpSeconds: Math.round(sinceUp) };
      if (resynced(ctx.state.own, sinceUp)) return;
      if (Date.now() >= deadline) return;
      ctx.say(`${member}: the set shows it SECONDARY, but ${ownText(ctx.state.own)} (the resync started it ${Math.round(sinceUp)} s ago); watching on`);
      await sleep(1000, undefined, { signal: ctx.signal });
    }
  },

  // a member stopped or removed half-way is started again (empty: it initial-syncs by itself)
  async heal(ctx) {
    if (ctx.state.removed) await ctx.docker.ask('up', { member: ctx.params.member });
  },

  verdict(ctx) {
    const { member } = ctx.params;
    const w = ctx.state.watch;
    if (!w) return { result: 'unknown', line: `resync ${member}: not watched`, evidence: {} };
    const own = ctx.state.own || null;
    const evidence = { finalState: w.finalState ?? null, elapsedSeconds: w.elapsedSeconds, own_view: own };
    if (!w.reached) return { result: false, line: `resync ${member}: not SECONDARY (last state ${w.finalState ?? '?'})`, evidence };
    if (own && resynced(own, own.sinceUpSeconds)) {
      return { result: true, line: `resync ${member}: SECONDARY again after initial sync (${w.elapsedSeconds} s), by its own replSetGetStatus (its mongod up ${own.uptimeSeconds} s, started by the resync)`, evidence };
    }
    return { result: false, line: `resync ${member}: the set showed it SECONDARY, but ${own ? ownText(own) : 'its own view was never read'}: not the member the resync started`, evidence };
  },
};
