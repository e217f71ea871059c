'use strict';
// HdrHistogram reading side: the loader stores each step's histogram as HdrHistogram's compressed
// base64 (hdr-histogram-js encodeIntoCompressedBase64). Percentiles of merged runs come from the
// added histograms, never from averaging percentiles (a mean of p99s is not a p99 of anything).
const hdr = require('hdr-histogram-js');

// Same settings as the loader (loader/src/hist.js): 32-bit counters, pure JS, values in us.
const BITS = 32;
const decode = (b64) => hdr.decodeFromCompressedBase64(b64, BITS, false);
const encode = (h) => hdr.encodeIntoCompressedBase64(h);

function newHistogram() {
  return hdr.build({ bitBucketSize: BITS, numberOfSignificantValueDigits: 3, autoResize: true, useWebAssembly: false });
}

// mergeEncoded([b64, ...]) -> b64 of the sum
function mergeEncoded(list) {
  const acc = newHistogram();
  for (const b64 of list) acc.add(decode(b64));
  return encode(acc);
}

function percentiles(b64) {
  const h = decode(b64);
  if (h.totalCount === 0) return { count: 0, mean: null, p50: null, p90: null, p99: null, p999: null, max: null };
  return {
    count: h.totalCount,
    mean: Math.round(h.mean * 10) / 10,
    p50: h.getValueAtPercentile(50),
    p90: h.getValueAtPercentile(90),
    p99: h.getValueAtPercentile(99),
    p999: h.getValueAtPercentile(99.9),
    max: h.maxValue,
  };
}

module.exports = { decode, encode, newHistogram, mergeEncoded, percentiles };
