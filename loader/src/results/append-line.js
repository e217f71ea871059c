'use strict';
// appendLine(fd, obj, size) -> { size } | { error }: obj as one JSON line at the end of the file
// fd writes, synchronously (a loader killed with SIGKILL still leaves every line written), and the
// file's new size. A failed or short write is cut back to size, the last whole line, and its error
// returned for the caller to report (an obj JSON cannot hold throws, as it did before).
const fs = require('node:fs');

function appendLine(fd, obj, size) {
  const buf = Buffer.from(JSON.stringify(obj) + '\n');
  try {
    let off = 0;
    while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
  } catch (error) {
    try { fs.ftruncateSync(fd, size); } catch { /* read-only: nothing to cut */ }
    return { error };
  }
  return { size: size + buf.length };
}

module.exports = { appendLine };
