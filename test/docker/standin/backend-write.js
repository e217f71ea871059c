'use strict';
// A write command sent to the member's FerretDB backend, shaped around three of FerretDB v1.24.2's
// (SQLite) faults, so that the backend answers it as mongod would, and about as fast:
//  - it never answers an update of 100 or more matching statements, and as every request to it
//    shares one connection, the member then hangs for good: bigger batches go in slices of
//    BACKEND_UPDATE_SLICE, one reply merged;
//  - a filter {_id: <number>} costs a scan of the whole collection, whether it matches or not
//    (explain: filterPushdown false for an int32, int64 or double _id, true for a string or an
//    ObjectId): 65 ms a statement at 2,000 documents of 1 KB, 0.3-0.6 s at 10,000, where a
//    string _id takes 30-50 ms on a busy host (DIFFERENCES.md numeric-id-scan). The fault
//    scenarios' write load upserts numeric keys, each statement scanned on the primary and again
//    on each secondary applying it, the load fell from 50 to 5 documents a second, and a
//    replica-lag heal took four minutes. An upsert by a numeric _id whose update only sets
//    fields is therefore tried first as the insert it becomes when nothing matches (an insert
//    takes 1.5 ms), and sent as an update only when that _id is taken (11000): fresh keys are
//    fast, a key written again still scans;
//  - it numbers a batch's upserted documents by their order among its upserts, where 8.0 gives
//    each its statement's index: any other upsert is sent alone.
// mongod looks an _id up in its _id index either way; the reply is the update's as 8.0 gives it
// (n, nModified, upserted with the statement's index).

const BACKEND_UPDATE_SLICE = 50;
const SETTERS = new Set(['$set', '$setOnInsert']);

// upsertDocument(statement) -> the document 8.0 inserts for this update statement when nothing
// matches, or null when the statement is not a plain upsert by a numeric _id. 8.0 builds it from
// the query's equality fields, then applies the modifiers, whose new fields it adds in field-name
// order (src/mongo/db/update/update_driver.cpp populateDocumentWithQueryFields;
// update_object_node.cpp keeps its children in a sorted map).
function upsertDocument(s) {
  if (s.upsert !== true || s.multi === true || s.arrayFilters || s.collation || s.hint) return null;
  const q = s.q || {};
  if (Object.keys(q).length !== 1 || typeof q._id !== 'number') return null;
  const u = s.u;
  if (!u || Array.isArray(u) || typeof u !== 'object') return null;
  const fields = {};
  for (const [op, set] of Object.entries(u)) {
    if (!SETTERS.has(op) || !set || typeof set !== 'object') return null;
    for (const [name, value] of Object.entries(set)) {
      // dotted paths, operators, _id and a field both operators set take mongod's own path
      if (name === '_id' || name.includes('.') || name.startsWith('$') || name in fields) return null;
      fields[name] = value;
    }
  }
  const doc = { _id: q._id };
  for (const name of Object.keys(fields).sort()) doc[name] = fields[name];
  return doc;
}

// sendUpdates(backend, body, statements, at, merged) -> false once an ordered batch must stop
// (or the backend refused the command): statements (the batch's, from index at) as one update
// command, its reply merged.
async function sendUpdates(backend, body, statements, at, merged) {
  const r = await backend.request({ ...body, updates: statements });
  if (r.ok !== 1) { merged.failed = r; return false; }
  merged.n += r.n || 0;
  merged.nModified += r.nModified || 0;
  for (const u of r.upserted || []) (merged.upserted = merged.upserted || []).push({ ...u, index: u.index + at });
  for (const w of r.writeErrors || []) {
    (merged.writeErrors = merged.writeErrors || []).push({ ...w, index: w.index + at });
  }
  return !(r.writeErrors && r.writeErrors.length && body.ordered !== false);
}

// insertFirst(backend, body, at, end, docs, merged) -> false once an ordered batch must stop: the
// upserts at..end-1 (each by a numeric _id) as one insert of the documents they become; each
// whose _id is taken, or whose insert failed otherwise, then as the update it is (the update
// decides). An ordered batch sends one statement at a time, so that none after a failure is done.
async function insertFirst(backend, body, at, end, docs, merged) {
  const documents = docs.slice(at, end);
  const r = await backend.request({ insert: body.update, documents, ordered: false, $db: body.$db });
  const refused = new Set(r.ok === 1
    ? (r.writeErrors || []).map((w) => w.index + at)
    : documents.map((_, i) => at + i));
  for (let i = at; i < end; i += 1) {
    if (refused.has(i)) {
      if (!await sendUpdates(backend, body, [body.updates[i]], i, merged)) return false;
      continue;
    }
    merged.n += 1;
    (merged.upserted = merged.upserted || []).push({ index: i, _id: docs[i]._id });
  }
  return true;
}

// backendWrite(backend, body) -> the backend's reply to a write command (see the header).
async function backendWrite(backend, body) {
  if (!Array.isArray(body.updates)) return backend.request(body);
  const docs = body.updates.map(upsertDocument);
  // how each statement goes: an upsert by a numeric _id as an insert first, in runs; any other
  // upsert alone (FerretDB numbers the upserted of a batch by their order among the upserts, not
  // by statement, as 8.0 does); the rest as updates in slices. An ordered batch stops at its
  // first error.
  const way = body.updates.map((u, i) => (docs[i] !== null ? 'insert' : u.upsert === true ? 'alone' : 'update'));
  if (way.every((w) => w === 'update') && way.length <= BACKEND_UPDATE_SLICE) return backend.request(body);
  const merged = { n: 0, nModified: 0, ok: 1 };
  const ordered = body.ordered !== false;
  for (let at = 0, end; at < docs.length; at = end) {
    end = at + 1;
    const runs = way[at] === 'update' || (way[at] === 'insert' && !ordered);
    while (runs && end < docs.length && end - at < BACKEND_UPDATE_SLICE && way[end] === way[at]) end += 1;
    const goOn = way[at] === 'insert'
      ? await insertFirst(backend, body, at, end, docs, merged)
      : await sendUpdates(backend, body, body.updates.slice(at, end), at, merged);
    if (!goOn) break;
  }
  if (merged.upserted) merged.upserted.sort((a, b) => a.index - b.index);
  return merged.failed || merged;
}

module.exports = { backendWrite, upsertDocument, BACKEND_UPDATE_SLICE };
