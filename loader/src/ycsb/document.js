'use strict';
// YCSB's records as its MongoDB binding stores them (YCSB 0.17.0):
//   CoreWorkload: fields field0..field{fieldcount-1} (fieldnameprefix "field"), each a
//     RandomByteIterator of fieldlength bytes (fieldlengthdistribution=constant, default 100).
//   MongoDbClient.insert: new Document("_id", key), then put(field, value.toArray()): a byte[],
//     which the Java driver writes as BSON binary (subtype 0). update: updateOne({_id: key},
//     {$set: {field: byte[]}}).
// RandomByteIterator.fillBytesImpl makes printable bytes, six from one random int:
//   b[5] = ((r >> 25) & 95) + ' '   b[4] = ((r >> 20) & 63) + ' '   b[3] = ((r >> 15) & 31) + ' '
//   b[2] = ((r >> 10) & 95) + ' '   b[1] = ((r >> 5) & 63) + ' '    b[0] = (r & 31) + ' '
// (fewer at the end of the array: the switch falls through from the bytes left). The same
// masks here, so the values compress as YCSB's do: storage engines compress them.
// value(rng, n): one field's value, n bytes as RandomByteIterator.toArray() makes them. A Buffer,
// which every driver line serializes as BSON binary subtype 0, as the Java driver writes byte[]
// (a Binary object of this package's bson would be refused by an older line's serializer: bson
// checks the major version of its types).
function value(rng, n) {
  const b = Buffer.allocUnsafe(n);
  for (let base = 0; base < n; base += 6) {
    const r = rng.u32() | 0;
    switch (Math.min(6, n - base)) {
      case 6: b[base + 5] = ((r >> 25) & 95) + 32; // falls through
      case 5: b[base + 4] = ((r >> 20) & 63) + 32; // falls through
      case 4: b[base + 3] = ((r >> 15) & 31) + 32; // falls through
      case 3: b[base + 2] = ((r >> 10) & 95) + 32; // falls through
      case 2: b[base + 1] = ((r >> 5) & 63) + 32; // falls through
      default: b[base] = (r & 31) + 32;
    }
  }
  return b;
}

// fieldNames(count): ['field0', ..., 'field<count-1>'].
const fieldNames = (count) => Array.from({ length: count }, (_, i) => `field${i}`);

// record(key, names, rng, length): the whole document YCSB's load inserts.
function record(key, names, rng, length) {
  const doc = { _id: key };
  for (const f of names) doc[f] = value(rng, length);
  return doc;
}

module.exports = { fieldNames, value, record };
