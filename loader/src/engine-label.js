'use strict';
// Which engine a run is filed under (results/<experiment>/<engine>/):
//   --engine LABEL given: LABEL as given (any label, e.g. for a foreign cluster), source "flag";
//   otherwise the storage engine the server reports: the engines table's name (compose/engines.tsv,
//   lower case) when its server_engine column knows the reported name, else the reported name
//   itself (made safe for a folder name), source "server";
//   a server that reports no storage engine but names its product (a vendor field of buildInfo,
//   src/products.js): the product, its version and its backend where it reveals one
//   ("ferretdb-v1.24.2-sqlite-3.46.0"), source "product";
//   else "unknown-" and the version it reports ("unknown-7.0.0"), source "none".
// Never the process name: serverStatus.process is the executable's file name (src/products.js),
// and the same server copied as `mongod` must not be filed apart, nor two servers as one. Two
// servers that differ in what they say about themselves also differ in the report's identity
// (report/src/identity.js), which keeps them apart even where a label is shared.
const { engines } = require('./tables');
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
  if (flag) return { engine: flag, source: 'flag', reported: rep };
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

module.exports = { engineLabel, tableEngines };
