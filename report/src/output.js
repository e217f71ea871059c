'use strict';
// results/report/<UTC>/{index.html, report.json}; results/report/latest -> it. The folder is made
// with a non-recursive mkdir, so an earlier report is never overwritten (a second report in the
// same second gets a -2 suffix); latest is swapped atomically (rename over the old link).
const fs = require('node:fs');
const path = require('node:path');
const { writeJson } = require('./json-stream');

const stamp = (d) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');

function writeReport(reportRoot, now, report, html) {
  // One level, not recursive: a recursive mkdir under a read-only folder can report ENOENT; the
  // results folder exists (the runs were read from it), and the error then names the real cause.
  try {
    fs.mkdirSync(reportRoot);
  } catch (e) {
    if (e.code === 'ENOENT') fs.mkdirSync(reportRoot, { recursive: true }); // no results/ yet
    else if (e.code !== 'EEXIST') throw e;
  }
  const base = stamp(now);
  let name = base;
  for (let n = 2; ; n++) {
    try {
      fs.mkdirSync(path.join(reportRoot, name));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      name = `${base}-${n}`;
    }
  }
  const dir = path.join(reportRoot, name);
  // streamed: the same bytes as JSON.stringify(report, null, 1), never one string (src/json-stream.js)
  const fd = fs.openSync(path.join(dir, 'report.json'), 'w');
  try {
    writeJson(fd, report);
    fs.writeSync(fd, '\n');
  } finally {
    fs.closeSync(fd);
  }
  // the page: its text, or writePage(fd) writing it (src/html.js writeHtml, streamed)
  if (typeof html === 'function') {
    const page = fs.openSync(path.join(dir, 'index.html'), 'w');
    try {
      html(page);
    } finally {
      fs.closeSync(page);
    }
  } else fs.writeFileSync(path.join(dir, 'index.html'), html);
  const tmp = path.join(reportRoot, `.latest.${process.pid}`);
  fs.rmSync(tmp, { force: true });
  fs.symlinkSync(name, tmp);
  fs.renameSync(tmp, path.join(reportRoot, 'latest'));
  return dir;
}

module.exports = { writeReport, stamp };
