'use strict';
// Floor of writeconcern (bench/kinds.json runs its w:1 case): insertOne of the experiment's
// static document with the case's write concern ({w: 1, j: false} through the kind's own
// driverWriteConcern), _ids above the loader's.
const { driverWriteConcern } = require('../../src/kinds/durability');

module.exports = {
  ops: 1,
  make({ config, col, id, clients }) {
    const fields = config.params.static;
    const c = config.params.cases[0];
    const options = { writeConcern: driverWriteConcern(c.write_concern, config.params.wtimeout_ms) };
    // Above the loader's _ids (its w:1 case has 0 .. --ops) and int32 as they are: an _id past
    // 2^31 - 1 is a BSON double, another size and serializer path than the loader's.
    let i = 1.5e9 + id;
    return () => {
      const doc = { _id: i, ...fields };
      i += clients;
      return col.insertOne(doc, options);
    };
  },
};
