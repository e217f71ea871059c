'use strict';
// wrapLine(text, width = 120, indent = '  '): a line of prose (a note under a table, a reason)
// within width columns, at spaces, the rest indented. A word longer than a line (a path) stays
// whole on a line of its own: cut, it would no longer say where. The tables' grids are not prose
// and are not wrapped here.
const WIDTH = 120;

function wrapLine(text, width = WIDTH, indent = '  ') {
  if (text.length <= width) return text;
  const out = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && (line + ' ' + word).length > width) {
      out.push(line);
      line = indent + word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) out.push(line);
  return out.join('\n');
}

// wrapProse(text, keep): every line of text wrapped, except the lines of keep (a grid).
function wrapProse(text, keep = '') {
  const grid = new Set(keep.split('\n'));
  return text.split('\n').map((l) => (grid.has(l) ? l : wrapLine(l))).join('\n');
}

module.exports = { wrapLine, wrapProse, WIDTH };
