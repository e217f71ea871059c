'use strict';
// Failover writers and the final read of Jepsen's set workload (see decisions.checkSet).
// Each write inserts {_id: id} with a unique, increasing id; its outcome is recorded before the
// next id is taken, one NDJSON line per write: {id, outcome: ok|fail|info, ms, error?}.
const fs = require('node:fs');
const { classifyWriteError } = require('./decisions');

const DB = 'lab_fault';
const COLL = 'set';

// runWriters: `writers` concurrent loops sharing one id counter, until `seconds` pass or
// shouldStop() says so. Bounded in count too (maxWrites) so a run never loops forever.
async function runWriters({ client, w, writers = 4, seconds = 60, shouldStop = () => false, historyFile,
  maxWrites = 1_000_000, wtimeoutMS = 10000, log = () => {} }) {
  const coll = client.db(DB).collection(COLL);
  const writeConcern = { w: w === 'majority' ? 'majority' : Number(w), wtimeoutMS };
  const out = fs.openSync(historyFile, 'a');
  const counts = { ok: 0, fail: 0, info: 0 };
  let next = 0;
  const deadline = Date.now() + seconds * 1000;
  const stopped = () => Date.now() >= deadline || next >= maxWrites || shouldStop();
  let lastReport = Date.now();
  async function loop() {
    while (!stopped()) {
      const id = next++;
      const t0 = Date.now();
      let outcome;
      let error;
      try {
        await coll.insertOne({ _id: id, at: new Date(t0) }, { writeConcern });
        outcome = 'ok';
      } catch (e) {
        outcome = classifyWriteError(e);
        error = `${e.name}${e.code !== undefined ? ` ${e.code}` : ''}: ${String(e.message).split('\n')[0].slice(0, 200)}`;
        // A failed write during an election: back off a little instead of spinning (the driver
        // already waits for server selection; this only spaces out immediate refusals).
        await new Promise((r) => setTimeout(r, 100));
      }
      counts[outcome]++;
      fs.writeSync(out, `${JSON.stringify({ id, outcome, t: t0, ms: Date.now() - t0, ...(error ? { error } : {}) })}\n`);
      if (Date.now() - lastReport >= 1000) {
        lastReport = Date.now();
        log(`writers: ${next} attempted, ok ${counts.ok}, fail ${counts.fail}, indeterminate ${counts.info}`);
      }
    }
  }
  await Promise.all(Array.from({ length: writers }, loop));
  fs.closeSync(out);
  return { attempted: next, ...counts };
}

function readHistory(historyFile) {
  const rows = fs.readFileSync(historyFile, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  return new Map(rows.map((r) => [r.id, r.outcome]));
}

// finalRead: every id, read with readConcern majority (only what survives any rollback).
async function finalRead(client) {
  const coll = client.db(DB).collection(COLL, { readConcern: { level: 'majority' } });
  return (await coll.find({}, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id);
}

// collectionUuid: the rollback folder is named after it (<dbpath>/rollback/<uuid>/, 4.4+).
async function collectionUuid(client) {
  const [info] = await client.db(DB).listCollections({ name: COLL }).toArray();
  const uuid = info && info.info && info.info.uuid;
  if (!uuid) return null;
  return typeof uuid.toUUID === 'function' ? uuid.toUUID().toString() : uuid.toString('hex');
}

async function reset(client) {
  await client.db(DB).collection(COLL).drop().catch(() => {});
  await client.db(DB).createCollection(COLL).catch(() => {});
}

module.exports = { runWriters, readHistory, finalRead, collectionUuid, reset, DB };
