'use strict';
// The operations of each workload type. A factory returns next(record, intended, now), one call
// = one loop iteration of the seed's shell function, resolving false when the client is done.
// Op names are the metric label values: insert | find | update.
const OPS = ['insert', 'find', 'update'];

// clientStream(id, step): the random stream of client `id` in client step `step`, so a client's
// keys do not depend on how many other clients run, and step 2 does not replay step 1's keys.
function clientStream(id, stepIndex) {
  return 1 + id * 1009 + stepIndex; // 1009 (prime) > any step count; stream 0 is the preload
}

// Documents are { x: i, y: <y_length random characters> } as in seeds/004 insertData().
function makeDoc(config, rng, i) {
  return { x: i, y: rng.string(config.document.yLength, config.document.alphabet) };
}

function opsFor(config, col, rng, id, step) {
  const type = config.workload.type;
  if (type === 'insert') {
    // Client j of n inserts x = from + j, from + j + n, ...: with the seed's one client that is
    // 0, 1, 2, ... N-1 in order.
    const n = step.clients.length;
    const j = step.clients.indexOf(id);
    let x = j;
    const end = config.workload.docs;
    return async (record, intended, now) => {
      if (x >= end) return false;
      const doc = makeDoc(config, rng, x);
      x += n;
      const t = now();
      try {
        await col.insertOne(doc);
      } catch (e) {
        record('insert', t, now(), intended, false);
        throw e;
      }
      record('insert', t, now(), intended, true);
      return x < end;
    };
  }
  const keys = config.preload.docs;
  if (type === 'read') {
    return async (record, intended, now) => {
      const x = rng.int(keys);
      const t = now();
      try {
        await col.findOne({ x });
      } catch (e) {
        record('find', t, now(), intended, false);
        throw e;
      }
      record('find', t, now(), intended, true);
      return true;
    };
  }
  // read_update: the seed's readAndUpdate(). The pair is paced as one unit, so with --rate any
  // backlog shows in the find's latency from its intended start; the update follows at once.
  return async (record, intended, now) => {
    const x = rng.int(keys);
    let t = now();
    let doc;
    try {
      doc = await col.findOne({ x }, { projection: { y: 1 } });
    } catch (e) {
      record('find', t, now(), intended, false);
      throw e;
    }
    const t2 = now();
    record('find', t, t2, intended, true);
    if (doc === null) return true; // the seed: if (doc == null) continue;
    t = t2;
    try {
      await col.updateOne({ x }, { $set: { y: doc.y + x } });
    } catch (e) {
      record('update', t, now(), 0, false);
      throw e;
    }
    record('update', t, now(), intended ? t : 0, true);
    return true;
  };
}

module.exports = { OPS, opsFor, clientStream, makeDoc };
