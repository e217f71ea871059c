#!/usr/bin/env node
'use strict';
// One loader pod of ./run.sh NAME --on k8s --loaders N (an Indexed Job; k8s/loaders.sh). What it
// does and why, step by step (its own collection, the barrier.js start, the results bundle its
// readiness probe waits for, <scratch>/stop, a loader failing on its own): k8s/README.md "Loaders
// as pods". The loader (bin/lab-loader) runs with the arguments after "--", its results written
// into a scratch folder; <scratch>/out/collected is ./run.sh's word that it has read the bundle.
// Environment: LAB_INDEX (the Job's JOB_COMPLETION_INDEX), LAB_LOADERS (N), LAB_BARRIER_HOST,
// LAB_BARRIER_PORT, LAB_BARRIER_TIMEOUT_S (600), LAB_EXPERIMENT_FILE, LAB_URI, LAB_USERNAME,
// LAB_PASSWORD_FILE, LAB_LOADER_DIR (/lab/loader), LAB_SCRATCH (/tmp/lab), LAB_RESULT_CHUNK (6144
// bytes of a results file per line; the tests make it small to exercise files in parts),
// LAB_COLLECT_TIMEOUT_S (3600: how long results wait for ./run.sh before the pod gives up).
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { createRequire } = require('node:module');
const barrier = require('./barrier');

const env = process.env;
const say = (m) => process.stderr.write(`loader-pod ${env.LAB_INDEX}: ${m}\n`);

function need(name) {
  const v = env[name];
  if (v === undefined || v === '') { say(`${name} is not set`); process.exit(2); }
  return v;
}

// podExperiment(text, index): the experiment file with its collection suffixed by _p<index>.
function podExperiment(text, index) {
  const re = /^collection:[ \t]*([A-Za-z0-9_.-]+)/m;
  if (!re.test(text)) throw new Error('the experiment file has no top-level "collection:" line');
  return text.replace(re, (_, c) => `collection: ${c}_p${index}`);
}

async function ping(loaderDir, uri, username, passwordFile) {
  const { MongoClient } = createRequire(path.join(loaderDir, 'package.json'))('mongodb');
  const auth = passwordFile ? { username, password: fs.readFileSync(passwordFile, 'utf8').trim() } : undefined;
  const client = new MongoClient(uri, { auth, serverSelectionTimeoutMS: 30000, directConnection: false });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  } finally {
    await client.close();
  }
}

async function main() {
  const index = Number(need('LAB_INDEX'));
  const n = Number(need('LAB_LOADERS'));
  const expFile = need('LAB_EXPERIMENT_FILE');
  const uri = need('LAB_URI');
  const loaderDir = env.LAB_LOADER_DIR || '/lab/loader';
  const scratch = env.LAB_SCRATCH || '/tmp/lab';
  const port = Number(env.LAB_BARRIER_PORT || 7070);
  const timeoutMs = Number(env.LAB_BARRIER_TIMEOUT_S || 600) * 1000;
  const loaderArgs = process.argv.slice(process.argv.indexOf('--') + 1);
  if (!process.argv.includes('--')) { say('usage: loader-pod.js -- LOADER_ARGS'); process.exit(2); }

  const expDir = path.join(scratch, 'experiments');
  const resultsDir = path.join(scratch, 'results');
  fs.mkdirSync(expDir, { recursive: true });
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(expDir, path.basename(expFile)), podExperiment(fs.readFileSync(expFile, 'utf8'), index));

  // ./run.sh creates <scratch>/stop when another loader pod failed: looked for every 500 ms from
  // here on, at the barrier and while the loader runs.
  const stopFile = path.join(scratch, 'stop');
  const stopSeen = new Promise((resolve) => {
    const poll = setInterval(() => { if (fs.existsSync(stopFile)) { clearInterval(poll); resolve('stop'); } }, 500);
  });
  // Stopped before its loader starts (at the barrier): nothing measured, handed over as stopped,
  // so ./run.sh need not wait for the barrier's timeout.
  const start = (async () => {
    if (index === 0) await barrier.serve({ port, n, timeoutMs, log: say });
    await ping(loaderDir, uri, env.LAB_USERNAME || 'root', env.LAB_PASSWORD_FILE);
    say(`connected to the cluster; waiting for all ${n} loaders`);
    await barrier.wait({ host: env.LAB_BARRIER_HOST || '127.0.0.1', port, index, timeoutMs });
    return 'go';
  })();
  if ((await Promise.race([start, stopSeen])) === 'stop') {
    start.catch(() => {}); // its barrier may time out while the bundle waits: not this pod's failure
    say('stopped by ./run.sh (another loader pod failed) before the loader started');
    await handOver(scratch, resultLines(resultsDir, index, 0, true), 0); // exits
  }
  say(`all ${n} loaders ready: starting at ${new Date().toISOString()}`);

  // bin/lab-loader: node with the GC flags the pod's CPUs call for (loader/bin/lab-loader).
  const args = [...loaderArgs,
    '--uri', uri, '--experiments-dir', expDir, '--results-dir', resultsDir];
  if (env.LAB_PASSWORD_FILE) args.push('--username', env.LAB_USERNAME || 'root', '--password-file', env.LAB_PASSWORD_FILE);
  let stopped = false;
  const code = await new Promise((resolve) => {
    const child = spawn(path.join(loaderDir, 'bin', 'lab-loader'), args, { stdio: ['ignore', 'inherit', 'inherit'] });
    for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
    let exited = false;
    stopSeen.then(() => {
      if (exited) return;
      stopped = true;
      say('stopped by ./run.sh (another loader pod failed): the loader keeps what it measured, marked incomplete');
      child.kill('SIGTERM');
    });
    child.on('exit', (c, s) => { exited = true; resolve(c ?? (s ? 1 : 0)); });
  });
  const lines = resultLines(resultsDir, index, code, stopped);
  if (code !== 0 && !stopped) {
    // failed on its own: exit now so the Job controller fails this index and ./run.sh sees it
    say(`the loader exited with ${code}`);
    for (const l of lines) process.stdout.write(`${l}\n`);
    process.exit(code);
  }
  await handOver(scratch, lines, code);
}

// handOver(scratch, lines, code): the bundle written whole (then renamed: it exists only
// complete, and its existence is the pod's readiness), then wait until ./run.sh has read it and
// created <scratch>/out/collected, and exit with the loader's code.
async function handOver(scratch, lines, code) {
  const out = path.join(scratch, 'out');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'results.ndjson.tmp'), lines.map((l) => `${l}\n`).join(''));
  fs.renameSync(path.join(out, 'results.ndjson.tmp'), path.join(out, 'results.ndjson'));
  say(`results ready (${lines.length - 1} line(s) in ${path.join(out, 'results.ndjson')}); waiting for ./run.sh to collect them`);
  const collected = path.join(out, 'collected');
  const deadline = Date.now() + Number(env.LAB_COLLECT_TIMEOUT_S || 3600) * 1000;
  while (!fs.existsSync(collected)) {
    if (Date.now() > deadline) { say('nobody collected the results in time: they are lost with this pod'); process.exit(code || 1); }
    await new Promise((r) => setTimeout(r, 500));
  }
  say('results collected');
  process.exit(code);
}

// resultLines(resultsDir, index, exit) -> the "LAB-RESULT" lines of every results file, in parts
// of LAB_RESULT_CHUNK bytes (lines of at most ~8 KiB: container runtimes split longer log lines,
// which matters for the failed pod's log), and the closing "LAB-RESULT-END" line.
function resultLines(resultsDir, index, exit, stopped) {
  const lines = [];
  let files = 0;
  const CHUNK = Number(env.LAB_RESULT_CHUNK || 6144); // bytes of file per line (8 KiB of base64)
  for (const e of fs.readdirSync(resultsDir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue; // `latest` is a symlink: skipped, ./run.sh makes its own folder
    const rel = path.relative(resultsDir, path.join(e.parentPath, e.name));
    const data = fs.readFileSync(path.join(resultsDir, rel));
    const parts = Math.max(1, Math.ceil(data.length / CHUNK));
    for (let part = 0; part < parts; part++) {
      const b64 = data.subarray(part * CHUNK, (part + 1) * CHUNK).toString('base64');
      lines.push(`LAB-RESULT ${JSON.stringify({ index, path: rel, part, parts, b64 })}`);
    }
    files++;
  }
  lines.push(`LAB-RESULT-END ${JSON.stringify({ index, files, exit, stopped })}`);
  return lines;
}

if (require.main === module) {
  main().catch((e) => { say(e.message); process.exit(1); });
}
module.exports = { podExperiment };
