'use strict';
// results/<experiment>/<engine>/<UTC yyyymmddThhmmssZ>/: summary.json, timeline.ndjson, a copy of
// the experiment file; results/<experiment>/<engine>/latest -> the newest run. A run directory is
// created with a non-recursive mkdir, so an existing one (same second) is refused, never reused.
const fs = require('node:fs');
const path = require('node:path');

const SCHEMA_VERSION = 1;

function utcStamp(d) {
  return d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z'); // 20260101T120000Z
}

class RunDir {
  constructor(root, experiment, engine, startedAt) {
    this.parent = path.join(root, experiment, engine);
    this.stamp = utcStamp(startedAt);
    this.dir = path.join(this.parent, this.stamp);
  }

  create(experimentFile) {
    fs.mkdirSync(this.parent, { recursive: true });
    try {
      fs.mkdirSync(this.dir);
    } catch (e) {
      if (e.code === 'EEXIST') throw new Error(`results directory ${this.dir} already exists; refusing to overwrite it`);
      throw e;
    }
    fs.copyFileSync(experimentFile, path.join(this.dir, path.basename(experimentFile)));
    this.timelineFd = fs.openSync(path.join(this.dir, 'timeline.ndjson'), 'a');
    // latest: relative link, swapped atomically (rename over the old link).
    const tmp = path.join(this.parent, `.latest.${process.pid}`);
    fs.rmSync(tmp, { force: true });
    fs.symlinkSync(this.stamp, tmp);
    fs.renameSync(tmp, path.join(this.parent, 'latest'));
  }

  // One line per second, written synchronously: a loader killed with SIGKILL still leaves every
  // second it measured on disk.
  timeline(obj) {
    if (this.timelineFd !== undefined) fs.writeSync(this.timelineFd, JSON.stringify(obj) + '\n');
  }

  // summary(obj): written to a temporary file and renamed, so summary.json is always whole.
  summary(obj) {
    const file = path.join(this.dir, 'summary.json');
    fs.writeFileSync(file + '.tmp', JSON.stringify({ schema_version: SCHEMA_VERSION, ...obj }, null, 2) + '\n');
    fs.renameSync(file + '.tmp', file);
    return file;
  }

  close() {
    if (this.timelineFd !== undefined) fs.closeSync(this.timelineFd);
    this.timelineFd = undefined;
  }
}

module.exports = { RunDir, utcStamp, SCHEMA_VERSION };
