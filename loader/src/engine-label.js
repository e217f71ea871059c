'use strict';
// Which engine a run is filed under (results/<experiment>/<engine>/):
//   --engine LABEL given: LABEL as given (any label, e.g. for a foreign cluster), source "flag";
//   otherwise the storage engine the server reports: the engines table's name (compose/engines.tsv,
//   lower case) when its server_engine column knows the reported name, else the reported name
//   itself (made safe for a folder name), source "server"; when the server reports no storage
//   engine (mongo-java-server, for one), "unknown-" and what it does report, its product or
//   process and version ("unknown-java-7.0.0"), source "none": two such servers are never filed
//   (and so never compared, report/README.md) as one "unknown"; bare "unknown" only when the
//   server reports none of these either.
const { engines } = require('./tables');

// tableEngines(repoRoot) -> Map(server_engine -> engine), empty when the table is not there (the
// stack's loader image has no compose/; ./run.sh always passes --engine there). Where several rows
// report the same engine (wiredtiger and percona-wt both run wiredTiger) the first row wins: a
// server's report cannot tell MongoDB's build from Percona's, so --engine names the other.
function tableEngines(repoRoot) {
  let rows;
  try {
    rows = engines(repoRoot);
  } catch {
    return new Map();
  }
  const map = new Map();
  for (const r of rows) if (r.engine && r.server_engine && !map.has(r.server_engine)) map.set(r.server_engine, r.engine.toLowerCase());
  return map;
}

const folderSafe = (text) => text.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[._-]+/, '');

// engineLabel({ flag, reported, server, repoRoot }) -> { engine, source, reported }
// server: summary.json's server ({ version, product, process }) for a server reporting no engine.
function engineLabel({ flag, reported, server = null, repoRoot }) {
  const rep = typeof reported === 'string' && reported !== '' ? reported : null;
  if (flag) return { engine: flag, source: 'flag', reported: rep };
  if (!rep) {
    const what = [server && (server.product || server.process), server && server.version].filter((x) => typeof x === 'string' && x !== '');
    const named = folderSafe(what.join('-'));
    return { engine: named ? `unknown-${named}` : 'unknown', source: 'none', reported: null };
  }
  const known = tableEngines(repoRoot).get(rep);
  return { engine: known || folderSafe(rep) || 'unknown', source: 'server', reported: rep };
}

module.exports = { engineLabel, tableEngines };
