#!/usr/bin/env node
'use strict';
// The lab's stand-in for mongod and mongos in the Docker suite (test/docker.sh): the image's
// /usr/local/bin/mongod and mongos run `node standin.js mongod|mongos <the flags compose/cluster.yml
// gives>`. Why a stand-in, what it plays and what it does not: member.js and router.js headers.
const common = require('./common');
const { startMember } = require('./member');
const { startRouter } = require('./router');

async function main() {
  const [role, ...argv] = process.argv.slice(2);
  const opts = common.parseArgs(argv);
  opts.argv[0] = role;
  if (!opts.keyFile) throw new Error('the stand-in runs with --keyFile only, as the lab does');
  const s = role === 'mongos' ? await startRouter(opts) : await startMember(opts);
  // PID 1 in its container (compose/cluster.yml execs it): SIGTERM from docker stop is ours to handle.
  for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => s.stop());
  // One connection's failure (a peer gone mid-request) is that connection's: said, never the
  // process's end, as a server keeps serving its other clients.
  process.on('unhandledRejection', (e) => common.log(`unhandled: ${(e && e.stack) || e}`));
  process.on('uncaughtException', (e) => common.log(`uncaught: ${(e && e.stack) || e}`));
}

// A refusal at startup (a keyfile mongod would not read, ...) is one line and exit 1, as mongod's.
main().catch((e) => { process.stderr.write(`standin: ${(e && e.message) || e}\n`); process.exit(1); });
