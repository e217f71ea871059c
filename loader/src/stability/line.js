'use strict';
// The terminal's one line per step (issue 40 item 2): how many dips, their seconds in all, and
// how many had each set of causes, e.g.
//   "step 1: 3 dips, 4.1 s in all: 2 during a checkpoint, 1 with no server event recorded".
// Kept within 120 columns: causes that do not fit are counted as "N more (summary.json)".
const { NO_EVENT } = require('./explain');

const WIDTH = 120;
const phrase = (text) => (text === NO_EVENT ? `with ${NO_EVENT}` : text);

function stabilityLine(index, st) {
  if (!st) return null;
  const head = `STABILITY: step ${index}: `;
  if (!st.dips) return `${head}dips not judged (${st.not_judged})`.slice(0, WIDTH);
  const worst = st.worst_second_fraction === null ? '' : `; worst second ${Math.round(st.worst_second_fraction * 100)} % of the median, CV ${st.cv}`;
  if (!st.dips.length) return `${head}no dips${worst}`;
  const groups = new Map();
  for (const d of st.dips) groups.set(d.cause_text || 'not explained', (groups.get(d.cause_text || 'not explained') || 0) + 1);
  let line = `${head}${st.dips.length} dip${st.dips.length === 1 ? '' : 's'}, ${st.dip_seconds} s in all: `;
  const parts = [...groups.entries()].sort((a, b) => b[1] - a[1]).map(([text, n]) => `${n} ${phrase(text)}`);
  for (let i = 0; i < parts.length; i++) {
    const rest = parts.length - i - 1;
    const tail = rest ? `, ${rest} more (summary.json)` : '';
    const piece = `${i ? ', ' : ''}${parts[i]}`;
    if ((line + piece + tail).length > WIDTH && i) return `${line}, ${parts.length - i} more (summary.json)`;
    line += piece;
  }
  return line.length > WIDTH ? `${line.slice(0, WIDTH - 1)}…` : line;
}

module.exports = { stabilityLine, WIDTH };
