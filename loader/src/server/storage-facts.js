'use strict';
// What summary.json says about the engine's setup beside its numbers (summary.json `storage`),
// from the engines table's row (compose/engines.tsv: oplog_mb, preallocates, platform) and what
// the server reports (describe.js: oplog size of a replica-set member or of the shard):
//   oplog_mb          the --oplogSize the lab starts shard members with (the row's oplog_mb, or for
//                     an engine whose oplog lives in its cache flag's store, inMemory, the row's
//                     oplog_share of the profile's store: tables.js oplogMbFor), and
//   oplog_mb_reported what the member reports (collStats local.oplog.rs maxSize), null when unknown;
//   store_mb, oplog_share_of_store  that store (the profile's data_cache_gb) and the oplog's share
//                     of it (configured, else reported), null where the oplog is on disk or no
//                     profile is known (a --uri run of such an engine: store and share unknown);
//   preallocates      the engine zero-fills its files before use (MMAPv1), with the note below;
//   image_platform    the one platform the engine's image is built for (null: multi-arch),
//   host_platform     the loader's host, and emulated: true when the image's architecture is not
//                     the host's, so the numbers were measured under emulation (Docker runs a
//                     foreign image through QEMU/binfmt or Rosetta). Known only for runs in the
//                     lab's stack (./run.sh passes --profile), where the loader shares the Docker
//                     host with the members; null for --uri runs against a server elsewhere;
//   journal_path      ./run.sh --journal-path: the shard members' journals on PATH/<member>.
// oplogMb: ./run.sh --oplog-size MB, the --oplogSize it started the shard members with in place of
// the table's (seeds/004's MMAPv1 default oplog, some 3.5-4 GB): storage.oplog_mb records it.
const os = require('node:os');
const { readTable, oplogMbFor } = require('../../../common/tables');

const PREALLOCATION_NOTE = 'the engine preallocates (zero-fills) its files: the oplog at its full size when the member starts, and data files of doubling size (64 MB up to 2 GB) as a collection grows, so the first writes into a fresh collection include file allocation';

// Node's process.arch -> Docker's platform architecture.
const DOCKER_ARCH = { x64: 'amd64', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x' };

// storageFacts({ row, description, repoRoot, arch }) -> summary.json storage (null fields where
// neither the table nor the server says). row: the run's engines-table row (src/server/engine-label.js
// engineLabel chooses it once per run), null when it is none of them.
function storageFacts({ row, description, repoRoot, inStack, profile = null, journalPath = null, oplogMb = null,
  arch = process.arch, platform = os.platform() }) {
  let profileRow = null;
  try {
    if (profile) profileRow = readTable('profiles', repoRoot).find((p) => p.profile === profile) || null;
  } catch { /* no profiles table: the profile's store is not known */ }
  const table = row ? oplogMbFor(row, profileRow) : null;
  const oplog = table && oplogMb != null ? { ...table, oplog_mb: oplogMb } : table;
  const imagePlatform = row ? row.platform : null;
  const reported = description && description.server ? description.server.oplog_mb ?? null : null;
  return {
    engine_row: row ? row.engine : null,
    oplog_mb: oplog && (row.oplog_share == null || profileRow) ? oplog.oplog_mb : null,
    oplog_mb_reported: reported,
    store_mb: oplog ? oplog.store_mb : null,
    oplog_share_of_store: oplog && oplog.store_mb
      ? Math.round(((oplog.oplog_mb ?? reported) / oplog.store_mb) * 1000) / 1000 : null,
    preallocates: row ? row.preallocates : null,
    ...(row && row.preallocates ? { preallocation_note: PREALLOCATION_NOTE } : {}),
    image_platform: imagePlatform,
    host_platform: `${platform}/${DOCKER_ARCH[arch] || arch}`,
    emulated: !inStack ? null : imagePlatform ? imagePlatform.split('/')[1] !== (DOCKER_ARCH[arch] || arch) : false,
    // ./run.sh --journal-path: each shard member's journal on PATH/<member> (the report's seeds/000
    // claim compares journaled writes with and without it); null: the journal beside the data.
    journal_path: journalPath ?? null,
  };
}

module.exports = { storageFacts, PREALLOCATION_NOTE };
