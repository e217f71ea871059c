#!/usr/bin/env node
'use strict';
// lab-fault: the Node side of ./run.sh fault|resync (issue 5). lib/fault.sh runs it in a container
// on the stack's network (service fault-tool in compose/faults.yml), one subcommand per step:
//   state      --member M [--expect SECONDARY]     member's live state; exit 2 if not as expected
//   pick-secondary [--prefer M]                      M if SECONDARY now, else another secondary
//   watch      --until COND [--member M] ...         one line + one timeline row per second until
//                                                    COND holds (exit 0) or --timeout (exit 3)
//   optime     --member M --out F                    member's last applied optime (before a stop)
//   optime-bound --out F                             primary's newest oplog entry (after the stop:
//                                                    an upper bound of the stopped member's optime)
//   oplog-size [--expect N]                          each member's oplog maxSize in MB (JSON);
//                                                    exit 4 when not every member has N MB
//   load       [--rate N] [--w W] [--max-seconds S] [--stop-file F]   background upserts via mongos
//                                                    (src/faults/load.js)
//   evidence   --member M --log F --result F        too-stale lines, member's own status, windows
//   summarize  --run-dir D --scenario stale-secondary [--param k=v ...]   summary.json
//                                                    + verdict (exit 1 on FAIL)
//   run SCENARIO [flags]                             the whole scenario in this one process
//                                                    (src/faults/process.js, scenarios/<name>.js:
//                                                    failover, resync, heal, replica-lag)
// Exit codes: 0 ok, 1 environment/runtime error, 2 usage, 3 condition not reached in time.
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const d = require('../src/faults/decisions');
const verdicts = require('../src/faults/verdicts');
const { Members, mongosClient } = require('../src/faults/cluster');
const tables = require('../src/tables');
const { watchUntil, parseUntil: parseUntilRaw } = require('../src/faults/watch');
const { runCommand, UsageError: RunUsageError } = require('../src/faults/process');
const { runLoad } = require('../src/faults/load');

const OPTIONS = {
  members: { type: 'string', default: tables.shardSet().hosts.join(',') }, // compose/topology.tsv
  mongos: { type: 'string', default: 'mongos:27017' },
  user: { type: 'string', default: 'root' },
  'password-file': { type: 'string', default: '/run/lab-secrets/root-password' },
  member: { type: 'string' },
  expect: { type: 'string' },
  until: { type: 'string' },
  timeout: { type: 'string', default: '600' },
  timeline: { type: 'string' },
  phase: { type: 'string', default: '' },
  result: { type: 'string' },
  'optime-file': { type: 'string' },
  out: { type: 'string' },
  w: { type: 'string', default: '1' },
  'max-seconds': { type: 'string', default: '1800' },
  'stop-file': { type: 'string' },
  log: { type: 'string' },
  'run-dir': { type: 'string' },
  scenario: { type: 'string' },
  param: { type: 'string', multiple: true, default: [] },
  'doc-bytes': { type: 'string', default: '1024' },
  batch: { type: 'string', default: '100' },
  keys: { type: 'string', default: '10000' },
  rate: { type: 'string', default: '2000' },
  prefer: { type: 'string' },
};

class UsageError extends Error {}
class NotReached extends Error {}

const say = (s) => process.stdout.write(`${s}\n`);

function need(opts, key) {
  if (opts[key] === undefined || opts[key] === '') throw new UsageError(`--${key} is required`);
  return opts[key];
}

function writeJson(file, obj) {
  if (!file) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(obj, null, 2)}\n`);
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

// ---- state / primary ------------------------------------------------------------------------------
async function cmdState(m, opts) {
  const member = need(opts, 'member');
  m.resolve(member); // unknown member: usage error
  const st = await m.status();
  if (!st) throw new Error('no shard member answers replSetGetStatus: is the stack up? (./run.sh status)');
  const mem = d.findMember(st.status, member);
  const state = mem ? mem.stateStr : 'not in the replica set config';
  const primary = d.primaryOf(st.status);
  say(`${member}: ${state} (primary ${primary ? d.shortName(primary.name) : 'none'}, seen from ${st.from})`);
  if (opts.expect && state !== opts.expect) {
    const secs = st.status.members.filter((x) => x.stateStr === 'SECONDARY').map((x) => d.shortName(x.name));
    throw new UsageError(`${member} is ${state}, not ${opts.expect}; current secondaries: ${secs.join(', ') || 'none'}`);
  }
}

// pick-secondary [--prefer M]: M if it is a SECONDARY now, else the first member that is.
async function cmdPickSecondary(m, opts) {
  const st = await m.status();
  if (!st) throw new Error('no shard member answers replSetGetStatus: is the stack up? (./run.sh status)');
  const secs = st.status.members.filter((x) => x.stateStr === 'SECONDARY').map((x) => d.shortName(x.name));
  if (!secs.length) throw new Error('the shard has no SECONDARY right now');
  say(opts.prefer && secs.includes(opts.prefer) ? opts.prefer : secs[0]);
}

// ---- watch (src/faults/watch.js) -----------------------------------------------------------------
async function cmdWatch(m, opts) {
  const cond = parseUntil(need(opts, 'until'));
  const member = opts.member;
  if (cond.needsMember) need(opts, 'member');
  if (member) m.resolve(member);
  const timeoutS = d.parseDuration(opts.timeout);
  if (timeoutS == null) throw new UsageError(`--timeout '${opts.timeout}' is not a duration`);
  const optime = cond.kind === 'rolled-past' ? d.toTs(readJson(need(opts, 'optime-file')).optime) : null;
  const tl = opts.timeline ? fs.openSync(opts.timeline, 'a') : null;
  let res;
  try {
    res = await watchUntil(m, { until: opts.until, member: member || null, timeoutS, phase: opts.phase, optime, say, timeline: (row) => tl !== null && fs.writeSync(tl, `${JSON.stringify(row)}\n`) });
  } finally {
    if (tl !== null) fs.closeSync(tl);
  }
  writeJson(opts.result, res);
  if (!res.reached && cond.kind !== 'never') throw new NotReached(`condition '${opts.until}' not reached within ${timeoutS} s`);
}

// ---- optimes and oplog ------------------------------------------------------------------------------
async function cmdOptime(m, opts) {
  const member = need(opts, 'member');
  const s = await m.selfStatus(member);
  const applied = s.optimes && s.optimes.appliedOpTime;
  const w = await m.window(member);
  const out = { member, source: 'own replSetGetStatus optimes.appliedOpTime', optime: d.toTs(applied), oplogLast: w.last, at: new Date().toISOString() };
  writeJson(need(opts, 'out'), out);
  say(`${member}: last applied ${d.tsString(out.optime)}, newest oplog entry ${d.tsString(w.last)}`);
}

async function cmdOptimeBound(m, opts) {
  const st = await m.status();
  const p = st && d.primaryOf(st.status);
  if (!p) throw new Error('no primary: cannot bound the stopped member optime');
  const w = await m.window(p.name);
  const out = { member: opts.member || null, source: `newest oplog entry of the primary ${d.shortName(p.name)} after the stop (upper bound of the stopped member's last optime)`, optime: w.last, at: new Date().toISOString() };
  writeJson(need(opts, 'out'), out);
  say(`stopped member's last optime is at most ${d.tsString(w.last)} (primary ${d.shortName(p.name)}'s newest entry after the stop)`);
}

// oplog-size [--expect N]: each member's oplog maxSize in MB (one JSON line, for people); with
// --expect the answer is the exit code (0: every member has N MB, 4: not), so bash reads no output.
async function cmdOplogSize(m, opts) {
  const out = {};
  for (const h of m.hosts) {
    try {
      out[d.shortName(h)] = (await m.window(h)).maxSizeMB;
    } catch {
      out[d.shortName(h)] = null;
    }
  }
  say(JSON.stringify(out));
  if (opts.expect !== undefined && !Object.values(out).every((mb) => mb === Number(opts.expect))) process.exitCode = 4;
}

// ---- load (src/faults/load.js), bounded by --max-seconds and the stop file ----------------------------
async function cmdLoad(opts) {
  // cluster.js reads passwordFile (the parsed flag is 'password-file')
  const client = mongosClient({ ...opts, passwordFile: opts['password-file'] });
  try {
    await runLoad({
      client, rate: Number(opts.rate), batch: Number(opts.batch), keys: Number(opts.keys), docBytes: Number(opts['doc-bytes']), w: opts.w,
      maxSeconds: Number(opts['max-seconds']), shouldStop: () => Boolean(opts['stop-file'] && fs.existsSync(opts['stop-file'])), say,
    });
  } finally {
    await client.close();
  }
}

// ---- stale-secondary evidence ---------------------------------------------------------------------
async function cmdEvidence(m, opts) {
  const member = need(opts, 'member');
  const lines = fs.existsSync(need(opts, 'log')) ? fs.readFileSync(opts.log, 'utf8').split('\n') : [];
  const ev = d.tooStaleEvidence(lines);
  let self = null;
  try {
    const s = await m.selfStatus(member);
    const me = s.members.find((x) => x.self);
    self = { myState: s.myState, stateStr: me && me.stateStr, infoMessage: me && me.infoMessage, optime: me && d.toTs(me.optime), optimeDate: me && me.optimeDate };
  } catch (e) {
    self = { error: e.message.split('\n')[0] };
  }
  const others = m.hosts.filter((h) => h !== m.resolve(member));
  const windows = await m.windows(others);
  const out = { member, self, windows, logLines: ev.lines, tooStale: ev.tooStale, candidateRejected: ev.candidateRejected, initialSync: ev.initialSync, legacy: ev.lines.some((l) => l.legacy) };
  writeJson(need(opts, 'result'), out);
  say(`evidence for ${member}:`);
  say(`  state (its own view): ${self.stateStr ?? self.error}; infoMessage: "${self.infoMessage ?? ''}"`);
  say(`  its last optime: ${self.optime ? d.tsString(self.optime) : '?'}`);
  const before = tryJson(path.join(path.dirname(opts.result), 'step-optime-before-stop.json'));
  const bound = opts['optime-file'] ? tryJson(opts['optime-file']) : null;
  if (before) say(`  recorded just before the stop: last applied ${d.tsString(before.optime)}`);
  if (bound) say(`  upper bound after the stop (primary's newest entry): ${d.tsString(bound.optime)}`);
  out.optimeBeforeStop = before ? before.optime : null;
  out.optimeBound = bound ? bound.optime : null;
  writeJson(opts.result, out);
  for (const w of windows) say(`  ${w.member} oplog window: ${d.tsString(w.first)} .. ${d.tsString(w.last)} (${d.windowSeconds(w) ?? '?'} s, max ${w.maxSizeMB ?? '?'} MB)`);
  for (const l of ev.lines) say(`  log: ${l.line}`);
  if (!ev.lines.length) say('  log: no too-stale or initial-sync line found');
}

// ---- summary ----------------------------------------------------------------------------------------
function tryJson(file) {
  try {
    return readJson(file);
  } catch {
    return null;
  }
}

function cmdSummarize(opts) {
  const dir = need(opts, 'run-dir');
  const scenario = need(opts, 'scenario');
  const params = Object.fromEntries(opts.param.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
  const steps = {};
  for (const f of fs.readdirSync(dir)) if (f.startsWith('step-') && f.endsWith('.json')) steps[f.slice(5, -5)] = tryJson(path.join(dir, f));
  let v;
  if (scenario === 'stale-secondary') {
    const ev = steps.evidence || {};
    const state = steps['stale-state'] || {};
    v = verdicts.staleSecondaryVerdict({
      engine: params.engine,
      member: params.member,
      finalState: (ev.self && ev.self.stateStr) || state.finalState,
      evidence: { tooStale: ev.tooStale, initialSync: ev.initialSync, legacy: ev.legacy },
      rolledPast: (steps['stale-past'] || {}).reached === true,
      keepsData: (tables.engine(params.engine) || { keeps_data: true }).keeps_data,
    });
  } else {
    throw new UsageError(`unknown scenario '${scenario}'`);
  }
  const summary = {
    schema_version: 1,
    scenario,
    engine: params.engine,
    complete: true,
    params,
    finished: new Date().toISOString(),
    result: v.result ?? v.pass,
    pass: v.pass,
    verdict: v.verdict,
    steps,
    heal: `./run.sh fault heal --engine ${params.engine}`,
  };
  writeJson(path.join(dir, 'summary.json'), summary);
  say(`verdict: ${v.verdict}`);
  if (!v.pass) process.exitCode = 1;
}

// ---- main -------------------------------------------------------------------------------------------------
async function main(argv) {
  const [cmd, ...rest] = argv;
  if (cmd === 'run') {
    const r = await runCommand(rest);
    process.exitCode = r.code;
    return;
  }
  let opts;
  try {
    opts = parseArgs({ args: rest, options: OPTIONS, allowPositionals: false }).values;
  } catch (e) {
    throw new UsageError(e.message);
  }
  const m = new Members(opts.members.split(','), { user: opts.user, passwordFile: opts['password-file'] });
  try {
    switch (cmd) {
      case 'state': return await cmdState(m, opts);
      case 'pick-secondary': return await cmdPickSecondary(m, opts);
      case 'watch': return await cmdWatch(m, opts);
      case 'optime': return await cmdOptime(m, opts);
      case 'optime-bound': return await cmdOptimeBound(m, opts);
      case 'oplog-size': return await cmdOplogSize(m, opts);
      case 'load': return await cmdLoad(opts);
      case 'evidence': return await cmdEvidence(m, opts);
      case 'summarize': return cmdSummarize(opts);
      default: throw new UsageError(`unknown subcommand '${cmd ?? ''}' (see the header of bin/lab-fault.js)`);
    }
  } finally {
    await m.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    () => process.exit(process.exitCode || 0),
    (e) => {
      process.stderr.write(`lab-fault: ${e.message}\n`);
      process.exit(e instanceof UsageError || e instanceof RunUsageError || e.usage ? 2 : e instanceof NotReached ? 3 : 1);
    },
  );
}

// parseUntil: the watch grammar, its errors as this CLI's usage errors
function parseUntil(s) {
  try {
    return parseUntilRaw(s);
  } catch (e) {
    throw new UsageError(e.message);
  }
}

module.exports = { main, parseUntil, UsageError, NotReached };
