'use strict';
// The experiment flags' help, once: `lab-loader --help` and `./run.sh help` / `./run.sh NAME
// --help` (lib/experiment.sh asks `lab-loader flags`) are both rendered from common-flags.js, and
// every default an experiment file sets is read from the files as config.js loads them, so any
// YAML style the loader accepts shows its values, and no list of files or numbers is kept here.
const { columns } = require('../text/wrap');
const { COMMON_FLAGS } = require('./common-flags');

// loadedRuns(dir, names) -> [{ name, config, kind }]: each experiment as config.js loaded() reads
// it; a file that does not load is left out.
function loadedRuns(dir, names) {
  const { loaded, list } = require('../experiment/config');
  const { kind } = require('../kinds');
  const out = [];
  for (const name of names || list(dir)) {
    const run = loaded(name, dir);
    if (run) out.push({ name, config: run.config, kind: kind(run.config.workload.type) });
  }
  return out;
}

// takes(run, flag): the experiment's kind takes this common workload flag (its bound's, less
// those it refuses); the flags that are no workload flag every experiment takes.
function takes(run, flag) {
  const { BOUND_FLAGS, flagsOf } = require('../kinds');
  const workload = new Set(Object.values(BOUND_FLAGS).flatMap((b) => Object.values(b)));
  return !workload.has(flag) || flagsOf(run.kind).includes(flag);
}

// defaultsText(row, runs) -> '(default 1; journal 3, gridfs 5)': the value most experiments that
// take the flag give first, then every other; the row's parser or shown default where no file gives one.
function defaultsText(row, runs) {
  const dflt = row.default ?? row.dflt;
  if (!row.file) return dflt ? `(default ${dflt})` : '';
  const users = runs.filter((r) => takes(r, row.flag));
  if (!users.length) return '';
  const byValue = new Map();
  for (const r of users) {
    const v = String(row.file(r.config));
    byValue.set(v, [...(byValue.get(v) || []), r.name]);
  }
  const sorted = [...byValue].sort((a, b) => b[1].length - a[1].length);
  if (runs.length === 1) return `(default ${sorted[0][0]})`;
  // Taken by some experiments only: each value with the experiments that give it.
  if (users.length < runs.length) return `(${sorted.map(([v, names]) => `${names.join('/')} ${v}`).join(', ')})`;
  const [top, ...rest] = sorted;
  return `(default ${top[0]}${rest.length ? `; ${rest.map(([v, names]) => `${names.join('/')} ${v}`).join(', ')}` : ''})`;
}

// row(flag, text): one help row, the text wrapped in its own column from column 26 (longer flag
// words push the text to the next line): common/text.js columns.
const row = (flag, text) => columns(`  ${flag}`, text);

const words = (r) => `${r.short ? `-${r.short}, ` : ''}${r.flag}${r.arg ? ` ${r.arg}` : ''}`;

// loaderFlags(dir) -> the Connection, Workload and Output sections of `lab-loader --help`.
function loaderFlags(dir) {
  const runs = loadedRuns(dir);
  const out = [];
  for (const group of ['Connection', 'Workload', 'Output']) {
    out.push(`${group}:`);
    for (const r of COMMON_FLAGS.filter((f) => f.group === group)) out.push(row(words(r), [r.help, defaultsText(r, runs)].filter(Boolean).join(' ')));
  }
  return out.join('\n');
}

// runshFlags(dir, name) -> ./run.sh's experiment flags (help, NAME --help): the rows ./run.sh
// users give, each default from the experiment files (NAME's alone when given), then every
// workload kind's own flags (catalog.js).
function runshFlags(dir, name) {
  const runs = loadedRuns(dir, name ? [name] : undefined);
  const out = [];
  for (const r of COMMON_FLAGS.filter((f) => f.runsh)) {
    if (name && runs[0] && !takes(runs[0], r.flag)) continue;
    const help = `${r.runsh === 'uri' ? 'with --uri: ' : ''}${r.help}`;
    out.push(row(words(r), [help, defaultsText(r, runs)].filter(Boolean).join(' ')));
  }
  return `${out.join('\n')}\n`;
}

module.exports = { loaderFlags, runshFlags, defaultsText, row };
