'use strict';
// common/text.js, the lab's one wrap, help columns and duration formatter (the loader's notes and
// help, the report's summary): every line within the width, nothing of the text lost (a word longer
// than a line is split across lines, never cut with "…"), the loader's and the report's older
// outputs byte for byte where they agreed.
const test = require('node:test');
const assert = require('node:assert/strict');
const { WIDTH, wrap, wrapLine, wrapProse, columns, durationText, durationMs } = require('../../common/text');

const words = (n, w = 'word') => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');
// joined(lines, indent): the text again, each continuation's indent taken off.
const joined = (lines, first, indent) => lines.map((l, i) => l.slice(i ? indent.length : first.length));

test('wrap: at spaces within the width, first and further lines led as asked, no word lost', () => {
  const text = words(60);
  const lines = wrap(text, { first: '    ', indent: '      ' });
  assert.ok(lines.length > 1, 'a 60-word line is wrapped');
  for (const l of lines) assert.ok(l.length <= WIDTH, `${l.length}: ${l}`);
  assert.ok(lines[0].startsWith('    w') && lines.slice(1).every((l) => /^ {6}\S/.test(l)));
  assert.equal(joined(lines, '    ', '      ').join(' '), text);
  // each line as full as the next word allows
  for (let i = 0; i + 1 < lines.length; i++) {
    assert.ok(lines[i].length + 1 + lines[i + 1].trim().split(' ')[0].length > WIDTH, `line ${i} broke early`);
  }
});

test('wrap: a line that fits is kept as it is, its runs of spaces (a padded column) too', () => {
  assert.deepEqual(wrap('a  b   c'), ['a  b   c']);
  assert.deepEqual(wrap(`${'id'.padEnd(26)} ${'REPRODUCED'.padEnd(14)} x`, { indent: ' '.repeat(42) }),
    [`${'id'.padEnd(26)} ${'REPRODUCED'.padEnd(14)} x`]);
  assert.equal(wrapLine('short'), 'short');
});

test('wrap: a word longer than a line is split across lines, never cut', () => {
  const long = `/results/${'x'.repeat(250)}/summary.json`;
  for (const [first, indent] of [['', '  '], ['    ', '      '], ['', '']]) {
    const lines = wrap(`see ${long} for it`, { first, indent });
    for (const l of lines) assert.ok(l.length <= WIDTH, `${l.length}: ${l}`);
    assert.doesNotMatch(lines.join('\n'), /…/);
    const pieces = joined(lines, first, indent);
    assert.equal(pieces.join('').replaceAll(' ', ''), `see${long}forit`, 'every character kept, in order');
    assert.ok(pieces.some((p) => p === long.slice(0, WIDTH - Math.max(indent.length, first.length))),
      'the word split where a fresh line is full');
  }
  // a narrow column (a help row's) splits at its own width
  assert.deepEqual(wrap('abcdefghij', { width: 4, indent: '' }), ['abcd', 'efgh', 'ij']);
});

test('wrapLine and wrapProse: the loader\'s notes, the grid\'s rows kept as they are', () => {
  const note = `note: ${words(40)}`;
  assert.equal(wrapLine(note), wrap(note).join('\n'));
  assert.ok(wrapLine(note).split('\n').slice(1).every((l) => l.startsWith('  ') && !l.startsWith('   ')));
  const row = `a ${'-'.repeat(150)}`;
  const out = wrapProse(`${row}\n${note}`, row).split('\n');
  assert.equal(out[0], row, 'the grid\'s row not wrapped');
  assert.ok(out.slice(1).every((l) => l.length <= WIDTH));
});

test('columns: a help row, its text from column 26; a long cell on a line of its own', () => {
  const text = words(40, 'w');
  const rows = columns('  --duration DUR', text).split('\n');
  assert.ok(rows[0].startsWith(`${'  --duration DUR'.padEnd(26)}w0 `));
  assert.ok(rows.slice(1).every((l) => /^ {26}\S/.test(l) && l.length <= WIDTH));
  assert.equal(rows.map((l, i) => l.slice(26)).join(' '), text);
  assert.equal(rows[0].length <= WIDTH, true);
  // two spaces must separate cell and text: a 25-column cell leaves one, so the text goes below
  const long = columns(`  --${'x'.repeat(21)}`, 'the text').split('\n');
  assert.deepEqual(long, [`  --${'x'.repeat(21)}`, `${' '.repeat(26)}the text`]);
  assert.equal(columns(`  --${'x'.repeat(20)}`, 'the text'), `  --${'x'.repeat(20)}  the text`);
  assert.equal(columns('  fault x', ''), '  fault x');
  // a table's last column wrapped under itself
  const grid = columns('a  b', words(30), { col: 6 }).split('\n');
  assert.ok(grid[0].startsWith('a  b  word0') && grid.slice(1).every((l) => /^ {6}\S/.test(l)));
});

test('durationText: reads back as the same milliseconds in the duration grammar', () => {
  const cases = { 120000: '2m', 5000: '5s', 1500: '1.5s', 250: '250ms', 3600000: '1h', 90000: '90s', 5400000: '90m' };
  for (const [ms, text] of Object.entries(cases)) {
    assert.equal(durationText(Number(ms)), text);
    assert.deepEqual(durationMs('--x', text), { ms: Number(ms) });
  }
  assert.match(durationMs('--x', '120').error, /is not a duration/);
});
