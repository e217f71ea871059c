'use strict';
// Latency recording: HdrHistogram (hdr-histogram-js), values in microseconds.
// 3 significant digits = 0.1 % value resolution; autoResize so a 40 s stall during a failover
// is recorded as 40 s instead of being clipped or dropped.
const hdr = require('hdr-histogram-js');

// The pure-JS build with 32-bit counters: loader/bench measured recordValue at ~100 ns (JS, 32-bit),
// ~60 ns (WASM, 32-bit), ~200 ns (WASM, packed), ~600 ns (JS, packed) per value (bench/results.json,
// "hdr"). 40 ns per op is noise next to the driver's ~100 us per op, and WASM would need an init
// per worker and an explicit destroy() per histogram (it is not garbage collected).
const USE_WASM = false;
const BITS = 32;

function newHistogram() {
  return hdr.build({
    bitBucketSize: BITS,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 2 * 1000 * 1000, // 2 s; autoResize grows it on demand
    numberOfSignificantValueDigits: 3,
    autoResize: true,
    useWebAssembly: USE_WASM,
  });
}

const encode = (h) => hdr.encodeIntoCompressedBase64(h);
const decode = (b64) => hdr.decodeFromCompressedBase64(b64, BITS, USE_WASM);

// percentiles(h, sumUs): the numbers every report uses, in microseconds. Empty histogram -> nulls,
// never zeros: "no data" must not read as "0 us". sumUs (optional): the exact sum of the recorded
// values, so that the mean is sumUs / count instead of HdrHistogram's mean, which walks every
// recorded bucket (it was the main thread's largest cost once a second: loader/README.md "Profile").
function percentiles(h, sumUs) {
  if (!h || h.totalCount === 0) {
    return { count: 0, mean: null, p50: null, p90: null, p99: null, p999: null, max: null };
  }
  // getValueAtPercentile answers with the top of the value's bucket (its "highest equivalent
  // value"), while maxValue is the exact largest value recorded: above 2048 us a bucket is 2 us wide
  // or wider, so a p99.9 in the max's bucket read 1 us above the max (CI saw p999 > max). No recorded
  // value exceeds the max, so every percentile is capped at it.
  const max = h.maxValue;
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

// Prometheus bucket bounds for lab_loader_op_duration_seconds, in microseconds: 100 us .. 10 s.
// Single-document operations on a LAN are ~0.2-5 ms; the tail (checkpoints, failovers) reaches
// seconds. Prometheus's default buckets start at 5 ms and would lump every normal op together.
const PROM_BOUNDS_US = [100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000,
  500000, 1000000, 2500000, 10000000];

module.exports = { newHistogram, encode, decode, percentiles, PROM_BOUNDS_US, USE_WASM };
