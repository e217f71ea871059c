'use strict';
// Who ran: the server's identity and the loader's, as a run's summary.json records them, and the
// value a run takes along a comparison dimension (report --by). Runs are pooled only when these
// are equal (src/compare.js: sets and sides); what is not recorded is said, never guessed.

// server identity: what the server says about itself (loader/src/server/describe.js): version, git
// version, the build's vendor where it names one (Percona: buildInfo psmdbVersion), the process
// (serverStatus.process: mongod, mongos; mongo-java-server answers "java") and the storage engine
// it reports.
function serverIdentity(s) {
  const v = s.server || {};
  return {
    version: v.version ?? null,
    git_version: v.git_version ?? null,
    product: v.product ?? null,
    // FerretDB on SQLite and on PostgreSQL give the same version and product: the backend it
    // names (loader/src/server/products.js) keeps them two sides.
    backend: v.backend ? [v.backend.name, v.backend.version].filter(Boolean).join(' ') : null,
    process: v.process ?? null,
    storage_engine: v.storage_engine?.name ?? null,
  };
}

// The driver line is the package and its major.minor ("mongodb 7.8.0, chosen for server wire
// version 21" -> "mongodb 7.8"): the loader picks it from the server's wire version
// (loader/src/server/driver-line.js), so it belongs with the server, like the version.
function driverLine(driver) {
  const m = /^(\S+) (\d+)\.(\d+)/.exec(driver || '');
  return m ? `${m[1]} ${m[2]}.${m[3]}` : driver || null;
}

function loaderIdentity(s) {
  const l = s.loader || {};
  return { version: l.version ?? null, node: l.node ?? null, driver_line: driverLine(l.driver) };
}

// serverName(identity) -> "mongod 8.0.4 (psmdb 8.0.4-2)", "ferretdb 7.0.42 (ferretdb v1.24.2 on SQLite 3.46.0)",
// "java 7.0.0", "server not recorded"
function serverName(id) {
  if (!id.version && !id.process) return 'server not recorded';
  return [id.process ?? 'process not reported', id.version ?? 'version not reported'].join(' ') + (id.product ? ` (${id.product}${id.backend ? ` on ${id.backend}` : ''})` : '');
}

// The value of run r along dimension `by`. engine: the results label; a run filed under the
// loader's bare "unknown" (the server reported no storage engine, engine_source "none"; loaders
// before 'unknown-<process>-<version>' folders) is named by what the server does report, so two
// different servers never share one "unknown". server: its
// identity. profile: the lab's profile. Anything else: the run's --label of that name.
function dimensionValue(r, by) {
  if (by === 'engine') return r.engine_source === 'none' && r.engine === 'unknown' ? `${r.engine} (${serverName(r.identity.server)})` : r.engine;
  if (by === 'server') return serverName(r.identity.server);
  if (by === 'profile') return r.profile ?? 'profile not recorded';
  return r.labels[by] ?? `no ${by} label`;
}

// pathOf(run): how the loader reached the server, from what the server said of itself (hello):
// mongos, replica_set_member, standalone, unknown or 'not recorded'. Through mongos a run measures
// the router's hop too: two paths are never one comparison (src/compare.js setKey, src/claims.js).
const pathOf = (r) => String(r.description?.topology ?? 'not recorded').split(',')[0];

module.exports = { serverIdentity, loaderIdentity, driverLine, dimensionValue, pathOf };
