'use strict';
// gridfs (seeds/003): how fast an engine stores a large file, as `mongofiles put` did: one
// GridFSBucket upload stream of a generated file (or --from-file PATH), then the download of the
// same file, each one client (mongofiles is one stream), each a case: 'upload' then 'download'.
//
// Measured per piece: every op 'upload' writes one chunk (chunk_size bytes: the driver inserts one
// chunks document per write of exactly its chunk size, and calls back when the server has it),
// every op 'download' reads one chunk; record() gets the piece's bytes, so the case's
// ops.<op>.mb_per_s and the 1 s timeline's MB/s come from the framework's bytes accounting
// (MB = 10^6 bytes). Memory stays flat: one piece is generated, written and hashed at a time.
//
// Checksum: sha256 (node:crypto) of the very buffers written, hashed while the server stores
// them; sha256 of the buffers read, hashed while the next piece is on its way; the download
// case compares the two and a mismatch fails the run (ctx.fail). The hashing is loader CPU inside
// each piece's time when it outlasts the server's reply: its seconds are recorded
// (checksum_cpu_s) beside the case. At 1.4 GB/s here (`node src/gridfs/bench.js`) that is
// ~190 us per 255 KiB chunk of the loader's ~1.2 ms (loader/README.md, bench): --checksum none
// leaves it out and compares only the byte counts, as mongofiles did (the seed verified nothing),
// for a loader that must cost as little as possible.
//
// What is left behind: the upload posts the GridFS file id the moment the stream is open, so an
// interrupted upload's summary names it (first Ctrl-C: afterStep counts its chunks; second: the
// raw note). The driver's GridFSBucketWriteStream.abort() deletes the chunks written so far
// (mongodb 7.8.0 src/gridfs/upload.ts: chunks.deleteMany({files_id})), but a stopped client
// never reaches the kind again, and deleting gigabytes during a Ctrl-C is not what Ctrl-C asks
// for: the partial chunks stay, the case says where (left_behind, with the command that removes
// them), and the next gridfs run empties the bucket first. A verified download deletes its file
// (bucket.delete) so that five repetitions of 5 GiB do not fill a laptop's disk (x3 members).
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { UsageError } = require('../text/usage');
const { parseSize, formatBytes } = require('../gridfs/size');
const { GeneratedSource, FileSource } = require('../gridfs/source');
const { RssWatch } = require('../gridfs/rss');
const { lines, driver } = require('../server/driver-line');
const { mibPerS: toMib } = require('../text/mib');
const { dropIfThere } = require('./ops');

// A chunk is one document, and a document is at most 16 MiB: leave room for its other fields.
const MAX_CHUNK = 16 * 1024 * 1024 - 1024;

// driverOf(client): the driver package the client was built from (it may be an older line,
// src/server/driver-line.js), so the bucket and ObjectId come from the same one.
function driverOf(client) {
  for (const l of lines()) {
    const d = driver(l.name);
    if (client instanceof d.MongoClient) return d;
  }
  return driver();
}

const CHECKSUMS = ['sha256', 'none'];
function parseChecksum(flag, text) {
  const s = String(text);
  if (!CHECKSUMS.includes(s)) throw new UsageError(`${flag}: '${s}' is not a checksum (choose from: ${CHECKSUMS.join(', ')})`);
  return s;
}

function parseBucket(flag, text) {
  const s = String(text);
  if (!/^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$/.test(s)) throw new UsageError(`${flag}: '${s}' is not a bucket name (letters, digits, . _ -, at most 64)`);
  return s;
}

const options = {
  fileSize: { flag: '--file-size', file: 'document.file_size', default: '5GiB', parse: (f, t) => parseSize(f, t), help: 'generated file size, e.g. 64MB, 5GiB; KB MB GB TB = 10^3.., K/KiB M/MiB G/GiB T/TiB = 2^10..' },
  chunkSize: { flag: '--chunk-size', file: 'document.chunk_size', default: '255KiB', parse: (f, t) => parseSize(f, t, { max: MAX_CHUNK }), help: 'GridFS chunk size, at most 16 MiB - 1 KiB (255KiB = 261120 bytes is the driver\'s)' },
  bucket: { flag: '--bucket', file: 'collection', required: true, parse: parseBucket, help: 'GridFS bucket NAME (NAME.files, NAME.chunks; emptied first)' },
  checksum: { flag: '--checksum', file: 'document.checksum', default: 'sha256', parse: parseChecksum, help: 'sha256 (every byte written and read back, compared after the download) or none (byte counts only, as mongofiles; no sha256: ~190 us less loader CPU per 255 KiB chunk here)' },
  fromFile: { flag: '--from-file', parse: (f, t) => String(t), help: 'upload this file (its own size) instead of a generated one; in the stack only results/NAME, given from the repository root, is visible to the loader' },
};

const FIXED_CLIENTS = 'one upload stream, then one download stream';

// configure: one stream each way, and the file: generated (--file-size) or --from-file's.
function configure({ options: o, settings, config, opts = {} }) {
  if (opts.clients !== undefined) throw new UsageError(`--clients does not apply to gridfs (${FIXED_CLIENTS}, as mongofiles does)`);
  if (opts.rate !== undefined) throw new UsageError('--rate does not apply to gridfs (it moves the file as fast as the server takes it)');
  let fileSize = o.fileSize;
  let file = null;
  if (o.fromFile !== null) {
    if (settings.fileSize.source === 'flag') throw new UsageError('--file-size and --from-file: give one (an uploaded file\'s size is its own)');
    file = path.resolve(o.fromFile);
    let st;
    try {
      st = fs.statSync(file);
      fs.accessSync(file, fs.constants.R_OK);
    } catch (e) {
      throw new UsageError(`--from-file: cannot read ${file}: ${e.code || e.message}`);
    }
    if (!st.isFile()) throw new UsageError(`--from-file: ${file} is not a regular file`);
    if (st.size === 0) throw new UsageError(`--from-file: ${file} is empty (nothing to upload)`);
    fileSize = st.size;
  }
  // The bucket is what the run owns: setup drops its chunks collection (the runner's collection)
  // and the upload case its files collection; the driver creates GridFS's own indexes.
  config.collection = `${o.bucket}.chunks`;
  config.setup = { ...config.setup, indexes: [] };
  config.workload.clients = [1];
  return {
    bucket: o.bucket,
    chunk_size: o.chunkSize,
    file_size: fileSize,
    file_size_text: formatBytes(fileSize),
    source: file ? 'file' : 'generated',
    from_file: file,
    filename: file ? path.basename(file) : `${config.name}-${formatBytes(fileSize).replace(' ', '')}-seed${config.seed}.bin`,
    checksum: o.checksum,
  };
}

function plan(config) {
  const { bucket, chunk_size: chunkSize, file_size: fileSize, source } = config.params;
  return ['upload', 'download'].map((name) => ({ name, clients: 1,
    params: { bucket, chunk_size: chunkSize, file_size: fileSize, source } }));
}

const stepTotal = (config) => ({ total: Math.ceil(config.params.file_size / config.params.chunk_size), unit: 'chunks' });

// Main-thread state of one run (one config object per run): the uploaded file for the download
// case, and the case's memory watch.
const runs = new WeakMap();
const stateOf = (config) => runs.get(config) ?? runs.set(config, {}).get(config);

async function beforeStep(ctx, step) {
  const { config } = ctx;
  const st = stateOf(config);
  const { bucket } = config.params;
  if (step.phase === 'upload') {
    // The runner's setup dropped NAME.chunks; the bucket is empty only without NAME.files too.
    if (config.setup.drop) {
      ctx.log(`setup: dropping ${config.database}.${bucket}.files (with ${bucket}.chunks: the upload starts from an empty bucket, as the seed wiped its database)`);
      await dropIfThere(ctx.db.collection(`${bucket}.files`));
    }
  } else {
    // The download reads the file the upload case wrote: its id travels in the case's parameters.
    if (!st.uploaded) throw new Error('gridfs: the upload case left no complete file to download');
    step.params = { ...step.params, file_id: st.uploaded.file_id };
  }
  st.rss = new RssWatch();
  return {};
}

// Notes of one case, by event.
const noteOf = (notes, event) => notes.find((n) => n.event === event) || null;
const mbPerS = (entry, op) => entry?.ops?.[op]?.mb_per_s ?? null;
// The seed's unit: its "MB/s" was 5120 MB (a 5 GiB file) over seconds, i.e. MiB/s (src/text/mib.js,
// as the table converts it).
const mibPerS = (entry, op) => toMib(mbPerS(entry, op));

// countLeft(db, bucket, id, left): what a cut-short upload left in the bucket (its files document,
// its chunks) into left. At most 3 s: a dead server would hold the run's wind-down for the whole
// server selection timeout, and the file id is what matters.
async function countLeft(db, bucket, id, left) {
  const counting = (async () => {
    left.files_document = (await db.collection(`${bucket}.files`).countDocuments({ _id: id })) > 0;
    left.chunks = await db.collection(`${bucket}.chunks`).countDocuments({ files_id: id });
  })();
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('no answer within 3 s')), 3000); });
  try {
    await Promise.race([counting, late]);
  } catch (e) {
    counting.catch(() => {});
    left.count_error = `${e.name}: ${e.message}`;
  } finally {
    clearTimeout(timer);
  }
}

async function afterStep(ctx, step, notes, entry) {
  const { config } = ctx;
  const st = stateOf(config);
  const { bucket, chunk_size: chunkSize, file_size: fileSize } = config.params;
  const rss = st.rss ? st.rss.stop() : {};
  st.rss = null;
  const opened = noteOf(notes, 'opened');
  const done = noteOf(notes, 'done');
  const failed = noteOf(notes, 'failed');
  const fileId = opened?.file_id ?? step.params?.file_id ?? null;
  const common = { bucket, chunk_size: chunkSize, file_size: fileSize, file_id: fileId,
    filename: config.params.filename };
  const { ObjectId, GridFSBucket } = driverOf(ctx.client);

  if (step.phase === 'upload') {
    if (done) {
      st.uploaded = { file_id: done.file_id, sha256: done.sha256, bytes: done.bytes };
      ctx.log(`upload: GridFS file ${done.file_id} (${formatBytes(done.bytes)}) in ${config.database}.${bucket} at ${mbPerS(entry, 'upload')} MB/s (${mibPerS(entry, 'upload')} MiB/s, the seed's unit), sha256 ${done.sha256}`);
      return {
        ...common,
        bytes_written: done.bytes,
        sha256_written: done.sha256,
        mb_per_s: mbPerS(entry, 'upload'),
        mib_per_s: mibPerS(entry, 'upload'),
        file_seconds: done.seconds,
        checksum_cpu_s: done.checksum_cpu_s,
        ...rss,
      };
    }
    // Cut short (Ctrl-C, a lost server) or failed: say what is left in the bucket.
    const left = { bucket: `${config.database}.${bucket}`, file_id: fileId, files_document: null, chunks: null };
    if (fileId) {
      left.remove_with = `db.getSiblingDB('${config.database}').getCollection('${bucket}.chunks').deleteMany({files_id: ObjectId('${fileId}')})`;
      await countLeft(ctx.db, bucket, new ObjectId(fileId), left);
    }
    ctx.log(`upload did not complete: GridFS file ${fileId ?? '(never opened)'} left behind in ${left.bucket} (${left.chunks ?? '?'} chunk(s), ${left.files_document ? 'with' : 'no'} files document); the next gridfs run empties the bucket${left.remove_with ? `, or remove it with: ${left.remove_with}` : ''}`);
    ctx.fail(`upload of GridFS file ${fileId ?? '(never opened)'} did not complete${failed ? `: ${failed.error}` : ''}`);
    // bytes_written: what the server acknowledged, from the framework's count (the stream's
    // last piece may have been in flight).
    return { ...common, complete_file: false, bytes_written: entry?.ops?.upload?.bytes ?? 0, mb_per_s: mbPerS(entry, 'upload'), left_behind: left, ...(failed ? { error: failed.error } : {}), ...rss };
  }

  // download
  const written = st.uploaded;
  const out = { ...common, sha256_written: written.sha256, bytes_written: written.bytes };
  if (!done) {
    ctx.fail(`download of GridFS file ${fileId} did not complete${failed ? `: ${failed.error}` : ''}`);
    return { ...out, checksum: 'not checked (download incomplete)', left_behind: { bucket: `${config.database}.${bucket}`, file_id: fileId, complete_file: true }, ...(failed ? { error: failed.error } : {}), ...rss };
  }
  const hashed = config.params.checksum !== 'none';
  const match = done.sha256 === written.sha256 && done.bytes === written.bytes;
  Object.assign(out, {
    bytes_read: done.bytes,
    sha256_read: done.sha256,
    // --checksum none: only the byte counts were compared; the verdict says so, never 'match'.
    checksum: hashed ? (match ? 'match' : 'MISMATCH') : (match ? 'not computed (--checksum none); byte counts match' : 'MISMATCH (byte counts)'),
    mb_per_s: mbPerS(entry, 'download'),
    mib_per_s: mibPerS(entry, 'download'),
    file_seconds: done.seconds,
    checksum_cpu_s: done.checksum_cpu_s,
  });
  const what = hashed ? 'checksum' : 'byte count (no checksum: --checksum none)';
  ctx.log(`download: ${formatBytes(done.bytes)} at ${out.mb_per_s} MB/s (${out.mib_per_s} MiB/s); ${what} ${match ? 'matches what was written' : 'DOES NOT MATCH what was written'}`);
  if (!match) {
    ctx.fail(hashed
      ? `checksum mismatch: GridFS file ${fileId} read back ${done.bytes} bytes with sha256 ${done.sha256}, written ${written.bytes} bytes with sha256 ${written.sha256} (the file is kept in ${config.database}.${bucket})`
      : `byte count mismatch: GridFS file ${fileId} read back ${done.bytes} bytes, written ${written.bytes} (the file is kept in ${config.database}.${bucket})`);
    return { ...out, deleted: false, ...rss };
  }
  // Verified: delete it (not measured), so repetitions do not pile gigabytes up.
  try {
    await new GridFSBucket(ctx.db, { bucketName: bucket }).delete(new ObjectId(fileId));
    out.deleted = true;
  } catch (e) {
    out.deleted = false;
    out.delete_error = `${e.name}: ${e.message}`;
  }
  return { ...out, ...rss };
}

// Hashing with its CPU time counted: it runs on the client's thread, between I/O waits.
// --checksum none: nothing hashed, digest null, no seconds.
function hasher(algorithm) {
  if (algorithm === 'none') return { update() {}, digest: () => null, cpuS: () => null };
  const h = crypto.createHash(algorithm);
  let ms = 0;
  return {
    update(buf) { const t = performance.now(); h.update(buf); ms += performance.now() - t; },
    digest: () => h.digest('hex'),
    cpuS: () => Math.round(ms) / 1000,
  };
}

function uploadNext(config, rng, env, bucketApi) {
  const { bucket, chunk_size: chunkSize, file_size: fileSize, from_file: file, filename } = config.params;
  const hash = hasher(config.params.checksum);
  let source = null;
  let stream = null;
  let failed = null;
  let t0 = 0;
  let bytes = 0;
  const open = async (now) => {
    source = file ? await new FileSource(file, chunkSize).open() : new GeneratedSource(rng, fileSize, chunkSize);
    stream = bucketApi.openUploadStream(filename, { chunkSizeBytes: chunkSize,
      metadata: { lab: config.name, seed: config.seed } });
    stream.on('error', () => {}); // errors arrive through the write/end callbacks
    t0 = now();
    env.note({ event: 'opened', file_id: stream.id.toHexString(), bucket, filename });
  };
  const write = (buf) => new Promise((resolve, reject) => stream.write(buf, (e) => (e ? reject(e) : resolve())));
  const end = () => new Promise((resolve, reject) => stream.end((e) => (e ? reject(e) : resolve())));
  return async (record, intended, now) => {
    if (failed) return false;
    let t = now();
    try {
      if (!stream) await open(now);
      const piece = await source.next();
      t = now();
      if (piece) {
        const written = write(piece);
        hash.update(piece); // while the server stores it (the buffer is reused only after the write)
        await written;
        bytes += piece.length;
      }
      const last = !piece || bytes >= source.size;
      if (last) await end(); // the remnant chunk, if any, and the files document
      record('upload', t, now(), intended, true, 0, piece ? piece.length : 0);
      if (!last) return true;
    } catch (e) {
      // Once: the next call ends the client (a failed stream cannot go on).
      record('upload', t, now(), intended, false);
      failed = e;
      env.note({ event: 'failed', file_id: stream ? stream.id.toHexString() : null, error: `${e.name}: ${e.message}` });
      if (source) await source.close();
      throw e;
    }
    await source.close();
    env.note({ event: 'done', file_id: stream.id.toHexString(), bytes, sha256: hash.digest(), seconds: Math.round(now() - t0) / 1000, checksum_cpu_s: hash.cpuS() });
    return false;
  };
}

function downloadNext(config, step, env, bucketApi, ObjectId) {
  const hash = hasher(config.params.checksum);
  let it = null;
  let pending = null; // the piece read last, hashed while the next one is on its way
  let failed = null;
  let t0 = 0;
  let bytes = 0;
  const fileId = step.params.file_id;
  return async (record, intended, now) => {
    if (failed) return false;
    if (!it) {
      const stream = bucketApi.openDownloadStream(new ObjectId(fileId));
      it = stream[Symbol.asyncIterator]();
      t0 = now();
      env.note({ event: 'opened', file_id: fileId });
    }
    const t = now();
    let r;
    try {
      const p = it.next();
      if (pending) { hash.update(pending); pending = null; }
      r = await p;
    } catch (e) {
      record('download', t, now(), intended, false);
      failed = e;
      env.note({ event: 'failed', file_id: fileId, error: `${e.name}: ${e.message}` });
      throw e;
    }
    if (r.done) {
      env.note({ event: 'done', file_id: fileId, bytes, sha256: hash.digest(), seconds: Math.round(now() - t0) / 1000, checksum_cpu_s: hash.cpuS() });
      return false;
    }
    bytes += r.value.length;
    record('download', t, now(), intended, true, 0, r.value.length);
    pending = r.value;
    return true;
  };
}

module.exports = {
  name: 'gridfs',
  ops: ['upload', 'download'],
  opsPerIteration: 1,
  bound: 'own',
  fixedClients: FIXED_CLIENTS,
  needsPreload: false,
  shape: 'cases',
  options,
  configure,
  plan,
  stepTotal,
  beforeStep,
  afterStep,
  next(config, col, rng, id, step, env) {
    const { GridFSBucket, ObjectId } = driverOf(env.client);
    const bucketApi = new GridFSBucket(env.db, { bucketName: config.params.bucket,
      chunkSizeBytes: config.params.chunk_size });
    return step.phase === 'upload' ? uploadNext(config, rng, env, bucketApi) : downloadNext(config, step, env, bucketApi, ObjectId);
  },
};
