'use strict';
// Which engine a run is filed under (results/<experiment>/<engine>/): --engine LABEL as given
// (source "flag"), unless LABEL is an engine of the table and the server reports a storage engine
// no row of the table runs; else the storage engine the server reports, by the engines table's name where
// its server_engine column knows it, else as reported, made safe for a folder name ("server");
// else the product a vendor field of buildInfo names ("product", src/server/products.js); else
// "unknown-<version>" ("none"). Never the process name. The rule with its examples and why:
// loader/README.md, "Outputs" (`<engine>`).
// The same rule picks the engines table's row the run is (the row --engine names, else the row
// that runs the reported engine in the server's build), once per run: retry-writes.js and
// storage-facts.js take that row, so the folder, storage.engine_row and retry_writes never differ.
const { engines } = require('../../../common/tables');
const { imageVendor } = require('./products');

// tableEngines(repoRoot) -> [{ engine, server_engine, vendor, row }] from the table, empty when the
// table is not there (the stack's loader image has no compose/; ./run.sh always passes --engine
// there). vendor: the product whose image the row runs (src/server/products.js imageVendor), null for
// MongoDB's own images; row: the table's row as common/tables.js engines() reads it.
function tableEngines(repoRoot) {
  try {
    return engines(repoRoot).filter((r) => r.engine && r.server_engine)
      .map((r) => ({ engine: r.engine.toLowerCase(), server_engine: r.server_engine, vendor: imageVendor(r.image),
        row: r }));
  } catch {
    return [];
  }
}

// rowFor(rows, reported, vendor): the row that runs this engine in this vendor's build. Several rows
// report the same engine (wiredtiger and percona-wt both run wiredTiger): the server's vendor field
// tells MongoDB's build (none) from Percona's (psmdbVersion). Where no row has the server's build,
// the first row of its engine names it (the report's identity still keeps the builds apart).
function rowFor(rows, reported, vendor) {
  return rows.find((r) => r.server_engine === reported && r.vendor === vendor)
    || rows.find((r) => r.server_engine === reported) || null;
}

const folderSafe = (text) => text.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[._-]+/, '');

// engineLabel({ flag, reported, server, repoRoot }) -> { engine, source, reported, row, rowFrom }
// server: summary.json's server ({ version, vendors, backend }) for a server reporting no engine.
// row: the engines table's row the run is (null: none of them); rowFrom: 'flag' (--engine named
// it) or 'server' (the reported engine and build), null with no row.
function engineLabel({ flag, reported, server = null, repoRoot }) {
  const rows = tableEngines(repoRoot);
  const rep = typeof reported === 'string' && reported !== '' ? reported : null;
  const vendor = server && Array.isArray(server.vendors) && server.vendors[0] ? server.vendors[0].product : null;
  const byServer = rep ? rowFor(rows, rep, vendor) : null;
  const label = fileUnder({ flag, rep, server, rows, byServer });
  const named = flag && label.source === 'flag' ? rows.find((r) => r.engine === String(flag).toLowerCase()) : null;
  if (named) return { ...label, row: named.row, rowFrom: 'flag' };
  // A label of the user's own (--engine atlas-m10) names no row: the reported engine's row is the
  // run's, so an MMAPv1 server under any label still has its retryable writes switched off.
  return { ...label, row: byServer ? byServer.row : null, rowFrom: byServer ? 'server' : null };
}

// fileUnder({ flag, rep, server, rows, byServer }) -> { engine, source, reported }: the folder rule.
function fileUnder({ flag, rep, server, rows, byServer }) {
  // --engine naming a row of the engines table is a claim about the server (./run.sh passes the
  // stack's engine): a server reporting a storage engine that no row of the table runs is none of
  // the table's engines, and is filed under its own word, so a run on something else (the Docker
  // suite's stand-in, which reports "standin") is never counted as that engine's. A server
  // reporting another engine of the table keeps the label (the engine_reported beside it and the
  // note below say so; the report's claims check the reported engine). Any other label is the
  // user's name for the run and is kept as given.
  const foreign = Boolean(flag && rep) && rows.some((r) => r.engine === String(flag).toLowerCase())
    && !rows.some((r) => r.server_engine === rep);
  if (flag && !foreign) return { engine: flag, source: 'flag', reported: rep };
  if (!rep) {
    const vendor = server && Array.isArray(server.vendors) ? server.vendors[0] : null;
    const backend = server && server.backend ? [server.backend.name, server.backend.version] : [];
    if (vendor) {
      const named = folderSafe([vendor.product, vendor.version, ...backend].filter(Boolean).join('-').toLowerCase());
      return { engine: named, source: 'product', reported: null };
    }
    const version = server && typeof server.version === 'string' ? folderSafe(server.version) : '';
    return { engine: version ? `unknown-${version}` : 'unknown', source: 'none', reported: null };
  }
  return { engine: (byServer && byServer.engine) || folderSafe(rep) || 'unknown', source: 'server', reported: rep };
}

module.exports = { engineLabel };
