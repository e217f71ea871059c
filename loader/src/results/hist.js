'use strict';
// Latency recording: HdrHistogram (hdr-histogram-js), values in microseconds.
// 3 significant digits = 0.1 % value resolution; autoResize so a 40 s stall during a failover
// is recorded as 40 s instead of being clipped or dropped.
const hdr = require('hdr-histogram-js');
const { percentilesOf, HDR } = require('../../../common/percentiles');

// The pure-JS build with 32-bit counters (common/percentiles.js HDR, shared with the report):
// loader/bench measured recordValue at ~100 ns (JS, 32-bit), ~60 ns (WASM, 32-bit), ~200 ns (WASM,
// packed), ~600 ns (JS, packed) per value (bench/results.json, "hdr"). 40 ns per op is noise next
// to the driver's ~100 us per op.
function newHistogram() {
  return hdr.build({
    ...HDR,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 2 * 1000 * 1000, // 2 s; autoResize grows it on demand
    autoResize: true,
  });
}

const encode = (h) => hdr.encodeIntoCompressedBase64(h);
const decode = (b64) => hdr.decodeFromCompressedBase64(b64, HDR.bitBucketSize, HDR.useWebAssembly);

// percentiles(h, sumUs): common/percentiles.js (the report reads stored histograms with the same
// function). A live histogram knows its exact max, so every percentile is capped at it.
const percentiles = (h, sumUs) => percentilesOf(h, { sumUs });

// Prometheus bucket bounds for lab_loader_op_duration_seconds, in microseconds: 100 us .. 10 s.
// Single-document operations on a LAN are ~0.2-5 ms; the tail (checkpoints, failovers) reaches
// seconds. Prometheus's default buckets start at 5 ms and would lump every normal op together.
const PROM_BOUNDS_US = [100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000,
  500000, 1000000, 2500000, 10000000];

module.exports = { newHistogram, encode, decode, percentiles, PROM_BOUNDS_US };
