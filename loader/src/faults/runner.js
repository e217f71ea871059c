'use strict';
// The life of one fault scenario in one process: plan -> (dry run: show the docker actions and
// stop) -> results folder -> apply -> watch -> heal (always, even after an error or Ctrl-C) ->
// verdict -> summary.json through the experiments' results writer. A scenario is a module with
//   name, options (node:util parseArgs), check(params, env), plan(params, env) -> {lines, actions},
//   [ready(ctx)], apply(ctx), watch(ctx), heal(ctx), verdict(ctx) -> {result: true|false|'unknown', line, evidence}
// (DEVELOPERS.md "Adding a fault"). Exit codes: 0 verdict true, 1 false/unknown/error, 130 signal.
const path = require('node:path');
const { openFaultRun, writeStep } = require('./run-folder');

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

// runScenario(scenario, {params, env, docker, say, dryRun, resultsRoot, makeContext, signals})
//   env: {engine: <engines.tsv row>, shard: {name, hosts}}; makeContext(ctx) adds the cluster
//   handles (Members, mongos) a scenario uses; signals: the process to listen on (tests pass an
//   EventEmitter).
async function runScenario(scenario, { params, env, docker, say, dryRun = false, resultsRoot, makeContext = async () => ({}), signals = process }) {
  const controller = new AbortController();
  let run = null;
  const ctx = {
    params, env, docker, say, signal: controller.signal, state: {},
    timeline: (row) => run.timeline(row),
    step: (name, obj) => writeStep(run, name, obj),
    ...(await makeContext({ params, env, signal: controller.signal, say })),
  };
  // ready: live, read-only checks (who is primary? is the member a secondary?) before the plan,
  // so the plan names real members. A real run stops on an error here (exit 2 when the user's
  // choice is wrong, else 1) with nothing done and no folder; a dry run plans without them.
  if (scenario.ready) {
    try {
      await scenario.ready(ctx);
    } catch (e) {
      if (!dryRun) {
        if (ctx.close) await ctx.close();
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
    if (ctx.close) await ctx.close();
    return { code: 0 };
  }
  run = openFaultRun({ root: resultsRoot, scenario: scenario.name, engine: env.engine.engine, params, plan: plan.lines });
  ctx.run = run;
  // as the user sees it: results/... (the container mounts the repository's results/ there)
  say(`results: ${path.join(path.basename(resultsRoot), path.relative(resultsRoot, run.dir))}/`);
  let signalled = null;
  const onSignal = (sig) => {
    if (signalled) return; // the heal is running: let it finish (it is bounded)
    signalled = sig;
    say(`${sig}: stopping the scenario, healing, writing the summary`);
    controller.abort(new Aborted(`interrupted (${sig})`));
  };
  signals.on('SIGINT', onSignal);
  signals.on('SIGTERM', onSignal);
  let why = null;
  let healError = null;
  const started = new Date();
  try {
    await scenario.apply(ctx);
    if (controller.signal.aborted) throw controller.signal.reason;
    await scenario.watch(ctx);
    if (controller.signal.aborted) throw controller.signal.reason;
  } catch (e) {
    why = controller.signal.aborted ? controller.signal.reason.message : `error: ${e.message}`;
    say(`the scenario stopped early: ${why}`);
  } finally {
    try {
      await scenario.heal(ctx);
    } catch (e) {
      healError = e.message;
      say(`heal failed: ${e.message}; run ./run.sh fault heal --engine ${env.engine.engine}`);
    }
  }
  const complete = why === null && healError === null;
  const v = verdictOf(scenario, ctx, { complete, why: why || `heal failed: ${healError}` });
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
    heal: `./run.sh fault heal --engine ${env.engine.engine}`,
  }, { final: true });
  run.close();
  signals.off('SIGINT', onSignal);
  signals.off('SIGTERM', onSignal);
  if (ctx.close) await ctx.close();
  if (!complete) say(`the scenario stopped early. If anything is left (a stopped member, a lock, netem): ./run.sh fault heal --engine ${env.engine.engine}`);
  say(`verdict: ${WORD[v.result]}: ${v.line}`);
  return { code: signalled ? 130 : v.result === true ? 0 : 1, result: v.result, dir: run.dir };
}

// sleep(ms, signal): a wait that ends early (rejecting) when the run is aborted.
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => { signal && signal.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(t); reject(signal.reason); };
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
  });
}

module.exports = { runScenario, verdictOf, sleep };
