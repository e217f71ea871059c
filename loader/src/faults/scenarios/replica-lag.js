'use strict';
// replica-lag [--member M] [--method fsync|failpoint|netem] [--threshold 30s]: slow one SECONDARY
// under a background write load, print its lag every second until --threshold, heal, watch it
// come back under 2 s. The method must be in the engine's fault_methods (compose/engines.tsv).
// fsyncLock (default): stock images, no restart, deterministic (the member's applier waits on the
// lock, heartbeats stay healthy, so no election). failpoint: rsSyncApplyStop, "Failpoint which
// stops the applier" (mongodb/mongo repl code; the oplog is still fetched, not applied); needs
// --setParameter enableTestCommands=1, which bash gives the members before this process starts
// (LAB_SHARD_EXTRA_ARGS). netem: a sidecar in the member's namespace shapes its egress (asked of
// bash: netem-slow / netem-heal), so the lag it produces depends on the load.
const d = require('../decisions');
const verdicts = require('../verdicts');
const { watchStep } = require('../watch');
const { loadBaseline, stopLoad, checkRate } = require('../load');
const { durationMs } = require('../../text/duration');
const { fsyncUnlockAll } = require('../cluster');

const METHODS = ['fsync', 'failpoint', 'netem'];
const NETEM = { delay: '100ms', rate: '64kbit' }; // ~120 ACKs/s from the member: ~350 KB/s into it
const HEALED_LAG = verdicts.HEALED_LAG_SECONDS; // "caught up" (replSetGetStatus is heartbeat based, 2 s)
const methodsOf = (env) => String(env.engine.fault_methods || '').split(',').filter(Boolean);
// the lab's one duration grammar (src/text/duration.js = lib/common.sh parse_duration)
const thresholdS = (p) => durationMs('--threshold', p.threshold).ms / 1000;

module.exports = {
  name: 'replica-lag',
  summary: 'slow one secondary, print its lag every second, assert --threshold, heal',
  methods: METHODS, // an engine's fault_methods are these, less what its server line lacks (tables.test.js)
  // options with `help` are listed by ./run.sh help (src/faults/catalog.js); the rest tune tests
  options: {
    member: { type: 'string', arg: 'NAME', help: (env) => `${d.memberNames(env).join('|')}, must be a SECONDARY now (default ${d.defaultMember(env)}, or another secondary if it is not one)` },
    method: { type: 'string', default: 'fsync', arg: 'M', help: 'fsync (fsyncLock on the member itself; stock images, no restart), failpoint (rsSyncApplyStop; RESTARTS the shard members with --setParameter enableTestCommands=1), netem (delay 100ms + rate 64kbit from a sidecar in the member\'s network namespace); the engine\'s fault_methods (compose/engines.tsv) say which apply' },
    threshold: { type: 'string', default: '30s', arg: 'DUR', help: 'lag to reach, e.g. 30s, 2m, at least 3s' },
    rate: { type: 'string', default: '2000' }, // load: documents per second (tests lower it)
    'baseline-seconds': { type: 'string', default: '5' },
    'heal-seconds': { type: 'string', default: '300' },
    'fault-seconds': { type: 'string' }, // how long the lag may take to build (default 3 x threshold + 120 s)
  },

  check(p, env) {
    d.checkMember(env, p.member);
    if (!METHODS.includes(p.method)) throw new Error(`unknown --method '${p.method}' (choose one of: ${METHODS.join(' ')})`);
    // what an engine cannot do is in its row of compose/engines.tsv, never in a name test
    if (!methodsOf(env).includes(p.method)) throw new Error(`--method ${p.method} does not apply to engine ${env.engine.engine} (its fault_methods: ${env.engine.fault_methods})`);
    const t = durationMs('--threshold', p.threshold);
    if (t.error) throw new Error(t.error);
    if (t.ms < 3000) throw new Error('--threshold must be at least 3s (replSetGetStatus lag has a few seconds of error)');
    checkRate(p);
    d.checkWholeNumbers(p, ['baseline-seconds', 'heal-seconds', 'fault-seconds']);
  },

  // hooks: the failpoint needs the members restarted with enableTestCommands=1, which bash does
  // before this process starts (lib/fault.sh, hook test-commands); netem needs the Docker host's
  // kernel to have the netem qdisc, which bash probes before anything starts (hook netem-kernel:
  // Docker Desktop's WSL2 kernel has none, microsoft/WSL#6065)
  hooks: (p) => (p.method === 'failpoint' ? [{ op: 'test-commands' }] : p.method === 'netem' ? [{ op: 'netem-kernel' }] : []),

  // ready: without --member, the default member if it is a SECONDARY now, else another secondary
  // (after a failover any member may be the primary); the member must be a SECONDARY (exit 2).
  async ready(ctx) {
    const p = ctx.params;
    const st = await ctx.members.status();
    if (!st) throw new Error(`no shard member answers replSetGetStatus; is the ${ctx.env.engine.engine} stack healthy? ./run.sh status --engine ${ctx.env.engine.engine}`);
    const pick = d.pickSecondary(st.status, { member: p.member, preferred: d.defaultMember(ctx.env) });
    if (!pick.wanted) throw new Error(`could not find a SECONDARY in the shard; ./run.sh status --engine ${ctx.env.engine.engine}`);
    if (!pick.member) {
      throw Object.assign(new Error(`${pick.wanted} is not a SECONDARY now; pick one that is (current secondaries: ${pick.secondaries.join(', ') || 'none'}; see ./run.sh status --engine ${ctx.env.engine.engine})`), { usage: true });
    }
    ctx.state.member = pick.member;
    ctx.say(`member: ${pick.member} (SECONDARY, seen from ${st.from})`);
  },

  plan(p, env, live = {}) {
    const m = live.member || p.member || d.defaultMember(env);
    const t = thresholdS(p);
    const how = {
      fsync: `fsyncLock on ${m} itself (direct connection, never through mongos); heal: fsyncUnlock until its lock count is 0`,
      failpoint: `configureFailPoint rsSyncApplyStop alwaysOn on ${m} (the shard members were RESTARTED into a test-only configuration with --setParameter enableTestCommands=1 before this process); heal: mode off`,
      netem: `netem-${m}: delay ${NETEM.delay} + rate ${NETEM.rate} on ${m}'s egress (a sidecar in its network namespace); heal: netem removed`,
    }[p.method];
    const lines = [
      `member: ${m}${live.member || p.member ? '' : ' by default, or another SECONDARY if it is not one now'} (must be SECONDARY now, checked live); method: ${p.method}; threshold: ${t} s`,
      `1. background write load through mongos: upserts of 1 KB of fresh data over 10,000 keys, ${p.rate}/s, w:1 (~2 MB/s of oplog, data stays 10 MB); ${p['baseline-seconds']} s of baseline`,
      `2. slow ${m}: ${how}`,
      `3. print its lag every second (replSetGetStatus: primary optimeDate - ${m} optimeDate) until >= ${t} s`,
      `4. heal (${p.method} undone) and print the lag until it is < ${HEALED_LAG} s`,
      'flow control: it keeps the MAJORITY commit point within 10 s; one slow secondary of three leaves the primary + the other secondary as the majority, so it does not engage (the timeline records serverStatus.flowControl.isLagged every second to show it)',
    ];
    const actions = p.method === 'netem' ? [{ op: 'netem-slow', args: { member: m, ...NETEM } }, { op: 'netem-heal', args: { member: m } }] : [];
    return { lines, actions };
  },

  async apply(ctx) {
    const m = ctx.state.member;
    await loadBaseline(ctx, 1800);
    ctx.say(`slow ${m} by ${ctx.params.method}`);
    ctx.state.faulted = true; // from here on, heal undoes it (also a half-applied one)
    try {
      if (ctx.params.method === 'fsync') {
        const r = await ctx.members.admin(m, { fsync: 1, lock: true });
        ctx.say(`${m}: fsyncLock (lockCount ${r.lockCount ?? '?'}): writes, including replication, wait until fsyncUnlock`);
      } else if (ctx.params.method === 'failpoint') {
        await ctx.members.admin(m, { configureFailPoint: 'rsSyncApplyStop', mode: 'alwaysOn' });
        ctx.say(`${m}: failpoint rsSyncApplyStop alwaysOn`);
      } else {
        await ctx.docker.ask('netem-slow', { member: m, ...NETEM });
      }
    } catch (e) {
      const hint = ctx.params.method === 'fsync' ? '; if this engine refuses fsyncLock, try --method failpoint'
        : e.code === 59 ? `: ${m} was started without --setParameter enableTestCommands=1` : '';
      throw new Error(`could not apply ${ctx.params.method} to ${m} (${e.message.split('\n')[0]})${hint}`);
    }
  },

  async watch(ctx) {
    const t = thresholdS(ctx.params);
    const limit = ctx.params['fault-seconds'] !== undefined ? Number(ctx.params['fault-seconds']) : Math.ceil(t * 3) + 120;
    ctx.state.fault = await watchStep(ctx, `lag>=${t}`, limit, 'fault', { step: 'lag-fault' });
    await this.undo(ctx);
    ctx.state.healed = await watchStep(ctx, `lag<${HEALED_LAG}`, Number(ctx.params['heal-seconds']), 'heal', { step: 'lag-heal' });
  },

  // always: undo the method if still in force (an undo that fails is the runner's heal error), stop the load
  async heal(ctx) {
    try {
      await this.undo(ctx);
    } finally {
      await stopLoad(ctx);
    }
  },

  verdict(ctx) {
    const s = ctx.state;
    const fault = s.fault;
    if (!fault) return { result: 'unknown', line: `replica-lag ${s.member || '?'} via ${ctx.params.method}: the lag was never watched`, evidence: {} };
    const heal = s.healed || {};
    const v = verdicts.replicaLagVerdict({
      member: s.member, method: ctx.params.method, thresholdSeconds: thresholdS(ctx.params),
        peakLagSeconds: fault.peakLagSeconds,
      healedLagSeconds: heal.reached ? heal.lastLagSeconds : null, healError: s.undoError,
        flowControlEngaged: Boolean(fault.flowControlEverLagged),
    });
    return {
      result: v.pass,
      line: v.verdict.replace(/^[A-Z]+: /, ''),
      evidence: {
        member: s.member, peak_lag_seconds: fault.peakLagSeconds, threshold_seconds: thresholdS(ctx.params),
          reached: fault.reached === true,
        healed_lag_seconds: heal.reached ? heal.lastLagSeconds : null,
          flow_control: fault.flowControl ? fault.flowControl.explanation : null,
        flow_control_engaged: Boolean(fault.flowControlEverLagged),
      },
    };
  },

  // ---- helpers of this scenario ----
  async undo(ctx) {
    if (!ctx.state.faulted) return;
    const m = ctx.state.member;
    ctx.say(`heal: undo ${ctx.params.method} on ${m}`);
    try {
      if (ctx.params.method === 'fsync') {
        await fsyncUnlockAll(ctx.members, m);
        ctx.say(`${m}: fsyncUnlock done`);
      } else if (ctx.params.method === 'failpoint') {
        await ctx.members.admin(m, { configureFailPoint: 'rsSyncApplyStop', mode: 'off' });
        ctx.say(`${m}: failpoint rsSyncApplyStop off`);
      } else {
        await ctx.docker.ask('netem-heal', { member: m });
      }
      ctx.state.faulted = false;
    } catch (e) {
      // refused because the run was stopped (the watch's undo; runner.js bodyContext): the fault
      // is still in force and the heal, which is not refused, undoes it
      if (ctx.signal.aborted && e === ctx.signal.reason) throw e;
      ctx.state.undoError = `undo of ${ctx.params.method} failed: ${e.message.split('\n')[0]}`;
      ctx.state.faulted = false; // tried once; ./run.sh fault heal is the way on
      throw new Error(ctx.state.undoError);
    }
  },
};
