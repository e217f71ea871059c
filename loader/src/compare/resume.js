'use strict';
// The arguments a resumed comparison runs with (./run.sh compare --resume ID [--uri NAME=URI...]):
// its stored command, the kept one with its passwords when there is one (lib/compare.sh header:
// .secrets/.comparisons/ID, else the state's args with every secret masked), each --uri side
// named again given its new URI. Refused, with the words lib/compare.sh says: exit 2 (bad input)
// for an id that is none, a state that is not there or was abandoned, a --uri that names no side;
// exit 1 (the environment) for a side whose password is no longer kept.
const fs = require('node:fs');
const path = require('node:path');
const { isReadable } = require('./state');

const ID_PATTERN = /^cmp-[0-9]{8}T[0-9]{6}Z-[0-9a-f]{4}$/;

class CompareRefusal extends Error {
  constructor(message, exitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}
const badInput = (message) => new CompareRefusal(message, 2);

// checkId(verb, id): id names a comparison (cmp-YYYYMMDDTHHMMSSZ-xxxx), else refused for verb.
function checkId(verb, id) {
  if (ID_PATTERN.test(id)) return;
  throw badInput(`${verb}: '${id}' is not a comparison id (cmp-YYYYMMDDTHHMMSSZ-xxxx, printed when it started)`);
}

// readArgs(file or fd) -> the NUL-separated arguments it holds, as lib/compare.sh stores them and
// passes the --resume URIs on stdin (a URI's user name may hold anything).
function readArgs(file) {
  const text = fs.readFileSync(file, 'utf8');
  return text === '' ? [] : (text.endsWith('\0') ? text.slice(0, -1) : text).split('\0');
}

// uriArgAt(args, i) -> the NAME=URI value of a --uri at i (--uri VALUE or --uri=VALUE), else
// undefined.
function uriArgAt(args, i) {
  if (args[i].startsWith('--uri=')) return args[i].slice('--uri='.length);
  if (args[i] === '--uri') return args[i + 1] ?? '';
  return undefined;
}
const sideOf = (value) => value.split('=')[0];
const uriValues = (args) => args.map((_, i) => uriArgAt(args, i)).filter((v) => v !== undefined);

// replaceUris(args, id, given) -> args with each stored --uri side named in given (NAME=URI...)
// holding its new value.
function replaceUris(args, id, given) {
  const out = [...args];
  for (const value of given) {
    if (!value.includes('=')) {
      throw badInput(`--resume ID --uri needs NAME=URI (NAME: the side whose URI it replaces), got '${value}'`);
    }
    const name = sideOf(value);
    let found = false;
    for (let i = 0; i < out.length; i++) {
      const stored = uriArgAt(out, i);
      if (stored === undefined || sideOf(stored) !== name) continue;
      if (out[i] === '--uri') out[i + 1] = value;
      else out[i] = `--uri=${value}`;
      found = true;
    }
    if (!found) {
      const sides = uriValues(out).map(sideOf);
      throw badInput(`--resume ${id} --uri ${name}=...: the comparison has no --uri side '${name}'`
        + ` (its --uri sides: ${sides.length ? sides.join(' ') : 'none'})`);
    }
  }
  return out;
}

// resumeArgs({ id, comparisonsDir, secretsDir, shownDir, hintResultsDir, uris }) -> the arguments
// to run. shownDir: the comparisons folder as messages name it (results/.comparisons/);
// hintResultsDir: the state was looked for in the checkout's results/ (no --results-dir given).
function resumeArgs({ id, comparisonsDir, secretsDir, shownDir, hintResultsDir = false, uris = [] }) {
  checkId('--resume', id);
  const dir = path.join(comparisonsDir, id);
  if (!isReadable(path.join(dir, 'args')) || !isReadable(path.join(dir, 'plan.tsv'))) {
    const hint = hintResultsDir ? ' (add its --results-dir DIR)' : '';
    throw badInput(`--resume: no comparison ${id} in ${shownDir}${hint}`);
  }
  if (fs.existsSync(path.join(dir, 'abandoned'))) {
    throw badInput(`--resume: comparison ${id} was abandoned (compare --abandon): start a new one`);
  }
  const secret = path.join(secretsDir, id);
  const args = replaceUris(readArgs(isReadable(secret) ? secret : path.join(dir, 'args')), id, uris);
  // a side still masked (its password no longer kept) would fail to connect on every run
  const masked = uriValues(args).filter((v) => v.includes('***')).map(sideOf);
  if (masked.length) {
    const again = `./run.sh compare --resume ${id}${masked.map((s) => ` --uri ${s}=URI`).join('')}`;
    throw new CompareRefusal(`--resume: the --uri passwords of ${id} are no longer kept`
      + ` (${shownDir}${id}/args holds them masked): give them again: ${again}`, 1);
  }
  return args;
}

module.exports = { resumeArgs, replaceUris, checkId, CompareRefusal, ID_PATTERN, readArgs };
