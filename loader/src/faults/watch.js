'use strict';
// The once-a-second look at the shard (replSetGetStatus from every member, oplog windows, flow
// control), shared by the old one-shot `lab-fault watch` and the scenario modules: one console
// line and one timeline row per tick until a condition holds or the time is up.
// Conditions: lag>=N, lag<N, state=A|B, rolled-past, primary-not=X, healthy (one member PRIMARY,
// every other SECONDARY, for 3 ticks in a row), never (just record until the timeout).
const d = require('./decisions');
const tables = require('../../../common/tables');
const { setTimeout: defaultSleep } = require('node:timers/promises');

function parseUntil(s) {
  let m;
  if ((m = /^lag(>=|<)(\d+(?:\.\d+)?)$/.exec(s))) return { kind: `lag${m[1]}`, n: Number(m[2]), needsMember: true };
  if ((m = /^state=([A-Z0-9|]+)$/.exec(s))) return { kind: 'state', states: m[1].split('|'), needsMember: true };
  if (s === 'rolled-past') return { kind: 'rolled-past', needsMember: true };
  if ((m = /^primary-not=([\w.-]+)$/.exec(s))) return { kind: 'primary-not', not: m[1] };
  if (s === 'healthy') return { kind: 'healthy' };
  if (s === 'never') return { kind: 'never' };
  const e = new Error(`unknown --until '${s}'`);
  e.usage = true;
  throw e;
}

const serverFlowControl = (m, primaryName) =>
  m.admin(primaryName, { serverStatus: 1 }).then((ss) => ss.flowControl || null).catch(() => null);

// short(name): a member's name on the console without the set's own prefix ("a" for <set>-a).
function shortener() {
  let prefix = '';
  try { prefix = `${tables.shardSet().name}-`; } catch { /* no table: full names */ }
  return (k) => (prefix && k.startsWith(prefix) ? k.slice(prefix.length) : k);
}

// tickLine(...): a watched tick's line: the member's lag and state, every member's state, the
// oplog windows, flow control.
function tickLine({ member, lag, mstate, states, windows, fc, short, label, why }) {
  const lagTxt = member ? ` ${member} ${lag && lag.known ? `lag ${lag.lagSeconds.toFixed(0)} s` : `lag ? (${lag ? lag.reason : 'no status'})`} ${mstate || '?'} |` : '';
  const stTxt = Object.entries(states).map(([k, s]) => `${short(k)} ${s.state}`).join(' ');
  const opTxt = windows.map((w) => `${short(w.member)} ${d.windowSeconds(w) ?? '?'}s`).join(' ');
  const fcTxt = fc ? (fc.isLagged ? 'flow control ENGAGED' : 'flow control idle') : 'flow control ?';
  return `${new Date().toISOString().slice(11, 19)} [${label}]${lagTxt} ${stTxt || 'no member answers'} | oplog window ${opTxt || '?'} | ${fcTxt}${why ? ` | ${why}` : ''}`;
}

// healthySet(states): one member PRIMARY, every other SECONDARY, none unreachable. A set of
// SECONDARYs takes no write: a primary that stepped down when it could see no majority leaves one
// until the election (8.0's electionTimeoutMillis, 10 s, and an offset, after the others are
// back), and a write after heal would fail "not primary".
function healthySet(states) {
  const all = Object.values(states);
  return all.length > 0 && all.every((s) => ['PRIMARY', 'SECONDARY'].includes(s.state) && s.health !== 0) &&
    all.filter((s) => s.state === 'PRIMARY').length === 1;
}

// freshResult(until, member, phase): a watch's result before its first tick.
const freshResult = (until, member, phase) => ({ condition: until, member, phase, reached: false,
  peakLagSeconds: null, lastLagSeconds: null, flowControlEverLagged: false, ticks: 0, primariesSeen: [] });

// watchUntil(m, {until, member, timeoutS, phase, optime, say, timeline, sleep}) -> result:
// {reached, peakLagSeconds, lastLagSeconds, flowControlEverLagged, ticks, finalState, primary,
// primariesSeen, windows, flowControl, elapsedSeconds}. sleep may reject (an aborted run).
async function watchUntil(m, { until, member = null, timeoutS, phase = '', optime = null, say = () => {}, timeline = () => {}, sleep = defaultSleep }) {
  const cond = parseUntil(until);
  const short = shortener();
  const started = Date.now();
  const res = freshResult(until, member, phase);
  let healthyTicks = 0;
  for (;;) {
    const tick = Date.now();
    const st = await m.status();
    const status = st && st.status;
    const primary = status && d.primaryOf(status);
    const states = status ? d.memberStates(status) : {};
    const lag = member && status ? d.memberLag(status, member) : null;
    // oplog windows of every member that can answer (a stopped one would cost a timeout)
    const live = m.hosts.filter((h) => ['PRIMARY', 'SECONDARY', 'RECOVERING'].includes((states[d.shortName(h)] || {}).state));
    const windows = await m.windows(live);
    const fcRaw = primary ? await serverFlowControl(m, primary.name) : null;
    const fc = status ? d.interpretFlowControl({ flowControl: fcRaw, status }) : null;
    if (fc && fc.isLagged) res.flowControlEverLagged = true;
    if (lag && lag.known) {
      res.lastLagSeconds = lag.lagSeconds;
      res.peakLagSeconds = Math.max(res.peakLagSeconds ?? 0, lag.lagSeconds);
    }
    const primaryName = primary ? d.shortName(primary.name) : null;
    if (primaryName && !res.primariesSeen.includes(primaryName)) res.primariesSeen.push(primaryName);
    const row = {
      t: new Date(tick).toISOString(),
      phase,
      seenFrom: st ? st.from : null,
      primary: primaryName,
      ...(member ? { member, lagSeconds: lag ? lag.lagSeconds : null,
        lagNote: lag && !lag.known ? lag.reason : undefined } : {}),
      members: states,
      oplog: Object.fromEntries(windows.map((w) => [w.member, { first: w.first, last: w.last,
        windowSeconds: d.windowSeconds(w), maxSizeMB: w.maxSizeMB, ...(w.error ? { error: w.error } : {}) }])),
      majorityLagSeconds: fc ? fc.majorityLagSeconds : null,
      flowControl: fcRaw ? { enabled: fcRaw.enabled, isLagged: fcRaw.isLagged,
        targetRateLimit: fcRaw.targetRateLimit } : null,
    };
    let met = false;
    let why = '';
    const mstate = member ? (states[d.shortName(m.resolve(member))] || {}).state : null;
    switch (cond.kind) {
      case 'lag>=': met = Boolean(lag && lag.known && lag.lagSeconds >= cond.n); break;
      case 'lag<': met = Boolean(lag && lag.known && lag.lagSeconds < cond.n); break;
      case 'state': met = cond.states.includes(mstate); break;
      case 'primary-not': met = Boolean(primaryName && primaryName !== cond.not); break;
      case 'healthy': {
        // 3 ticks in a row: other members' view of a member is heartbeat based (every 2 s), so
        // one healthy tick right after a restart may still be the view from before it.
        healthyTicks = healthySet(states) ? healthyTicks + 1 : 0;
        met = healthyTicks >= 3;
        break;
      }
      case 'rolled-past': {
        const others = windows.filter((w) => w.host !== m.resolve(member));
        const past = others.length === m.hosts.length - 1 ? d.rolledPast(others, optime) : null;
        row.rolledPast = past;
        met = past === true;
        why = others.map((w) => `${w.member} oldest ${w.first ? d.tsString(w.first) : '?'} ${w.first && d.oplogCovers(w, optime) ? 'still holds it' : 'past it'}`).join(', ');
        break;
      }
    }
    timeline(row);
    res.ticks++;
    res.finalState = mstate;
    res.primary = primaryName;
    res.windows = windows;
    res.flowControl = fc;
    say(tickLine({ member, lag, mstate, states, windows, fc, short, label: phase || cond.kind, why }));
    if (met) {
      res.reached = true;
      break;
    }
    if ((Date.now() - started) / 1000 >= timeoutS) break;
    await sleep(Math.max(0, 1000 - (Date.now() - tick)));
  }
  res.elapsedSeconds = Math.round((Date.now() - started) / 1000);
  if (res.flowControl) say(`flow control: ${res.flowControl.explanation}`);
  return res;
}

// watchStep(ctx, until, timeoutS, phase, {member, step, optime}): watchUntil as a scenario runs it,
// on its run's members, lines, timeline and signal (member: ctx.state.member unless given); with
// step, the result is also recorded as that step (ctx.step).
async function watchStep(ctx, until, timeoutS, phase, { member = ctx.state.member, step = null, optime = null } = {}) {
  const r = await watchUntil(ctx.members, { until, member, timeoutS, phase, optime, say: ctx.say,
    timeline: ctx.timeline, sleep: (ms) => defaultSleep(ms, undefined, { signal: ctx.signal }) });
  if (step) ctx.step(step, r);
  return r;
}

module.exports = { watchUntil, watchStep, parseUntil };
