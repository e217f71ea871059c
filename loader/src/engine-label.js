'use strict';
// Which engine a run is filed under (results/<experiment>/<engine>/): --engine LABEL as given
// (source "flag"), unless LABEL is an engine of the table and the server reports a storage engine
// no row of the table runs; else the storage engine the server reports, by the engines table's name where
// its server_engine column knows it, else as reported, made safe for a folder name ("server");
// else the product a vendor field of buildInfo names ("product", src/products.js); else
// "unknown-<version>" ("none"). Never the process name. The rule with its examples and why:
// loader/README.md, "Outputs" (`<engine>`).
const { engines } = require('../../common/tables');
const { imageVendor } = require('./products');

// tableEngines(repoRoot) -> [{ engine, server_engine, vendor }] from the table, empty when the
// table is not there (the stack's loader image has no compose/; ./run.sh always passes --engine
// there). vendor: the product whose image the row runs (src/products.js imageVendor), null for
// MongoDB's own images.
function tableEngines(repoRoot) {
  try {
    return engines(repoRoot).filter((r) => r.engine && r.server_engine)
      .map((r) => ({ engine: r.engine.toLowerCase(), server_engine: r.server_engine, vendor: imageVendor(r.image) }));
  } catch {
    return [];
  }
}

// rowFor(rows, reported, vendor): the row that runs this engine in this vendor's build. Several rows
// report the same engine (wiredtiger and percona-wt both run wiredTiger): the server's vendor field
// tells MongoDB's build (none) from Percona's (psmdbVersion). Where no row has the server's build,
// the first row of its engine names it (the report's identity still keeps the builds apart).
function rowFor(rows, reported, vendor) {
  return rows.find((r) => r.server_engine === reported && r.vendor === vendor) || rows.find((r) => r.server_engine === reported) || null;
}

const folderSafe = (text) => text.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[._-]+/, '');

// engineLabel({ flag, reported, server, repoRoot }) -> { engine, source, reported }
// server: summary.json's server ({ version, vendors, backend }) for a server reporting no engine.
function engineLabel({ flag, reported, server = null, repoRoot }) {
  const rep = typeof reported === 'string' && reported !== '' ? reported : null;
  // --engine naming a row of the engines table is a claim about the server (./run.sh passes the
  // stack's engine): a server reporting a storage engine that no row of the table runs is none of
  // the table's engines, and is filed under its own word, so a run on something else (the Docker
  // suite's stand-in, which reports "standin") is never counted as that engine's. A server
  // reporting another engine of the table keeps the label (the engine_reported beside it and the
  // note below say so; the report's claims check the reported engine). Any other label is the
  // user's name for the run and is kept as given.
  const rows = flag && rep ? tableEngines(repoRoot) : [];
  const foreign = rows.some((r) => r.engine === String(flag).toLowerCase()) && !rows.some((r) => r.server_engine === rep);
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
  const vendor = server && Array.isArray(server.vendors) && server.vendors[0] ? server.vendors[0].product : null;
  const known = rowFor(tableEngines(repoRoot), rep, vendor);
  return { engine: (known && known.engine) || folderSafe(rep) || 'unknown', source: 'server', reported: rep };
}

module.exports = { engineLabel };
