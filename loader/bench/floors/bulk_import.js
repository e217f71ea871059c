'use strict';
// Floor of bulk_import: insertMany of workload.batch documents {_id, val} (unordered, w:1 j:false
// through the kind's own driverWriteConcern, as its baseline case; its j:true case costs the
// client the same), int32 _ids above the loader's. One operation = one insertMany.
const { driverWriteConcern } = require('../../src/kinds/durability');

module.exports = {
  ops: 1,
  make({ config, col, rng, id, clients }) {
    const { batch, val_length: valLength, alphabet } = config.params;
    const options = { ordered: false, writeConcern: driverWriteConcern({ w: 1, j: false }, null) };
    let b = id;
    return () => {
      const list = [];
      // Above the loader's _ids and still int32, as the loader's are: an _id past 2^31 - 1 is a
      // BSON double (8 bytes, another serializer path), which would make the floor costlier.
      const from = 1.5e9 + b * batch;
      for (let i = from; i < from + batch; i++) list.push({ _id: i, val: rng.string(valLength, alphabet) });
      b += clients;
      return col.insertMany(list, options);
    };
  },
};
