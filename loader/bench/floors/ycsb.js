'use strict';
// Floor of the ycsb kind (YCSB-A on the preloaded records): the same key and value generators
// (scrambled zipfian, YCSB's field values), find({_id}) as one find command through db.command
// (what the YCSB binding's find().first() sends) and updateOne({_id}, {$set: {fieldN}}).
const { floorFindOne } = require('./find-one');
const { keyChooser } = require('../../src/ycsb/scrambled');
const { KeyCache } = require('../../src/ycsb/keys');
const { fieldNames, value } = require('../../src/ycsb/document');
const { uniform53 } = require('../../src/ycsb/zipfian');

const cache = new KeyCache();
module.exports = {
  ops: 1,
  make({ config, db, col, rng }) {
    const p = config.params;
    const chooser = keyChooser(p.records);
    const names = fieldNames(p.fields);
    const readShare = p.readproportion / (p.readproportion + p.updateproportion);
    const findOne = floorFindOne(db, col);
    return () => {
      const isRead = uniform53(rng) < readShare;
      const key = cache.key(chooser.nextKeynum(rng));
      if (isRead) return findOne({ _id: key });
      const field = names[Math.floor(uniform53(rng) * names.length)];
      return col.updateOne({ _id: key }, { $set: { [field]: value(rng, p.field_length) } });
    };
  },
};
