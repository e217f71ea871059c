'use strict';
// Which official `mongodb` driver line talks to which server. Each driver release refuses servers
// below its MIN_SUPPORTED_WIRE_VERSION (lib/cmap/wire_protocol/constants.js of that release), so
// the lab's older engines (MongoDB 4.0 MMAPv1, Percona 3.6 MongoRocks) need older releases. They
// are installed beside the current one as npm aliases (loader/package.json), and the same
// experiment code runs on each: the loader only uses API the three lines share.
//
// The bounds are read from each installed driver's own constants, never copied here:
//   mongodb        7.8.0   wire 9..29   (MongoDB 4.4+)
//   mongodb-6.16   6.16.0  wire 7..25   (MongoDB 4.0+; 6.17 raised the floor to wire 8)
//   mongodb-6.9    6.9.0   wire 6..25   (MongoDB 3.6+; 6.10 raised it to wire 7)
//
// How the line is chosen: the client starts on the current line; its monitor's first hello
// (serverHeartbeatSucceeded, which the driver emits before its compatibility check refuses the
// server) carries the server's maxWireVersion, and connect.js reopens the client on the newest
// line whose floor is at or below it. The choice travels in `conn.driverLine`, so the worker
// threads (clients.js newClient) and summary.json use the same line.
const path = require('node:path');

// Newest first: the first line that accepts the server is the one used.
const PACKAGES = ['mongodb', 'mongodb-6.16', 'mongodb-6.9'];

function loadLine(pkg) {
  const dir = path.dirname(require.resolve(`${pkg}/package.json`));
  const c = require(path.join(dir, 'lib', 'cmap', 'wire_protocol', 'constants.js'));
  return {
    name: pkg,
    version: require(path.join(dir, 'package.json')).version,
    minWire: c.MIN_SUPPORTED_WIRE_VERSION,
    maxWire: c.MAX_SUPPORTED_WIRE_VERSION,
    minServer: c.MIN_SUPPORTED_SERVER_VERSION,
    maxServer: c.MAX_SUPPORTED_SERVER_VERSION,
  };
}

let cached = null;
// lines() -> every installed line, newest first, with its wire bounds.
function lines() {
  if (!cached) cached = PACKAGES.map(loadLine);
  return cached;
}

const CURRENT = PACKAGES[0];

function line(name = CURRENT) {
  const l = lines().find((x) => x.name === name);
  if (!l) throw new Error(`unknown driver line '${name}' (installed: ${PACKAGES.join(', ')})`);
  return l;
}

function driver(name = CURRENT) {
  return require(line(name).name);
}

// lineForWire(maxWireVersion) -> the newest line that accepts the server, or null when the
// server is older than every line the loader carries.
function lineForWire(wire) {
  return lines().find((l) => l.minWire <= wire && wire <= l.maxWire) || null;
}

// tooOldMessage(address, wire): the one line for a server no line accepts.
function tooOldMessage(address, wire) {
  const oldest = lines()[lines().length - 1];
  return `the server at ${address} reports wire version ${wire}, older than every driver line the loader carries ` +
    `(the oldest, mongodb ${oldest.version}, needs wire ${oldest.minWire} = MongoDB ${oldest.minServer}+): ` +
    'run a newer server, or add an older driver line to loader/src/server/driver-line.js and loader/package.json';
}

// driverDescription(conn) -> what summary.json records as loader.driver.
function driverDescription(conn = {}) {
  const l = line(conn.driverLine || CURRENT);
  const alias = l.name === 'mongodb' ? '' : ` (npm alias ${l.name})`;
  const why = conn.serverWireVersion !== undefined ? `, chosen for server wire version ${conn.serverWireVersion}` : '';
  return `mongodb ${l.version}${alias}${why}`;
}

module.exports = { lines, line, driver, lineForWire, tooOldMessage, driverDescription };
