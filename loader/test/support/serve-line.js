'use strict';
// Another MongoDB-compatible server for MONGODB_URI runs of the suite, here without Docker: a
// server line of server-lines.js played by the wire shim in front of mongo-java-server. It
// answers as MongoDB does where the shim corrects the test server (w > 1 refused on a standalone,
// w:0 with no reply on an open connection, serverStatus.storageEngine, journalCommitInterval), so
// a test that still depends on one of the test server's deviations fails against it unless it
// names the deviation (support/server.js dependsOn) and skips.
// Usage: node loader/test/support/serve-line.js [LINE[+VARIANT]]   (default mongod-8.0-standalone)
// Prints "URI <uri>" once it listens; runs until SIGTERM or SIGINT.
const { startServer } = require('./server');
const { LINES, VARIANTS, lineOf } = require('./server-lines');

async function main() {
  const line = process.argv[2] || 'mongod-8.0-standalone';
  try { lineOf(line); } catch {
    process.stderr.write(`error: unknown server line '${line}' (choose from: ${Object.keys(LINES).join(', ')}; a variant: LINE+${Object.keys(VARIANTS).join('|')})\n`);
    process.exit(2);
  }
  delete process.env.MONGODB_URI; // the backend is a fresh test server, whatever the caller's
  const s = await startServer({ line });
  process.stdout.write(`URI ${s.uri}\n`);
  const stop = async () => { await s.stop(); process.exit(0); };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((e) => { process.stderr.write(`${e.stack || e}\n`); process.exit(1); });
