'use strict';
// Loaders running on this host, so that two runs against the same server and collection are told
// that they will interfere (each drops the collection at setup, and both share the server).
// One file per running loader in <tmp>/lab-loader-runs/<pid>.json; a file whose process is gone is
// ignored (and removed). Only runs on the same host (or container) can see each other.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const DIR = path.join(os.tmpdir(), 'lab-loader-runs');

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

// targetKey(hosts, replicaSet, database, collection): hosts in any order name the same target.
function targetKey(hosts, replicaSet, database, collection) {
  return `${[...hosts].map((h) => h.toLowerCase()).sort().join(',')}|${replicaSet || ''}|${database}.${collection}`;
}

// register(key, info) -> { others: [{pid, started_at, ...}], release() }. Never throws: the check
// is advice, not a lock.
function register(key, info = {}) {
  const file = path.join(DIR, `${process.pid}.json`);
  const others = [];
  try {
    if (!fs.existsSync(DIR)) {
      fs.mkdirSync(DIR, { recursive: true });
      fs.chmodSync(DIR, 0o1777); // every user's loaders register here (mode is masked by umask)
    }
    for (const f of fs.readdirSync(DIR)) {
      const pid = Number(f.replace(/\.json$/, ''));
      if (!Number.isInteger(pid) || pid === process.pid) continue;
      let other;
      try {
        other = JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8'));
      } catch {
        continue;
      }
      if (!alive(pid)) { fs.rmSync(path.join(DIR, f), { force: true }); continue; }
      if (other.key === key) others.push(other);
    }
    fs.writeFileSync(file, JSON.stringify({ pid: process.pid, key, started_at: new Date().toISOString(), ...info }));
  } catch {
    /* a tmp dir we cannot write: no warning, no harm */
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    try { fs.rmSync(file, { force: true }); } catch { /* gone already */ }
  };
  process.once('exit', release);
  return { others, release };
}

module.exports = { register, targetKey, DIR };
