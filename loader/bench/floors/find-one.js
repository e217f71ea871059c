'use strict';
// findOne(filter, projection) of the floors: the find command the driver's col.findOne sends
// (filter, projection, limit 1, singleBatch, the collection's read concern), sent through the
// driver's public db.command, the leanest public call that sends it. The floor's own, written
// apart from the loader's (src/kinds/ops.js findOneCommand), so that a change there moves the
// loader's figure and not its floor; loader/test/bench.test.js holds both to the same command.
function floorFindOne(db, col) {
  const find = col.collectionName;
  const level = col.readConcern && col.readConcern.level;
  const options = { readPreference: col.readPreference, enableUtf8Validation: false };
  return async (filter, projection) => {
    const cmd = { find, filter, ...(projection === undefined ? {} : { projection }), limit: 1, singleBatch: true };
    if (level) cmd.readConcern = { level };
    const reply = await db.command(cmd, options);
    return reply.cursor.firstBatch[0] ?? null;
  };
}

module.exports = { floorFindOne };
