'use strict';
// The experiment collection's footprint (issue 39 item 2), after the load phase and at the end of
// a run: collStats through the run's connection (the primary of a replica set; mongos sums its
// shards), dbStats for the file sizes a line reports (MMAPv1's fileSize, which includes its
// preallocated files). Fields as the manual's collStats / dbStats pages name them, on every line
// the lab runs: count, size (logical, uncompressed BSON), storageSize (allocated on disk),
// totalIndexSize; dbStats fileSize (MMAPv1 only). Whatever a server does not report is null with
// the reason; a size of 0 for documents that exist is not a size and is treated so.
const { round } = require('../../common/stats');
const { tryCommand } = require('./describe');

// seeds/004 experiment 1: `du -sh` of the data directory after inserting 10M documents.
const SEED_REFERENCE = {
  experiment: 'experiment1',
  documents: 10000000,
  du_bytes: { 'MongoDB 2.4 (MMAPv1)': 9.6 * 2 ** 30, 'TokuMX (default compression)': 4.7 * 2 ** 30 },
  bytes_per_doc: { 'MongoDB 2.4 (MMAPv1)': round((9.6 * 2 ** 30) / 1e7, 1), 'TokuMX (default compression)': round((4.7 * 2 ** 30) / 1e7, 1) },
  source: 'seeds/004 ("du -sh /var/lib/mongodb/": 9.6G MongoDB, 4.7G TokuMX), whole data directory, journal and preallocation included',
};

const num = (v) => (typeof v === 'number' ? v : v && typeof v.toNumber === 'function' ? v.toNumber() : undefined);

// measure(client, config, phase) -> the footprint at this moment.
async function measure(client, config, phase) {
  const db = client.db(config.database);
  const out = { phase, at: new Date().toISOString(), collection: `${config.database}.${config.collection}` };
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
  out.bytes_per_doc = {
    logical: docs && out.data_bytes !== null ? round(out.data_bytes / docs, 1) : null,
    on_disk_with_indexes: docs && out.storage_bytes !== null && out.index_bytes !== null ? round((out.storage_bytes + out.index_bytes) / docs, 1) : null,
  };
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
    // Filled by ./run.sh on Compose after the run (lib/experiment.sh experiment_data_dirs: du -sb
    // /data/db in each shard member); the loader itself sees no member's volume.
    data_dir_note: 'not measured: the loader sees no member volume (./run.sh fills it on Compose after the run)',
  };
}

module.exports = { measure, footprintSummary };
