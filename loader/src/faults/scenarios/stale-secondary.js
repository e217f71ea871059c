'use strict';
// stale-secondary [--member M] [--oplog-size-mb 16]: on a cluster whose oplogs bash created small
// (LAB_SHARD_EXTRA_ARGS=--oplogSize N; mongod honours it only when it creates the oplog, so bash
// destroys and recreates the cluster when needed, before this process), stop one SECONDARY, write
// until the oplogs of BOTH other members have dropped its last optime, start it again and collect
// the evidence: its state and infoMessage, the too-stale log lines (ids 5579708 per rejected sync
// source, then 21126; RS102 before 4.4), optimes and oplog windows. An engine that keeps no data
// (engines.tsv keeps_data) restarts the member empty: it initial-syncs instead, and the verdict
// says so.
const fs = require('node:fs');
const path = require('node:path');
const d = require('../decisions');
const { wholeNumber } = require('../../text/numbers');
const verdicts = require('../verdicts');
const { watchStep } = require('../watch');
const { loadBaseline, stopLoad, checkRate } = require('../load');
const replicaLag = require('./replica-lag');

const TOO_STALE = /"id":21126|RS102|too stale to catch up -- entering maintenance mode/; // 4.4+ JSON, 2.4, 3.x-4.2 (decisions.js)

module.exports = {
  name: 'stale-secondary',
  summary: 'small oplog, stop a secondary, write until both healthy oplogs dropped its last optime, restart it, show RECOVERING + "too stale" evidence',
  options: {
    member: { type: 'string', arg: 'NAME', help: (env) => `${d.memberNames(env).join('|')}, must be a SECONDARY now (default ${d.defaultMember(env)})` },
    'oplog-size-mb': { type: 'string', default: '16', arg: 'N', help: 'oplog size. Honoured only when the oplog is created: unless the running cluster already has it, the engine\'s cluster is DESTROYED and recreated (needs --yes)' },
    rate: { type: 'string', default: '2000' }, // load: documents per second (tests lower it)
    'baseline-seconds': { type: 'string', default: '5' },
    'roll-seconds': { type: 'string', default: '1800' }, // how long the oplogs may take to roll past
    'restart-seconds': { type: 'string', default: '600' },
    // "too stale" is decided only after every sync source was tried: look at the log every
    // settle-seconds, at most settle-looks times (3 minutes), until it holds 21126 or the member is SECONDARY
    'settle-seconds': { type: 'string', default: '10' },
    'settle-looks': { type: 'string', default: '18' },
  },

  check(p, env) {
    d.checkMember(env, p.member);
    if (!/^[1-9][0-9]*$/.test(p['oplog-size-mb'])) throw new Error(`--oplog-size-mb must be a whole number >= 1 (got '${p['oplog-size-mb']}')`);
    // mongod reads --oplogSize as an int (mongodb/mongo src/mongo/db/mongod_options.cpp
    // populateReplSettings: params["replication.oplogSizeMB"].as<int>()): a larger value is refused
    // at start, after this scenario has destroyed the cluster to recreate it.
    const size = wholeNumber('--oplog-size-mb', p['oplog-size-mb'], 1, 2147483647);
    if (size.error) throw new Error(`${size.error} (mongod takes --oplogSize as a 32-bit int)`);
    checkRate(p);
    d.checkWholeNumbers(p, ['baseline-seconds', 'roll-seconds', 'restart-seconds', 'settle-seconds', 'settle-looks']);
  },

  // hooks: the oplog is made small when the cluster is created, before this process (lib/fault.sh,
  // hook small-oplog: reuse a cluster whose oplogs have the size, else destroy and recreate it)
  hooks: (p) => [{ op: 'small-oplog', args: { mb: p['oplog-size-mb'] } }],

  // the member: as replica-lag picks and checks it (a live SECONDARY; a given non-secondary is exit 2)
  ready: (ctx) => replicaLag.ready(ctx),

  plan(p, env, live = {}) {
    const m = live.member || p.member || d.defaultMember(env);
    const e = env.engine.engine;
    const n = p['oplog-size-mb'];
    const lines = [
      `member: ${m}${live.member || p.member ? '' : ' by default, or another SECONDARY if it is not one now'} (must be SECONDARY, checked live); oplog: ${n} MB on every shard member`,
      '1. background write load through mongos (w:1; the primary + the other secondary keep the majority commit point moving)',
      `2. record ${m}'s last optime, docker compose stop ${m}, bound its last optime by the primary's newest oplog entry`,
      '3. keep writing until the oldest oplog entry of BOTH other members is newer than that optime (read from their oplogs every second; truncation waits for a checkpoint, ~60 s)',
      `4. docker compose start ${m}; wait until it is RECOVERING (or SECONDARY); collect its log since the start`,
      '5. evidence: state, infoMessage, the too-stale log lines (ids 5579708, 21126), optimes, oplog windows',
      ...(env.engine.keeps_data ? [] : [`${e}: a restarted member has no data at all, so it initial-syncs by itself instead of going too stale; the verdict says what it saw`]),
      `afterwards: recover ${m} by initial sync: ./run.sh resync ${m} --engine ${e}; the ${e} cluster keeps its ${n} MB oplogs (./run.sh destroy --engine ${e} --yes && ./run.sh up --engine ${e} restores the default size)`,
    ];
    const actions = [{ op: 'stop', args: { member: m } }, { op: 'start', args: { member: m } }, { op: 'logs', args: { member: m, since: new Date().toISOString() } }];
    return { lines, actions };
  },

  async apply(ctx) {
    const m = ctx.state.member;
    await loadBaseline(ctx, 3600);
    // its own last applied optime, just before the stop
    const self = await ctx.members.selfStatus(m);
    const before = { member: m, source: 'own replSetGetStatus optimes.appliedOpTime', optime: d.toTs(self.optimes && self.optimes.appliedOpTime), at: new Date().toISOString() };
    ctx.step('optime-before-stop', before);
    ctx.state.before = before;
    ctx.say(`${m}: last applied ${d.tsString(before.optime)}`);
    ctx.state.stopped = true; // from here on, heal starts it again
    await ctx.docker.ask('stop', { member: m });
    // after the stop: the primary's newest entry is an upper bound of the member's last optime
    const st = await ctx.members.status();
    const p = st && d.primaryOf(st.status);
    if (!p) throw new Error(`no primary: cannot bound ${m}'s last optime`);
    const w = await ctx.members.window(p.name);
    ctx.state.bound = { member: m, source: `newest oplog entry of the primary ${d.shortName(p.name)} after the stop (upper bound of the stopped member's last optime)`, optime: w.last, at: new Date().toISOString() };
    ctx.step('optime', ctx.state.bound);
    ctx.say(`${m}'s last optime is at most ${d.tsString(w.last)} (primary ${d.shortName(p.name)}'s newest entry after the stop)`);
  },

  async watch(ctx) {
    const m = ctx.state.member;
    ctx.say(`write until both healthy members' oplogs dropped ${m}'s last optime`);
    ctx.state.past = await watchStep(ctx, 'rolled-past', Number(ctx.params['roll-seconds']), 'roll', { step: 'stale-past', optime: ctx.state.bound.optime });
    ctx.say(`restart ${m}`);
    const since = new Date().toISOString();
    await ctx.docker.ask('start', { member: m });
    ctx.state.stopped = false;
    await watchStep(ctx, 'state=RECOVERING|SECONDARY', Number(ctx.params['restart-seconds']), 'restart');
    const logFile = path.join(ctx.run.dir, `${m}.log`);
    let log = '';
    for (let i = 0; i < Number(ctx.params['settle-looks']); i++) {
      ctx.state.settled = await watchStep(ctx, 'never', Number(ctx.params['settle-seconds']), 'settle', { step: 'stale-state' });
      log = (await ctx.docker.ask('logs', { member: m, since }, { allowFail: true })).output;
      fs.writeFileSync(logFile, log);
      if (TOO_STALE.test(log) || ctx.state.settled.finalState === 'SECONDARY') break;
    }
    ctx.state.evidence = await this.evidence(ctx, log.split('\n'));
  },

  // always: a stopped member is started again; the load stops
  async heal(ctx) {
    try {
      if (ctx.state.stopped) await ctx.docker.ask('start', { member: ctx.state.member });
      ctx.state.stopped = false;
    } finally {
      await stopLoad(ctx);
      if (ctx.state.evidence) ctx.say(`recover ${ctx.state.member} by initial sync: ./run.sh resync ${ctx.state.member} --engine ${ctx.env.engine.engine}`);
    }
  },

  verdict(ctx) {
    const s = ctx.state;
    const ev = s.evidence;
    if (!ev) return { result: 'unknown', line: `stale-secondary ${s.member || '?'}: no evidence collected`, evidence: { member: s.member || null, rolled_past: s.past ? s.past.reached : null } };
    const v = verdicts.staleSecondaryVerdict({
      engine: ctx.env.engine.engine, member: s.member,
        finalState: (ev.self && ev.self.stateStr) || (s.settled && s.settled.finalState),
      evidence: ev, rolledPast: Boolean(s.past && s.past.reached), keepsData: ctx.env.engine.keeps_data,
    });
    return {
      result: v.pass,
      line: v.verdict.replace(/^[A-Z]+(?: \((not applicable)\))?: /, (_, na) => (na ? 'not applicable: ' : '')),
      evidence: {
        member: s.member, final_state: (ev.self && ev.self.stateStr) || null,
          info_message: (ev.self && ev.self.infoMessage) || null,
        too_stale: ev.tooStale, initial_sync: ev.initialSync, rolled_past: Boolean(s.past && s.past.reached),
        optime_before_stop: ev.optimeBeforeStop, optime_bound: ev.optimeBound, windows: ev.windows,
          log_lines: ev.logLines,
      },
    };
  },

  // ---- helpers of this scenario ----
  // evidence: too-stale lines of its log, its own status, the other members' oplog windows
  async evidence(ctx, lines) {
    const m = ctx.state.member;
    const ev = d.tooStaleEvidence(lines);
    let self;
    try {
      const s = await ctx.members.selfStatus(m);
      const me = (s.members || []).find((x) => x.self);
      self = { myState: s.myState, stateStr: me && me.stateStr, infoMessage: me && me.infoMessage,
        optime: me && d.toTs(me.optime), optimeDate: me && me.optimeDate };
    } catch (e) {
      self = { error: e.message.split('\n')[0] };
    }
    const windows = await ctx.members.windows(ctx.members.hosts.filter((h) => h !== ctx.members.resolve(m)));
    const out = {
      member: m, self, windows, logLines: ev.lines, tooStale: ev.tooStale, candidateRejected: ev.candidateRejected,
        initialSync: ev.initialSync,
      legacy: ev.lines.some((l) => l.legacy), optimeBeforeStop: ctx.state.before ? ctx.state.before.optime : null,
        optimeBound: ctx.state.bound ? ctx.state.bound.optime : null,
    };
    ctx.step('evidence', out);
    ctx.say(`evidence for ${m}:`);
    ctx.say(`  state (its own view): ${self.stateStr ?? self.error}; infoMessage: "${self.infoMessage ?? ''}"`);
    ctx.say(`  its last optime: ${self.optime ? d.tsString(self.optime) : '?'}`);
    if (out.optimeBeforeStop) ctx.say(`  recorded just before the stop: last applied ${d.tsString(out.optimeBeforeStop)}`);
    if (out.optimeBound) ctx.say(`  upper bound after the stop (primary's newest entry): ${d.tsString(out.optimeBound)}`);
    for (const w of windows) ctx.say(`  ${w.member} oplog window: ${d.tsString(w.first)} .. ${d.tsString(w.last)} (${d.windowSeconds(w) ?? '?'} s, max ${w.maxSizeMB ?? '?'} MB)`);
    for (const l of ev.lines) ctx.say(`  log: ${l.line}`);
    if (!ev.lines.length) ctx.say('  log: no too-stale or initial-sync line found');
    return out;
  },
};
