'use strict';
// Floor of read_update: findOne's find command through db.command, then updateOne (the driver's
// retryable update, as the loader sends it: db.command({update}) would drop the txnNumber a real
// server gets). Two server operations per iteration.
const { floorFindOne } = require('./find-one');

const PROJECTION = { y: 1 };
module.exports = {
  ops: 2,
  make({ config, db, col, rng }) {
    const findOne = floorFindOne(db, col);
    const keys = config.preload.docs;
    return async () => {
      const x = rng.int(keys);
      const doc = await findOne({ x }, PROJECTION);
      if (doc) await col.updateOne({ x }, { $set: { y: doc.y + x } });
    };
  },
};
