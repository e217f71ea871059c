'use strict';
// The terminal's "server ..." line: what the run reached, named as the server names itself. A
// build that names its vendor in buildInfo (src/server/products.js vendorsOf) is that product, with the
// MongoDB version it implements beside it: "server 7.0.42 (standalone)" hid that the server was
// FerretDB on SQLite. A build that names none prints its version, as MongoDB's own does.
const { PRODUCTS } = require('./products');

// serverLine(server, topology, reported) -> the line (no newline). server: summary.json server
// (version, vendors, backend); topology: describe.js topology; reported: the storage engine name
// the run reports, or undefined.
function serverLine(server, topology, reported) {
  const s = server || {};
  const v = Array.isArray(s.vendors) ? s.vendors[0] : null;
  const kind = (topology && topology.kind) || 'topology unknown';
  let who = `${s.version ?? '?'}`;
  if (v) {
    const name = PRODUCTS[v.product] ? PRODUCTS[v.product].name : v.product;
    const backend = s.backend && s.backend.name ? `, backend ${s.backend.name}${s.backend.version ? ` ${s.backend.version}` : ''}` : '';
    who = `${name} ${v.version} (MongoDB ${s.version ?? '?'} compatible${backend})`;
  }
  return `server ${who} (${kind}), storage engine ${reported ?? 'not reported'}`;
}

module.exports = { serverLine };
