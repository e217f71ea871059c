'use strict';
// The loader's memory does not follow the GridFS file's size: an upload of 128 MB peaks within
// 64 MB of an upload of 4 MB (holding the file, or even half of it, would add 64-128 MB). Measured
// as each upload case's own RSS peak (rss_peak_bytes, the whole process sampled every 100 ms).
// This bound catches a loader that keeps what it writes; the figures themselves are a benchmark's
// business (src/gridfs/bench.js, and every run's summary). The download case is not bounded here:
// mongo-java-server answers a find with every matching chunk in one reply and does not cap a batch
// at 16 MiB as mongod does, so the driver holds whatever the server sends.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { startServer } = require('./support/server');
const { runLoader, tmpResults, latestRun } = require('./support/loader');

let server;
let results;
test.before(async () => { server = await startServer(); results = tmpResults(); });
test.after(async () => { await server?.stop(); fs.rmSync(results, { recursive: true, force: true }); });

const uploadPeak = async (size) => {
  const r = await runLoader(['gridfs', '--uri', server.uri, '--file-size', size, '--repeat', '1', '--results-dir', results, '--metrics-port', '0', '--engine', size]);
  assert.equal(r.code, 0, r.stderr);
  const { summary } = latestRun(results, 'gridfs', size);
  const up = summary.cases.find((c) => c.name === 'upload');
  assert.equal(up.bytes_written, { '4MB': 4e6, '128MB': 128e6 }[size]);
  return up.rss_peak_bytes;
};

test('upload RSS: 128 MB peaks within 64 MB of 4 MB', async (t) => {
  const small = await uploadPeak('4MB');
  const large = await uploadPeak('128MB');
  const grew = large - small;
  t.diagnostic(`upload case RSS peak: 4 MB file ${(small / 1e6).toFixed(1)} MB, 128 MB file ${(large / 1e6).toFixed(1)} MB (+${(grew / 1e6).toFixed(1)} MB)`);
  assert.ok(grew < 64e6, `the loader's RSS grew by ${(grew / 1e6).toFixed(1)} MB for 124 MB more file`);
});
