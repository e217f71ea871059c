'use strict';
// Starts one FerretDB (support/ferretdb.js), prints its URI on the first line of stdout, and stops
// it (its SQLite folder removed) on SIGTERM, SIGINT or when stdin closes: test/suites/45-ferretdb.sh
// runs the MONGODB_URI mode against it.
const { startFerretdb } = require('./ferretdb');

(async () => {
  const server = await startFerretdb();
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.stop();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
  server.proc.on('exit', (code, signal) => { if (!stopping) { process.stderr.write(`FerretDB exited (${code ?? signal})\n`); process.exit(1); } });
  process.stdout.write(`${server.uri}\n`);
})().catch((e) => {
  process.stderr.write(`${e.message}\n`);
  process.exit(1);
});
