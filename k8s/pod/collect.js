#!/usr/bin/env node
'use strict';
// ./run.sh NAME --on k8s: the loader pods' results back into the user's results/ as one run.
// Reads what ./run.sh fetched from each pod: its results bundle (kubectl exec POD -- cat
// <scratch>/out/results.ndjson, loader-pod.js: never subject to log rotation) or, for a pod that
// failed and exited, its log (kubectl logs), takes the "LAB-RESULT" lines, and writes each pod's
// results folder <run>/pod-<index>/. The run folder, read as one run, and how a run that is not
// whole (a pod sent nothing, failed, was stopped, or a file came back in part) is marked:
// k8s/README.md "Loaders as pods", 3. and 4.
// Usage: collect.js --into RUN_DIR --pods N [--meta JSON_FILE] [--failed INDEX:EXIT]... FILE...
//   --meta: an object stored as "k8s" in every pod's summary.json (./run.sh: the Job, namespace,
//   and the server image and image IDs every member ran). Prints the pod folders; exit 1 when
//   the run is not whole, 2 for usage. --failed: a pod the Job saw fail, with its exit code.
const fs = require('node:fs');
const path = require('node:path');

// collect(texts, into, pods, meta, failed): failed: Map index -> exit code of pods the Job saw
// fail, named as failed even when nothing of theirs could be read.
function collect(texts, into, pods, meta, failed = new Map()) {
  const got = new Map();
  const problems = [];
  for (const text of texts) {
    for (const line of text.split('\n')) {
      const m = /^(?:\S+ )?(LAB-RESULT(?:-END)?) (\{.*\})\s*$/.exec(line); // kubectl --prefix adds "[pod/...] "
      if (!m) continue;
      const rec = JSON.parse(m[2]);
      if (!got.has(rec.index)) got.set(rec.index, { files: [], end: null });
      if (m[1] === 'LAB-RESULT-END') got.get(rec.index).end = rec;
      else got.get(rec.index).files.push(rec);
    }
  }
  const dirs = [];
  const states = [];
  for (let i = 0; i < pods; i++) {
    const pod = got.get(i);
    if (!pod || !pod.end) {
      if (failed.has(i)) {
        problems.push(`pod ${i}: failed with exit ${failed.get(i)}, nothing of it could be read`);
        states.push({ index: i, state: 'failed', exit: failed.get(i) });
      } else {
        problems.push(`pod ${i}: no results (did it run to the end?)`);
        states.push({ index: i, state: 'missing' });
      }
      continue;
    }
    const before = problems.length;
    // a file comes in parts (one line each); all parts, in order, or the file is incomplete
    const byPath = new Map();
    for (const f of pod.files) {
      if (!byPath.has(f.path)) byPath.set(f.path, { parts: f.parts ?? 1, chunks: new Map() });
      byPath.get(f.path).chunks.set(f.part ?? 0, f.b64);
    }
    if (byPath.size !== pod.end.files) problems.push(`pod ${i}: ${byPath.size} of ${pod.end.files} files arrived`);
    if (pod.end.stopped) problems.push(`pod ${i}: stopped by ./run.sh after another pod failed (exit ${pod.end.exit})`);
    else if (pod.end.exit !== 0) problems.push(`pod ${i}: the loader exited with ${pod.end.exit}`);
    // <experiment>/<engine>/<stamp>/<file> in the pod -> pod-<i>/<file> here
    for (const [rel, f] of byPath) {
      const parts = rel.split(path.sep);
      if (parts.length < 4 || parts.includes('..')) { problems.push(`pod ${i}: unexpected path ${rel}`); continue; }
      if (f.chunks.size !== f.parts) { problems.push(`pod ${i}: ${rel}: ${f.chunks.size} of ${f.parts} parts arrived`); continue; }
      const dest = path.join(into, `pod-${i}`, ...parts.slice(3));
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, Buffer.concat([...Array(f.parts).keys()].map((k) => Buffer.from(f.chunks.get(k), 'base64'))));
    }
    states.push({ index: i, state: problems.length === before ? 'collected' : pod.end.stopped ? 'stopped' : 'failed', exit: pod.end.exit });
    if (byPath.size) dirs.push(path.join(into, `pod-${i}`));
  }
  // Mark every kept summary: the run as a whole is what the report must judge.
  for (const d of dirs) {
    const f = path.join(d, 'summary.json');
    if (!fs.existsSync(f)) continue;
    const s = JSON.parse(fs.readFileSync(f, 'utf8'));
    if (meta) s.k8s = meta;
    if (problems.length) {
      s.complete = false;
      s.reason = `k8s run incomplete (${problems.join('; ')})${s.reason ? `; this pod: ${s.reason}` : ''}`;
    }
    fs.writeFileSync(f, `${JSON.stringify(s, null, 2)}\n`);
  }
  fs.mkdirSync(into, { recursive: true });
  fs.writeFileSync(path.join(into, 'k8s-run.json'), `${JSON.stringify({ complete: problems.length === 0, pods: states, problems, k8s: meta ?? null }, null, 2)}\n`);
  return { dirs, problems };
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const opt = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const into = opt('--into');
  const pods = Number(opt('--pods'));
  const metaFile = opt('--meta');
  const files = argv.filter((a, i) => !a.startsWith('--') && !['--into', '--pods', '--meta', '--failed'].includes(argv[i - 1]));
  const failedArgs = argv.filter((a, i) => argv[i - 1] === '--failed');
  if (!into || !Number.isInteger(pods) || pods < 1 || (argv.includes('--meta') && !metaFile) || failedArgs.some((f) => !/^\d+:-?\d+$/.test(f))) {
    process.stderr.write('usage: collect.js --into RUN_DIR --pods N [--meta JSON_FILE] [--failed INDEX:EXIT]... FILE...\n');
    process.exit(2);
  }
  const failed = new Map(failedArgs.map((f) => f.split(':').map(Number)));
  const meta = metaFile ? JSON.parse(fs.readFileSync(metaFile, 'utf8')) : undefined;
  const { dirs, problems } = collect(files.map((f) => fs.readFileSync(f, 'utf8')), into, pods, meta, failed);
  for (const d of dirs) process.stdout.write(`${d}\n`);
  for (const p of problems) process.stderr.write(`collect: ${p}\n`);
  process.exit(problems.length ? 1 : 0);
}
module.exports = { collect };
