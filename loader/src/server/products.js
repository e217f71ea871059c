'use strict';
// Which server product a run measured, from what the server says about itself, and what that
// product documents as ignored. Never from a binary's file name: serverStatus.process is the
// executable's base name on MongoDB (the binary name) and on FerretDB (filepath.Base of
// os.Executable(), internal/handler/msg_serverstatus.go), so a copy renamed `mongod` would
// otherwise pass for MongoDB.
//
// The vendor fields: a build that is not MongoDB's own names itself in buildInfo with a
// `<product>Version` key beside MongoDB's `version` (the MongoDB version it implements or is
// based on) and `gitVersion`:
//   psmdbVersion     Percona Server for MongoDB ("The 'psmdbVersion' key is used to distinguish
//                    between MongoDB and PSMDB", percona/percona-server-mongodb
//                    src/mongo/util/buildinfo.idl)
//   ferretdbVersion  FerretDB ("our extensions", FerretDB v1.24.2 internal/handler/msg_buildinfo.go;
//                    its `version` is the MongoDB version it emulates, 7.0.42 from v1.18 on)
// Any other `<name>Version` key is taken the same way, so a product this table does not know is
// still told apart by its own word. MongoDB's own buildInfo has no such key besides gitVersion.
const MONGODB_VERSION_KEYS = new Set(['version', 'gitVersion']);

// vendorsOf(buildInfo) -> [{ product, field, version }] in the reply's order.
function vendorsOf(build) {
  if (!build || typeof build !== 'object') return [];
  return Object.keys(build)
    .filter((k) => /^[a-z][A-Za-z0-9]*Version$/.test(k) && !MONGODB_VERSION_KEYS.has(k) && typeof build[k] === 'string' && build[k] !== '')
    .map((k) => ({ product: k.slice(0, -'Version'.length).toLowerCase(), field: k, version: build[k] }));
}

// FerretDB's backend (SQLite, PostgreSQL, ...) is not in buildInfo or serverStatus; v1.24.2 says
// it in getLog startupWarnings, "Powered by FerretDB v1.24.2 and SQLite 3.46.0.", once the backend
// has opened a database (internal/handler/msg_getlog.go: state.BackendName and BackendVersion,
// set by internal/backends/sqlite/metadata/pool/opendb.go and postgresql's; before that the line
// reads "Powered by FerretDB v1.24.2." and the backend is not known yet).
const FERRETDB_POWERED = /Powered by FerretDB (\S+?)(?: and (\S+) (\S+?))?\.$/;

// Nor does FerretDB say when its backend restarted: its serverStatus pid, uptime and localTime are
// FerretDB's own process (v1.24.2 msg_serverstatus.go), so a PostgreSQL restarted under a running
// FerretDB is not seen (common/process-start.js compares FerretDB's process only).
async function ferretdbBackend(admin) {
  let r;
  try {
    r = await admin.command({ getLog: 'startupWarnings' });
  } catch (e) {
    return { backend: null, backend_note: `getLog startupWarnings failed: ${e.codeName || e.name}: ${e.message}` };
  }
  for (const line of r.log || []) {
    let msg = line;
    try { msg = JSON.parse(line).msg; } catch { /* a plain line */ }
    const m = FERRETDB_POWERED.exec(String(msg));
    if (m && m[2]) return { backend: { name: m[2], version: m[3], source: 'getLog startupWarnings' } };
    if (m) return { backend: null, backend_note: 'getLog startupWarnings names no backend yet (FerretDB names it once a database is open)' };
  }
  return { backend: null, backend_note: 'getLog startupWarnings has no "Powered by FerretDB" line' };
}

// What each product documents as ignored: a case that depends on it measures nothing of what its
// label says, so it is recorded as such and left out of verdicts (kinds/writeconcern.js,
// kinds/bulk_import.js). Keys: write_concern.w, write_concern.j.
const PRODUCTS = {
  ferretdb: {
    name: 'FerretDB',
    backend: ferretdbBackend,
    ignores: {
      'write_concern.w': 'FerretDB ignores writeConcern (v1.24.2 internal/handler/common/insert.go, update_params.go, delete_params.go, findandmodify.go: `ferretdb:"writeConcern,ignored"`): every write is acknowledged as its backend commits it, whatever w asks',
      'write_concern.j': 'FerretDB ignores writeConcern, j included (v1.24.2 internal/handler/common/insert.go: `ferretdb:"writeConcern,ignored"`): j:true waits for nothing more than j:false',
    },
  },
  // image: the repository of the product's official image, so that a server naming this vendor
  // is matched to the engines-table row that runs it (src/server/engine-label.js): Percona's build reports
  // the same wiredTiger as MongoDB's (percona-docker: percona/percona-server-mongodb).
  psmdb: { name: 'Percona Server for MongoDB', image: 'percona/percona-server-mongodb', ignores: {} },
};

// productOf(server) -> the PRODUCTS row of a run's recorded server (summary.json server.vendors),
// or null (MongoDB's own build, or a product this table does not know).
function productOf(server) {
  const v = server && Array.isArray(server.vendors) ? server.vendors[0] : null;
  return v && PRODUCTS[v.product] ? { id: v.product, ...PRODUCTS[v.product] } : null;
}

// ignoredBy(server, writeConcern) -> the reason the server ignores what this write concern asks
// beyond a plain acknowledged write, or null. w:1 without j asks nothing a server can ignore.
function ignoredBy(server, wc) {
  const p = productOf(server);
  if (!p || !wc) return null;
  const why = [];
  if (wc.j && p.ignores['write_concern.j']) why.push(p.ignores['write_concern.j']);
  // w:0 is not the writeConcern document alone: the driver sends it as an OP_MSG moreToCome write
  // and awaits no reply, which the server cannot ignore.
  if ((wc.w === 'majority' || (typeof wc.w === 'number' && wc.w > 1)) && p.ignores['write_concern.w']) why.push(p.ignores['write_concern.w']);
  return why.length ? `server ignores ${wc.j ? 'j' : 'w'}: ${why.join('; ')}` : null;
}

// ignoresUnsatisfiableW(server, wc, members) -> the reason a case is not run, or null: a product
// that ignores w acknowledges w > 1 on a standalone (FerretDB v1.24.2 accepts w:2, w:3 and an
// unknown tag there), where MongoDB refuses it. MongoDB's reason for skipping would then be the
// wrong one: this server cannot test w at all. members: src/kinds/durability/wc-topology.js dataBearing.
function ignoresUnsatisfiableW(server, wc, members) {
  const p = productOf(server);
  if (!p || !p.ignores['write_concern.w'] || !members || members.kind !== 'standalone') return null;
  if (!(typeof wc.w === 'number' && wc.w > 1)) return null;
  return `${p.name} ignores w: it acknowledges w:${wc.w} on a standalone, which MongoDB refuses (BadValue), so w:${wc.w} cannot be tested on this server; ${p.ignores['write_concern.w']}`;
}

// imageVendor(image) -> the PRODUCTS id whose official image this is ('psmdb'), or null (MongoDB's).
function imageVendor(image) {
  const repo = String(image || '').split(/[:@]/)[0];
  return Object.keys(PRODUCTS).find((id) => PRODUCTS[id].image && PRODUCTS[id].image === repo) ?? null;
}

module.exports = { vendorsOf, productOf, ignoredBy, ignoresUnsatisfiableW, imageVendor, PRODUCTS, FERRETDB_POWERED };
