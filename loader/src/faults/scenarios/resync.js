'use strict';
// resync MEMBER: rebuild one member by initial sync: stop it, remove it and its data volume,
// start it empty (it finds itself in the replica set config by host name), watch until it is
// SECONDARY again. Refuses the PRIMARY (step it down first).
const d = require('../decisions');
const { watchStep } = require('../watch');

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
    ctx.state.removed = false;
  },

  async watch(ctx) {
    const timeoutS = d.parseDuration(ctx.params.timeout);
    ctx.state.watch = await watchStep(ctx, 'state=SECONDARY', timeoutS, 'resync', { member: ctx.params.member, step: 'resync' });
  },

  // a member stopped or removed half-way is started again (empty: it initial-syncs by itself)
  async heal(ctx) {
    if (ctx.state.removed) await ctx.docker.ask('up', { member: ctx.params.member });
  },

  verdict(ctx) {
    const { member } = ctx.params;
    const w = ctx.state.watch;
    if (!w) return { result: 'unknown', line: `resync ${member}: not watched`, evidence: {} };
    const evidence = { finalState: w.finalState ?? null, elapsedSeconds: w.elapsedSeconds };
    if (w.reached) return { result: true, line: `resync ${member}: SECONDARY again after initial sync (${w.elapsedSeconds} s)`, evidence };
    return { result: false, line: `resync ${member}: not SECONDARY (last state ${w.finalState ?? '?'})`, evidence };
  },
};
