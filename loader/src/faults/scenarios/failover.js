'use strict';
// failover --w 1|majority [--how partition|kill]: writers insert unique ids through mongos and
// record each outcome (ok / fail / indeterminate) while the primary is cut off or killed; after
// recovery a majority read classifies every id (Jepsen's set checker). The verdict needs an
// observed failover: a primary other than the old one seen by the watch.
const path = require('node:path');
const d = require('../decisions');
const setcheck = require('../setcheck');
const verdicts = require('../verdicts');
const { watchStep } = require('../watch');
const { within } = require('../runner');

const HEALED_LAG = verdicts.HEALED_LAG_SECONDS;

module.exports = {
  name: 'failover',
  summary: 'writers with unique ids, primary killed or partitioned mid-load, majority read, Jepsen set checker (ok / lost / unexpected / recovered)',
  options: {
    w: { type: 'string', arg: '1|majority', help: 'write concern of the writers (required)' },
    how: { type: 'string', default: 'partition', arg: 'partition|kill', help: 'partition: iptables in the primary\'s namespace cut it off from the other members but not from clients (keeps accepting w:1 writes ~10 s); kill: docker kill -s SIGKILL, then start' },
    writers: { type: 'string', default: '4' },
    // seconds of load before the fault and after the new primary (tests shorten it)
    'load-seconds': { type: 'string', default: '10' },
    'failover-seconds': { type: 'string', default: '90' }, // how long a new primary may take
  },

  check(p, env) {
    // The check reads every id back with readConcern majority (setcheck.js finalRead): an engine
    // that does not serve it reliably (engines.tsv majority_reads) cannot give a verdict.
    if (env && env.engine && env.engine.majority_reads === false) {
      throw new Error(`fault failover does not apply to engine ${env.engine.engine}: its verdict reads every write back with readConcern majority, which this engine does not serve reliably (compose/engines.tsv majority_reads: no)`);
    }
    if (!p.w) throw new Error('fault failover needs --w 1 or --w majority');
    if (!['1', 'majority'].includes(p.w)) throw new Error(`--w must be 1 or majority (got '${p.w}')`);
    if (!['partition', 'kill'].includes(p.how)) throw new Error(`--how must be partition or kill (got '${p.how}')`);
    if (!/^[1-9][0-9]?$/.test(p.writers)) throw new Error(`--writers must be 1..99 (got '${p.writers}')`);
    d.checkWholeNumbers(p, ['load-seconds', 'failover-seconds']);
  },

  plan(p, env, live = {}) {
    const primary = live.primary || 'PRIMARY';
    const others = live.others ? live.others.join(' ') : '<the other members>';
    const fault = p.how === 'kill' ? `docker compose kill -s SIGKILL ${primary}` : `netem-${primary}: iptables DROP to/from ${others} (clients and mongos still reach it)`;
    const heal = p.how === 'kill' ? `docker compose start ${primary}` : `netem-${primary}: remove the DROP rules`;
    const lines = [
      `primary now: ${primary}${live.primary ? '' : ' (decided at run time: the shard primary then)'}; write concern w:${p.w}; fault: ${p.how}`,
      `1. ${p.writers} writers through mongos insert {_id: n} with unique increasing n, each write recorded ok / fail / indeterminate (history.ndjson)`,
      `2. after ${p['load-seconds']} s of load: ${fault}`,
      `3. wait for a new primary, ${p['load-seconds']} s more load, then heal: ${heal}`,
      `4. wait until one member is PRIMARY, every other SECONDARY, and ${primary} is within ${HEALED_LAG} s of the new primary (it rolled back what the others never had), stop the writers`,
      '5. read every id with readConcern majority through mongos; Jepsen set checker: ok / lost / unexpected / recovered',
      `6. list rollback files on ${primary}: /data/db/rollback/<collection uuid>/removed.*.bson`,
      'expected: w:majority loses nothing; w:1 may lose acknowledged writes (listed, with the rollback files that hold them); no new primary seen = no verdict (UNKNOWN)',
    ];
    const m = live.primary;
    const actions = !m ? [] : p.how === 'kill'
      ? [{ op: 'kill', args: { member: m } }, { op: 'start', args: { member: m } }, { op: 'ls-rollback', args: { member: m } }]
      : [{ op: 'netem-partition', args: { member: m, others: live.others.join(',') } }, { op: 'netem-heal', args: { member: m } }, { op: 'ls-rollback', args: { member: m } }];
    return { lines, actions };
  },

  async ready(ctx) {
    const st = await ctx.members.status();
    const p = st && d.primaryOf(st.status);
    if (!p) throw new Error(`could not find the shard's primary; ./run.sh status --engine ${ctx.env.engine.engine}`);
    ctx.state.primary = d.shortName(p.name);
    ctx.state.others = d.memberNames(ctx.env).filter((x) => x !== ctx.state.primary);
    ctx.say(`primary now: ${ctx.state.primary}`);
  },

  async apply(ctx) {
    const { w, how } = ctx.params;
    const client = ctx.mongos();
    await setcheck.reset(client);
    // reset swallows its errors: with mongos silent it returns only after server selection gave
    // up twice, by when a stop may have healed the run; writers started now would run on after it
    if (ctx.signal.aborted) throw ctx.signal.reason;
    ctx.state.history = path.join(ctx.run.dir, 'history.ndjson');
    ctx.state.stopWriters = false;
    ctx.state.writing = setcheck.runWriters({
      client, w, writers: Number(ctx.params.writers), seconds: 3600, historyFile: ctx.state.history,
      shouldStop: () => ctx.state.stopWriters, log: ctx.say,
    });
    await watchStep(ctx, 'never', Number(ctx.params['load-seconds']), 'load');
    const m = ctx.state.primary;
    ctx.say(`fault: ${how} ${m}`);
    ctx.state.faulted = true;
    if (how === 'kill') await ctx.docker.ask('kill', { member: m });
    else await ctx.docker.ask('netem-partition', { member: m, others: ctx.state.others.join(',') });
  },

  async watch(ctx) {
    const m = ctx.state.primary;
    ctx.state.failover = await watchStep(ctx, `primary-not=${m}`, Number(ctx.params['failover-seconds']), 'failover', { step: 'failover' });
    await watchStep(ctx, 'never', Number(ctx.params['load-seconds']), 'new-primary');
    await this.undo(ctx);
    await watchStep(ctx, 'healthy', 300, 'recovery', { step: 'recovery' });
    // The old primary can look SECONDARY before it has found its divergence; it can only come
    // within 2 s of the new primary (writers still running) after it rolled back.
    await watchStep(ctx, `lag<${HEALED_LAG}`, 300, 'caught-up', { member: m, step: 'caught-up' });
    await this.stopWriters(ctx);
    const outcomes = setcheck.readHistory(ctx.state.history);
    const client = ctx.mongos();
    const check = d.checkSet(outcomes, await setcheck.finalRead(client));
    check.collectionUuid = await setcheck.collectionUuid(client).catch(() => null);
    ctx.step('check', check);
    ctx.state.check = check;
    ctx.say(`set checker: ${check.attemptCount} attempted, ${check.acknowledgedCount} acknowledged, ok ${check.okCount}, lost ${check.lostCount}, unexpected ${check.unexpectedCount}, recovered ${check.recoveredCount}`);
    if (check.lostCount) ctx.say(`lost ids: ${d.intervalSetString(check.lost)}`);
    const ls = await ctx.docker.ask('ls-rollback', { member: m }, { allowFail: true });
    ctx.state.rollbackFiles = ls.output.split('\n').filter(Boolean);
    if (ctx.state.rollbackFiles.length) ctx.say(`rollback files on ${m}: ${ctx.state.rollbackFiles.join(' ')}`);
  },

  // always: undo the fault if still in force, stop the writers
  async heal(ctx) {
    await this.undo(ctx);
    await this.stopWriters(ctx, { inHeal: true });
  },

  verdict(ctx) {
    const s = ctx.state;
    const fo = s.failover || {};
    const observed = fo.reached === true && Boolean(fo.primary) && fo.primary !== s.primary;
    const failover = { observed, newPrimary: observed ? fo.primary : null, primariesSeen: fo.primariesSeen || [] };
    if (!s.check) return { result: 'unknown', line: `failover w:${ctx.params.w}: the set checker did not run`, evidence: { failover } };
    const v = verdicts.failoverVerdict({ w: ctx.params.w, check: s.check, oldPrimary: s.primary,
      keepsData: ctx.env.engine.keeps_data, how: ctx.params.how, rollbackFiles: s.rollbackFiles, failover });
    return {
      result: v.result,
      line: v.verdict.replace(/^[A-Z]+: /, ''),
      evidence: { old_primary: s.primary, failover, lost: s.check.lost.slice(0, 100),
        unexpected: s.check.unexpected.slice(0, 100),
        counts: { attempted: s.check.attemptCount, acknowledged: s.check.acknowledgedCount, ok: s.check.okCount,
        lost: s.check.lostCount, unexpected: s.check.unexpectedCount, recovered: s.check.recoveredCount },
        rollback_files: s.rollbackFiles || [] },
    };
  },

  // ---- helpers of this scenario ----
  async undo(ctx) {
    if (!ctx.state.faulted) return;
    const m = ctx.state.primary;
    if (ctx.params.how === 'kill') await ctx.docker.ask('start', { member: m });
    else await ctx.docker.ask('netem-heal', { member: m });
    ctx.state.faulted = false;
  },

  // stopWriters(ctx, {inHeal}): each writer sees the stop before its next write and the writes in
  // flight are waited for. Before the check (the cluster healthy again) that wait is the writes'
  // own (wtimeoutMS, server selection), and a signal bounds it (runner.js stopMs). In the heal it
  // is bounded by ctx.bounds.inFlightMs (runner.js BOUNDS: a server that stops answering never
  // ends them, and the driver does not either): past it the writes are abandoned and named, and
  // the process exits without their outcome.
  async stopWriters(ctx, { inHeal = false } = {}) {
    ctx.state.stopWriters = true;
    if (!ctx.state.writing) return;
    const writing = ctx.waitFor('the writers (stopping: their writes in flight through mongos)', ctx.state.writing);
    const r = inHeal ? await within(writing, ctx.bounds.inFlightMs) : { settled: true, value: await writing };
    ctx.state.writing = null;
    if (!r.settled) {
      ctx.abandon(`heal: the writers did not stop within ${ctx.bounds.inFlightMs / 1000} s (a member is not answering)`, 'their writes in flight through mongos, abandoned (history.ndjson has no outcome for them)');
      return;
    }
    if (r.error) throw r.error;
    ctx.say(`writers: done: ${r.value.attempted} attempted, ok ${r.value.ok}, fail ${r.value.fail}, indeterminate ${r.value.info}`);
  },
};
