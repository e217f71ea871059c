'use strict';
// The member's FerretDB backend (v1.24.2, SQLite under DIR/data), started the one way the image
// and the tests start it: the command line and the wait until it answers.
const { Link } = require('./link');
const common = require('./common');

// ferretArgs(dir, port): FerretDB's flags, listening on loopback only
const ferretArgs = (dir, port) => ['--handler=sqlite', `--sqlite-url=file:${dir}/data/`, `--state-dir=${dir}`,
  `--listen-addr=127.0.0.1:${port}`, '--debug-addr=-', '--telemetry=disable', '--log-level=ERROR'];

// ferretLink(port) -> a Link to the backend once it answers a ping (at most 30 s)
async function ferretLink(port) {
  const backend = new Link(`127.0.0.1:${port}`, null, { timeoutMs: 60000 });
  for (let i = 0; ; i += 1) {
    try { await backend.request({ ping: 1, $db: 'admin' }); return backend; } catch (e) {
      if (i > 300) { backend.close(); throw new Error(`FerretDB did not answer within 30 s: ${e.message}`); }
      await common.sleep(100);
    }
  }
}

module.exports = { ferretArgs, ferretLink };
