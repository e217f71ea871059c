'use strict';
// Where the bytes of a GridFS upload come from, one piece at a time (never the whole file in
// memory, never a file on disk first): a seeded generator, or a file on disk (--from-file).
// next() -> a Buffer of the next piece (at most pieceSize bytes; valid until the next call: the
// buffer is reused, the caller must be done with it, e.g. the driver has copied it), or null at
// the end.
const fs = require('node:fs');

// Generated content: random bytes (incompressible, as the seed's dd file most likely was not
// guaranteed to be; random is the case no engine's compression can flatter). Filling every byte
// from the lab's Rng runs at ~150 MB/s on this machine, slower than a real upload, so the Rng fills
// one base block once (pieceSize + SPREAD bytes) and each piece is a window of it at an offset the
// Rng draws, stamped with its piece number and a fresh random word: memcpy speed, every piece
// different, the same bytes for every engine and run of a seed. What is written is what the
// checksum covers (the caller hashes the very buffer it writes).
const SPREAD = 1024 * 1024;

class GeneratedSource {
  constructor(rng, size, pieceSize) {
    this.rng = rng;
    this.size = size;
    this.pieceSize = pieceSize;
    this.offset = 0; // bytes handed out so far
    this.n = 0;
    // Filled as 32-bit words through a typed array (Buffer.writeUInt32LE is ~30x slower); the
    // byte order is the host's (little-endian on x86 and ARM, every host the lab runs on).
    const words = new Uint32Array(Math.ceil((pieceSize + SPREAD) / 4));
    for (let i = 0; i < words.length; i++) words[i] = rng.u32();
    this.base = Buffer.from(words.buffer, 0, pieceSize + SPREAD);
    this.piece = Buffer.allocUnsafe(pieceSize);
  }

  async next() {
    return this.nextSync();
  }

  // nextSync(): the same, for the benchmark (src/gridfs/bench.js) and callers without I/O.
  nextSync() {
    const len = Math.min(this.pieceSize, this.size - this.offset);
    if (len <= 0) return null;
    const at = this.rng.int(SPREAD + 1);
    this.base.copy(this.piece, 0, at, at + len);
    if (len >= 8) {
      this.piece.writeUInt32LE(this.n, 0);
      this.piece.writeUInt32LE(this.rng.u32(), 4);
    }
    this.offset += len;
    this.n += 1;
    return this.piece.subarray(0, len);
  }

  async close() {}
}

// A file on disk (--from-file PATH), read piece by piece at increasing positions. Its size is the
// file's at open; a file that shrinks or grows while it is read ends at the bytes really read.
class FileSource {
  constructor(file, pieceSize) {
    this.file = file;
    this.pieceSize = pieceSize;
    this.piece = Buffer.allocUnsafe(pieceSize);
    this.offset = 0;
    this.handle = null;
  }

  async open() {
    this.handle = await fs.promises.open(this.file, 'r');
    this.size = (await this.handle.stat()).size;
    return this;
  }

  async next() {
    let got = 0;
    while (got < this.pieceSize) {
      const { bytesRead } = await this.handle.read(this.piece, got, this.pieceSize - got, this.offset + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    this.offset += got;
    return got === 0 ? null : this.piece.subarray(0, got);
  }

  async close() {
    if (this.handle) await this.handle.close().catch(() => {});
    this.handle = null;
  }
}

module.exports = { GeneratedSource, FileSource };
