'use strict';
// Helpers the kinds share: the seed's document, findOne as one command, and a drop that finds
// nothing to drop. (Each kind times its operations inline: a shared timing wrapper costs a
// closure and an async layer per op.)

// Documents are { x: i, y: <y_length random characters> } as in seeds/004 insertData().
function makeDoc(config, rng, i) {
  return { x: i, y: rng.string(config.document.yLength, config.document.alphabet) };
}

// Errors after which the driver retries a read once (retryReads, the client default): network
// errors and the server-state codes of mongodb 7.8.0 lib/error.js RETRYABLE_READ_ERROR_CODES
// (the retryable-reads specification; 6.9 and 6.16 carry the same list). db.command() is not a
// retryable operation in the driver, so findOneCommand applies the same one retry itself.
const RETRYABLE_READ_CODES = new Set([6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436, 262, 134]);
function isRetryableRead(e) {
  return Boolean(e) && (e.name === 'MongoNetworkError' || e.name === 'MongoNetworkTimeoutError'
    || (typeof e.code === 'number' && RETRYABLE_READ_CODES.has(e.code)));
}

// findOneCommand(db, col) -> findOne(filter, projection) -> document | null.
// Sends exactly the find command the driver's col.findOne(filter, {projection}) sends (mongodb
// 7.8.0: find, filter, projection, limit 1, singleBatch, the collection's readConcern; the 6.x
// lines also add batchSize 1, which changes nothing with limit 1 and singleBatch), through
// db.command() instead of a FindCursor: findOne builds a cursor, its options and a session
// around every single-document read, which cost ~25 % more client CPU per op (loader/README.md,
// "Profile"). loader/test/same-commands.test.js holds the two paths to the same command.
function findOneCommand(db, col) {
  const find = col.collectionName;
  const level = col.readConcern && col.readConcern.level;
  const readConcern = level ? { level } : undefined;
  // db.command() does not inherit the collection's options: pass its read preference, so that a
  // secondary read goes where findOne would send it. enableUtf8Validation false: the reply's
  // strings are decoded without the UTF-8 check (BSON option of every driver line carried), a cost
  // per reply the workloads do not need; it changes nothing the server sees.
  const options = { readPreference: col.readPreference, enableUtf8Validation: false };
  const send = (filter, projection) => {
    const cmd = projection === undefined
      ? { find, filter, limit: 1, singleBatch: true }
      : { find, filter, projection, limit: 1, singleBatch: true };
    if (readConcern) cmd.readConcern = readConcern;
    return db.command(cmd, options);
  };
  return async (filter, projection) => {
    let reply;
    try {
      reply = await send(filter, projection);
    } catch (e) {
      if (!isRetryableRead(e)) throw e;
      reply = await send(filter, projection);
    }
    const batch = reply.cursor.firstBatch;
    return batch.length ? batch[0] : null;
  };
}

// Drops col; a collection that is not there is already what the caller wants.
async function dropIfThere(col) {
  try {
    await col.drop();
  } catch (e) {
    // NamespaceNotFound (26); mongo-java-server answers without a code, only 'ns not found'.
    if (e.codeName !== 'NamespaceNotFound' && e.code !== 26 && !/ns not found/.test(e.message)) throw e;
  }
}

module.exports = { makeDoc, findOneCommand, dropIfThere };
