'use strict';
// Floor of the read kind: the same find command (findOne's: filter {x}, limit 1, singleBatch,
// readConcern) through db.command, the leanest public call that sends it.
const { floorFindOne } = require('./find-one');

module.exports = {
  ops: 1,
  make({ config, db, col, rng }) {
    const findOne = floorFindOne(db, col);
    const keys = config.preload.docs;
    return () => findOne({ x: rng.int(keys) });
  },
};
