'use strict';
// Pure decisions of the fault scenarios: no I/O, no driver calls, so each one is unit
// tested against documents shaped like the server's own output (sources cited in
// loader/test/faults/decisions.test.js). lab-fault.js feeds them what it reads from the cluster.

// ---- Timestamps -----------------------------------------------------------------------------
// An oplog Timestamp arrives in three shapes: the driver's bson Timestamp (.t and .i since bson 5;
// every driver line installed carries bson 6 or 7), Extended JSON {$timestamp:{t,i}} as in
// mongod's JSON log lines, and a plain {t,i}. Everything is normalised to {t,i} (seconds since
// epoch, increment within the second).
function toTs(x) {
  if (x == null) return null;
  if (typeof x === 'object' && x.$timestamp) return { t: Number(x.$timestamp.t), i: Number(x.$timestamp.i) };
  if (typeof x === 'object' && x.ts !== undefined && x.t !== undefined && typeof x.ts === 'object') {
    return toTs(x.ts); // an OpTime {ts, t}: the term t is not part of the position in the oplog
  }
  if (typeof x === 'object' && 't' in x && 'i' in x) return { t: Number(x.t), i: Number(x.i) };
  throw new TypeError(`not a Timestamp: ${JSON.stringify(x)}`);
}

function compareTs(a, b) {
  const x = toTs(a);
  const y = toTs(b);
  return x.t - y.t || x.i - y.i;
}

function tsString(x) {
  const ts = toTs(x);
  return ts ? `Timestamp(${ts.t}, ${ts.i})` : 'null';
}

// ---- replSetGetStatus ---------------------------------------------------------------------------
function dateMs(d) {
  if (d == null) return null;
  if (d instanceof Date) return d.getTime();
  if (typeof d === 'object' && d.$date !== undefined) return dateMs(d.$date);
  if (typeof d === 'number') return d;
  const ms = Date.parse(d);
  return Number.isNaN(ms) ? null : ms;
}

// A member the reporting node cannot reach shows health 0, stateStr "(not reachable/healthy)",
// optime {ts: Timestamp(0, 0), t: -1} and optimeDate 1970-01-01: its last known position is NOT
// reported. Its lag is unknown, never "56 years".
function memberReachable(m) {
  return Boolean(m) && m.health !== 0 && dateMs(m.optimeDate) > 0;
}

function findMember(status, name) {
  return (status?.members || []).find((m) => m.name === name || m.name.split(':')[0] === name) || null;
}

function primaryOf(status) {
  return (status?.members || []).find((m) => m.stateStr === 'PRIMARY' || m.state === 1) || null;
}

function shortName(name) {
  return String(name).split(':')[0];
}
// memberNames(env): the shard's members as the scenarios name them (service names, no port).
const memberNames = (env) => env.shard.hosts.map(shortName);
// defaultMember(env): the SECONDARY replica-lag and stale-secondary take without --member.
const defaultMember = (env) => memberNames(env).at(-1);
// The scenarios' shared option checks, each failing with the one line the user sees (exit 2).
// checkMember: NAME, when given, is a shard member; checkWholeNumbers: each of KEYS given is whole.
function checkMember(env, name) {
  if (name !== undefined && !memberNames(env).includes(name)) throw new Error(`unknown member '${name}' (choose one of: ${memberNames(env).join(' ')})`);
}
function checkWholeNumbers(p, keys) {
  for (const k of keys) if (p[k] !== undefined && !/^[0-9]+$/.test(p[k])) throw new Error(`--${k} must be a whole number (got '${p[k]}')`);
}

// memberLag(status, name): lag of one member as replSetGetStatus reports it: primary optimeDate
// minus member optimeDate, in seconds. Heartbeat based (every 2 s), so a few seconds of error;
// fine against a 30 s threshold, and the reason "back under 2 s" is the healed criterion.
function memberLag(status, name) {
  const member = findMember(status, name);
  const primary = primaryOf(status);
  if (!member) return { member: name, known: false, lagSeconds: null, state: null, reason: 'not a member of this replica set' };
  const out = { member: shortName(member.name), state: member.stateStr, known: false, lagSeconds: null };
  if (!primary) return { ...out, reason: 'no primary: lag is measured against the primary' };
  if (!memberReachable(primary)) return { ...out, reason: 'primary not reachable from the reporting node' };
  if (!memberReachable(member)) {
    return { ...out, reason: `not reachable (health ${member.health}, optimeDate ${new Date(dateMs(member.optimeDate) ?? 0).toISOString()})` };
  }
  const lagMs = dateMs(primary.optimeDate) - dateMs(member.optimeDate);
  // optimeDate has one-second resolution (the Timestamp's seconds), so lag is whole seconds;
  // a member a heartbeat ahead of the primary's own view reads as 0, not negative.
  return { ...out, known: true, lagSeconds: Math.max(0, lagMs / 1000) };
}

// memberStates(status): {shortName: {state, health, lagSeconds|null}} for the timeline.
function memberStates(status) {
  return Object.fromEntries((status?.members || []).map((m) => [shortName(m.name), {
    state: m.stateStr, health: m.health, lagSeconds: memberLag(status, m.name).lagSeconds,
    ...(m.infoMessage ? { infoMessage: m.infoMessage } : {}),
  }]));
}

// majorityLagSeconds(status): how far the majority commit point trails the primary's last write
// (optimes.lastCommittedWallTime vs the primary's optimeDate). This is what flow control watches.
function majorityLagSeconds(status) {
  const primary = primaryOf(status);
  const committed = status && status.optimes && dateMs(status.optimes.lastCommittedWallTime);
  if (!primary || !memberReachable(primary) || committed == null) return null;
  return Math.max(0, (dateMs(primary.optimeDate) - committed) / 1000);
}

// pickStatusView([{from, status}]): which member's replSetGetStatus to believe. One that sees a
// primary, and of those the highest term: a primary cut off by a partition still reports itself
// PRIMARY (until it steps down, ~electionTimeoutMillis = 10 s) in the OLD term, while the majority
// side has elected a new one in a higher term.
function pickStatusView(views) {
  if (!views || views.length === 0) return null;
  const term = (v) => Number(v.status.term ?? -1);
  const withPrimary = views.filter((v) => primaryOf(v.status)).sort((a, b) => term(b) - term(a));
  return withPrimary[0] || views[0];
}

// ---- flow control -----------------------------------------------------------------------------
// Since 4.2 the primary throttles writes when the *majority commit point* lags more than
// flowControlTargetLagSeconds (default 10). With 3 data-bearing voting members the majority is 2:
// the primary plus the faster secondary. One slow secondary therefore never engages it; two do.
function interpretFlowControl({ flowControl, status, targetLagSeconds = 10 }) {
  const secondaries = ((status && status.members) || []).filter((m) => m.stateStr === 'SECONDARY');
  const lags = secondaries.map((m) => memberLag(status, m.name)).filter((l) => l.known);
  const lagging = lags.filter((l) => l.lagSeconds > targetLagSeconds).map((l) => l.member);
  const writeMajority = (status && status.writeMajorityCount) || 2;
  const dataMembers = ((status && status.members) || []).length || 3;
  // Members that may lag while a majority (primary + writeMajority-1 secondaries) stays current.
  const tolerated = Math.max(0, dataMembers - writeMajority);
  const fc = flowControl || {};
  const out = {
    enabled: fc.enabled !== false,
    isLagged: Boolean(fc.isLagged),
    targetRateLimit: fc.targetRateLimit ?? null,
    majorityLagSeconds: majorityLagSeconds(status),
    laggingSecondaries: lagging,
    expectEngaged: lagging.length > tolerated,
  };
  if (!out.enabled) {
    out.explanation = 'flow control is disabled (enableFlowControl=false): the primary never throttles';
  } else if (out.isLagged) {
    out.explanation = `flow control ENGAGED: majority commit point lags ${out.majorityLagSeconds ?? '?'} s > target ${targetLagSeconds} s; the primary is throttling writes (targetRateLimit ${out.targetRateLimit})`;
  } else if (out.expectEngaged) {
    out.explanation = `${lagging.length} secondaries lag > ${targetLagSeconds} s, more than the ${tolerated} a majority of ${writeMajority} tolerates: flow control should engage shortly`;
  } else {
    out.explanation = `not engaged: ${lagging.length} lagging secondary(ies), at most ${tolerated} may lag while the primary and ${writeMajority - 1} secondary keep the majority commit point current`;
  }
  return out;
}

// ---- oplog windows ------------------------------------------------------------------------------
// window = {member, first: Timestamp of the oldest oplog entry, last: newest} as read with
// local.oplog.rs.find().sort({$natural: 1}).limit(1) and sort({$natural: -1}).limit(1).
function windowSeconds(w) {
  if (!w || !w.first || !w.last) return null;
  return toTs(w.last).t - toTs(w.first).t;
}

// oplogCovers(window, optime): can a member whose last fetched entry is `optime` resume from this
// sync source? The server's rule (sync_source_resolver.cpp, log id 5579708): too stale when
// lastOpTimeFetched.ts < remote earliest ts. So the window covers it when first <= optime.
function oplogCovers(window, optime) {
  if (!window || !window.first) return null; // unknown: never guess
  return compareTs(window.first, optime) <= 0;
}

// rolledPast(windows, optime): true only when EVERY healthy member's oplog has dropped the
// member's last optime (it may sync from any of them); null when a window is unknown.
function rolledPast(windows, optime) {
  if (!windows || windows.length === 0) return null;
  let all = true;
  for (const w of windows) {
    const c = oplogCovers(w, optime);
    if (c === null) return null;
    if (c) all = false;
  }
  return all;
}

// ---- log lines ------------------------------------------------------------------------------------
// Too-stale evidence in mongod's log:
//  4.4+ structured JSON: id 21126 (bgsync.cpp, "Too stale to catch up. Entering maintenance mode",
//  attr lastOpTimeFetched / earliestOpTimeSeen) and id 5579708 (sync_source_resolver.cpp, "We are too
//  stale to use candidate as a sync source", attr candidate / lastOpTimeFetchedTimestamp /
//  remoteEarliestOpTimeTimestamp). 3.x-4.2 text logs (the mmapv1 and rocksdb engines' 4.0 and 3.6
//  lines): "too stale to catch up -- entering maintenance mode" (bgsync.cpp, error()). 2.4-era
//  text: "replSet error RS102 too stale to catch up".
const TOO_STALE_IDS = new Set([21126, 5579708]);

function parseLogLine(line) {
  const text = String(line).trim();
  // `docker compose logs` may prefix "service  | "; the JSON starts at the first "{".
  const brace = text.indexOf('{"t":');
  if (brace >= 0) {
    let doc;
    try {
      doc = JSON.parse(text.slice(brace));
    } catch {
      doc = null;
    }
    const ms = doc ? dateMs(doc.t) : null; // the line's time, as ISO text in each kind below
    const at = ms === null ? null : new Date(ms).toISOString();
    if (doc && TOO_STALE_IDS.has(doc.id)) {
      // 5579708 names the same two optimes differently, and the candidate it rejected
      const attr = doc.attr || {};
      const candidate = doc.id === 5579708;
      const fetched = candidate ? attr.lastOpTimeFetchedTimestamp : attr.lastOpTimeFetched;
      const earliest = candidate ? attr.remoteEarliestOpTimeTimestamp : attr.earliestOpTimeSeen;
      return {
        kind: candidate ? 'too-stale-candidate' : 'too-stale',
        id: doc.id,
        at,
        msg: doc.msg,
        ...(candidate ? { candidate: attr.candidate ?? null } : {}),
        lastOpTimeFetched: fetched ? toTs(fetched) : null,
        earliestOpTimeSeen: earliest ? toTs(earliest) : null,
        line: text.slice(brace),
      };
    }
    if (doc && typeof doc.msg === 'string' && /^(Starting initial sync attempt|Initial sync done)/.test(doc.msg)) {
      return { kind: 'initial-sync', id: doc.id, msg: doc.msg, at, line: text.slice(brace) };
    }
    if (doc) return null;
  }
  if (/RS102 too stale to catch up/.test(text)) return { kind: 'too-stale', id: 'RS102', legacy: true, line: text };
  if (/too stale to catch up -- entering maintenance mode/.test(text)) return { kind: 'too-stale', id: 'text', legacy: true, line: text };
  return null;
}

// tooStaleEvidence(lines): every too-stale / initial-sync line, and the verdict-relevant summary.
function tooStaleEvidence(lines) {
  const found = lines.map((l) => parseLogLine(l)).filter(Boolean);
  return {
    lines: found,
    tooStale: found.some((f) => f.kind === 'too-stale'),
    candidateRejected: found.some((f) => f.kind === 'too-stale-candidate'),
    initialSync: found.some((f) => f.kind === 'initial-sync'),
  };
}

// ---- Jepsen set checker -----------------------------------------------------------------------------
// Same definitions as jepsen/src/jepsen/checker.clj `set`:
//   attempts = every id written; adds = acknowledged ids; read = ids in the final majority read
//   ok = read ∩ attempts; lost = adds − read; unexpected = read − attempts; recovered = ok − adds
//   valid = no lost and no unexpected.
// outcomes: Map or object id -> 'ok' (acknowledged) | 'fail' (definitely not applied) | 'info'
// (indeterminate: timeout, network error, write concern error).
function checkSet(outcomes, finalRead) {
  const entries = outcomes instanceof Map ? [...outcomes.entries()] : Object.entries(outcomes)
    .map(([k, v]) => [Number(k), v]);
  const attempts = new Set();
  const adds = new Set();
  const failed = new Set();
  for (const [id, o] of entries) {
    attempts.add(id);
    if (o === 'ok') adds.add(id);
    else if (o === 'fail') failed.add(id);
    else if (o !== 'info') throw new Error(`unknown outcome '${o}' for id ${id}`);
  }
  const read = new Set(finalRead);
  const ok = [...read].filter((id) => attempts.has(id));
  const lost = [...adds].filter((id) => !read.has(id));
  const unexpected = [...read].filter((id) => !attempts.has(id));
  const recovered = ok.filter((id) => !adds.has(id));
  // Not in Jepsen's summary but worth saying: a write the driver called a definite failure that is
  // present after all means the error classification was wrong.
  const failedButPresent = recovered.filter((id) => failed.has(id));
  const sorted = (a) => [...a].sort((x, y) => x - y);
  return {
    valid: lost.length === 0 && unexpected.length === 0,
    attemptCount: attempts.size,
    acknowledgedCount: adds.size,
    failedCount: failed.size,
    indeterminateCount: attempts.size - adds.size - failed.size,
    readCount: read.size,
    okCount: ok.length,
    lostCount: lost.length,
    unexpectedCount: unexpected.length,
    recoveredCount: recovered.length,
    ok: intervalSetString(ok),
    lost: sorted(lost),
    unexpected: sorted(unexpected),
    recovered: sorted(recovered),
    failedButPresent: sorted(failedButPresent),
  };
}

// intervalSetString([0,1,2,5,7,8]) -> "#{0..2 5 7..8}" (Jepsen's util/integer-interval-set-str).
function intervalSetString(ids) {
  const s = [...new Set(ids)].sort((a, b) => a - b);
  const parts = [];
  let i = 0;
  while (i < s.length) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j] + 1) j++;
    parts.push(i === j ? `${s[i]}` : `${s[i]}..${s[j]}`);
    i = j + 1;
  }
  return `#{${parts.join(' ')}}`;
}

// classifyWriteError(err): 'fail' only when the write certainly never ran; otherwise 'info'.
// Server selection failed => nothing was sent. NotWritablePrimary (10107), NotPrimaryNoSecondaryOk
// (13435), NotPrimaryOrSecondary (13436) are refused before execution; mongos answers
// FailedToSatisfyReadPreference (133) when it found no shard primary to send the write to. Everything else — network
// errors, timeouts, write concern errors (the write is applied on the primary but not confirmed at
// the asked level), InterruptedDueToReplStateChange (11602) — may or may not have been applied.
const DEFINITE_FAILURE_CODES = new Set([10107, 13435, 13436, 133]);
function classifyWriteError(err) {
  if (!err) return 'ok';
  const name = err.name || (err.constructor && err.constructor.name) || '';
  if (name === 'MongoServerSelectionError') return 'fail';
  if (err.writeConcernError || name === 'MongoWriteConcernError') return 'info';
  if (typeof err.code === 'number' && DEFINITE_FAILURE_CODES.has(err.code)) return 'fail';
  return 'info';
}

// ---- small parsers -----------------------------------------------------------------------------------
// pickSecondary(status, {member, preferred}) -> {member, secondaries}: the given member, else the
// preferred one if it is a SECONDARY now, else the first SECONDARY (after a failover any member may
// be the primary). member is null when none fits; the caller refuses (a given non-secondary is the
// user's choice: a usage error).
function pickSecondary(status, { member = null, preferred = null } = {}) {
  const secondaries = ((status && status.members) || []).filter((x) => x.stateStr === 'SECONDARY').map((x) => shortName(x.name));
  const pick = member || (secondaries.includes(preferred) ? preferred : secondaries[0] || null);
  return { member: pick && secondaries.includes(pick) ? pick : null, wanted: pick, secondaries };
}

// parseDuration('30s' | '2m' | '90' | '1h') -> seconds; null when not a duration.
function parseDuration(s) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(String(s).trim());
  return m ? Number(m[1]) * { ms: 0.001, s: 1, m: 60, h: 3600 }[m[2] || 's'] : null;
}

module.exports = {
  toTs,
  compareTs,
  tsString,
  findMember,
  primaryOf,
  shortName,
  memberNames,
  defaultMember,
  checkMember,
  checkWholeNumbers,
  memberLag,
  memberStates,
  pickStatusView,
  interpretFlowControl,
  windowSeconds,
  oplogCovers,
  rolledPast,
  parseLogLine,
  tooStaleEvidence,
  checkSet,
  intervalSetString,
  classifyWriteError,
  parseDuration,
  pickSecondary,
};
