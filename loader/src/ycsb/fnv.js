'use strict';
// YCSB's fnvhash64 (site.ycsb.Utils, YCSB 0.17.0), used for record keys (buildKeyName) and to
// scramble the zipfian's item numbers (ScrambledZipfianGenerator):
//
//   long hashval = 0xCBF29CE484222325L;            // FNV_OFFSET_BASIS_64
//   for (int i = 0; i < 8; i++) {
//     long octet = val & 0x00ff; val = val >> 8;
//     hashval = hashval ^ octet;
//     hashval = hashval * 1099511628211L;          // FNV_PRIME_64 = 2^40 + 0x1b3
//   }
//   return Math.abs(hashval);
//
// It runs once or twice per operation, so it avoids BigInt (~1 us per hash here): the 64-bit
// state is two unsigned 32-bit halves, and hash * (2^40 + 0x1b3) mod 2^64 is
// hash * 0x1b3 + (hash << 40), each part exact in doubles. Inputs are non-negative integers
// below 2^53 (record numbers, zipfian items up to 10^10 + 1), so `val >> 8` is a plain shift.
// The result is the absolute value as two halves { hi, lo } (hi < 2^31), except Java's
// Math.abs(Long.MIN_VALUE), which stays negative: that one value is returned as hi = 2^31,
// lo = 0 and flagged by `min: true` (YCSB would then make a negative key; see scrambled.js).

const TWO32 = 4294967296;
const PRIME_LO = 0x1b3;

// fnv64(val) -> sets FNV.hi / FNV.lo (unsigned halves of |hash|) and returns FNV. One shared
// result object: no allocation per call (callers read it at once).
const FNV = { hi: 0, lo: 0, min: false };

// step: one round, hash = (hash ^ octet) * FNV_PRIME_64 mod 2^64, in 32-bit integer operations
// ((hi, lo) * 0x1b3 + ((hi, lo) << 40); the carry of lo * 0x1b3 out of the low word comes from its
// two 16-bit halves). Returns the low word; the high word is left in H.
let H = 0;
function step(hi, lo, octet) {
  lo ^= octet;
  const carry = ((lo >>> 16) * PRIME_LO + (((lo & 0xffff) * PRIME_LO) >>> 16)) >>> 16;
  H = (Math.imul(hi, PRIME_LO) + carry + (lo << 8)) | 0;
  return Math.imul(lo, PRIME_LO);
}

function fnv64(val) {
  let hi = 0xcbf29ce4 | 0;
  let lo = 0x84222325 | 0;
  const vlo = val >>> 0; // val < 2^53: its low 32 bits
  const vhi = Math.floor(val / TWO32) | 0;
  // The 8 octets of val, low first (val >> 8 each round), unrolled.
  let h = step(hi, lo, vlo & 0xff); hi = H; lo = h;
  h = step(hi, lo, (vlo >>> 8) & 0xff); hi = H; lo = h;
  h = step(hi, lo, (vlo >>> 16) & 0xff); hi = H; lo = h;
  h = step(hi, lo, vlo >>> 24); hi = H; lo = h;
  h = step(hi, lo, vhi & 0xff); hi = H; lo = h;
  h = step(hi, lo, (vhi >>> 8) & 0xff); hi = H; lo = h;
  h = step(hi, lo, (vhi >>> 16) & 0xff); hi = H; lo = h;
  h = step(hi, lo, vhi >>> 24); hi = H; lo = h;
  FNV.min = false;
  if (hi < 0) {
    // Math.abs of a negative long: two's complement negation.
    lo = -lo | 0;
    hi = (~hi + (lo === 0 ? 1 : 0)) | 0;
    if (hi === (0x80000000 | 0) && lo === 0) FNV.min = true;
  }
  FNV.hi = hi >>> 0;
  FNV.lo = lo >>> 0;
  return FNV;
}

// modOf(hi, lo, m): (hi * 2^32 + lo) mod m for m < 2^31, every product below 2^53: one product
// when m < 2^26 (hi mod m times 2^32 mod m), else 2^32 taken as two factors of 2^16.
function modOf(hi, lo, m) {
  if (m < 0x4000000) return ((hi % m) * (TWO32 % m) + lo) % m;
  let r = hi % m;
  r = (r * 65536) % m;
  r = (r * 65536) % m;
  return (r + (lo % m)) % m;
}

// decimalOf(hi, lo): the decimal string of hi * 2^32 + lo (< 2^64), as Long.toString does for
// a non-negative long: one long division by 10^7 over 16-bit limbs leaves a quotient below
// 2^53 (exact in a double) and a 7-digit remainder.
function decimalOf(hi, lo) {
  if (hi < 0x200000) return String(hi * TWO32 + lo); // below 2^53
  let q = 0;
  let r = 0;
  for (const limb of [hi >>> 16, hi & 0xffff, lo >>> 16, lo & 0xffff]) {
    const cur = r * 65536 + limb;
    const d = Math.floor(cur / 1e7);
    r = cur - d * 1e7;
    q = q * 65536 + d;
  }
  return q === 0 ? String(r) : String(q) + String(r).padStart(7, '0');
}

module.exports = { fnv64, modOf, decimalOf };
