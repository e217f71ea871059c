'use strict';
// The lab's one reading of an HdrHistogram (hdr-histogram-js) into the figures every table and
// report prints, in microseconds: the loader reads its live histograms with it, the report the
// ones stored in summary.json (decoded, merged). Takes the histogram object, so this file needs no
// package of its own (the loader and the report each bring hdr-histogram-js).

// percentilesOf(h, {sumUs, maxUs}) -> {count, mean, p50, p90, p99, p999, max}.
// Empty -> nulls, never zeros: "no data" must not read as "0 us".
// sumUs: the exact sum of the recorded values, so the mean is sumUs / count instead of
// HdrHistogram's mean (which walks every bucket: the loader's largest cost once a second).
// maxUs: the exact largest value recorded, where the caller knows it. getValueAtPercentile answers
// with the top of the value's bucket, and a decoded histogram knows its max only to its bucket
// (a recorded 5001 us decodes as max 5003): summary.json said p99.9 = 5001, the report 5003. No
// recorded value exceeds the exact max, so every percentile is capped at it; the report passes the
// stored max (or the largest of the merged runs' maxes) so that it reads what the loader read.
function percentilesOf(h, { sumUs, maxUs } = {}) {
  if (!h || h.totalCount === 0) {
    return { count: 0, mean: null, p50: null, p90: null, p99: null, p999: null, max: null };
  }
  const max = typeof maxUs === 'number' ? Math.min(maxUs, h.maxValue) : h.maxValue;
  const at = (p) => Math.min(h.getValueAtPercentile(p), max);
  return {
    count: h.totalCount,
    mean: Math.round((sumUs === undefined ? h.mean : sumUs / h.totalCount) * 10) / 10,
    p50: at(50),
    p90: at(90),
    p99: at(99),
    p999: at(99.9),
    max,
  };
}

// The histogram settings both sides build and decode with: 32-bit counters, pure JS (no WASM: it
// would need an init per worker and an explicit destroy() per histogram), 3 significant digits.
const HDR = { bitBucketSize: 32, numberOfSignificantValueDigits: 3, useWebAssembly: false };

module.exports = { percentilesOf, HDR };
