'use strict';
// YCSB's ZipfianGenerator (site.ycsb.generator, YCSB 0.17.0), "Quickly Generating
// Billion-Record Synthetic Databases", Gray et al., SIGMOD 1994. For items = max - min + 1 and
// theta = the zipfian constant:
//   zeta(n) = sum_{i=1..n} 1 / i^theta;  alpha = 1 / (1 - theta)
//   eta = (1 - (2 / items)^(1 - theta)) / (1 - zeta(2) / zetan)
//   u uniform in [0, 1); uz = u * zetan
//   uz < 1                 -> min
//   uz < 1 + 0.5^theta     -> min + 1
//   otherwise              -> min + (long) (items * (eta * u - eta + 1)^alpha)
// The same expressions in the same order as the Java source, so the doubles agree.

// zetastatic(n, theta): sum_{i=0..n-1} 1 / (i + 1)^theta, as YCSB's loop.
function zetastatic(n, theta) {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += 1 / Math.pow(i + 1, theta);
  return sum;
}

class Zipfian {
  // new Zipfian(min, max, theta, zetan): zetan precomputed, as ScrambledZipfianGenerator passes
  // its constant.
  constructor(min, max, theta, zetan) {
    this.items = max - min + 1;
    this.base = min;
    this.zeta2theta = zetastatic(2, theta);
    this.alpha = 1.0 / (1.0 - theta);
    this.zetan = zetan;
    this.eta = (1 - Math.pow(2.0 / this.items, 1 - theta)) / (1 - this.zeta2theta / this.zetan);
    this.second = 1.0 + Math.pow(0.5, theta);
  }

  // value(u): the item for the uniform draw u in [0, 1) (YCSB draws ThreadLocalRandom's
  // nextDouble()).
  value(u) {
    const uz = u * this.zetan;
    if (uz < 1.0) return this.base;
    if (uz < this.second) return this.base + 1;
    return this.base + Math.floor(this.items * Math.pow(this.eta * u - this.eta + 1, this.alpha));
  }
}

// uniform53(rng): a double in [0, 1) with 53 random bits (26 + 27 from two 32-bit draws), the
// resolution of Java's nextDouble(), which YCSB's generators draw from ThreadLocalRandom. The
// sequence is the lab's seeded one, not Java's: the distribution is YCSB's, the draws are not.
function uniform53(rng) {
  return ((rng.u32() >>> 6) * 134217728 + (rng.u32() >>> 5)) / 9007199254740992;
}

module.exports = { Zipfian, uniform53 };
