'use strict';
// What a capacity verdict can know (issue 41 item 3, the report's part; report/README.md "What a
// capacity can know"), applied over capacityReport's sections (src/capacity.js, unchanged):
// - A search with host contention (steps[].loader.contention, the flag that excludes throughput
//   steps) in a deciding step leaves the side's samples, counted as
//   "contention in a deciding step", and the verdict is made again without it (capacityVerdict).
// - A capacity is known only to its search's bracket [p, f] (highest passing, lowest failing rate;
//   p x growth where none failed), so the geometric mean of a side's true capacities lies between
//   gm(p) and gm(f), and the ratio A/B's interval is widened to low x gm(p_B)/gm(f_B),
//   high x gm(f_A)/gm(p_A).
const { capacityVerdict } = require('./capacity');
const { median } = require('./stats');
const { fmt } = require('./verdict');

const gm = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
const CONTENTION = 'contention in a deciding step';

// brackets(run) -> { pass, fail, contended }: the search's bracket and whether a deciding step
// (at pass or at fail) shared the host. run: a normalised run (points rate-N carry shared_host).
function brackets(run) {
  const c = run.capacity;
  const pass = c.capacity_ops_per_s;
  const growth = c.search?.growth ?? 2;
  const fail = c.lowest_failing_ops_per_s ?? (pass === null ? null : pass * growth);
  const contendedAt = (rate) => rate !== null && (run.points || []).some((p) => p.name === `rate-${rate}` && (p.shared_host || p.loader_limited));
  return { pass, fail, contended: contendedAt(pass) || contendedAt(c.lowest_failing_ops_per_s ?? null) };
}

// applyCapacityLimits(sections, runs) -> sections with contended searches excluded and every
// rated verdict's interval widened by its sides' brackets (`ci_statistical` keeps the t interval).
function applyCapacityLimits(sections, runs) {
  for (const c of sections) {
    const runsOf = (s) => new Set(s.curve.map((p) => p.run));
    const bySide = c.sides.map((s) => runs.filter((r) => runsOf(s).has(r.dir) && r.capacity));
    c.sides = c.sides.map((s, i) => {
      const usable = [];
      const kept = [...s.samples];
      let contended = 0;
      for (const r of bySide[i]) {
        const b = brackets(r);
        const at = kept.indexOf(b.pass);
        if (at < 0) continue; // not one of the side's samples (excluded for another reason)
        kept.splice(at, 1);
        if (b.contended) contended++;
        else usable.push(b);
      }
      const samples = usable.map((b) => b.pass);
      const excluded = contended ? { ...s.excluded, [CONTENTION]: contended } : s.excluded;
      // the figure the capacity line shows is the statistic the verdict uses: the geometric mean
      return { ...s, samples, median: samples.length ? median(samples) : null, geomean: samples.length ? gm(samples) : null, excluded, brackets: usable };
    });
    const verdicts = [];
    for (let i = 0; i < c.sides.length; i++) for (let j = i + 1; j < c.sides.length; j++) verdicts.push(widen(capacityVerdict(c.sla, c.sides[i], c.sides[j]), c.sides[i], c.sides[j]));
    c.verdicts = verdicts;
  }
  return sections;
}

// widen(v, A, B): the t interval times the sides' bracket factors, faster side first as v reads.
function widen(v, A, B) {
  if (!Array.isArray(v.ci)) return v;
  const [hi, lo] = v.faster === A.engine ? [A, B] : [B, A];
  const up = gm(hi.brackets.map((b) => b.fail)) / gm(hi.brackets.map((b) => b.pass));
  const down = gm(lo.brackets.map((b) => b.pass)) / gm(lo.brackets.map((b) => b.fail));
  const ci = [v.ci[0] * down, v.ci[1] * up];
  const old = `95% CI ${fmt(v.ci[0])}-${fmt(v.ci[1])}`;
  const now = `95% CI ${fmt(ci[0])}-${fmt(ci[1])} with the searches' brackets`;
  // a widened interval that now spans 1.0 is no longer a verdict (src/words.js words it)
  const status = v.status === 'verdict' && ci[0] <= 1 && ci[1] >= 1 ? 'no-difference' : v.status;
  return { ...v, status, ci, ci_statistical: v.ci, resolution: { faster: up, slower: down }, sentence: v.sentence.replace(old, now) };
}

module.exports = { applyCapacityLimits, brackets };
