'use strict';
// Steadiness compared: per experiment, alike set and point (the sets compare.js
// formed), each side's steadiness figures with the report's one verdict (verdict.js verdictOf) on
// the two where higher is steadier, and why the less steady side dropped. The figures and why these two:
// report/README.md, "Steadiness".
const { median } = require('./stats');
const { fmt, verdictOf } = require('./verdict');
const { wrap } = require('../../common/text');
const { groupBy } = require('./group-by');
const { orderGuarded } = require('./drift');
const { keptStep } = require('../../common/step-exclusion');

const FIGURES = {
  worst_second_fraction: 'worst second / median second',
  steady_s_per_min: 'seconds per minute outside dips',
};

// side figures and the verdict per figure (a worst second with no operation is 0: no ratio), each
// verdict through the order guard of every figure that is no step's ops/s (drift.js orderGuarded);
// runsBySide: every run of each side.
function figureOf(key, bySide, point, runsBySide) {
  const sides = {};
  for (const [side, list] of bySide) {
    const vals = list.map((s) => (s ? s[key] : null)).filter((v) => typeof v === 'number');
    sides[side] = { median: median(vals), samples: vals };
  }
  const names = Object.keys(sides);
  const what = `${point} ${FIGURES[key]}`;
  const side = (n) => ({ side: n, samples: sides[n].samples });
  const verdicts = names.flatMap((a, i) => names.slice(i + 1)
    .map((b) => orderGuarded({ point: what, runs: [a, b].map((n) => bySide.get(n).length),
      ...verdictOf(what, side(a), side(b)) }, [a, b], [a, b].map((n) => runsBySide.get(n)))));
  return { what: FIGURES[key], sides, verdicts };
}

// why(list): the causes of a side's dips over its runs, most frequent first.
function why(list) {
  const n = {};
  for (const s of list) for (const [k, v] of Object.entries((s && s.causes) || {})) n[k] = (n[k] || 0) + v;
  return Object.entries(n).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${v} ${k}`);
}

// steadier(point, figures, bySide) -> one sentence when a verdict says one side is steadier on
// either figure and no side both wins and loses; else null (the runs do not show it). With more
// than two sides each figure names the pair it compares: "1.59x" alone would not say of whom.
function steadier(point, figs, bySide) {
  const won = new Map();
  for (const f of Object.values(figs)) {
    for (const v of f.verdicts) {
      if (v.status !== 'verdict') continue;
      const key = `${v.faster}\t${v.slower}\t${f.what}`;
      if (!won.has(key)) won.set(key, { faster: v.faster, slower: v.slower, what: f.what, ratio: fmt(v.ratio), ci: v.ci.map(fmt).join('-') });
    }
  }
  const pairs = [...won.values()];
  const winners = [...new Set(pairs.map((p) => p.faster))];
  const losers = [...new Set(pairs.map((p) => p.slower))];
  if (!pairs.length || winners.some((w) => losers.includes(w))) return null;
  const labelled = bySide.size > 2;
  const evidence = labelled
    ? [...new Set(pairs.map((p) => p.what))].map((what) => `${what}: ${pairs.filter((p) => p.what === what).map((p) => `${p.faster} ${p.ratio}x ${p.slower} (95% CI ${p.ci})`).join(', ')}`).join('; ')
    : pairs.map((p) => `${p.what} ${p.ratio}x, 95% CI ${p.ci}`).join('; ');
  const who = winners.map((w) => `${w} was steadier than ${andList([...new Set(pairs.filter((p) => p.faster === w).map((p) => p.slower))])}`).join('; ');
  const dips = losers.map((l) => [l, why(bySide.get(l) || [])]).filter(([, c]) => c.length).map(([l, c]) => `${l}'s dips: ${c.slice(0, 3).join(', ')}`);
  return `${point}: ${who} (${evidence})${dips.length ? `; ${dips.join('; ')}` : ''}`;
}

const andList = (xs) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

// verdictWords(v): one verdict as the terminal says it, "no difference" rather than "no-difference",
// the steadier side named where there is one.
const verdictWords = (v) => (v.status === 'verdict' ? `${v.faster} ${fmt(v.ratio)}x ${v.slower}` : v.status.replace(/-/g, ' '));

// notShown(p, sides) -> why no side is shown steadier, each verdict under its figure (and its pair
// of sides where there are more than two); one side alone has nothing to be compared with.
function notShown(p, sides) {
  if (sides.length < 2) return `one side only (${sides.join('') || 'none'}): nothing to compare it with`;
  const figs = [p.worst_second_fraction, p.steady_s_per_min].filter((f) => f.verdicts.length);
  // a verdict names its two sides itself ("a 1.20x b"); the others need their pair named
  const pairOf = (v) => (sides.length > 2 && v.status !== 'verdict' && v.sides ? `${v.sides.join(' v ')} ` : '');
  const said = figs.map((f) => `${f.what}: ${f.verdicts.map((v) => `${pairOf(v)}${verdictWords(v)}`).join(', ')}`);
  return `no side shown steadier (${said.join('; ')})`;
}

// steadiness(report, runs) -> [{ experiment, set, points: [{ point, worst_second_fraction,
//   steady_s_per_min, dip_s_per_min (medians per side), steadier }] }]
function steadiness(report, runs) {
  const byDir = new Map(runs.map((r) => [r.dir, r]));
  return (report.experiments || []).flatMap((x) => (x.sets || []).flatMap((set) => {
    const refs = (set.runs || []).map((ref) => [ref, byDir.get(ref.id) || byDir.get(String(ref.id).split(' + ')[0])]).filter(([, r]) => r);
    if (!refs.some(([, r]) => r.points.some((p) => p.stability))) return []; // no run judged its steadiness
    const points = (set.points || []).map((name) => {
      // a step left out (common/step-exclusion.js: the loader the limit, a shared host, ...) is
      // left out of its steadiness as of its throughput
      const stabilityAt = ([, r]) => keptStep(r, name)?.stability ?? null;
      const bySide = groupBy(refs, ([ref]) => ref.side, stabilityAt);
      const runsBySide = groupBy(refs, ([ref]) => ref.side, ([, r]) => r);
      const figs = Object.fromEntries(Object.keys(FIGURES).map((k) => [k, figureOf(k, bySide, name, runsBySide)]));
      const dipMin = Object.fromEntries([...bySide].map(([side, list]) => [side, median(list.filter(Boolean)
        .map((s) => s.dip_s_per_min))]));
      return { point: name, ...figs, dip_s_per_min: dipMin,
        why: Object.fromEntries([...bySide].map(([side, list]) => [side, why(list)])),
        steadier: steadier(name, figs, bySide) };
    });
    return [{ experiment: x.name, set: set.id, points }];
  }));
}

// steadinessText(list) -> the terminal's lines, each within the lab's 120 columns (common/text.js):
// per point a line of the sides' dip seconds, then what the verdicts show, indented under it.
function steadinessText(list) {
  const lines = [];
  for (const s of list) {
    for (const p of s.points) {
      const sides = Object.keys(p.dip_s_per_min);
      lines.push(...wrap(`${s.experiment} set ${s.set} ${p.point}: seconds in dips per minute (median): ${sides.map((k) => `${k} ${p.dip_s_per_min[k] ?? 'n/a'}`).join(', ')}`, { indent: '      ', first: '  ' }));
      // p.steadier opens with the point, said on the line above
      lines.push(...wrap(p.steadier ? p.steadier.slice(p.point.length + 2) : notShown(p, sides), { indent: '      ', first: '    ' }));
    }
  }
  return lines.length ? `\nSteadiness (higher is steadier):\n${lines.join('\n')}\n` : '';
}

// runDips(runs): each run's dips with causes, placed on its timeline's axis (elapsed_s counts
// from the run's start, summary.json started_at), for the appendix timeline's shading.
function runDips(runs) {
  return runs.flatMap((r) => {
    const t0 = Date.parse(r.started_at);
    const at = (iso) => Math.round((Date.parse(iso) - t0) / 100) / 10;
    const dips = r.points.flatMap((p) => (p.stability ? p.stability.dips : [])
      .map((d) => ({ point: p.name, from_s: at(d.start), to_s: at(d.end), depth: d.depth, cause_text: d.cause_text })));
    return dips.length && Number.isFinite(t0) ? [{ run: r.dir, dips }] : [];
  });
}

// withSteadier(report): each summary row of a point whose runs show a steadier side says so
// (row.steadier: the sentence, or null).
function withSteadier(report) {
  for (const row of report.summary || []) {
    const s = (report.steadiness || []).find((x) => x.experiment === row.experiment && x.set === row.set);
    const p = s && s.points.find((x) => x.point === row.point);
    row.steadier = p ? p.steadier : null;
  }
}

module.exports = { steadiness, steadinessText, runDips, withSteadier };
