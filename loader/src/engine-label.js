'use strict';
// Which engine a run is filed under (results/<experiment>/<engine>/):
//   --engine LABEL given: LABEL as given (any label, e.g. for a foreign cluster), source "flag";
//   otherwise the storage engine the server reports: the engines table's name (compose/engines.tsv,
//   lower case) when its server_engine column knows the reported name, else the reported name
//   itself (made safe for a folder name), source "server"; "unknown" with source "none" when the
//   server reports no storage engine (mongo-java-server, for one).
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

// engineLabel({ flag, reported, repoRoot }) -> { engine, source, reported }
function engineLabel({ flag, reported, repoRoot }) {
  const rep = typeof reported === 'string' && reported !== '' ? reported : null;
  if (flag) return { engine: flag, source: 'flag', reported: rep };
  if (!rep) return { engine: 'unknown', source: 'none', reported: null };
  const known = tableEngines(repoRoot).get(rep);
  const safe = rep.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[._-]+/, '') || 'unknown';
  return { engine: known || safe, source: 'server', reported: rep };
}

module.exports = { engineLabel, tableEngines };
