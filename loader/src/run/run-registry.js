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

// A run that finds others tells each of them too: it appends itself to <their pid>.seen.ndjson, so
// both runs' summaries record the overlap, not only the later one's.
const seenFile = (pid) => path.join(DIR, `${pid}.seen.ndjson`);

// register(key, info) -> { others: [{pid, started_at, ...}], overlaps(), release() }. Never
// throws: the check is advice, not a lock. overlaps(): every other run against the same target
// that overlapped this one so far: those running when it started (noticed: 'at this run's
// start') and those that started during it ('started during this run').
function register(key, info = {}) {
  const file = path.join(DIR, `${process.pid}.json`);
  const others = [];
  const me = { pid: process.pid, host: os.hostname(), started_at: new Date().toISOString(), ...info };
  try {
    if (!fs.existsSync(DIR)) {
      fs.mkdirSync(DIR, { recursive: true });
      fs.chmodSync(DIR, 0o1777); // every user's loaders register here (mode is masked by umask)
    }
    for (const f of fs.readdirSync(DIR)) {
      const pid = Number(f.replace(/\.json$/, ''));
      if (!/^\d+\.json$/.test(f) || !Number.isInteger(pid) || pid === process.pid) continue;
      let other;
      try {
        other = JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8'));
      } catch {
        continue;
      }
      if (!alive(pid)) {
        fs.rmSync(path.join(DIR, f), { force: true });
        fs.rmSync(seenFile(pid), { force: true });
        continue;
      }
      if (other.key === key) others.push(other);
    }
    fs.rmSync(seenFile(process.pid), { force: true }); // a reused pid's leftovers
    fs.writeFileSync(file, JSON.stringify({ key, ...me }));
    for (const o of others) fs.appendFileSync(seenFile(o.pid), `${JSON.stringify(me)}\n`);
  } catch {
    /* a tmp dir we cannot write: no warning, no harm */
  }
  const strip = ({ pid, host, started_at: startedAt, results }) => ({ pid, host: host ?? null, started_at: startedAt,
    results: results ?? null });
  let later = null; // read once at release: the runs that started during this one
  const readSeen = () => {
    if (later) return later;
    try {
      return fs.readFileSync(seenFile(process.pid), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    } catch {
      return [];
    }
  };
  const overlaps = () => [
    ...others.map((o) => ({ ...strip(o), noticed: "at this run's start" })),
    ...readSeen().map((o) => ({ ...strip(o), noticed: 'started during this run' })),
  ];
  let released = false;
  const release = () => {
    if (released) return;
    later = readSeen();
    released = true;
    try {
      fs.rmSync(file, { force: true });
      fs.rmSync(seenFile(process.pid), { force: true });
    } catch { /* gone already */ }
  };
  process.once('exit', release);
  return { others, overlaps, release };
}

module.exports = { register, targetKey, DIR };
