'use strict';
// Floor of gridfs: the server operations of the kind (src/kinds/gridfs.js) with the driver's own
// GridFS API and nothing else: one GridFSBucket upload stream written chunk_size pieces at a time
// (the driver inserts one chunks document per piece), ended with its files document, then one
// download stream of that file read piece by piece. No generated content (one random buffer,
// written again and again), no checksum, no recording.
//
// Measured per phase, as bench.js measures the kind's two cases (each a step of the loader's
// timeline): a phase's first warmMs are not measured, then its CPU over the next durationMs, or
// until the file ends (a download faster than the upload runs out of file first). One op = one
// piece (chunk), as the kind records it.
const crypto = require('node:crypto');
const { performance } = require('node:perf_hooks');
const { GridFSBucket } = require('mongodb');

const { setTimeout: sleep } = require('node:timers/promises');

// measure(step, warmMs, durationMs): call step() (one piece; false at the end) until warmMs have
// passed, then count pieces and process CPU until durationMs more have passed or step() ends.
async function measure(step, warmMs, durationMs) {
  const warm = performance.now() + warmMs;
  while (performance.now() < warm) if (!(await step())) return null;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const end = t0 + durationMs;
  let ops = 0;
  while (performance.now() < end && (await step())) ops++;
  const cpu = process.cpuUsage(c0);
  const cpuUs = cpu.user + cpu.system;
  return { ops, cpu_us: cpuUs, wall_s: Math.round(performance.now() - t0) / 1000,
    cpu_us_per_op: ops ? Math.round((cpuUs / ops) * 10) / 10 : null };
}

// One piece written, the stream ended: each awaited through the driver's write callback.
const write = (up, piece) => new Promise((resolve, reject) => up.write(piece, (e) => (e ? reject(e) : resolve())));
const end = (up) => new Promise((resolve, reject) => up.end((e) => (e ? reject(e) : resolve())));

module.exports = {
  phases: ['upload', 'download'],
  async run({ config, db, warmMs, durationMs }) {
    const { bucket: bucketName, chunk_size: chunkSize, file_size: fileSize } = config.params;
    const bucket = new GridFSBucket(db, { bucketName, chunkSizeBytes: chunkSize });
    const piece = crypto.randomBytes(chunkSize);
    // Upload: pieces until the phase's time is up (the file is as long as that), or the kind's
    // file size, whichever comes first.
    const up = bucket.openUploadStream('floor.bin', { chunkSizeBytes: chunkSize });
    let written = 0;
    const upload = await measure(async () => {
      if (written + chunkSize > fileSize) return false;
      written += chunkSize;
      await write(up, piece);
      return true;
    }, warmMs, durationMs);
    await end(up);
    const it = bucket.openDownloadStream(up.id)[Symbol.asyncIterator]();
    const download = await measure(async () => !(await it.next()).done, warmMs, durationMs);
    await it.return(); // a download cut short by the clock closes its cursor
    await bucket.delete(up.id);
    return { upload, download };
  },

  // live({ config, db, phase, stopped, ready, whole }): side by side with the loader (bench.js
  // sideBySidePhases), each phase against the loader's whole case of that name. First a file
  // of the kind's size, uploaded alone before the loader starts (ready() then), for the download.
  // When phase() says 'upload' (the loader's upload case began), a second file uploaded for as
  // long as the loader's upload lasts: until phase() says 'download' (its download case began),
  // or the file reaches the kind's size (its end, the files document, included); measured over
  // that span: whole('upload', { ops, cpu_us, wall_s, from, to }), then the file removed (the
  // server keeps every file in memory). Not the whole file: side by side the floor's upload got
  // half the loader's pace and lasted 17-20 s against the loader's 7-11 (4 rounds, 2026-11-24
  // 06:44-06:53), so the floor's download began ~10 s after the loader's, and the loader's
  // download case waited on the server through the floor's upload. When phase() says 'download',
  // the first file read once, whole: whole('download', ...). A stop ends a phase after the piece
  // in hand. An upload asked and overtaken by the download before it began says
  // whole('upload', { ops: 0, skipped: WHY }).
  async live({ config, db, phase, stopped, ready, whole, began = () => {} }) {
    const { bucket: bucketName, chunk_size: chunkSize, file_size: fileSize } = config.params;
    // A bucket of its own: the loader's setup, after ready(), empties the kind's bucket.
    const bucket = new GridFSBucket(db, { bucketName: `${bucketName}_bench_floor`, chunkSizeBytes: chunkSize });
    const piece = crypto.randomBytes(chunkSize);
    const kept = bucket.openUploadStream('floor-download.bin', { chunkSizeBytes: chunkSize });
    for (let written = 0; written + chunkSize <= fileSize && !stopped(); written += chunkSize) await write(kept, piece);
    await end(kept);
    ready();
    const now = () => Math.round(performance.timeOrigin + performance.now());
    const until = async (name) => { while (!stopped() && phase() !== name && phase() !== 'download') await sleep(50); };
    // A phase's pieces (step() as measure's), measured from its first to step()'s false, said.
    const measured = async (name, step) => {
      began(name); // said, so that a driver (bench.test.js) can wait for a phase to be under way
      const from = now();
      const m = await measure(step, 0, Infinity);
      whole(name, { ops: m.ops, cpu_us: m.cpu_us, wall_s: m.wall_s, from, to: now() });
    };

    await until('upload');
    if (!stopped() && phase() === 'upload') {
      const up = bucket.openUploadStream('floor-upload.bin', { chunkSizeBytes: chunkSize });
      let written = 0;
      let ended = false;
      await measured('upload', async () => {
        if (stopped() || phase() !== 'upload') return false;
        if (written + chunkSize > fileSize) { await end(up); ended = true; return false; }
        written += chunkSize;
        await write(up, piece);
        return true;
      });
      if (ended) await bucket.delete(up.id);
      else await up.abort(); // the driver deletes the chunks written so far
    } else if (!stopped()) {
      // Both lines came before the upload could begin (a file smaller than one look of the
      // bench): said, so that the bench does not wait for an upload that will never come.
      whole('upload', { ops: 0, skipped: "the loader's upload was over before the floor's could begin (a file smaller than one look of the bench)" });
    }

    await until('download');
    if (!stopped()) {
      const it = bucket.openDownloadStream(kept.id)[Symbol.asyncIterator]();
      await measured('download', async () => !stopped() && !(await it.next()).done);
      await it.return(); // a download cut short by a stop closes its cursor
    }
    await bucket.delete(kept.id);
    while (!stopped()) await sleep(100);
  },
};
