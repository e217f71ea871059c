'use strict';
// Verdicts of the fault scenarios: pure functions of what the run measured. Each returns
// {pass, verdict} where verdict is the one line printed at the end and stored in summary.json.
// "pass" means the scenario reproduced what it promises (or, where the engine makes that
// impossible, saw and explained the engine's expected behaviour); it never means "nothing happened".

const HEALED_LAG_SECONDS = 2;

function replicaLagVerdict({ member, method, thresholdSeconds, peakLagSeconds, healedLagSeconds, healError,
  flowControlEngaged }) {
  const reached = peakLagSeconds != null && peakLagSeconds >= thresholdSeconds;
  const healed = healedLagSeconds != null && healedLagSeconds < HEALED_LAG_SECONDS;
  const pass = reached && healed && !healError;
  const parts = [
    `${member} via ${method}: peak lag ${fmt(peakLagSeconds)} s (threshold ${thresholdSeconds} s) ${reached ? 'reached' : 'NOT reached'}`,
    healError ? `heal failed: ${healError}` : `after heal ${fmt(healedLagSeconds)} s (${healed ? `< ${HEALED_LAG_SECONDS} s` : `NOT under ${HEALED_LAG_SECONDS} s`})`,
  ];
  // Flow control engaging means the majority lagged too: not what one slow secondary should do.
  if (flowControlEngaged) parts.push('flow control ENGAGED (the majority commit point lagged: the primary was throttled)');
  return { pass, verdict: `${pass ? 'PASS' : 'FAIL'}: replica-lag ${parts.join('; ')}` };
}

// staleSecondaryVerdict: engine-aware through the engines table's keeps_data. On an engine that
// keeps no data (Percona's inMemory: nothing on disk) a restarted mongod comes back empty and
// initial-syncs by itself instead of reporting "too stale". That is the expected behaviour there,
// reported as such.
function staleSecondaryVerdict({ engine, member, finalState, evidence, rolledPast, keepsData = true }) {
  const ev = evidence || {};
  if (!keepsData) {
    if (ev.tooStale && finalState === 'RECOVERING') {
      return { pass: true, verdict: `PASS: stale-secondary on ${engine}: ${member} went RECOVERING and logged too stale (unexpected for an engine that keeps no data: it kept its data?)` };
    }
    const seen = ev.initialSync ? 'logged "Starting initial sync attempt"' : 'showed no initial-sync log line';
    const pass = ['SECONDARY', 'STARTUP2'].includes(finalState);
    return {
      pass,
      verdict: `${pass ? 'PASS (not applicable)' : 'FAIL'}: stale-secondary on ${engine}: ${member} restarted with no data (${engine} keeps nothing on disk), ${seen} and is ${finalState}; a too-stale RECOVERING state cannot happen on this engine`,
    };
  }
  if (rolledPast !== true) {
    return { pass: false, verdict: `FAIL: stale-secondary: the healthy members' oplogs never rolled past ${member}'s last optime; not stale (final state ${finalState})` };
  }
  if (finalState === 'RECOVERING' && ev.tooStale) {
    return { pass: true, verdict: `PASS: stale-secondary: ${member} is RECOVERING and logged "Too stale to catch up" (${ev.legacy ? 'RS102' : 'id 21126'}); recover it with ./run.sh resync ${member}` };
  }
  return {
    pass: false,
    verdict: `FAIL: stale-secondary: ${member} is ${finalState}, too-stale log line ${ev.tooStale ? 'seen' : 'NOT seen'}`,
  };
}

// failoverVerdict -> {result: true|false|'unknown', pass, verdict}. A failover verdict needs a
// failover: without an observed new primary nothing was tested, so the best it can say is
// unknown (a loss, or an id nobody wrote, is still false). keepsData: the engines table's
// keeps_data (a killed primary of an engine that keeps nothing restarts empty: no rollback file).
function failoverVerdict({ w, check, rollbackFiles, oldPrimary, keepsData = true, how,
  failover = { observed: true } }) {
  const c = check;
  const counts = `${c.attemptCount} attempted, ${c.acknowledgedCount} acknowledged, ${c.okCount} ok, ${c.lostCount} lost, ${c.unexpectedCount} unexpected, ${c.recoveredCount} recovered`;
  const observed = failover && failover.observed === true;
  const seen = observed ? (failover.newPrimary ? `; new primary ${failover.newPrimary}` : '') : `; NO failover observed (primaries seen: ${(failover && failover.primariesSeen || []).join(', ') || 'none'}), so nothing was tested`;
  const out = (result, text) => ({ result, pass: result === true, verdict: `${{ true: 'PASS', false: 'FAIL', unknown: 'UNKNOWN' }[result]}: ${text}` });
  if (String(w) === 'majority') {
    if (!c.valid) return out(false, `failover w:majority: ${counts}; LOST ${c.lost.slice(0, 20).join(',')}${seen}`);
    return out(observed ? true : 'unknown', `failover w:majority: ${counts}${observed ? ' (nothing acknowledged was lost, as w:majority promises)' : ''}${seen}`);
  }
  let files = rollbackFiles && rollbackFiles.length ? `rollback files on ${oldPrimary}: ${rollbackFiles.join(' ')}` : `no rollback files found on ${oldPrimary}`;
  if (!keepsData && how === 'kill' && !(rollbackFiles && rollbackFiles.length)) {
    files += ' (this engine keeps no data: the killed primary restarted empty and initial-synced, so there was nothing to roll back and no file to keep its writes)';
  }
  const tail = c.lostCount > 0
    ? `lost ids ${c.lost.slice(0, 20).join(',')}${c.lost.length > 20 ? ',...' : ''} (acknowledged with w:1 by the old primary, rolled back); ${files}`
    : `no acknowledged write was lost this time: w:1 CAN lose writes, it did not have to (a partition keeps the old primary accepting writes longer than a kill); ${files}`;
  const result = c.unexpectedCount > 0 ? false : observed ? true : 'unknown';
  return out(result, `failover w:1: ${counts}; ${tail}${seen}`);
}

function fmt(x) {
  return x == null ? '?' : Number(x).toFixed(1);
}

module.exports = { replicaLagVerdict, staleSecondaryVerdict, failoverVerdict, HEALED_LAG_SECONDS };
