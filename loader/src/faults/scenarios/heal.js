'use strict';
// heal: undo whatever a scenario may have left: every Docker action of docker-ops.tsv by the op its
// `undo` column names (start stopped members, remove netem and partitions, unpause paused
// members), failpoints off and fsyncUnlock on every member, then wait until one member is
// PRIMARY and every other SECONDARY; what the registry says heal cannot undo is said in the plan.
// Which members are stopped or paused and whether netem ever ran here are Docker facts this process
// asks bash for (probes stopped-members, paused-members and netem-image); --stopped / --paused /
// --netem give them instead (the tests). A leftover load container of an older checkout (its
// load ran in a container of its own) is removed first.
const d = require('../decisions');
const { watchStep } = require('../watch');
const { TABLE } = require('../protocol');
const { fsyncUnlockAll } = require('../cluster');

const FAILPOINTS = ['rsSyncApplyStop', 'stopReplProducer'];
const list = (s) => String(s || '').split(/[,\n]/).map((x) => x.trim()).filter(Boolean);
// facts(p, live): the Docker facts given as flags, else as bash answered them (ready), else none
// stopped and netem assumed (a dry run whose probes could not be answered)
const facts = (p, live = {}) => ({
  stopped: p.stopped !== undefined ? list(p.stopped) : live.stopped || [],
  paused: p.paused !== undefined ? list(p.paused) : live.paused || [],
  netem: p.netem ?? live.netem ?? 'yes',
});

// The members each undo op of docker-ops.tsv is run on, from those facts. An undo op the registry
// names and this does not know is a plan line, and loader/test/faults/heal.test.js fails on it.
const MEMBERS_TO_UNDO = {
  up: (f) => f.stopped,
  'netem-heal': (f, env) => (f.netem === 'yes' ? d.memberNames(env) : []),
  unpause: (f) => f.paused,
};

// undoOps() -> { ops: the undo ops of the registry's actions, in the table's order,
// cannot: ['volume-rm: why', ...] }
function undoOps() {
  const actions = Object.entries(TABLE).filter(([, r]) => r.kind === 'action');
  return {
    ops: [...new Set(actions.map(([, r]) => r.undo).filter((u) => u !== '-' && !u.startsWith('cannot')))],
    cannot: actions.filter(([, r]) => r.undo.startsWith('cannot')).map(([op, r]) => `${op} (${r.undo.replace(/^cannot:\s*/, '')})`),
  };
}

module.exports = {
  name: 'heal',
  summary: 'undo whatever a scenario may have left: start stopped members, unpause paused ones, remove netem/partition, failpoints off, fsyncUnlock, stop fault load',
  options: { stopped: { type: 'string' }, paused: { type: 'string' }, netem: { type: 'string' }, timeout: { type: 'string', default: '300' } },
  hooks: () => [{ op: 'running-stack' }], // heals the running cluster; never starts one

  check(p, env) {
    for (const flag of ['stopped', 'paused']) for (const m of list(p[flag])) if (!d.memberNames(env).includes(m)) throw new Error(`unknown member '${m}' in --${flag}`);
    if (p.netem !== undefined && !['yes', 'no'].includes(p.netem)) throw new Error(`--netem must be yes or no (got '${p.netem}')`);
    if (d.parseDuration(p.timeout) == null) throw new Error(`--timeout '${p.timeout}' is not a duration`);
  },

  // ready: the Docker facts not given as flags, asked of bash (read-only probes)
  async ready(ctx) {
    if (ctx.params.stopped === undefined) ctx.state.stopped = list((await ctx.docker.ask('stopped-members', {})).output);
    if (ctx.params.paused === undefined) ctx.state.paused = list((await ctx.docker.ask('paused-members', {})).output);
    if (ctx.params.netem === undefined) ctx.state.netem = (await ctx.docker.ask('netem-image', {})).output.trim() === 'yes' ? 'yes' : 'no';
  },

  plan(p, env, live) {
    const f = facts(p, live);
    const { ops, cannot } = undoOps();
    const unknown = ops.filter((op) => !MEMBERS_TO_UNDO[op]);
    return {
      lines: [
        `start stopped shard members: ${f.stopped.join(' ') || 'none'}`,
        `remove netem and partitions on ${d.memberNames(env).join(' ')}${f.netem === 'yes' ? '' : ' (skipped: the netem image was never built here, so no netem ran)'}`,
        `unpause paused shard members: ${f.paused.join(' ') || 'none'}`,
        'failpoints rsSyncApplyStop/stopReplProducer off and fsyncUnlock on every member',
        'wait until one member is PRIMARY and every other SECONDARY',
        ...cannot.map((c) => `cannot undo: ${c}`),
        ...unknown.map((op) => `cannot undo: heal does not know which members need '${op}' (docker-ops.tsv undo)`),
      ],
      actions: [
        { op: 'rm-fault-load', args: {} },
        ...ops.filter((op) => MEMBERS_TO_UNDO[op])
          .flatMap((op) => MEMBERS_TO_UNDO[op](f, env).map((m) => ({ op, args: { member: m } }))),
      ],
    };
  },

  async apply(ctx) {
    // a step that fails is reported and the rest still runs: heal does what it can
    ctx.state.problems = [];
    for (const a of this.plan(ctx.params, ctx.env, ctx.state).actions) {
      const r = await ctx.docker.ask(a.op, a.args, { allowFail: true });
      if (r.rc !== 0) ctx.state.problems.push(`${a.op} ${a.args.member || ''} (exit ${r.rc})`.replace('  ', ' '));
    }
    for (const h of ctx.env.shard.hosts) await this.unlock(ctx, h);
  },

  async watch(ctx) {
    ctx.state.watch = await watchStep(ctx, 'healthy', d.parseDuration(ctx.params.timeout), 'heal', { member: null });
  },

  async heal() {}, // heal is its own undo

  verdict(ctx) {
    const w = ctx.state.watch;
    const problems = ctx.state.problems || [];
    const evidence = { problems, members: w ? w.finalState : null };
    if (!w) return { result: 'unknown', line: 'heal: not watched', evidence };
    if (!w.reached) return { result: false, line: `heal: the shard is not healthy after ${w.elapsedSeconds} s; a RECOVERING member that is too stale needs: ./run.sh resync MEMBER --engine ${ctx.env.engine.engine}`, evidence };
    return { result: true, line: `healed${problems.length ? ` (these steps failed: ${problems.join(', ')})` : ''}`, evidence };
  },

  async unlock(ctx, h) {
    const name = d.shortName(h);
    for (const fp of FAILPOINTS) {
      try {
        await ctx.members.admin(h, { configureFailPoint: fp, mode: 'off' });
        ctx.say(`${name}: failpoint ${fp} off`);
      } catch (e) {
        if (e.code !== 59) ctx.say(`${name}: failpoint ${fp}: ${e.message.split('\n')[0]}`); // 59: no test commands, so none set
      }
    }
    try {
      if (await fsyncUnlockAll(ctx.members, h)) ctx.say(`${name}: fsyncUnlock (was locked)`);
    } catch (e) {
      ctx.say(`${name}: fsyncUnlock: ${e.message.split('\n')[0]}`);
    }
  },
};
