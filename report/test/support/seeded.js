'use strict';
// Seeded randomness for the statistical tests (words.test.js A/A rates, capacity-known-ratio.test.js):
// every figure they print is reproducible from its seed.

// rng(seed) -> () => [0, 1): mulberry32, a small seeded generator.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// normal(r): a standard normal draw from r (Box-Muller).
const normal = (r) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());

module.exports = { rng, normal };
