'use strict';
// What the durability kinds (kinds/writeconcern.js, kinds/bulk_import.js) share: write concerns
// by name, how a case the server cannot do is told apart from a lost server, whether the engine
// journals, and server parameters set on the members that hold the data.
const { UsageError } = require('../../text/usage');
const { ignoredBy } = require('../../server/products');

// Write concerns by name, as seeds/000 lists them: w:0, w:1, w:1+j, w:2, w:2+j, majority,
// majority+j (and w:N for any N). "+j" is j:true; without it j is false, written out so that the
// server's default (writeConcernMajorityJournalDefault for majority) never decides silently.
const WC_NAME = /^(?:w:(\d{1,2})|majority)(\+j)?$/;

function parseWriteConcern(flag, name) {
  const m = WC_NAME.exec(name);
  if (!m) throw new UsageError(`${flag}: '${name}' is not a write concern (w:N or majority, +j for j:true; e.g. w:1,w:1+j,majority+j)`);
  const w = m[1] === undefined ? 'majority' : Number(m[1]);
  // The driver refuses {w: 0, j: true}: an unacknowledged write cannot wait for the journal.
  if (w === 0 && m[2]) throw new UsageError(`${flag}: 'w:0+j' is not a write concern (an unacknowledged write cannot wait for the journal)`);
  return { name, write_concern: { w, j: Boolean(m[2]) } };
}

function parseWriteConcerns(flag, text) {
  const names = String(text).split(',');
  if (names.some((n) => n === '')) throw new UsageError(`${flag}: '${text}' is not a list like w:1,majority+j`);
  return names.map((n, i) => {
    if (names.indexOf(n) !== i) throw new UsageError(`${flag}: ${n} given twice`);
    return parseWriteConcern(flag, n);
  });
}

// driverWriteConcern({w, j}, wtimeoutMs): the driver's option. An acknowledged write concern the
// topology cannot satisfy (w:3 with a member down) waits wtimeout, then the server answers with a
// write concern error: bounded, instead of waiting forever (the server's default wtimeout is 0).
function driverWriteConcern(wc, wtimeoutMs) {
  if (wc.w === 0) return { w: 0 };
  return wtimeoutMs ? { w: wc.w, j: wc.j, wtimeoutMS: wtimeoutMs } : { w: wc.w, j: wc.j };
}

// A lost connection is not the case's fault: the framework stops the run on it (clients.js).
const NETWORK = /^Mongo(Network|NetworkTimeout|ServerSelection|NotConnected|TopologyClosed|ServerClosed|PoolClosed)Error$/;
// A write to a socket the server has closed surfaces as the socket's own error (EPIPE,
// ECONNRESET: the driver does not wrap it when no reply is awaited, as for w:0).
const SOCKET_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT']);
const isNetworkError = (e) => Boolean(e && (NETWORK.test(e.name) || SOCKET_CODES.has(e.code)));

// describeError(e): one line with the server's code and name where it gave them.
function describeError(e) {
  const wce = e.writeConcernError || e.result?.writeConcernError || e.errorResponse?.writeConcernError;
  const code = wce?.code ?? e.code;
  const codeName = wce?.codeName ?? e.codeName;
  const msg = wce?.errmsg ?? e.message;
  const timedOut = Boolean(wce?.errInfo?.wtimeout || e.errInfo?.wtimeout || code === 64);
  return { text: `${e.name}${code !== undefined ? ` ${codeName ? `${codeName} ` : ''}(${code})` : ''}: ${msg}`, timedOut, code };
}

// The built-in role that grants setParameter (action "setParameter" on the cluster resource):
// hostManager (also in clusterAdmin and root); clusterManager grants setClusterParameter, not
// setParameter. mongodb/mongo src/mongo/db/auth/builtin_roles.yml, roles hostManager and
// clusterManager.
const SET_PARAMETER_ROLE = 'hostManager (or clusterAdmin/root, which include it)';

// journalFacts({engine row, storageEngine, cmdLine}) -> { journal, journal_source }: does a
// write acknowledged with j:true go to an on-disk journal on this server?
//   1. the engines table's journal column, when the run's label is one of its engines;
//   2. else what the server reports: storageEngine.persistent false (inMemory: no files, no
//      journal), getCmdLineOpts storage.journal.enabled false (MMAPv1 or WiredTiger before 6.1
//      with --nojournal); a persistent engine otherwise journals (WiredTiger always since 6.1);
//   3. else not known (null), e.g. a server that reports no storage engine.
function journalFacts({ row, storageEngine, cmdLine }) {
  if (row && typeof row.journal === 'boolean') {
    return { journal: row.journal, journal_source: `compose/engines.tsv journal column of ${row.engine}` };
  }
  const enabled = cmdLine?.parsed?.storage?.journal?.enabled;
  if (enabled === false) return { journal: false, journal_source: 'getCmdLineOpts: storage.journal.enabled false' };
  if (storageEngine && storageEngine.persistent === false) {
    return { journal: false, journal_source: `serverStatus storageEngine ${storageEngine.name}: persistent false (no data files, no journal)` };
  }
  if (storageEngine && storageEngine.persistent === true) {
    return { journal: true, journal_source: `serverStatus storageEngine ${storageEngine.name}: persistent true, journal not disabled (getCmdLineOpts)` };
  }
  return { journal: null, journal_source: 'not reported (serverStatus has no storageEngine)' };
}

// dataMembers(description, clientHosts) -> the mongod hosts that take the writes: a replica set's
// members (hello.hosts), the shards' members behind mongos (listShards; a server parameter set on
// mongos changes only the router), or the one server the client talks to.
function dataMembers(description, clientHosts) {
  const t = description?.topology || {};
  if (t.kind === 'mongos') {
    return (t.shards || []).flatMap((s) => String(s.host).replace(/^[^/]*\//, '').split(','));
  }
  if (t.kind === 'replica_set_member' && Array.isArray(t.hosts) && t.hosts.length) return t.hosts;
  return clientHosts;
}

// caseNotes(ctx, step, notes, wc, leftOut) -> a case's entry fields from its clients' notes (the
// first unsupported, with timed_out, and stopped), and server_ignores where the server's product
// documents wc as ignored (src/server/products.js): the case is measured and recorded, but it measured
// nothing of its label, so it is left out of leftOut ('verdicts'; bulk_import: costs too).
function caseNotes(ctx, step, notes, wc, leftOut) {
  const out = {};
  const unsupported = notes.find((x) => x.unsupported);
  if (unsupported) {
    out.unsupported = unsupported.unsupported;
    if (unsupported.timed_out) out.timed_out = true;
    ctx.log(`${step.phase}: unsupported here: ${out.unsupported}`);
  }
  const stopped = notes.find((x) => x.stopped);
  if (stopped) out.stopped = stopped.stopped;
  const ignored = ignoredBy(ctx.description?.server, wc);
  if (ignored) {
    out.server_ignores = ignored;
    ctx.log(`${step.phase}: ${ignored.split(':')[0]}: measured, left out of ${leftOut}`);
  }
  return out;
}

module.exports = {
  parseWriteConcerns, driverWriteConcern, isNetworkError, describeError,
  journalFacts, dataMembers, caseNotes, SET_PARAMETER_ROLE,
};
