'use strict';
// The tests' MongoDB: a real wire-protocol server (de.bwaldvogel:mongo-java-server, in-memory
// backend) started as a child process, or MONGODB_URI when set (a real mongod / mongos).
// The jars are fetched by test/install.d/40-loader.sh into <repo>/.tools/mongo-java-server/.
// The Java launcher is compiled and jarred once per version into .tools/mongo-java-server/classes-<hash>/,
// beside the class-data archive its first start makes (makeArchive below).
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');

const REPO = path.resolve(__dirname, '..', '..', '..');
const JARS = path.join(REPO, '.tools', 'mongo-java-server');
const SOURCE = path.join(__dirname, 'LabMongoServer.java');
// One classes folder per version of the source (its hash): checkouts that share .tools (git
// worktrees) and carry different versions of LabMongoServer.java never run each other's build.
const shortHash = (text) => require('node:crypto').createHash('sha256').update(text).digest('hex').slice(0, 12);
const CLASSES = path.join(JARS, `classes-${shortHash(fs.readFileSync(SOURCE))}`);
const HINT = "run 'bash test/install-tools.sh' (fetches mongo-java-server from Maven Central into .tools/)";

// The launcher as a jar: class-data sharing (below) takes jars only. Each jar by name, in order,
// as the archive records the class path it was made with.
const LAUNCHER_JAR = path.join(CLASSES, 'lab-mongo-server.jar');
function classpath() {
  const jars = fs.readdirSync(JARS).filter((f) => f.endsWith('.jar')).sort().map((f) => path.join(JARS, f));
  return [...jars, LAUNCHER_JAR].join(path.delimiter);
}

function compile() {
  if (!fs.existsSync(JARS) || !fs.readdirSync(JARS).some((f) => f.startsWith('mongo-java-server-core'))) {
    throw new Error(`mongo-java-server jars missing in ${JARS}: ${HINT}`);
  }
  if (fs.existsSync(LAUNCHER_JAR)) return;
  fs.mkdirSync(CLASSES, { recursive: true });
  // Compile into a private folder, jar it, then rename: parallel test files may race here.
  const tmp = fs.mkdtempSync(path.join(JARS, '.classes-'));
  execFileSync('javac', ['-d', tmp, '-cp', path.join(JARS, '*'), SOURCE], { stdio: 'inherit' });
  execFileSync('jar', ['--create', '--file', path.join(tmp, 'launcher.jar'), '-C', tmp, '.'], { stdio: 'inherit' });
  fs.renameSync(path.join(tmp, 'launcher.jar'), LAUNCHER_JAR);
  fs.rmSync(tmp, { recursive: true, force: true });
}

// Class-data sharing (JDK 13+ dynamic AppCDS): a start maps the classes an earlier start loaded
// from an archive instead of loading and verifying them again. Measured 2026-11-30 on the 2-core
// VM, busy: a start, one client's insert and a stop took 0.43 CPU s with the archive, 0.84
// without; the suites start a few hundred servers.
// The archive is made once per launcher build, by a start that serves one client's commands and
// exits on stdin's end (-XX:ArchiveClassesAtExit writes it then); until it exists, and for every
// start that does not make it, the server runs without (-Xshare:auto, the JDK's default).
// -Xlog:disable keeps the JVM's CDS warnings (a class it cannot archive) off the PORT line's stdout.
// The JVM refuses, silently, an archive whose jars have changed since (it records their sizes and
// times): the archive is named for them, so that new jars get a new one.
const archivePath = () => {
  const stamp = classpath().split(path.delimiter).map((f) => { const st = fs.statSync(f); return `${f} ${st.size} ${st.mtimeMs}`; }).join('\n');
  return path.join(CLASSES, `lab-mongo-server-${shortHash(stamp)}.jsa`);
};
const JAVA_FLAGS = ['-Xss512k', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Xlog:disable', '-Xlog:all=error:stderr'];

async function makeArchive(archive) {
  const lock = `${archive}.lock`;
  try {
    // a maker that died left its lock: stale after two minutes
    if (Date.now() - fs.statSync(lock).mtimeMs > 120000) fs.rmSync(lock, { force: true });
  } catch { /* no lock */ }
  let fd;
  try {
    fd = fs.openSync(lock, 'wx'); // one maker at a time; the others start without
  } catch {
    return;
  }
  const tmp = `${archive}.${process.pid}`;
  try {
    const server = await launch([`-XX:ArchiveClassesAtExit=${tmp}`], 0, {});
    const { MongoClient } = require('mongodb');
    const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 10000 });
    try {
      const coll = client.db('lab_cds').collection('c');
      await coll.insertMany([{ _id: 1, v: 'x' }, { _id: 2, v: 'y' }]);
      await coll.findOne({ _id: 1 });
      await coll.updateOne({ _id: 2 }, { $set: { v: 'z' } });
      await client.db('admin').command({ serverStatus: 1 });
    } finally {
      await client.close();
    }
    await server.stop(120000); // the archive is written as the JVM exits: seconds on a busy host
    if (server.proc.exitCode === 0 && fs.existsSync(tmp)) fs.renameSync(tmp, archive);
  } finally {
    fs.rmSync(tmp, { force: true });
    fs.closeSync(fd);
    fs.rmSync(lock, { force: true });
  }
}

// startServer() -> { uri, port, proc, kill(), stop() }. Resolves when the server accepts
// connections (it prints "PORT n" after bind).
// cpus: optional CPU list for taskset (the bench keeps the server off the loader's core).
// storageEngine: serverStatus reports it (as mongod does); rejectAuth: saslStart fails as a wrong
// password does on mongod (code 18); acceptPlain: authMechanism=PLAIN logs in with any password.
// version: { server: '3.6.0', wire: 6 } announces another server
// line in buildInfo and hello (default 7.0.0, wire 21). See LabMongoServer.java.
// line: a server line of support/server-lines.js ('mongod-4.0-mmapv1-replset', ...): the wire shim
// (support/wire-shim.js) stands in front and answers as that line does; uri is then the shim's
// (every member's port and replicaSet=), and shim exposes its state and stats.
// LAB_TEST_SERVER=ferretdb (the 45-ferretdb suite): a plain startServer() starts FerretDB instead
// (support/ferretdb.js), so the kill and freeze tests act on a real server process of another
// make; a call that asks for what only mongo-java-server can announce (a line, a version, an
// engine, refused auth) still gets mongo-java-server.
// pauseLog: a file the JVM logs each of its stop-the-world pauses to (support/premise.js
// jvmPauses reads it), for a test whose premise is a server that did not stall.
async function startServer({
  port = 0, cpus = null, storageEngine = null, rejectAuth = false, acceptPlain = false, version = null, line = null,
  pauseLog = null,
} = {}) {
  if (line) return startLine(line, { cpus, rejectAuth, acceptPlain, pauseLog });
  if (process.env.LAB_TEST_SERVER === 'ferretdb' && !storageEngine && !rejectAuth && !acceptPlain && !version && !cpus && !port && !pauseLog) {
    return require('./ferretdb').startFerretdb();
  }
  compile();
  const archive = archivePath();
  if (!fs.existsSync(archive)) await makeArchive(archive);
  const shared = fs.existsSync(archive) ? [`-XX:SharedArchiveFile=${archive}`] : [];
  // safepoint: every stop-the-world pause (a collection among them) with its total in ns;
  // timemillis: its wall-clock end (epoch ms), comparable with the loader's timeline.
  const pauses = pauseLog ? [`-Xlog:safepoint:file=${pauseLog}:timemillis`] : [];
  return launch([...shared, ...pauses], port, { cpus, storageEngine, rejectAuth, acceptPlain, version });
}

// launch(flags, port, options): the java process and its handle, once it prints PORT.
async function launch(flags, port, { cpus, storageEngine, rejectAuth, acceptPlain, version }) {
  const pin = cpus ? ['taskset', '-c', cpus] : [];
  const proc = spawn(pin[0] || 'java', [...pin.slice(1), ...(pin.length ? ['java'] : []), ...JAVA_FLAGS, ...flags, '-cp', classpath(), 'LabMongoServer', '127.0.0.1', String(port)], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: {
      ...process.env,
      LAB_STORAGE_ENGINE: storageEngine || '',
      LAB_REJECT_AUTH: rejectAuth ? '1' : '',
      LAB_ACCEPT_PLAIN: acceptPlain ? '1' : '',
      LAB_SERVER_VERSION: version ? version.server : '',
      LAB_WIRE_VERSION: version ? String(version.wire) : '',
    },
  });
  const rl = readline.createInterface({ input: proc.stdout });
  const bound = await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('mongo-java-server did not start within 30 s')), 30000);
    rl.on('line', (l) => {
      const m = /^PORT (\d+)$/.exec(l);
      if (m) { clearTimeout(t); resolve(Number(m[1])); }
    });
    proc.on('exit', (code) => { clearTimeout(t); reject(new Error(`mongo-java-server exited with ${code}`)); });
  });
  return {
    uri: `mongodb://127.0.0.1:${bound}/`,
    port: bound,
    proc,
    kill() { proc.kill('SIGKILL'); },
    // stop(graceMs): stdin's end asks the server to exit; killed if it has not within graceMs
    stop(graceMs = 3000) {
      return new Promise((r) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return r();
        proc.once('exit', r);
        proc.stdin.end();
        setTimeout(() => proc.kill('SIGKILL'), graceMs).unref();
      });
    },
  };
}

async function startLine(line, opts) {
  const { startShim } = require('./wire-shim');
  const backend = await startServer(opts);
  let shim;
  try {
    shim = await startShim({ backendPort: backend.port, line });
  } catch (e) {
    await backend.stop();
    throw e;
  }
  return {
    uri: shim.uri,
    port: shim.ports[0],
    proc: backend.proc,
    shim,
    backend,
    kill() { shim.close(); backend.kill(); },
    async stop() { await shim.close(); await backend.stop(); },
  };
}

// testServer(): MONGODB_URI if set (then stop/kill are not available; host and port are its
// first host's, for a test that puts a proxy in front), else a fresh java server.
async function testServer() {
  if (process.env.MONGODB_URI) {
    const uri = process.env.MONGODB_URI;
    const m = /^mongodb:\/\/(?:[^@/]*@)?(\[[^\]]+\]|[^,/:?]+)(?::(\d+))?/.exec(uri);
    return { uri, external: true, host: m ? m[1].replace(/^\[|\]$/g, '') : null, port: m ? Number(m[2] || 27017) : null, stop: async () => {}, kill: null };
  }
  return startServer();
}

// dependsOn(...ids): node:test's `skip` option for a test that holds only on the test server,
// through its deviations from MongoDB (support/server-lines.js DEVIATIONS: an unknown id throws).
// Under MONGODB_URI the test is skipped, naming each deviation (counted as skipped, never as
// passed, by test/run-all.sh); else false (it runs).
//   test('...', { skip: dependsOn('journal-commit-interval-unknown') }, async () => { ... });
function dependsOn(...ids) {
  const { deviationOf } = require('./server-lines');
  const named = ids.map((id) => `deviation '${id}' (${deviationOf(id).test_server})`);
  return process.env.MONGODB_URI ? `depends on the test server's ${named.join('; ')}: MONGODB_URI names another server` : false;
}

// The folder a run against the bare test server is filed under: it reports no storage engine
// (server-lines.js DEVIATIONS no-storage-engine), so the loader names it by the
// version (src/server/engine-label.js), never by its process (the executable's name).
const UNREPORTED_ENGINE_FOLDER = 'unknown-7.0.0';

module.exports = { startServer, testServer, dependsOn, compile, classpath, REPO, UNREPORTED_ENGINE_FOLDER };
