'use strict';
// server.ndjson beside timeline.ndjson: one JSON object per line, written synchronously (a loader
// killed with SIGKILL leaves every second it sampled). A failed write (disk full) stops the record
// and says so once; it never stops the run, whose own files have the reserve (src/results/run-folder.js).
const fs = require('node:fs');
const path = require('node:path');
const { appendLine } = require('../results/append-line');

class RecordFile {
  constructor(dir, log) {
    this.file = path.join(dir, 'server.ndjson');
    this.log = log;
    this.fd = fs.openSync(this.file, 'wx');
    this.bytes = 0;
    this.error = null;
  }

  write(obj) {
    if (this.fd === undefined || this.error) return;
    const r = appendLine(this.fd, obj, this.bytes);
    if (r.error) {
      this.error = `cannot write ${this.file}: ${r.error.code || r.error.message}; the server record stopped there`;
      this.log(`server record: ${this.error}`);
      return;
    }
    this.bytes = r.size;
  }

  close() {
    if (this.fd !== undefined) { try { fs.closeSync(this.fd); } catch { /* written already */ } }
    this.fd = undefined;
  }
}

module.exports = { RecordFile };
