'use strict';
// YCSB's record keys (CoreWorkload.buildKeyName, YCSB 0.17.0), with the defaults
// insertorder=hashed and zeropadding=1:
//   if (!orderedinserts) keynum = Utils.hash(keynum);   // fnvhash64
//   String value = Long.toString(keynum);
//   prekey = "user" + '0' * (zeropadding - value.length()); return prekey + value;
// With zeropadding 1 no zeros are ever added (a number has at least one digit).
const { fnv64, decimalOf } = require('./fnv');

function buildKeyName(keynum) {
  const h = fnv64(keynum);
  return `user${decimalOf(h.hi, h.lo)}`;
}

// KeyCache: the last key built per slot (slot = record number mod size). Zipfian draws repeat
// the hot records most of the time, and a hit saves the 64-bit decimal conversion.
class KeyCache {
  constructor(size = 65536) {
    this.mask = size - 1;
    this.nums = new Float64Array(size).fill(-1);
    this.keys = new Array(size).fill('');
  }

  key(keynum) {
    const slot = keynum & this.mask;
    if (this.nums[slot] === keynum) return this.keys[slot];
    const k = buildKeyName(keynum);
    this.nums[slot] = keynum;
    this.keys[slot] = k;
    return k;
  }
}

module.exports = { buildKeyName, KeyCache };
