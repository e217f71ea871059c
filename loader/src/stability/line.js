'use strict';
// The terminal's one line per step (issue 40 item 2): how many dips, their seconds in all, and
// how many had each set of causes, e.g.
//   "step 1: 3 dips, 4.1 s in all: 2 during a checkpoint, 1 with no server event recorded".
// Kept within 120 columns: causes that do not fit are counted as "N more (summary.json)".
const { NO_EVENT } = require('./explain');

const WIDTH = 120;

function stabilityLine(index, st) {
  if (!st) return null;
  const head = `STABILITY: step ${index}: `;
  if (!st.dips) return `${head}dips not judged (${st.not_judged})`.slice(0, WIDTH);
  const worst = st.worst_second_fraction === null ? '' : `; worst second ${Math.round(st.worst_second_fraction * 100)} % of the median, CV ${st.cv}`;
  if (!st.dips.length) return `${head}no dips${worst}`;
  // Each server cause counted once per dip (a dip with several is counted under each, said so);
  // the loader's own host stall after them, as the count of dips it held in.
  const counts = new Map();
  let several = false;
  let host = 0;
  for (const d of st.dips) {
    const causes = d.causes || [];
    const server = causes.filter((c) => c.id !== 'loader_host').map((c) => c.says || c.id);
    if (server.length > 1) several = true;
    if (causes.some((c) => c.id === 'loader_host')) host += 1;
    for (const c of server.length ? server : [`with ${NO_EVENT}`]) counts.set(c, (counts.get(c) || 0) + 1);
  }
  const start = `${head}${st.dips.length} dip${st.dips.length === 1 ? '' : 's'}, ${st.dip_seconds} s in all: `;
  const parts = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([text, n]) => `${n} ${text}`);
  const tail = host ? `; loader host busy in ${host}` : '';
  // As many causes as fit, the rest counted ("N more": summary.json has every dip's causes).
  const build = (k, note) => `${start}${parts.slice(0, k).join(', ')}${k < parts.length ? `, ${parts.length - k} more` : ''}${note}${tail}`;
  for (const note of [several ? ' (some dips: several)' : '', '']) {
    for (let k = parts.length; k >= 1; k--) if (build(k, note).length <= WIDTH) return build(k, note);
  }
  return build(1, '').slice(0, WIDTH);
}

module.exports = { stabilityLine, WIDTH };
