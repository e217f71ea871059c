'use strict';
// Whether a capacity search (summary.json `capacity`, loader/src/experiment/sla.js) is a sample of the
// side's capacity: the one rule the loader's --repeat line (loader/src/results/capacity-table.js
// capacityGroup) and the report (report/src/capacity.js) both apply, so the median each prints
// for the same searches is the same number.
// No dependencies (the loader image copies common/ beside loader/).

// A search whose failing steps shared the loader's host with other load or were limited by the
// loader (capacity.host_caveat, loader/src/experiment/sla.js hostCaveat: event-loop stalls, a busy host) may
// have measured the host, not the server: its capacity is shown with its caveat, never in a
// median or a verdict (as a closed-loop step with the same signs is left out, report compare.js
// exclusion shared_host).
const HOST_LIMITED = 'host-limited (capacity.host_caveat: the loader\'s host was saturated)';

// searchExclusion(capacity) -> null when the search is a sample, else why not.
function searchExclusion(c) {
  if (!c.complete) return 'search interrupted';
  if (c.capacity_ops_per_s === null) return 'no rate passed';
  if (c.host_caveat) return HOST_LIMITED;
  return null;
}

module.exports = { searchExclusion, HOST_LIMITED };
