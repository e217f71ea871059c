'use strict';
// src/gridfs/source.js: the generated file is exactly its size, the same bytes for the same seed
// (every engine and repetition stores the same file), other bytes for another seed, no two pieces
// alike; a file on disk is read back byte for byte in pieces.
const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { GeneratedSource, FileSource } = require('../src/gridfs/source');
const { Rng } = require('../../common/rng');

async function drain(source) {
  const h = crypto.createHash('sha256');
  const pieces = [];
  let bytes = 0;
  for (let p = await source.next(); p; p = await source.next()) {
    h.update(p);
    bytes += p.length;
    pieces.push(crypto.createHash('sha256').update(p).digest('hex'));
  }
  return { sha: h.digest('hex'), bytes, pieces };
}

test('generated: exact size with a short last piece, same seed same bytes, another seed other bytes, pieces all different', async () => {
  const size = 10 * 261120 + 12345;
  const a = await drain(new GeneratedSource(new Rng(3, 1), size, 261120));
  const b = await drain(new GeneratedSource(new Rng(3, 1), size, 261120));
  const c = await drain(new GeneratedSource(new Rng(4, 1), size, 261120));
  assert.equal(a.bytes, size);
  assert.equal(a.pieces.length, 11);
  assert.equal(a.sha, b.sha);
  assert.notEqual(a.sha, c.sha);
  assert.equal(new Set(a.pieces).size, a.pieces.length, 'no piece repeats another');
});

test('generated: pieces are not compressible (random bytes, not a pattern an engine could shrink)', () => {
  const zlib = require('node:zlib');
  const g = new GeneratedSource(new Rng(3, 1), 4 * 261120, 261120);
  const p = Buffer.from(g.nextSync());
  const q = Buffer.from(g.nextSync());
  assert.ok(zlib.deflateSync(p).length > p.length * 0.99);
  assert.ok(zlib.deflateSync(Buffer.concat([p, q])).length > 2 * p.length * 0.99, 'two pieces together are not smaller either');
});

test('file: read back byte for byte in pieces of the chunk size', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-gridfs-source-'));
  try {
    const file = path.join(dir, 'x.bin');
    const data = crypto.randomBytes(3 * 65536 + 7);
    fs.writeFileSync(file, data);
    const src = await new FileSource(file, 65536).open();
    assert.equal(src.size, data.length);
    const got = await drain(src);
    await src.close();
    assert.equal(got.bytes, data.length);
    assert.equal(got.pieces.length, 4);
    assert.equal(got.sha, crypto.createHash('sha256').update(data).digest('hex'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
