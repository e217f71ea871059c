#!/usr/bin/env node
'use strict';
// ./run.sh NAME --on k8s: the loader pods' results back into the user's results/ as one run.
// Reads the pods' logs (kubectl logs, or files in the tests), takes the "LAB-RESULT" lines
// loader-pod.js printed, and writes each pod's results folder under
//   <results>/<experiment>/<engine>/<run>/pod-<index>/   (summary.json, timeline.ndjson, ...)
// so the pods sit side by side in one run folder, which lab-report reads as one run (same group
// and repetition: percentiles from the merged histograms, report/src/merge.js).
// Usage: collect.js --into RUN_DIR --pods N LOGFILE...   (prints the pod folders; exit 1 if a pod
// sent nothing, its end line is missing, or a file came back incomplete)
const fs = require('node:fs');
const path = require('node:path');

function collect(texts, into, pods) {
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
  for (let i = 0; i < pods; i++) {
    const pod = got.get(i);
    if (!pod || !pod.end) { problems.push(`pod ${i}: no results in its log (did it run to the end?)`); continue; }
    // a file comes in parts (one log line each); all parts, in order, or the file is incomplete
    const byPath = new Map();
    for (const f of pod.files) {
      if (!byPath.has(f.path)) byPath.set(f.path, { parts: f.parts ?? 1, chunks: new Map() });
      byPath.get(f.path).chunks.set(f.part ?? 0, f.b64);
    }
    if (byPath.size !== pod.end.files) problems.push(`pod ${i}: ${byPath.size} of ${pod.end.files} files in its log`);
    if (pod.end.exit !== 0) problems.push(`pod ${i}: the loader exited with ${pod.end.exit}`);
    // <experiment>/<engine>/<stamp>/<file> in the pod -> pod-<i>/<file> here
    for (const [rel, f] of byPath) {
      const parts = rel.split(path.sep);
      if (parts.length < 4 || parts.includes('..')) { problems.push(`pod ${i}: unexpected path ${rel}`); continue; }
      if (f.chunks.size !== f.parts) { problems.push(`pod ${i}: ${rel}: ${f.chunks.size} of ${f.parts} parts in its log`); continue; }
      const dest = path.join(into, `pod-${i}`, ...parts.slice(3));
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, Buffer.concat([...Array(f.parts).keys()].map((k) => Buffer.from(f.chunks.get(k), 'base64'))));
    }
    if (byPath.size) dirs.push(path.join(into, `pod-${i}`));
  }
  return { dirs, problems };
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const into = argv[argv.indexOf('--into') + 1];
  const pods = Number(argv[argv.indexOf('--pods') + 1]);
  const files = argv.filter((a, i) => !a.startsWith('--') && !['--into', '--pods'].includes(argv[i - 1]));
  if (!argv.includes('--into') || !into || !Number.isInteger(pods) || pods < 1 || !files.length) {
    process.stderr.write('usage: collect.js --into RUN_DIR --pods N LOGFILE...\n');
    process.exit(2);
  }
  const { dirs, problems } = collect(files.map((f) => fs.readFileSync(f, 'utf8')), into, pods);
  for (const d of dirs) process.stdout.write(`${d}\n`);
  for (const p of problems) process.stderr.write(`collect: ${p}\n`);
  process.exit(problems.length ? 1 : 0);
}
module.exports = { collect };
