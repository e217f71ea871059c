'use strict';
// The lab's text, for the loader and the report alike: prose wrapped within the terminal's 120
// columns (wrap, wrapLine, wrapProse), a help row's text in its own column (columns), and the one
// duration grammar and formatter (durationMs, durationText). lib/common.sh is the same in bash:
// wrap_lines, parse_duration.
//
// One rule for a word longer than the room on a line (a path, raw JSON of a parameter): it is
// split across lines, never cut. A cut ("…") hid what differed; a word left whole ran the line past
// the width. Nothing is lost: the pieces, read on, are the word.

const WIDTH = 120;

// wrap(text, { width, first, indent }) -> lines of at most width columns, at spaces: the first
// line starts with first, each further one with indent. Runs of spaces are kept (a padded column
// of a row stays aligned); a line that fits is returned as it is.
function wrap(text, { width = WIDTH, first = '', indent = '  ' } = {}) {
  const s = String(text);
  if (first.length + s.length <= width) return [first + s];
  // A fresh line starts with indent (or with a blank first): the room a piece of a long word has.
  const fresh = first.trim() ? indent.length : Math.max(indent.length, first.length);
  const room = Math.max(1, width - fresh);
  const words = [];
  for (const w of s.split(' ')) {
    let rest = w;
    while (rest.length > room) { words.push(rest.slice(0, room)); rest = rest.slice(room); }
    words.push(rest);
  }
  const out = [];
  let line = first;
  for (const word of words) {
    if (line.trim() && (line + ' ' + word).length > width) {
      out.push(line);
      line = indent + word;
    } else {
      line = line.trim() ? `${line} ${word}` : line + word;
    }
  }
  if (line.trim()) out.push(line);
  return out;
}

// wrapLine(text, width, indent): wrap() as one string, the rest indented by indent (the loader's
// notes and messages: two spaces).
const wrapLine = (text, width = WIDTH, indent = '  ') => wrap(text, { width, indent }).join('\n');

// wrapProse(text, keep): every line of text wrapped, except the lines of keep (a grid: its rows are
// columns, not prose).
function wrapProse(text, keep = '') {
  const grid = new Set(keep.split('\n'));
  return text.split('\n').map((l) => (grid.has(l) ? l : wrapLine(l))).join('\n');
}

// columns(cell, text, { col, width }) -> one row of a help or a table: cell, then text from column
// col wrapped within width, its further lines under it. A cell too long to leave two spaces before
// col is a line of its own, the text below it (./run.sh help: a flag and its description).
function columns(cell, text, { col = 26, width = WIDTH } = {}) {
  if (text === '') return cell;
  const [head, ...rest] = wrap(text, { width: width - col, indent: '' });
  const under = rest.map((l) => `${' '.repeat(col)}${l}`);
  if (cell.length + 2 > col) return [cell, `${' '.repeat(col)}${head}`, ...under].join('\n');
  return [`${cell.padEnd(col)}${head}`, ...under].join('\n');
}

// The lab's one duration grammar (experiment --duration, fault --threshold, the loader's timeouts).
// lib/common.sh's parse_duration is the same grammar in bash with the same messages; both run over
// test/vectors/durations.tsv, so they cannot drift apart.
//   <whole>[.<fraction>]<unit>, unit ms|s|m|h, at most 10 whole and 9 fraction digits; the result is
//   a whole number of milliseconds, more than zero and at most 596h (under setTimeout's 2^31-1 ms).
const UNIT_MS = { ms: 1n, s: 1000n, m: 60000n, h: 3600000n };
const MAX_MS = 596n * 3600000n;
const DURATION = /^([0-9]{1,10})(?:\.([0-9]{1,9}))?(ms|s|m|h)$/;

// durationMs(flag, text) -> { ms } or { error: 'one-line message' }.
function durationMs(flag, text) {
  const s = String(text);
  const m = DURATION.exec(s);
  if (!m) {
    return { error: `${flag} '${s}' is not a duration (use a number and a unit: 500ms, 30s, 2m, 1h; decimals allowed)` };
  }
  const frac = m[2] || '';
  const scale = 10n ** BigInt(frac.length);
  const scaled = (BigInt(m[1]) * scale + BigInt(frac || '0')) * UNIT_MS[m[3]];
  if (scaled === 0n) return { error: `${flag} must be more than zero (got '${s}')` };
  if (scaled % scale !== 0n) return { error: `${flag} '${s}' is finer than 1 ms` };
  const ms = scaled / scale;
  if (ms > MAX_MS) return { error: `${flag} '${s}' is longer than 596h` };
  return { ms: Number(ms) };
}

// durationText(ms) -> the duration written in the grammar above, so that it reads back as ms: the
// largest unit it is a whole number of (120000 -> '2m', 5000 -> '5s'), else seconds with their
// fraction from 1 s up (1500 -> '1.5s'), else milliseconds (250 -> '250ms'). The one formatter of
// every message, table and help text that shows a duration.
function durationText(ms) {
  const units = [['h', 3600000], ['m', 60000], ['s', 1000]];
  const whole = ms > 0 ? units.find(([, size]) => ms % size === 0) : null;
  if (whole) return `${ms / whole[1]}${whole[0]}`;
  return ms >= 1000 ? `${ms / 1000}s` : `${ms}ms`;
}

module.exports = { WIDTH, wrap, wrapLine, wrapProse, columns, durationMs, durationText };
