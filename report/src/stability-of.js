'use strict';
// A point's steadiness as the report reads it from summary.json steps[].stability (the loader's
// loader/src/stability/): worst second / median, seconds in dips per minute (and outside them,
// the figure a ratio can take), each dip with its causes, and the causes counted. null where the
// step has no stability (an older run) or did not judge its dips (too few seconds or operations).
function stabilityOf(e) {
  const st = e && e.stability;
  if (!st || !st.dips || !st.seconds) return null;
  const perMin = Math.round((st.dip_seconds / st.seconds) * 60 * 10) / 10;
  const causes = {};
  for (const d of st.dips) for (const c of d.causes && d.causes.length ? d.causes : [{ says: 'with no server event recorded' }]) causes[c.says] = (causes[c.says] || 0) + 1;
  return {
    // the seconds judged: a claim about a periodic cause needs a record at least one period long
    seconds: st.seconds,
    worst_second_fraction: st.worst_second_fraction,
    dip_s_per_min: perMin,
    steady_s_per_min: Math.round((60 - perMin) * 10) / 10,
    dips: st.dips.map((d) => ({ start: d.start, end: d.end, length_s: d.length_s, depth: d.depth,
      cause_text: d.cause_text, causes: d.causes || [] })),
    causes,
  };
}

module.exports = { stabilityOf };
