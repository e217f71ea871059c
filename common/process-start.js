'use strict';
// One rule for "the same server process", used where the loader compares its readings at a run's
// start and end (loader/src/server/describe.js restartFacts) and where the report compares runs of one
// side (report/src/restarts.js). A reading is { pid, started_at } from serverStatus (started_at =
// localTime - uptimeMillis). Two readings of one process differ only by clock rounding; a restart
// changes the pid or moves the start by far more. 2 s covers a server whose uptime is whole seconds.
const SAME_START_MS = 2000;

// sameProcess(a, b): false when both name a pid and the pids differ, or both name a start and the
// starts lie more than SAME_START_MS apart (a container restart may reuse the pid); else true.
function sameProcess(a, b) {
  if (a.pid != null && b.pid != null && a.pid !== b.pid) return false;
  if (a.started_at && b.started_at && Math.abs(Date.parse(a.started_at) - Date.parse(b.started_at)) > SAME_START_MS) {
    return false;
  }
  return true;
}

module.exports = { sameProcess };
