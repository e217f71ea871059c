'use strict';
// results/<experiment>/<engine>/<UTC yyyymmddThhmmssZ>/: summary.json, timeline.ndjson, a copy of
// the experiment file; results/<experiment>/<engine>/latest -> the newest run.
//  - A run folder is created with a non-recursive mkdir, which is atomic and exclusive: when the
//    second's name is taken (another run started in the same second) the next free <stamp>-2,
//    <stamp>-3, ... is taken instead. A run writes only into the folder its own mkdir created.
//  - Every write is checked. A failed write (disk full, read-only, permission) throws a
//    ResultsWriteError naming the file and the fix; a timeline line is cut back to the last whole
//    line, a summary is written to summary.json.tmp and renamed, the .tmp removed when that fails.
//  - .reserve (RESERVE_BYTES) is written at creation and deleted just before the final summary,
//    so a disk that fills during the run still has room for the summary at its end.
//  - latest moves only when the folder is whole (placeholder summary written).
//  - check (optional): a function each summary passes before it is written (an experiment run's:
//    src/results/summary-schema.js checkSummary); what it throws is thrown as is and nothing is written.
const fs = require('node:fs');
const path = require('node:path');
const { SummarySchemaError } = require('./summary-schema');
const { appendLine } = require('./append-line');

const SCHEMA_VERSION = 1;
const RESERVE_BYTES = 128 * 1024;

const WHY = {
  ENOSPC: ['the disk is full', 'free space there, or pass --results-dir DIR on a disk with room'],
  EDQUOT: ['the disk quota is used up', 'free space there, or pass --results-dir DIR on a disk with room'],
  EROFS: ['the file system is read-only', 'remount it read-write, or pass --results-dir DIR on a writable disk'],
  EACCES: ['permission denied', 'make it writable by this user, or pass --results-dir DIR that is'],
  EPERM: ['operation not permitted', 'make it writable by this user, or pass --results-dir DIR that is'],
};

class ResultsWriteError extends Error {
  constructor(file, cause, folder) {
    const [why, fix] = WHY[cause.code] || [cause.message, 'check that disk, or pass --results-dir DIR'];
    super(`cannot write ${file}: ${cause.code || 'error'} (${why}); ${fix}${folder ? ` (results folder ${folder})` : ''}`);
    this.name = 'Error';
    this.code = cause.code;
    this.file = file;
  }
}

// mkdirEach(dir): mkdir -p one level at a time. Node's recursive mkdir reports ENOENT when a level
// cannot be made on a read-only file system (it retries the parent and keeps the first error), so
// the EROFS message never fired; a plain mkdir of each missing level returns the real cause.
function mkdirEach(dir) {
  const missing = [];
  for (let d = path.resolve(dir); !fs.existsSync(d); d = path.dirname(d)) {
    missing.unshift(d);
    if (path.dirname(d) === d) break;
  }
  for (const d of missing) {
    try {
      fs.mkdirSync(d);
    } catch (e) {
      if (e.code !== 'EEXIST') throw e; // another run made it meanwhile
    }
  }
}

class RunDir {
  constructor(root, experiment, engine, startedAt, { check = null } = {}) {
    this.check = check;
    this.parent = path.join(root, experiment, engine);
    this.stamp = startedAt.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z'); // 20260101T120000Z
    this.name = null;
    this.dir = null; // set once this run's own mkdir succeeded
    this.timelineBytes = 0;
    this.broken = null; // the first ResultsWriteError: no more timeline writes after it
  }

  // create(experimentFile, placeholder): the folder, the experiment copy, the timeline, the
  // reserve, the placeholder summary, then latest. On failure, what this run created is removed.
  create(experimentFile, placeholder) {
    try {
      mkdirEach(this.parent);
    } catch (e) {
      throw new ResultsWriteError(this.parent, e);
    }
    for (let n = 1; !this.dir; n++) {
      const name = n === 1 ? this.stamp : `${this.stamp}-${n}`;
      try {
        fs.mkdirSync(path.join(this.parent, name)); // not recursive: fails if it exists
        this.name = name;
        this.dir = path.join(this.parent, name);
      } catch (e) {
        if (e.code !== 'EEXIST' || n >= 1000) throw new ResultsWriteError(path.join(this.parent, name), e);
      }
    }
    let file = this.dir;
    try {
      file = path.join(this.dir, path.basename(experimentFile));
      fs.copyFileSync(experimentFile, file, fs.constants.COPYFILE_EXCL);
      file = path.join(this.dir, 'timeline.ndjson');
      this.timelineFd = fs.openSync(file, 'wx');
      file = path.join(this.dir, '.reserve');
      fs.writeFileSync(file, Buffer.alloc(RESERVE_BYTES), { flag: 'wx' });
      this.summary(placeholder);
      // latest: relative link, swapped atomically (rename over the old link).
      file = path.join(this.parent, 'latest');
      const tmp = path.join(this.parent, `.latest.${process.pid}.${this.name}`);
      fs.rmSync(tmp, { force: true });
      try {
        fs.symlinkSync(this.name, tmp);
        fs.renameSync(tmp, file);
      } catch (e) {
        fs.rmSync(tmp, { force: true });
        throw e;
      }
    } catch (e) {
      const err = e instanceof ResultsWriteError || e instanceof SummarySchemaError
        ? e : new ResultsWriteError(file, e);
      this.discard();
      throw err;
    }
  }

  // discard(): remove the folder this run created (only ever this run's own).
  discard() {
    this.close();
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }

  // One line per second, written synchronously: a loader killed with SIGKILL still leaves every
  // second it measured on disk. A failed or short write is cut back to the last whole line.
  timeline(obj) {
    if (this.timelineFd === undefined || this.broken) return;
    const r = appendLine(this.timelineFd, obj, this.timelineBytes);
    if (r.error) {
      this.broken = new ResultsWriteError(path.join(this.dir, 'timeline.ndjson'), r.error, this.dir);
      throw this.broken;
    }
    this.timelineBytes = r.size;
  }

  // summary(obj, { final }): written to summary.json.tmp and renamed, so summary.json is always
  // whole; the final one first gives back the reserve.
  summary(obj, { final = false } = {}) {
    const file = path.join(this.dir, 'summary.json');
    const summary = { schema_version: SCHEMA_VERSION, ...obj };
    if (this.check) this.check(summary);
    if (final) fs.rmSync(path.join(this.dir, '.reserve'), { force: true });
    try {
      fs.writeFileSync(file + '.tmp', JSON.stringify(summary, null, 2) + '\n');
      fs.renameSync(file + '.tmp', file);
    } catch (e) {
      try { fs.rmSync(file + '.tmp', { force: true }); } catch { /* nothing more to do */ }
      throw new ResultsWriteError(file, e, this.dir);
    }
    if (final) this.finished = true;
    return file;
  }

  close() {
    if (this.timelineFd !== undefined) {
      try { fs.closeSync(this.timelineFd); } catch { /* close of a full disk's file: data is written */ }
    }
    this.timelineFd = undefined;
  }
}

module.exports = { RunDir };
