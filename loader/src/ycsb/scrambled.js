'use strict';
// YCSB's ScrambledZipfianGenerator (site.ycsb.generator, YCSB 0.17.0) and the key chooser
// CoreWorkload builds from it for requestdistribution=zipfian:
//
//   ZETAN = 26.46902820178302; USED_ZIPFIAN_CONSTANT = 0.99; ITEM_COUNT = 10000000000L;
//   ScrambledZipfianGenerator(min, max): itemcount = max - min + 1;
//     gen = new ZipfianGenerator(0, ITEM_COUNT, 0.99, ZETAN)   // items = ITEM_COUNT + 1
//   nextValue(): min + Utils.fnvhash64(gen.nextValue()) % itemcount
//
// CoreWorkload.init: keychooser = new ScrambledZipfianGenerator(insertstart,
//   insertstart + insertcount + expectednewkeys), insertcount = recordcount - insertstart,
//   expectednewkeys = (int) (operationcount * insertproportion * 2.0): 0 for workload A (no
//   inserts). So max = recordcount and itemcount = recordcount + 1: one more than the records.
// CoreWorkload.nextKeynum(): do { keynum = keychooser.nextValue().intValue(); }
//   while (keynum > transactioninsertkeysequence.lastValue());   // lastValue = recordcount - 1
// so a draw of recordcount itself is drawn again.
const { fnv64, modOf } = require('./fnv');
const { Zipfian, uniform53 } = require('./zipfian');

const ZETAN = 26.46902820178302;
const USED_ZIPFIAN_CONSTANT = 0.99;
const ITEM_COUNT = 10000000000;

class ScrambledZipfian {
  constructor(min, max) {
    this.min = min;
    this.itemcount = max - min + 1;
    this.gen = new Zipfian(0, ITEM_COUNT, USED_ZIPFIAN_CONSTANT, ZETAN);
  }

  // value(u): the scrambled item for the uniform draw u. fnvhash64 is |hash| < 2^63, except
  // Math.abs(Long.MIN_VALUE), for which Java's % would give a negative item (a key that does
  // not exist); here that one hash value (if any zipfian item has it) is taken as 2^63, so the
  // item stays in range. No item in 0..10^10 is known to hash to it.
  value(u) {
    const h = fnv64(this.gen.value(u));
    return this.min + modOf(h.hi, h.lo, this.itemcount);
  }
}

// keyChooser(records): CoreWorkload's zipfian chooser for a run over records 0..records-1
// (insertstart 0, no inserts: expectednewkeys 0): nextKeynum(rng) -> record number.
function keyChooser(records) {
  const gen = new ScrambledZipfian(0, records);
  const last = records - 1;
  return {
    gen,
    nextKeynum(rng) {
      let k;
      do k = gen.value(uniform53(rng)); while (k > last);
      return k;
    },
  };
}

module.exports = { keyChooser, ZETAN, ITEM_COUNT };
