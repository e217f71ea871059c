'use strict';
// countArrived(col, filter, expected) -> { arrived, waited_ms }: the documents of a case, counted
// after it. Unacknowledged writes (w:0) may still be in the server's socket buffer when the
// client is done, so the count is repeated until it reaches `expected` or stops growing between
// two reads STEP_MS apart, bounded by LIMIT_MS.
const STEP_MS = 250;
const LIMIT_MS = 10000;
const { setTimeout: sleep } = require('node:timers/promises');

async function countArrived(col, filter, expected, { stepMs = STEP_MS, limitMs = LIMIT_MS } = {}) {
  const t0 = Date.now();
  let arrived = await col.countDocuments(filter);
  while (arrived < expected && Date.now() - t0 < limitMs) {
    await sleep(stepMs);
    const again = await col.countDocuments(filter);
    if (again === arrived) break;
    arrived = again;
  }
  return { arrived, waited_ms: Date.now() - t0 };
}

module.exports = { countArrived };
