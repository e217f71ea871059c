'use strict';
// What a capacity verdict can know (the report's part; report/README.md "What a
// capacity can know"), applied over capacityReport's sections and verdicts (src/capacity.js):
// a capacity is known only to its search's bracket [p, f] (highest passing, lowest failing rate;
// p x growth where none failed), so the geometric mean of a side's true capacities lies between
// gm(p) and gm(f), and the ratio A/B's interval is widened to low x gm(p_B)/gm(f_B),
// high x gm(f_A)/gm(p_A).
// Which searches the host may have limited is the loader's rule alone (loader/src/experiment/sla.js
// hostCaveat: a failing step that shared the host; a step that passed on a busy host passed
// anyway), applied in src/capacity.js (HOST_LIMITED). A second rule here also left out searches
// whose passing step was contended: the report then dropped a capacity the loader printed as
// clean (report/test/agreement.test.js failed on a busy CI host).
const { ciText, spansOne } = require('./verdict');
const { sig } = require('./stats');

const gm = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

// brackets(run) -> { pass, fail }: the search's bracket. run: a normalised run.
function brackets(run) {
  const c = run.capacity;
  const pass = c.capacity_ops_per_s;
  const growth = c.search?.growth ?? 2;
  const fail = c.lowest_failing_ops_per_s ?? (pass === null ? null : pass * growth);
  return { pass, fail };
}

// applyCapacityLimits(sections, runs) -> sections with each side's brackets and geometric mean,
// and every rated verdict's interval widened by its sides' brackets (`ci_statistical` keeps the
// t interval).
function applyCapacityLimits(sections, runs) {
  for (const c of sections) {
    c.sides = c.sides.map((s) => {
      // the brackets of the side's samples, in their order (src/capacity.js side: sample_runs)
      const usable = s.sample_runs.map((dir) => brackets(runs.find((r) => r.dir === dir)));
      // the figure the capacity line shows is the statistic the verdict uses: the geometric mean;
      // its interval widened as the verdicts' are: the true capacities lie within their searches'
      // brackets, so their geometric mean at most gm(f) / gm(p) above the passing rates'
      const iv = s.interval && s.interval.low !== null
        ? { ...s.interval, low: sig(s.interval.low),
          high: sig(s.interval.high * gm(usable.map((b) => b.fail)) / gm(usable.map((b) => b.pass))),
          low_statistical: s.interval.low, high_statistical: s.interval.high }
        : s.interval;
      return { ...s, geomean: s.samples.length ? sig(gm(s.samples)) : null, brackets: usable, interval: iv };
    });
    // capacityReport's verdicts stand (the samples are the same); each is only widened
    const sideOf = (name) => c.sides.find((s) => s.side === name);
    c.verdicts = c.verdicts.map((v) => widen(v, sideOf(v.sides[0]), sideOf(v.sides[1])));
  }
  return sections;
}

// widen(v, A, B): the t interval times the sides' bracket factors, faster side first as v reads.
function widen(v, A, B) {
  if (!Array.isArray(v.ci)) return v;
  const [hi, lo] = v.faster === A.side ? [A, B] : [B, A];
  const up = gm(hi.brackets.map((b) => b.fail)) / gm(hi.brackets.map((b) => b.pass));
  const down = gm(lo.brackets.map((b) => b.pass)) / gm(lo.brackets.map((b) => b.fail));
  // stored to 6 significant digits: exact factors multiply to 2.0000000000000004
  const ci = [sig(v.ci[0] * down), sig(v.ci[1] * up)];
  const old = ciText(v.ci[0], v.ci[1]);
  const now = `${ciText(ci[0], ci[1])} with the searches' brackets`;
  // a widened interval that now spans 1.0 is no longer a verdict (src/words.js words it)
  const status = v.status === 'verdict' && spansOne(ci[0], ci[1]) ? 'no-difference' : v.status;
  return { ...v, status, ci, ci_statistical: v.ci, resolution: { faster: sig(up), slower: sig(down) },
    sentence: v.sentence.replace(old, now) };
}

module.exports = { applyCapacityLimits, brackets };
