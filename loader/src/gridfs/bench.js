#!/usr/bin/env node
'use strict';
// How fast the loader can produce and check a GridFS file on this host, without a server: the
// seeded generator alone, sha256 alone, and both (what the upload does per chunk besides the
// driver). They must outrun the server, or the run measures the loader; the figures are printed,
// not asserted (a speed goal belongs in a benchmark).
//   node loader/src/gridfs/bench.js [SIZE=2GB] [CHUNK=255KiB]
const crypto = require('node:crypto');
const { performance } = require('node:perf_hooks');
const { Rng } = require('../../../common/rng');
const { GeneratedSource } = require('./source');
const { parseSize } = require('./size');

const size = parseSize('SIZE', process.argv[2] || '2GB');
const chunk = parseSize('CHUNK', process.argv[3] || '255KiB');

function measure(label, fn) {
  const t = performance.now();
  const bytes = fn();
  const s = (performance.now() - t) / 1000;
  process.stdout.write(`${label.padEnd(28)} ${(bytes / 1e6 / s).toFixed(0).padStart(6)} MB/s  (${(bytes / 1e6).toFixed(0)} MB in ${s.toFixed(2)} s)\n`);
}

let t = performance.now();
const warm = new GeneratedSource(new Rng(3, 1), size, chunk);
process.stdout.write(`generator setup (one ${(warm.base.length / 1024).toFixed(0)} KiB base block from the Rng): ${(performance.now() - t).toFixed(1)} ms\n`);
measure('generator alone', () => {
  const g = new GeneratedSource(new Rng(3, 1), size, chunk);
  let n = 0;
  for (let p = g.nextSync(); p; p = g.nextSync()) n += p.length;
  return n;
});
measure('sha256 alone', () => {
  const h = crypto.createHash('sha256');
  const p = crypto.randomBytes(chunk);
  let n = 0;
  while (n < size) { h.update(p); n += p.length; }
  h.digest();
  return n;
});
measure('generator + sha256', () => {
  const g = new GeneratedSource(new Rng(3, 1), size, chunk);
  const h = crypto.createHash('sha256');
  let n = 0;
  for (let p = g.nextSync(); p; p = g.nextSync()) { h.update(p); n += p.length; }
  h.digest();
  return n;
});
t = performance.now();
const rng = new Rng(3, 1);
const words = new Uint32Array((64 * 1024 * 1024) / 4);
for (let i = 0; i < words.length; i++) words[i] = rng.u32();
process.stdout.write(`${'every byte from the Rng'.padEnd(28)} ${(64 * 1.048576 / ((performance.now() - t) / 1000)).toFixed(0).padStart(6)} MB/s  (why the generator reuses one block)\n`);
