'use strict';
// Stand-in processes on this host, over real TCP, for the strictness tests: each mongod is
// `node standin.js mongod <flags>` with its own FerretDB backend port, as the image runs it. The
// flags are the ones compose/cluster.yml gives the members (read from the file, so a test that
// plants a mistake plants it in the lab's own command line), with host paths and ports.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const LAB_ROOT = path.resolve(__dirname, '../../../..');
const STANDIN = path.join(LAB_ROOT, 'test/docker/standin/standin.js');
const TOOLS_BIN = path.join(LAB_ROOT, '.tools/bin');
const { MongoClient } = require(path.join(LAB_ROOT, 'loader/node_modules/mongodb'));
const HOST = os.hostname();
const { ferretArgs, ferretLink } = require('../ferret');

// labFlags(kind): the mongod flags compose/cluster.yml gives a shard ("shard") or config server
// ("cfg") member, up to the engine's storage arguments.
function labFlags(kind) {
  const yml = fs.readFileSync(path.join(LAB_ROOT, 'compose/cluster.yml'), 'utf8');
  const anchor = kind === 'cfg' ? 'x-cfg: &cfg' : 'x-shard: &shard';
  const block = yml.slice(yml.indexOf(anchor));
  const m = /command: \["exec mongod (.*?) \$\$\{LAB_STORAGE_ARGS/.exec(block);
  if (!m) throw new Error(`compose/cluster.yml: no mongod command under ${anchor}`);
  return m[1].split(/\s+/);
}

// setFlag(flags, name, value): flags with --name's value replaced, or added (value null: the flag
// removed; true: a flag without a value).
function setFlag(flags, name, value) {
  const out = [];
  if (value !== null && !flags.includes(`--${name}`)) return [...flags, `--${name}`, ...(value === true ? [] : [String(value)])];
  for (let i = 0; i < flags.length; i += 1) {
    if (flags[i] !== `--${name}`) { out.push(flags[i]); continue; }
    const takes = i + 1 < flags.length && !flags[i + 1].startsWith('--');
    if (takes) i += 1;
    if (value === null) continue;
    out.push(`--${name}`);
    if (value !== true) out.push(String(value));
  }
  return out;
}

class Cluster {
  constructor(basePort) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'standin-strict-'));
    this.keyfile = path.join(this.dir, 'keyfile');
    fs.writeFileSync(this.keyfile, require('node:crypto').randomBytes(96).toString('base64'), { mode: 0o400 });
    this.key = fs.readFileSync(this.keyfile, 'utf8').trim();
    this.nextPort = basePort;
    this.procs = [];
    this.clients = [];
  }

  // start(flags) -> { host, port, proc, log(), exited }: one process; resolves once it listens,
  // or once it exits (a refusal at startup).
  // port: a port given before, to start that member again on its data (a restart)
  async start(role, flags, { keyfile = this.keyfile, port: again } = {}) {
    const port = again || this.nextPort;
    if (!again) this.nextPort += 2;
    const dbpath = path.join(this.dir, `db${port}`);
    fs.mkdirSync(dbpath, { recursive: true });
    let args = setFlag(setFlag(flags, 'port', port), 'keyFile', keyfile);
    if (role === 'mongod') args = setFlag(args, 'dbpath', dbpath);
    const proc = spawn(process.execPath, [STANDIN, role, ...args], {
      env: { ...process.env, PATH: `${TOOLS_BIN}:${process.env.PATH}`, STANDIN_BACKEND_PORT: String(port + 1) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: a signal reaches its FerretDB too, as in a container
    });
    let out = '';
    proc.stdout.on('data', (d) => { out += d; });
    proc.stderr.on('data', (d) => { out += d; });
    // signal(sig): to the stand-in and its FerretDB at once (docker kill, docker pause)
    const signal = (sig) => { try { process.kill(-proc.pid, sig); } catch { /* gone */ } };
    const m = { host: `${HOST}:${port}`, port, proc, signal, log: () => out, exited: null };
    this.procs.push(proc);
    m.exited = new Promise((r) => proc.on('exit', (code) => r(code)));
    await Promise.race([m.exited, (async () => {
      for (let i = 0; i < 300 && !/listening/.test(out); i += 1) await new Promise((r) => setTimeout(r, 100));
    })()]);
    return m;
  }

  // client(member, opts) -> a connected MongoClient as __system (the keyfile), directConnection.
  async client(m, { mechanism } = {}) {
    const mech = mechanism ? `&authMechanism=${mechanism}` : '';
    const c = new MongoClient(`mongodb://__system:${encodeURIComponent(this.key)}@${m.host}/?authSource=local&directConnection=true${mech}`,
      { serverSelectionTimeoutMS: 5000, connectTimeoutMS: 3000 });
    this.clients.push(c);
    await c.connect();
    return c;
  }

  // setClient(members, setName, opts) -> a connected MongoClient on the replica set as __system:
  // the driver's own view of the set (server selection, retryable writes), as the lab's clients.
  async setClient(members, setName, opts = {}) {
    const hosts = members.map((m) => m.host).join(',');
    const c = new MongoClient(`mongodb://__system:${encodeURIComponent(this.key)}@${hosts}/?authSource=local&replicaSet=${setName}`,
      { serverSelectionTimeoutMS: 20000, connectTimeoutMS: 3000, ...opts });
    this.clients.push(c);
    await c.connect();
    return c;
  }

  async stop() {
    await Promise.all(this.clients.map((c) => c.close().catch(() => {})));
    // SIGTERM first: the stand-in stops its FerretDB (a SIGKILL would leave it running)
    const group = (p, sig) => { try { process.kill(-p.pid, sig); } catch { /* gone */ } };
    for (const p of this.procs) { group(p, 'SIGCONT'); try { p.kill('SIGTERM'); } catch { /* gone */ } }
    await new Promise((r) => setTimeout(r, 1500));
    for (const p of this.procs) group(p, 'SIGKILL');
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

// waitFor(fn, ms): fn's first truthy value within ms, or throws.
async function waitFor(what, fn, ms) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    try { last = await fn(); if (last) return last; } catch (e) { last = e.message; }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not within ${ms} ms (last: ${JSON.stringify(last)})`);
}

// startFerret(port, tag) -> { backend, stop }: the FerretDB v1.24.2 the image runs (SQLite, in a
// temporary folder), on 127.0.0.1:port, and a Link to it: the backend alone, for the tests of
// what the stand-in sends it.
async function startFerret(port, tag) {
  const ferretdb = path.join(TOOLS_BIN, 'ferretdb');
  if (!fs.existsSync(ferretdb)) throw new Error(`missing tool 'ferretdb' (${ferretdb}): run bash test/install-tools.sh`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `standin-${tag}-`));
  fs.mkdirSync(path.join(dir, 'data'));
  const ferret = spawn(ferretdb, ferretArgs(dir, port), { stdio: 'ignore' });
  const clean = () => { ferret.kill(); fs.rmSync(dir, { recursive: true, force: true }); };
  let backend;
  try { backend = await ferretLink(port); } catch (e) { clean(); throw e; }
  return { backend, stop: () => { backend.close(); clean(); } };
}

module.exports = { Cluster, labFlags, setFlag, waitFor, startFerret, HOST };
