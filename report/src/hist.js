'use strict';
// HdrHistogram reading side: the loader stores each step's histogram as HdrHistogram's compressed
// base64 (hdr-histogram-js encodeIntoCompressedBase64). Percentiles of merged runs come from the
// added histograms, never from averaging percentiles (a mean of p99s is not a p99 of anything).
const hdr = require('hdr-histogram-js');
const { percentilesOf, HDR } = require('../../common/percentiles');

// The loader's settings (common/percentiles.js HDR): 32-bit counters, pure JS, values in us.
const decode = (b64) => hdr.decodeFromCompressedBase64(b64, HDR.bitBucketSize, HDR.useWebAssembly);
const encode = (h) => hdr.encodeIntoCompressedBase64(h);

const newHistogram = () => hdr.build({ ...HDR, autoResize: true });

// mergeEncoded([b64, ...]) -> b64 of the sum
function mergeEncoded(list) {
  const acc = newHistogram();
  for (const b64 of list) acc.add(decode(b64));
  return encode(acc);
}

// percentiles(b64, maxUs): the loader's own reading (common/percentiles.js). maxUs: the exact max
// the loader stored beside the histogram (latency_us.max; for merged runs the largest of theirs):
// a decoded histogram knows its max only to the top of its bucket.
const percentiles = (b64, maxUs) => percentilesOf(decode(b64), { maxUs });

// exactMax(latencies): the largest stored exact max of the runs merged, or undefined when one of
// them has none (then the decoded histogram's own max is the cap).
function exactMax(latencies) {
  const maxes = latencies.map((l) => l?.max);
  return maxes.length && maxes.every((m) => typeof m === 'number') ? Math.max(...maxes) : undefined;
}

module.exports = { decode, encode, newHistogram, mergeEncoded, percentiles, exactMax };
