'use strict';
// The stand-in's own index for one kind of read: a find whose filter is equality on one indexed
// top-level field ({x: <number or string>}), as experiment2 and experiment3 send through findOne.
// FerretDB v1.24.2 on SQLite creates the index but answers such a filter by a scan of the whole
// collection (explain: filterPushdown false, SQLite's plan SCAN), about 300 ms a read at 20,000
// documents, where 8.0 looks the value up in the index (src/mongo/db/query/planner_access.cpp
// builds an IXSCAN over the point interval). This keeps, per collection and field, the _ids of
// the documents holding each value, and reads them by _id alone, the one filter FerretDB looks up
// directly (for {_id, x: v} it scans as for {x: v}), checking the value here.
//
// It may only ever hold too many _ids, never too few, since each document read back is checked
// against the filter, and a stale _id finds nothing or a document that no longer matches:
//  - built by one scan at the first read that needs it (after a restart, an initial sync or a
//    rollback copy, nothing is kept: the first read builds again);
//  - an insert adds its documents before it is sent; a delete leaves stale _ids behind;
//  - an update or findAndModify that may give a document a new value of an indexed field (an
//    operator on that field, a replacement, a pipeline, an upsert carrying more than its _id),
//    and any command that changes a collection's shape (drop, createIndexes, renameCollection,
//    ...), throws the collection's index away before it is sent and again once it is done, so
//    that a scan racing the write is not kept.
// Everything else (ranges, sorts, skips, more than one field, dotted paths, Decimal128 values,
// counts, aggregates, updates by x) goes to FerretDB as before: DIFFERENCES.md no-secondary-index.
const { BSON } = require('./bson');

// A find of these fields only is served; a sort, skip, hint, collation, ... goes to FerretDB.
const SERVED_FIELDS = new Set(['find', 'filter', 'projection', 'limit', 'singleBatch', 'batchSize', '$db', 'lsid',
  '$clusterTime', 'readConcern', '$readPreference', 'maxTimeMS', 'comment', 'apiVersion', 'apiStrict']);
// mongod's first batch holds at most 101 documents (src/mongo/db/query/find_common.h
// kDefaultBatchSize); a value held by more goes to FerretDB, which keeps a cursor.
const FIRST_BATCH_MAX = 101;
const SCAN_BATCH = 5000;
const NUMERIC = new Set(['Int32', 'Double', 'Long']);
// index kinds that cannot answer equality on the field's value (an ascending, descending or
// hashed index can)
const GEO_OR_TEXT = new Set(['text', '2dsphere', '2d']);

// keyOf(value) -> the map key for a value equality can find, '' for one it cannot (a document,
// null, a date...), or null for one the index cannot stand for (Decimal128, NaN): a number
// equals another of any numeric type (5, 5.0 and NumberLong(5) are one key), a string only itself.
function keyOf(v) {
  if (typeof v === 'string') return `s:${v}`;
  let n = null;
  if (typeof v === 'number') n = v;
  else if (v && NUMERIC.has(v._bsontype)) n = Number(v.toString());
  else if (v && v._bsontype === 'Decimal128') return null;
  else return '';
  if (Number.isNaN(n)) return null;
  return `n:${n === 0 ? 0 : n}`; // -0 and 0 are one key
}

// keysOfDocument(doc, field) -> the keys under which the document is found by {field: v}, or
// null if one of its values has no key (an array's elements match too, nested arrays do not).
function keysOfDocument(doc, field) {
  const v = doc[field];
  const values = Array.isArray(v) ? v : [v];
  const keys = [];
  for (const e of values) {
    if (Array.isArray(e)) continue;
    const k = keyOf(e);
    if (k === null) return null;
    if (k) keys.push(k);
  }
  return keys;
}

const firstName = (p) => String(p).split('.')[0];

// mayChange(statement, field): may this update statement give a document a new value of field?
function mayChange({ q, u, upsert }, field) {
  if (!u || typeof u !== 'object' || Array.isArray(u)) return true; // a pipeline
  const ops = Object.keys(u);
  if (!ops.length || !ops[0].startsWith('$')) return true; // a replacement
  if (upsert && Object.keys(q || {}).some((k) => k !== '_id')) return true;
  for (const op of ops) {
    const set = u[op] || {};
    for (const [p, to] of Object.entries(set)) {
      if (firstName(p) === field || (op === '$rename' && firstName(to) === field)) return true;
    }
  }
  return false;
}

function newEqualityIndex(backend) {
  const collections = new Map(); // 'db.coll' -> { indexed: Promise<Set>|null, fields: Map(field -> state) }

  const nsOf = (db, coll) => `${db}.${coll}`;
  function entry(ns) {
    if (!collections.has(ns)) collections.set(ns, { indexed: null, fields: new Map() });
    return collections.get(ns);
  }
  function forget(ns) {
    const c = collections.get(ns);
    if (!c) return;
    c.indexed = null;
    c.fields.clear();
  }
  function forgetAll() { for (const ns of collections.keys()) forget(ns); }
  function forgetDatabase(db) { for (const ns of collections.keys()) if (ns.startsWith(`${db}.`)) forget(ns); }

  // add(map, doc, field) -> false when the document cannot be held (the field stops being served).
  // Each value keeps its _ids once (an insert refused for a taken _id adds that _id again).
  function add(map, doc, field) {
    const keys = keysOfDocument(doc, field);
    if (keys === null || doc._id === undefined) return false;
    const idKey = keyOf(doc._id) || BSON.EJSON.stringify({ id: doc._id });
    for (const k of keys) {
      if (!map.has(k)) map.set(k, new Map());
      map.get(k).set(idKey, doc._id);
    }
    return true;
  }

  // indexedFields(db, coll) -> the top-level fields some index of the collection begins with
  async function indexedFields(db, coll) {
    const c = entry(nsOf(db, coll));
    if (!c.indexed) {
      const asked = backend.request({ listIndexes: coll, $db: db }).then((r) => {
        const fields = new Set();
        for (const ix of (r.ok === 1 && r.cursor.firstBatch) || []) {
          const [first, kind] = Object.entries(ix.key || {})[0] || [];
          if (first && !first.includes('.') && first !== '_id' && !GEO_OR_TEXT.has(kind)) fields.add(first);
        }
        return fields;
      });
      asked.catch(() => { if (c.indexed === asked) c.indexed = null; });
      c.indexed = asked;
    }
    return c.indexed;
  }

  // mapOf(db, coll, field) -> the map, read by one scan; null when some document cannot be held
  // or a write threw the collection's index away meanwhile (that read then goes to FerretDB).
  function mapOf(db, coll, field) {
    const c = entry(nsOf(db, coll));
    const held = c.fields.get(field);
    if (held) return held.ready;
    const state = { map: new Map(), ok: true };
    state.ready = (async () => {
      const projection = { _id: 1, [field]: 1 };
      let r = await backend.request({ find: coll, filter: {}, projection, batchSize: SCAN_BATCH, $db: db });
      for (;;) {
        if (r.ok !== 1) throw new Error(`scan of ${db}.${coll}: ${r.errmsg}`);
        for (const doc of r.cursor.firstBatch || r.cursor.nextBatch || []) {
          if (!add(state.map, doc, field)) state.ok = false;
        }
        if (!r.cursor.id || Number(r.cursor.id) === 0) break;
        r = await backend.request({ getMore: r.cursor.id, collection: coll, batchSize: SCAN_BATCH, $db: db });
      }
      // A write threw it away meanwhile: this read goes to FerretDB, the next builds again. A
      // value it cannot hold: every read goes to FerretDB until a write throws this away.
      if (c.fields.get(field) !== state) return null;
      return state.ok ? state.map : null;
    })();
    state.ready.catch(() => { if (c.fields.get(field) === state) c.fields.delete(field); });
    c.fields.set(field, state);
    return state.ready;
  }

  // find(body) -> the reply, or null when FerretDB is to answer it (body as forBackend gives it)
  async function find(body) {
    const coll = body.find;
    const db = body.$db;
    const filter = body.filter || {};
    const names = Object.keys(filter);
    if (typeof coll !== 'string' || names.length !== 1) return null;
    const [field] = names;
    if (field.startsWith('$') || field.includes('.') || field === '_id') return null;
    if (Object.keys(body).some((k) => !SERVED_FIELDS.has(k))) return null;
    const value = filter[field];
    const key = keyOf(value);
    if (!key) return null;
    let limit = body.limit === undefined ? 0 : Math.abs(Number(body.limit));
    if (!Number.isInteger(limit)) return null;
    if (body.batchSize !== undefined && Number(body.batchSize) === 0) return null;
    if (!(await indexedFields(db, coll)).has(field)) return null;
    const map = await mapOf(db, coll, field);
    if (!map) return null;
    const ids = [...(map.get(key) || new Map()).values()];
    if (ids.length > FIRST_BATCH_MAX && limit === 0) return null;
    if (limit === 0) limit = FIRST_BATCH_MAX;
    const found = [];
    for (const id of ids) {
      if (found.length >= limit) break;
      // FerretDB looks up a filter of _id alone, and scans for {_id, x} as for {x}: the value is
      // checked here, and a projection asked for once the document matches
      const r = await backend.request({ find: coll, filter: { _id: id }, limit: 1, $db: db });
      if (r.ok !== 1) return r;
      const doc = r.cursor.firstBatch[0];
      if (!doc || !(keysOfDocument(doc, field) || []).includes(key)) continue;
      if (!body.projection) { found.push(doc); continue; }
      const { projection } = body;
      const p = await backend.request({ find: coll, filter: { _id: id }, projection, limit: 1, $db: db });
      if (p.ok !== 1) return p;
      found.push(...p.cursor.firstBatch);
    }
    return { cursor: { firstBatch: found, id: BSON.Long.fromNumber(0), ns: nsOf(db, coll) }, ok: 1 };
  }

  // before(body) / after(body): around every write command sent to FerretDB (forBackend's body)
  function before(body) {
    const name = Object.keys(body)[0];
    const db = body.$db;
    const target = body[name];
    if (name === 'insert') {
      const c = collections.get(nsOf(db, target));
      if (!c) return;
      for (const [field, state] of c.fields) {
        for (const doc of body.documents || []) {
          if (!add(state.map, doc, field)) { forget(nsOf(db, target)); return; }
        }
      }
      return;
    }
    after(body);
  }
  function after(body) {
    const name = Object.keys(body)[0];
    const db = body.$db;
    const target = body[name];
    const ns = nsOf(db, target);
    const c = collections.get(ns);
    switch (name) {
      case 'insert': case 'delete': return;
      case 'update':
        if (c && (body.updates || []).some((s) => [...c.fields.keys()].some((f) => mayChange(s, f)))) forget(ns);
        return;
      case 'findAndModify': case 'findandmodify':
        if (c && !body.remove) {
          const statement = { q: body.query, u: body.update, upsert: body.upsert };
          if ([...c.fields.keys()].some((f) => mayChange(statement, f))) forget(ns);
        }
        return;
      case 'dropDatabase': forgetDatabase(db); return;
      case 'renameCollection': forgetAll(); return;
      default: forget(ns);
    }
  }

  return { find, before, after, forgetAll };
}

module.exports = { newEqualityIndex, keyOf, mayChange };
