'use strict';
// The terminal's line per step: how many dips, their seconds in all, and how many had each
// set of causes, e.g.
//   "STABILITY: step 1: 3 dips, 4.1 s in all: 2 during a checkpoint, 1 with no server event recorded".
// Every cause is named: a line too long for 120 columns wraps (src/text/wrap.js) rather than hiding a
// cause behind "1 more"; only past MAX_LINES are the rest counted ("N more": summary.json has
// every dip's causes). Consecutive steps with the same line (a capacity search's short steps, each
// "dips not judged") are said once, "steps 1-13".
const { NO_EVENT } = require('./explain');
const { wrapLine } = require('../text/wrap');

const MAX_LINES = 3;

// stabilityLine(step, st): step is the step's index or a label ("steps 1-13"); st the step's
// summary.json stability; null when the step has none.
function stabilityLine(step, st) {
  if (!st) return null;
  const head = `STABILITY: ${typeof step === 'number' ? `step ${step}` : step}: `;
  if (!st.dips) return wrapLine(`${head}dips not judged (${st.not_judged})`);
  const worst = st.worst_second_fraction === null ? '' : `; worst second ${Math.round(st.worst_second_fraction * 100)} % of the median, CV ${st.cv}`;
  if (!st.dips.length) return wrapLine(`${head}no dips${worst}`);
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
  const tail = `${several ? ' (some dips: several)' : ''}${host ? `; loader host busy in ${host}` : ''}`;
  const build = (k) => wrapLine(`${start}${parts.slice(0, k).join(', ')}${k < parts.length ? `, ${parts.length - k} more (summary.json)` : ''}${tail}`);
  for (let k = parts.length; k > 1; k--) if (build(k).split('\n').length <= MAX_LINES) return build(k);
  return build(1);
}

// stabilityLines(steps) -> the lines for a run's steps, a run of consecutive steps whose lines
// read the same said once.
function stabilityLines(steps) {
  const groups = [];
  for (const s of steps) {
    const same = stabilityLine('step', s.stability);
    const last = groups.at(-1);
    if (same === null) continue;
    if (last && last.same === same && s.index === last.to + 1) last.to = s.index;
    else groups.push({ same, from: s.index, to: s.index, st: s.stability });
  }
  return groups.map((g) => stabilityLine(g.from === g.to ? g.from : `steps ${g.from}-${g.to}`, g.st));
}

module.exports = { stabilityLine, stabilityLines, MAX_LINES };
