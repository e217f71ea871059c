'use strict';
// The data directory per document: what seeds/004 measured for its storage finding (du -sh of
// /var/lib/mongodb: data, indexes, journal, oplog, preallocated files) and what ./run.sh measures on
// Compose after a run (lib/experiment.sh experiment_data_dirs: du -sb of each shard member's
// /data/db into summary.json footprint.data_dir_bytes). One figure for the server-side appendix and
// the seeds' findings alike.

// dataDirPerDoc(run): the largest shard member's data directory over the end's documents, or null.
function dataDirPerDoc(r) {
  const f = r && r.footprint;
  const sizes = f && f.data_dir_bytes ? Object.values(f.data_dir_bytes).filter((x) => typeof x === 'number') : [];
  const docs = f && f.end && f.end.documents;
  return sizes.length && docs ? Math.round((Math.max(...sizes) / docs) * 10) / 10 : null;
}

module.exports = { dataDirPerDoc };
