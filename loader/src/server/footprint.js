'use strict';
// The experiment collection's footprint, after the load and at the end of a
// run, each figure with the quantity it is on this server (common/meanings.js):
//  - logical: the documents' BSON size, measured here on every line: the collection read as raw
//    BSON (every document up to SCAN_ALL, else a $sample of SAMPLE documents, said), never
//    collStats `size`, which counts padded records on MMAPv1 and table pages on FerretDB;
//  - engine_storage: collStats storageSize + totalIndexSize, which is a different quantity per
//    engine (compressed files on WiredTiger, padded extents on MMAPv1, logical bytes on
//    MongoRocks until a restart, data size and an index estimate on inMemory);
//    on_disk_with_indexes only where it is what lies on disk;
//  - dbStats fileSize (MMAPv1's data files, preallocation included).
// The member's whole data directory (du -sb, Compose) is added by ./run.sh: data_dir_bytes.
// Whatever a server does not report is null with the reason; a size of 0 for documents that
// exist is not a size and is treated so.
const { round } = require('../../../common/stats');
const { tryCommand } = require('./describe');
const { meaningOf } = require('../../../common/meanings');

// Up to this many documents the logical size is every document's; above, a sample's mean.
const SCAN_ALL = 20000;
const SAMPLE = 1000;
// engine_storage is what lies on disk only where the table says so.
const ON_DISK = new Set(['wt_file_bytes', 'mmapv1_extent_bytes']);

// seeds/004 experiment 1: `du -sh` of the data directory after inserting 10M documents.
const SEED_REFERENCE = {
  experiment: 'experiment1',
  documents: 10000000,
  du_bytes: { 'MongoDB 2.4 (MMAPv1)': 9.6 * 2 ** 30, 'TokuMX (default compression)': 4.7 * 2 ** 30 },
  bytes_per_doc: { 'MongoDB 2.4 (MMAPv1)': round((9.6 * 2 ** 30) / 1e7, 1), 'TokuMX (default compression)': round((4.7 * 2 ** 30) / 1e7, 1) },
  source: 'seeds/004 ("du -sh /var/lib/mongodb/": 9.6G MongoDB, 4.7G TokuMX), whole data directory, journal and preallocation included',
};

const num = (v) => (typeof v === 'number' ? v : v && typeof v.toNumber === 'function' ? v.toNumber() : undefined);

// bsonBytes(col, count) -> { bytes_per_doc, documents_read, method } or { error }: the documents
// as raw BSON (the driver's `raw: true` hands each over as the Buffer the server sent).
async function bsonBytes(col, count) {
  // read(cursor, method(n)): the documents the cursor hands over, and how they were chosen.
  const read = async (cursor, method) => {
    let bytes = 0;
    let n = 0;
    for await (const d of cursor) {
      if (!Buffer.isBuffer(d)) throw new Error('the driver did not hand the documents over as raw BSON');
      bytes += d.length;
      n += 1;
    }
    return n ? { bytes_per_doc: round(bytes / n, 1), documents_read: n, method: method(n) } : { error: 'no document read' };
  };
  try {
    if (count <= SCAN_ALL) {
      return await read(col.find({}, { raw: true, batchSize: 1000 }), () => 'every document');
    }
    try {
      const sample = col.aggregate([{ $sample: { size: SAMPLE } }], { raw: true });
      return await read(sample, (n) => `a random sample of ${n} ($sample)`);
    } catch {
      const first = col.find({}, { raw: true, limit: SAMPLE, batchSize: SAMPLE });
      return await read(first, (n) => `the first ${n} documents ($sample refused)`);
    }
  } catch (e) {
    return { error: `${e.codeName || e.name}: ${e.message}` };
  }
}

// measure(client, config, phase, { storageEngine }) -> the footprint at this moment.
// storageEngine: serverStatus.storageEngine.name of the members (describe.js), or null.
async function measure(client, config, phase, { storageEngine = null } = {}) {
  const db = client.db(config.database);
  const out = { phase, at: new Date().toISOString(), collection: `${config.database}.${config.collection}`, storage_engine: storageEngine };
  const cs = await tryCommand(db, { collStats: config.collection });
  if (!cs.ok) return { ...out, error: `collStats failed: ${cs.error}` };
  const s = cs.value;
  const notes = [];
  const field = (name, v) => {
    const n = num(v);
    if (n === undefined) { notes.push(`${name}: not reported`); return null; }
    if (n === 0 && num(s.count) > 0) { notes.push(`${name}: reported 0 for ${num(s.count)} documents, which is no size`); return null; }
    return n;
  };
  out.documents = num(s.count) ?? null;
  out.data_bytes = field('size', s.size);
  out.storage_bytes = field('storageSize', s.storageSize);
  out.index_bytes = field('totalIndexSize', s.totalIndexSize);
  const docs = out.documents;
  const logical = docs ? await bsonBytes(db.collection(config.collection), docs) : { error: 'no documents' };
  if (logical.error) notes.push(`logical: not measured (${logical.error})`);
  const storage = meaningOf('engine_storage', storageEngine);
  const engineStorage = docs && out.storage_bytes !== null && out.index_bytes !== null
    ? round((out.storage_bytes + out.index_bytes) / docs, 1) : null;
  out.bytes_per_doc = {
    logical: logical.bytes_per_doc ?? null,
    engine_storage: engineStorage,
    on_disk_with_indexes: ON_DISK.has(storage.quantity) ? engineStorage : null,
  };
  out.logical_method = logical.method ?? null;
  // What each figure counts on this server (common/meanings.js): the report compares a figure
  // across engines only where these are equal.
  out.quantities = { logical: meaningOf('logical').quantity, engine_storage: storage.quantity };
  out.engine_storage_means = storage.measures;
  if (engineStorage !== null && !ON_DISK.has(storage.quantity)) notes.push(`on disk: not known from collStats on this engine (${storage.measures})`);
  const ds = await tryCommand(db, { dbStats: 1 });
  const fileSize = ds.ok ? num(ds.value.fileSize) : undefined;
  // fileSize: MMAPv1's data files, preallocation included; other engines do not report it.
  out.file_bytes = fileSize > 0 ? fileSize : null;
  if (out.file_bytes === null) notes.push(ds.ok ? 'dbStats fileSize: not reported (only MMAPv1 reports its data files)' : `dbStats failed: ${ds.error}`);
  if (notes.length) out.not_reported = notes;
  return out;
}

// footprintSummary(config, { afterLoad, end }) -> summary.json footprint.
function footprintSummary(config, { afterLoad = null, end = null } = {}) {
  return {
    after_load: afterLoad,
    end,
    // The seed's published sizes, beside experiment1's (the same 10M documents at full size).
    seed_reference: config && config.name === 'experiment1' ? SEED_REFERENCE : null,
    data_dir_bytes: null,
    // Measured by ./run.sh on Compose after the run (lib/experiment.sh experiment_data_dirs: du -sb
    // /data/db in each shard member), merged in by lab-loader merge-summary (src/results/merge-summary.js);
    // the loader itself sees no member's volume.
    data_dir_note: 'not measured: the loader sees no member volume (./run.sh fills it on Compose after the run)',
  };
}

module.exports = { measure, footprintSummary, SCAN_ALL };
