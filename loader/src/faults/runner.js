'use strict';
// The life of one fault scenario in one process: plan -> (dry run: show the docker actions and
// stop) -> results folder -> apply -> watch -> heal (always, even after an error or Ctrl-C;
// every wait after a signal and the heal itself bounded, BOUNDS below; a second signal exits at
// once) -> verdict -> summary.json through the experiments' results writer. A scenario module's
// contract and the exit codes: DEVELOPERS.md "Adding a fault" (130 for SIGINT or SIGTERM alike:
// lib/common.sh's 'interrupted', what lib/fault-bridge.sh returns for both).
const path = require('node:path');
const { openFaultRun, writeStep } = require('./run-folder');
const { EventEmitter } = require('node:events');
const { onStopSignals } = require('../stop-signals');

class Aborted extends Error {}

// verdictOf(scenario, ctx, {complete, why}): the scenario's verdict; a run that did not finish can
// still prove false (e.g. w:majority lost a write) but never true, so true becomes unknown.
function verdictOf(scenario, ctx, { complete, why }) {
  let v;
  try {
    v = scenario.verdict(ctx);
  } catch (e) {
    v = { result: 'unknown', line: `no verdict: ${e.message}`, evidence: {} };
  }
  if (![true, false, 'unknown'].includes(v.result)) throw new Error(`${scenario.name}: verdict result must be true, false or 'unknown'`);
  if (!complete) v = { ...v, result: v.result === true ? 'unknown' : v.result, line: `${v.line} (the run did not finish: ${why})` };
  return v;
}

const WORD = { true: 'PASS', false: 'FAIL', unknown: 'UNKNOWN' };

// Every wait after a signal, and the heal itself, is bounded. A server that stops answering (a
// frozen member, a paused container, a host gone quiet) keeps its TCP connections open and never
// replies, so nothing in the driver ends an operation already sent to it: serverSelectionTimeoutMS
// bounds finding a server, not a reply; mongos's client sets no socketTimeoutMS (a write under a
// fault may rightly take long); a member's direct client has socketTimeoutMS 5 s (cluster.js), but
// a watch tick asks several things of it in turn. Past a bound the wait is abandoned, said in one
// line naming what is left, and recorded (summary.json `left`); the process then exits on its own.
//   inFlightMs  the load's or the writers' operation in flight when they are told to stop
//               (load.js stopLoad, failover stopWriters): they see the stop within 200 ms and a
//               batch takes milliseconds on a server that answers
//   stopMs      apply/watch to end once the run is aborted (a watch tick between looks ends at
//               once; one waiting on a frozen member is abandoned and the heal runs beside it)
//   healMs      the whole heal: docker actions run by bash (compose start/up/unpause, the netem
//               sidecar: seconds each), member commands (driver timeouts above), the load's stop
//   closeMs     closing the clients: with mongos frozen mid-write, the 6.16 driver line's close
//               (the 4.0 engine's) was still waiting after 8 s; 7.8's and 6.9's return at once
const BOUNDS = { inFlightMs: 5000, stopMs: 5000, healMs: 60000, closeMs: 2000 };

// within(promise, ms) -> {settled: true, value} | {settled: true, error} | {settled: false}: the
// promise's outcome, or none after ms (the promise is left running; its timer is cleared).
async function within(promise, ms) {
  let t;
  const timeout = new Promise((resolve) => { t = setTimeout(() => resolve({ settled: false }), ms); });
  try {
    const settled = promise.then((value) => ({ settled: true, value }), (error) => ({ settled: true, error }));
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(t);
  }
}

const secs = (ms) => `${ms / 1000} s`;

// scenarioContext(...) -> { ctx, kept }: the ctx a scenario's parts get (see runScenario), and
// what runScenario reads back of it: kept.pending (the waits not answered yet, by name),
// kept.left and kept.abandoned (abandon's). ctx.run is the run's folder once it is opened.
async function scenarioContext({ params, env, docker, say, controller, limits, makeContext }) {
  const kept = { pending: new Map(), left: [], abandoned: null };
  let nextWait = 0;
  const waitFor = (what, promise) => {
    const k = nextWait++;
    kept.pending.set(k, what);
    const done = () => kept.pending.delete(k);
    promise.then(done, done);
    return promise;
  };
  const ctx = {
    params, env, say, signal: controller.signal, state: {}, bounds: limits, waitFor,
    docker: { ask: (op, args = {}, opts) => waitFor(`docker ${[op, ...Object.values(args)].join(' ')} (asked of bash, not answered)`, docker.ask(op, args, opts)) },
    // healFailed false: what was left is not the heal's undoing (the write load's last batch, on
    // a host too busy to answer it in time): recorded as left, the run complete, its verdict kept
    abandon: (what, l, { healFailed = true } = {}) => {
      say(`${what}; left: ${l}`);
      kept.left.push(l);
      if (healFailed) kept.abandoned = kept.abandoned || what.replace(/^heal: /, '');
    },
    timeline: (row) => ctx.run.timeline(row),
    step: (name, obj) => writeStep(ctx.run, name, obj),
    ...(await makeContext({ params, env, signal: controller.signal, say })),
  };
  return { ctx, kept };
}

// bodyContext(ctx, signal): the ctx apply and watch get. After a stop the heal can run beside
// them (stopMs), and they may still go on: a step that outlives its server's silence (a drop that
// swallows its own error after server selection gives up) and then applies the fault or starts a
// load. Had they the same ctx, the primary would be killed, a member fsync-locked or a load
// started for an hour after it was healed. So once the run is stopped, what they ask of bash
// (docker), of a member (admin: fsyncLock, failpoints) or of mongos (a new client for a load) is
// refused with the stop's reason; reads of the members still answer. The heal gets ctx itself.
function bodyContext(ctx, signal) {
  const refuse = () => Promise.reject(signal.reason);
  const members = ctx.members && new Proxy(ctx.members, {
    get(target, key) {
      if (key === 'admin') return (...a) => (signal.aborted ? refuse() : target.admin(...a));
      const v = Reflect.get(target, key);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return {
    ...ctx,
    docker: { ask: (...a) => (signal.aborted ? refuse() : ctx.docker.ask(...a)) },
    ...(ctx.members ? { members } : {}),
    ...(ctx.mongos ? { mongos: () => { if (signal.aborted) throw signal.reason; return ctx.mongos(); } } : {}),
  };
}

// listenSignals({signals, relayed, say, controller}) -> heard: { signalled, forced, forcedSignal, off() }:
// signalled, the first signal's name (the scenario is aborted); forced, a second one's
// (forcedSignal resolves with { forced }).
function listenSignals({ signals, relayed, say, controller }) {
  const heard = { signalled: null, forced: null };
  // A first signal aborts the scenario and heals; a second one (the heal seems stuck to whoever
  // sends it) ends the run at once: the summary names what was still pending, the process exits.
  // One signal can arrive twice, by two paths: sent to run.sh's whole process group (Ctrl-C,
  // timeout(1), kill -- -PGID), it reaches `docker compose run`, which forwards every signal to
  // this container (docker/compose v2.40.3 pkg/compose/run.go RunOneOffContainer,
  // ForwardAllSignals), and bash, which relays it on stdin (lib/fault-bridge.sh). So the paths
  // are counted apart: a second signal is a second one on the same path. Counting both as one
  // made every group signal a "second signal": the run exited at once and healed nothing
  // (src/stop-signals.js, once per path).
  let force;
  heard.forcedSignal = new Promise((resolve) => { force = resolve; });
  const onPath = (emitter) => {
    let seen = 0;
    return onStopSignals({
      signals: emitter,
      stopping: () => seen++ > 0,
      stop: (sig) => {
        if (heard.signalled) return;
        heard.signalled = sig;
        say(`${sig}: stopping the scenario, healing, writing the summary`);
        controller.abort(new Aborted(`interrupted (${sig})`));
      },
      force: (sig) => {
        if (!heard.forced) { heard.forced = sig; force({ forced: sig }); }
      },
    });
  };
  const relayedAsSignals = new EventEmitter();
  const relay = (sig) => relayedAsSignals.emit(sig);
  if (relayed) relayed.on('signal', relay);
  const offSignals = [onPath(signals), onPath(relayedAsSignals)];
  heard.off = () => {
    for (const off of offSignals) off();
    if (relayed) relayed.off('signal', relay);
  };
  return heard;
}

function writeSummary(run, scenario, { env, params, started, complete, why, healError, left, v }) {
  run.summary({
    scenario: scenario.name,
    engine: env.engine.engine,
    complete,
    ...(complete ? {} : { why: why || `heal failed: ${healError}` }),
    params,
    started: started.toISOString(),
    finished: new Date().toISOString(),
    result: v.result,
    pass: v.result === true, // what smoke and older readers look for
    verdict: `${WORD[v.result]}: ${v.line}`,
    evidence: v.evidence,
    ...(healError ? { heal_error: healError } : {}),
    ...(left.length ? { left } : {}),
    heal: `./run.sh fault heal --engine ${env.engine.engine}`,
  }, { final: true });
}

// readyAndPlan(scenario, ctx, ...) -> { plan } to run, or { code } when the run ends here (ready
// failed on a real run, or a dry run, which only says its plan).
async function readyAndPlan(scenario, ctx, { params, env, docker, say, dryRun, limits }) {
  // ready: live, read-only checks (who is primary? is the member a secondary?) before the plan,
  // so the plan names real members. A real run stops on an error here (exit 2 when the user's
  // choice is wrong, else 1) with nothing done and no folder; a dry run plans without them.
  if (scenario.ready) {
    try {
      await scenario.ready(ctx);
    } catch (e) {
      if (!dryRun) {
        if (ctx.close) await within(ctx.close(), limits.closeMs);
        say(`error: ${e.message}`);
        return { code: e.usage ? 2 : 1 };
      }
      say(`note: the live state is not readable now (${e.message.split('\n')[0]}); what depends on it is decided at run time`);
      ctx.state = {};
    }
  }
  const plan = scenario.plan(params, env, ctx.state);
  say('plan:');
  for (const l of plan.lines) say(`  ${l}`);
  if (dryRun) {
    // bash prints each as the exact docker command (and runs none); nothing else is touched
    for (const a of plan.actions || []) await docker.ask(a.op, a.args);
    if (ctx.close) await within(ctx.close(), limits.closeMs);
    return { code: 0 };
  }
  return { plan };
}

// runScenario(scenario, {params, env, docker, say, dryRun, resultsRoot, makeContext, signals, relayed, bounds})
//   env: {engine: <engines.tsv row>, shard: {name, hosts}}; makeContext(ctx) adds the cluster
//   handles (Members, mongos) a scenario uses; signals: the process to listen on (tests pass an
//   EventEmitter); relayed: the signals bash relays ('signal' events: the DockerPeer); bounds:
//   BOUNDS overridden (tests).
// ctx also carries, for the scenarios and load.js: bounds; waitFor(what, promise) (the promise,
// named while it is pending: a forced exit lists it as left; every docker request is one);
// abandon(what, left, {healFailed}) (one line `what; left: left`, recorded as left and, unless
// healFailed is false, as the heal's error).
async function runScenario(scenario, { params, env, docker, say, dryRun = false, resultsRoot,
  makeContext = async () => ({}), signals = process, relayed = null, bounds = {} }) {
  const controller = new AbortController();
  const limits = { ...BOUNDS, ...bounds };
  const { ctx, kept } = await scenarioContext({ params, env, docker, say, controller, limits, makeContext });
  const { pending, left } = kept;
  const prepared = await readyAndPlan(scenario, ctx, { params, env, docker, say, dryRun, limits });
  if (!prepared.plan) return prepared;
  const { plan } = prepared;
  const run = openFaultRun({ root: resultsRoot, scenario: scenario.name, engine: env.engine.engine, params,
    plan: plan.lines });
  ctx.run = run;
  // as the user sees it: results/... (the container mounts the repository's results/ there)
  say(`results: ${path.join(path.basename(resultsRoot), path.relative(resultsRoot, run.dir))}/`);
  const sig = listenSignals({ signals, relayed, say, controller });
  const { forcedSignal } = sig;
  let why = null;
  let healError = null;
  const started = new Date();
  let phase = 'apply';
  const inBody = bodyContext(ctx, controller.signal);
  const body = (async () => {
    await scenario.apply(inBody);
    if (controller.signal.aborted) throw controller.signal.reason;
    phase = 'watch';
    await scenario.watch(inBody);
    if (controller.signal.aborted) throw controller.signal.reason;
  })();
  // apply/watch end by themselves, or within stopMs of the abort (else they are left running)
  let stopTimer;
  const stopped = new Promise((resolve) => {
    const onAbort = () => { stopTimer = setTimeout(() => resolve({ stuck: true }), limits.stopMs); };
    if (controller.signal.aborted) onAbort();
    else controller.signal.addEventListener('abort', onAbort, { once: true });
  });
  const ended = await Promise.race([body.then(() => ({}), (error) => ({ error })), stopped, forcedSignal]);
  clearTimeout(stopTimer);
  if (ended.error) {
    why = controller.signal.aborted ? controller.signal.reason.message : `error: ${ended.error.message}`;
    say(`the scenario stopped early: ${why}`);
  } else if (ended.stuck || ended.forced) {
    why = controller.signal.reason.message;
    body.catch(() => {}); // it may still end, long after; nobody waits for it
    if (ended.stuck) say(`the scenario's ${phase} did not end within ${secs(limits.stopMs)} of ${sig.signalled} (still waiting on ${[...pending.values()].join(', ') || 'the cluster'}); healing beside it`);
  }
  let healStarted = false;
  if (!sig.forced) {
    healStarted = true;
    const healing = (async () => scenario.heal(ctx))();
    healing.catch(() => {}); // past its bound or a second signal it may still end; nobody waits for it
    const healed = await Promise.race([within(healing, limits.healMs), forcedSignal]);
    if (healed.settled === false) {
      const l = [...pending.values()].join(', ') || 'the rest of the heal';
      ctx.abandon(`heal: did not finish within ${secs(limits.healMs)}`, l);
    } else if (healed.error) {
      healError = healed.error.message;
      say(`heal failed: ${healed.error.message}; run ./run.sh fault heal --engine ${env.engine.engine}`);
    }
  }
  if (sig.forced) {
    // at once: what is still pending is named, nothing more is waited for (the process exits)
    const l = [...pending.values(), ...(healStarted ? [] : ['the heal (not started)'])];
    if (!l.length) l.push('the rest of the heal');
    say(`${sig.forced} again: exiting now, the heal unfinished; left: ${l.join(', ')}`);
    left.push(...l);
    why = `${why || `interrupted (${sig.signalled})`}; then forced to exit by a second signal (${sig.forced}) ${healStarted ? 'while healing' : 'before the heal'}`;
  }
  healError = healError || kept.abandoned;
  const complete = why === null && healError === null;
  const v = verdictOf(scenario, ctx, { complete, why: why || `heal failed: ${healError}` });
  writeSummary(run, scenario, { env, params, started, complete, why, healError, left, v });
  run.close();
  // closing the clients: bounded, and not at all after a second signal
  if (ctx.close && !sig.forced) await Promise.race([within(ctx.close(), limits.closeMs), forcedSignal]);
  sig.off();
  if (!complete) say(`the scenario stopped early. If anything is left (a stopped member, a lock, netem): ./run.sh fault heal --engine ${env.engine.engine}`);
  say(`verdict: ${WORD[v.result]}: ${v.line}`);
  return { code: sig.signalled ? 130 : v.result === true ? 0 : 1, result: v.result, dir: run.dir };
}

module.exports = { runScenario, verdictOf, within, BOUNDS };
