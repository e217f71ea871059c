'use strict';
// What a comparison has done, from its state folder (lib/compare.sh writes it; the header there
// lists the files): plan.tsv (position<TAB>side, the order) and runs.tsv (position<TAB>side<TAB>
// complete|incomplete|interrupted<TAB>exit code<TAB>results folder, appended after each run).
// A position is done when runs.tsv has a complete line for it; resume runs the others in order.
const fs = require('node:fs');
const path = require('node:path');

// readTsv(file) -> its lines split at tabs ([] when the file is absent: no run made yet).
function readTsv(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if (e.code === 'ENOENT') return [];
    throw e;
  }
  return text.split('\n').filter((line) => line !== '').map((line) => line.split('\t'));
}

// positions(planFile, runsFile) -> [{ position, side, done }] in plan order; done: runs.tsv has a
// complete run of it.
function positions(planFile, runsFile) {
  const done = new Set(readTsv(runsFile).filter((r) => r[2] === 'complete').map((r) => r[0]));
  return readTsv(planFile).map(([position, side]) => ({ position, side, done: done.has(position) }));
}

// runFolders(runsFile) -> every results folder the runs wrote, in the order they ran (the report
// of exactly this comparison).
const runFolders = (runsFile) => readTsv(runsFile).map((r) => r[4] ?? '').filter((dir) => dir !== '');

// resumable(comparisonsDir) -> the ids (cmp-*) there with a plan, not abandoned, and a position
// not done; one whose runs.tsv is missing has every position to do.
function resumable(comparisonsDir) {
  let names;
  try {
    names = fs.readdirSync(comparisonsDir).filter((n) => n.startsWith('cmp-')).sort();
  } catch (e) {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return [];
    throw e;
  }
  return names.filter((id) => {
    const dir = path.join(comparisonsDir, id);
    if (!isReadable(path.join(dir, 'plan.tsv')) || fs.existsSync(path.join(dir, 'abandoned'))) return false;
    if (!fs.existsSync(path.join(dir, 'runs.tsv'))) return true;
    return positions(path.join(dir, 'plan.tsv'), path.join(dir, 'runs.tsv')).some((p) => !p.done);
  });
}

function isReadable(file) {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

module.exports = { positions, runFolders, resumable, isReadable };
