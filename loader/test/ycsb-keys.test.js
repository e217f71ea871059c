'use strict';
// The ycsb kind's keys are YCSB's (0.17.0). Every expected figure here comes from YCSB, not from
// the code under test:
//  - key names and hashes: printed by YCSB's own site.ycsb.Utils.fnvhash64 (core-0.17.0.jar from
//    Maven Central) with this Java file, run as `java -cp '.tools/ycsb-mongodb/lib/*' Keys.java`:
//      for (long i = 0; i < 5; i++) System.out.println("user" + site.ycsb.Utils.fnvhash64(i));
//      System.out.println(site.ycsb.Utils.fnvhash64(i) % 5000001L);  // scrambled item -> record
//  - hot-key frequencies: YCSB's ZipfianGenerator.nextLong (core/.../generator/ZipfianGenerator.java)
//    maps a uniform u to item 0 when u * zetan < 1, to item 1 when u * zetan < 1 + 0.5^theta, else
//    to floor(items * (eta * u - eta + 1)^alpha). So, with ScrambledZipfianGenerator's constants
//    (ZETAN = 26.46902820178302, theta = 0.99, items = ITEM_COUNT + 1 = 10^10 + 1):
//      P(0) = 1 / zetan,  P(1) = 0.5^theta / zetan,
//      P(k >= 2) = U(k + 1) - U(k),  U(x) = ((x / items)^(1 - theta) + eta - 1) / eta
//      eta = (1 - (2 / items)^(1 - theta)) / (1 - zeta(2) / zetan), zeta(2) = 1 + 0.5^theta
//    and item k lands on record fnvhash64(k) % (recordcount + 1) (CoreWorkload builds
//    ScrambledZipfianGenerator(0, recordcount) for workload A: insertstart 0, no inserts).
//  - the distribution as YCSB itself draws it: the keys YCSB 0.17.0's Client prints with BasicDB
//    (verbose), counted, against the kind's generator's counts (the last test).
const test = require('node:test');
const assert = require('node:assert/strict');
const { fnv64, decimalOf } = require('../src/ycsb/fnv');
const { buildKeyName, KeyCache } = require('../src/ycsb/keys');
const { keyChooser, ZETAN } = require('../src/ycsb/scrambled');
const { Rng } = require('../../common/rng');
const { runYcsb, basicDbArgs } = require('./support/ycsb/core');

// fnvhash64Big(val): the same hash with BigInt, a second, plain transcription of YCSB's loop
// (signed 64-bit arithmetic as Java's long).
function fnvhash64Big(val) {
  let v = BigInt.asIntN(64, BigInt(val));
  let h = BigInt.asIntN(64, 0xcbf29ce484222325n);
  for (let i = 0; i < 8; i++) {
    const octet = v & 0xffn;
    v >>= 8n;
    h = BigInt.asIntN(64, h ^ octet);
    h = BigInt.asIntN(64, h * 1099511628211n);
  }
  return h < 0n ? BigInt.asIntN(64, -h) : h; // Math.abs(Long.MIN_VALUE) == Long.MIN_VALUE
}

// From YCSB's jar (see the header).
const YCSB_FIRST_KEYS = ['user6284781860667377211', 'user8517097267634966620', 'user1820151046732198393',
  'user4052466453699787802', 'user3232700585171816769'];
const YCSB_HASHES = { 4999999: '8699177812743906565', 10000000000: '1201321332300452516' };
const YCSB_HOT_RECORDS_5M = [1256469, 853777, 2061853, 1659161, 1829043]; // fnvhash64(k) % 5000001, k = 0..4

test('record keys are YCSB\'s buildKeyName: "user" + fnvhash64(n)', () => {
  assert.deepEqual([0, 1, 2, 3, 4].map(buildKeyName), YCSB_FIRST_KEYS);
  for (const [n, h] of Object.entries(YCSB_HASHES)) {
    const r = fnv64(Number(n));
    assert.equal(decimalOf(r.hi, r.lo), h, `fnvhash64(${n})`);
  }
  // The 32-bit-halves hash against a plain BigInt transcription of YCSB's loop, on many inputs.
  const rng = new Rng(9, 9);
  for (let i = 0; i < 20000; i++) {
    const v = i < 1000 ? i : Math.floor(rng.float() * 2 ** 34);
    const r = fnv64(v);
    assert.equal(decimalOf(r.hi, r.lo), fnvhash64Big(v).toString(), `fnvhash64(${v})`);
  }
  const cache = new KeyCache(16);
  for (const n of [0, 16, 0, 1, 17, 1]) assert.equal(cache.key(n), buildKeyName(n), `cached key ${n}`);
});

// P(k) of ScrambledZipfianGenerator's inner zipfian (the header's formulas).
function zipfItemProbability(k) {
  const theta = 0.99;
  const items = 1e10 + 1;
  const zeta2 = 1 + 0.5 ** theta;
  const eta = (1 - (2 / items) ** (1 - theta)) / (1 - zeta2 / ZETAN);
  const U = (x) => ((x / items) ** (1 - theta) + eta - 1) / eta;
  if (k === 0) return 1 / ZETAN;
  if (k === 1) return 0.5 ** theta / ZETAN;
  return U(k + 1) - U(k);
}

test('the hottest records and their frequencies are YCSB\'s scrambled zipfian\'s (5M records)', () => {
  const records = 5000000;
  const chooser = keyChooser(records);
  const rng = new Rng(2, 77);
  const N = 400000;
  const counts = new Map();
  for (let i = 0; i < N; i++) {
    const k = chooser.nextKeynum(rng);
    assert.ok(k >= 0 && k < records);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k]) => k);
  assert.deepEqual(top, YCSB_HOT_RECORDS_5M.slice(0, 3), 'the three hottest records in order');
  for (const [k, rec] of YCSB_HOT_RECORDS_5M.entries()) {
    const p = zipfItemProbability(k); // 0.03778, 0.01902, 0.01531, 0.01090, 0.00848
    const f = (counts.get(rec) ?? 0) / N;
    const sigma = Math.sqrt((p * (1 - p)) / N);
    assert.ok(Math.abs(f - p) < 5 * sigma, `record ${rec} (zipfian item ${k}): frequency ${f}, YCSB's ${p.toFixed(5)} +- ${(5 * sigma).toFixed(5)}`);
  }
  // Sanity of the formula itself: the first two are YCSB's closed forms.
  assert.ok(Math.abs(zipfItemProbability(0) - 0.037780) < 1e-5 && Math.abs(zipfItemProbability(1) - 0.019021) < 1e-5);
});

test('a record is drawn again when the scrambled item is recordcount itself (nextKeynum)', () => {
  // itemcount = recordcount + 1: with 1 record the chooser draws 0 or 1, and 1 is drawn again.
  const chooser = keyChooser(1);
  assert.equal(chooser.gen.itemcount, 2);
  const rng = new Rng(3, 3);
  for (let i = 0; i < 2000; i++) assert.equal(chooser.nextKeynum(rng), 0);
});

test('key generation cost per operation stays far below a driver round trip', () => {
  const chooser = keyChooser(5000000);
  const cache = new KeyCache();
  const rng = new Rng(1, 1);
  let n = 0;
  for (let i = 0; i < 20000; i++) n += cache.key(chooser.nextKeynum(rng)).length; // warm up
  const N = 200000;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) n += cache.key(chooser.nextKeynum(rng)).length;
  const ns = Number(process.hrtime.bigint() - t0) / N;
  test.diagnostic?.(`ns per key (zipfian + scramble + key name): ${ns.toFixed(0)}`);
  console.log(`# ns per key (zipfian + scramble + key name): ${ns.toFixed(0)}`);
  // The loader's CPU per op is ~100 us (loader/bench/results.json, cpu_us_per_op); a key costs
  // ~0.4 us on an idle core here and 1.5-3 us with the test machine's 2 cores 4x oversubscribed:
  // 20 us, a fifth of an op, is the ceiling (the figure is printed as a diagnostic).
  assert.ok(n > 0 && ns < 20000, `${ns} ns per key`);
});

test('the key distribution as YCSB 0.17.0 itself draws it (BasicDB, verbose) matches the kind\'s', async () => {
  const records = 1000;
  const N = 100000;
  const { stdout } = await runYcsb(basicDbArgs({
    recordcount: records, operationcount: N, readproportion: 0.5, updateproportion: 0.5,
    requestdistribution: 'zipfian', fieldcount: 1, fieldlength: 1,
  }));
  const ycsb = new Map();
  let reads = 0;
  for (const m of stdout.matchAll(/^(READ|UPDATE) usertable (user\d+) /gm)) {
    ycsb.set(m[2], (ycsb.get(m[2]) ?? 0) + 1);
    if (m[1] === 'READ') reads++;
  }
  const total = [...ycsb.values()].reduce((a, b) => a + b, 0);
  assert.equal(total, N, 'YCSB printed every operation');
  assert.ok(Math.abs(reads - N / 2) < 5 * Math.sqrt(N / 4), `YCSB's read share ${reads}/${N}`);
  const chooser = keyChooser(records);
  const rng = new Rng(5, 5);
  const lab = new Map();
  for (let i = 0; i < N; i++) {
    const key = buildKeyName(chooser.nextKeynum(rng));
    lab.set(key, (lab.get(key) ?? 0) + 1);
  }
  for (const key of lab.keys()) assert.ok(/^user\d+$/.test(key));
  const topYcsb = [...ycsb].sort((a, b) => b[1] - a[1]).slice(0, 10);
  // Every one of YCSB's 10 hottest keys is as frequent under the kind's generator (two binomial
  // samples: 5 sigma of their difference), and the hottest three are the same keys in order.
  for (const [key, c] of topYcsb) {
    const p = c / N;
    const q = (lab.get(key) ?? 0) / N;
    const sigma = Math.sqrt((p * (1 - p)) / N + (q * (1 - q)) / N);
    assert.ok(Math.abs(p - q) < 5 * sigma + 1e-9, `${key}: YCSB ${p}, lab ${q}`);
  }
  const topLab = [...lab].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k]) => k);
  assert.deepEqual(topLab, topYcsb.slice(0, 3).map(([k]) => k));
  // Both touch about the same number of distinct records.
  assert.ok(Math.abs(lab.size - ycsb.size) < 0.05 * ycsb.size, `distinct keys: YCSB ${ycsb.size}, lab ${lab.size}`);
});
