'use strict';
// The seeds' findings, reproduced or not (issue 42): each claim of report/claims.json tested on
// the runs at hand. A claim names its comparison (test.kind); ratios go through compare.js's own
// aggregate() and verdict() (the report's one ratio-and-interval rule: geometric means, Welch's t
// at 95%, the same exclusions), and only then is the claim judged: reproduced, contradicted,
// inconclusive, or not comparable with what is missing. Runs are taken only from one set of alike
// runs (compare.js setKey), as every other verdict of the report.
const fs = require('node:fs');
const path = require('node:path');
const { aggregate, verdict, setKey } = require('./compare');
const { mergeGroups } = require('./merge');
const { fingerprint } = require('./params');
const { dimensionValue } = require('./identity');
const { fmt: f2 } = require('./verdict'); // ratios as every verdict prints them

const CLAIMS_FILE = path.join(__dirname, '..', 'claims.json');
const loadClaims = (file = CLAIMS_FILE) => JSON.parse(fs.readFileSync(file, 'utf8')).claims;

const getPath = (o, p) => p.split('.').reduce((a, k) => (a && typeof a === 'object' ? a[k] : undefined), o);

// The value of run r along a claim's dimension: the engine, a label, or where the journal lives
// (summary.json storage.journal_path, issue 42 item 3).
function sideOf(r, dim) {
  if (dim === 'journal_path') return r.record?.storage?.journal_path ? 'journal apart' : 'journal with data';
  if (dim === 'engine') return dimensionValue(r, 'engine');
  return r.labels[dim] ?? null;
}

// sets(results, experiment, dim) -> [{ runs, sides: Map(value -> runs) }], most runs first.
function sets(results, experiment, dim) {
  const key = dim === 'journal_path' ? 'engine' : dim;
  const by = new Map();
  for (const r of results.filter((x) => x.experiment === experiment && x.complete)) {
    const v = sideOf(r, dim);
    if (v === null) continue;
    // journal_path: both sides on one engine label, so the engine stays part of the set
    const k = fingerprint({ ...setKey(r, key), ...(dim === 'journal_path' ? { engine: r.engine } : {}) });
    if (!by.has(k)) by.set(k, { runs: [], sides: new Map() });
    const s = by.get(k);
    s.runs.push(r);
    if (!s.sides.has(v)) s.sides.set(v, []);
    s.sides.get(v).push(r);
  }
  return [...by.values()].sort((a, b) => b.runs.length - a.runs.length);
}

// What differs from the seed's setup: the engine line, the hardware and the scale of these runs.
function differs(claim, runs) {
  const seen = (xs) => [...new Set(xs)].join(', ');
  const lines = seen(runs.map((r) => `${dimensionValue(r, 'engine')} on ${r.identity.server.process ?? 'server'} ${r.identity.server.version ?? '?'}`));
  const hw = seen(runs.map((r) => `${r.description.host_cpus} CPUs${r.profile ? `, profile ${r.profile}` : ''}`));
  const sc = claim.seed_setup?.scale;
  const scale = sc ? seen(runs.map((r) => String(getPath(r.parameters, sc.parameter) ?? 'not recorded'))) : null;
  const out = [`engine line: ${lines || 'no runs'} (seed: ${claim.seed_setup?.engines ?? '?'})`, `hardware: ${hw || '-'} (seed: ${claim.seed_setup?.hardware ?? '?'})`];
  if (sc) out.push(`scale: ${scale} ${sc.unit} (seed: ${sc.value.toLocaleString('en-US')})`);
  return out.join('; ');
}

const row = (claim, status, fields) => ({
  id: claim.id, seed: claim.seed, words: claim.words, published: claim.published.text, status,
  side: null, lab: null, ratio: null, ci: null, why: '', missing: null, differs: null, ...fields,
});

function notComparable(claim, what) {
  return row(claim, 'not comparable', { missing: `needs ${what}`, why: `needs ${what}; runs: ${claim.needs.filter((n) => n.startsWith('./run.sh')).join(' ; ')}` });
}

// Orient a report verdict as a / b (verdict() puts the faster side first).
function oriented(v, a) {
  if (!v.ci) return null;
  return v.faster === a ? { ratio: v.ratio, ci: v.ci } : { ratio: 1 / v.ratio, ci: [1 / v.ci[1], 1 / v.ci[0]] };
}

// judge(o, when, published): the claim's rule on an oriented ratio and its interval.
function judge(o, when, published) {
  const [lo, hi] = o.ci;
  const range = published?.range ?? (typeof published?.ratio === 'number' ? [published.ratio, published.ratio] : null);
  const meets = range ? lo <= range[1] && hi >= range[0] : null;
  const pubText = range ? `published ${range[0] === range[1] ? f2(range[0]) : `${f2(range[0])}-${f2(range[1])}`} ${meets ? 'inside' : 'outside'} the interval` : '';
  if (when.expect === 'equal') {
    const band = [1 / (1 + when.equal_within), 1 + when.equal_within];
    if (lo >= band[0] && hi <= band[1]) return { status: 'reproduced', why: `within ${f2(band[0])}-${f2(band[1])}` };
    if (lo > band[1] || hi < band[0]) return { status: 'contradicted', why: `the interval lies outside ${f2(band[0])}-${f2(band[1])}: not about equal` };
    return { status: 'inconclusive', why: `the interval reaches beyond ${f2(band[0])}-${f2(band[1])}: more runs (--repeat) narrow it` };
  }
  const up = when.expect === 'higher';
  const holds = up ? lo > 1 : hi < 1;
  const reversed = up ? hi < 1 : lo > 1;
  if (reversed) return { status: 'contradicted', why: `the other way round (interval clear of 1.0)${pubText ? `; ${pubText}` : ''}` };
  if (!holds) return { status: 'inconclusive', why: `the interval spans 1.0: no difference shown${pubText ? `; ${pubText}` : ''}` };
  if (when.contains_published && !meets) return { status: 'contradicted', why: `the direction holds but not the size: ${pubText}` };
  return { status: 'reproduced', why: `${up ? 'higher' : 'lower'}, interval clear of 1.0${pubText ? `; ${pubText}` : ''}` };
}

const labText = (o, v) => `${f2(o.ratio)}x (95% CI ${f2(o.ci[0])}-${f2(o.ci[1])}, ${v.usable.join(' and ')} runs)`;

// A run-level number (footprint.bytes_per_doc) as an aggregate verdict() reads: one sample a run.
function runAggregate(runs, side, metric) {
  const pick = (r) => {
    const v = getPath(r.record, metric);
    return typeof v === 'number' ? v : typeof v?.on_disk === 'number' ? v.on_disk : null;
  };
  const xs = runs.map(pick).filter((x) => typeof x === 'number' && x > 0);
  // runs without the field simply give no sample (verdict() then says how many were usable)
  return { engine: side, runs: runs.length, excluded: {}, verdict_samples: xs };
}

// The point of a side with the highest geometric mean of its usable samples (the seed's "max").
// Where no step has a usable run, the step with the highest median still stands for the side, so
// that verdict() says why the runs were excluded instead of the claim reading "not run".
function peak(runs, side) {
  const names = [...new Set(runs.flatMap((r) => r.points.map((p) => p.name)))];
  const aggs = names.map((n) => aggregate(runs, n, side)).filter(Boolean);
  const geo = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
  const usable = aggs.filter((a) => a.verdict_samples.length);
  const score = usable.length ? (a) => geo(a.verdict_samples) : (a) => a.ops_per_s.median ?? 0;
  return (usable.length ? usable : aggs).reduce((best, a) => (!best || score(a) > score(best) ? a : best), null);
}

function evalRatio(claim, results) {
  const t = claim.test;
  const record = t.metric.startsWith('footprint');
  if (record && !results.some((r) => r.experiment === t.experiment && r.record?.footprint)) return [notComparable(claim, t.record)];
  if (t.dimension === 'journal_path' && !results.some((r) => r.experiment === t.experiment && r.record?.storage?.journal_path)) return [notComparable(claim, t.record)];
  const s = sets(results, t.experiment, t.dimension).find((x) => x.sides.has(t.numerator) && x.sides.has(t.denominator));
  if (!s) {
    const have = [...new Set(sets(results, t.experiment, t.dimension).flatMap((x) => [...x.sides.keys()]))];
    return [notComparable(claim, `runs of ${t.experiment} on ${t.numerator} and ${t.denominator}${have.length ? ` alike (have: ${have.join(', ')})` : ''}`)];
  }
  const na = s.sides.get(t.numerator);
  const nb = s.sides.get(t.denominator);
  let A;
  let B;
  if (record) [A, B] = [runAggregate(na, t.numerator, t.metric), runAggregate(nb, t.denominator, t.metric)];
  else if (t.point === 'peak') [A, B] = [peak(na, t.numerator), peak(nb, t.denominator)];
  else [A, B] = [aggregate(na, t.point, t.numerator), aggregate(nb, t.point, t.denominator)];
  const diff = differs(claim, [...na, ...nb]);
  if (!A || !B) return [row(claim, 'not comparable', { missing: `needs ${t.point} measured on both`, why: `no usable ${t.point} on ${!A ? t.numerator : t.denominator}`, differs: diff })];
  const where = t.point === 'peak' ? `peak ${A.point} vs ${B.point}` : t.point ?? t.metric;
  const v = verdict(where, A, B);
  const o = oriented(v, t.numerator);
  if (!o) return [row(claim, 'inconclusive', { lab: `no interval (${v.usable.join(' and ')} usable runs)`, why: v.sentence, differs: diff })];
  const j = judge(o, claim.reproduced_when, claim.published);
  return [row(claim, j.status, { lab: `${labText(o, v)} ${where}`, ratio: o.ratio, ci: o.ci, why: j.why, differs: diff })];
}

// cost and ordering: cases of one side compared with each other through verdict().
const caseAgg = (runs, name) => {
  const a = aggregate(runs, name, name);
  return a ? { ...a, engine: name } : null;
};

// perSide(claim, results, fn, points): fn on each side's runs from one set of alike runs: the set
// whose runs hold most of the claim's points (a writeconcern run of one case does not stand in
// for the whole ordering), then the one with the most runs.
function perSide(claim, results, fn, points = []) {
  const t = claim.test;
  const all = sets(results, t.experiment, t.dimension);
  if (!all.length) return [notComparable(claim, `runs of ${t.experiment}`)];
  const held = (runs) => points.filter((p) => runs.some((r) => r.points.some((x) => x.name === p))).length;
  const bySide = new Map();
  for (const s of all) {
    for (const [side, runs] of s.sides) {
      const best = bySide.get(side);
      if (!best || held(runs) > held(best) || (held(runs) === held(best) && runs.length > best.length)) bySide.set(side, runs);
    }
  }
  return [...bySide].map(([side, runs]) => ({ ...fn(side, runs), side, differs: differs(claim, runs) }));
}

function evalCost(claim, results) {
  const t = claim.test;
  return perSide(claim, results, (side, runs) => {
    const A = caseAgg(runs, t.case);
    const B = caseAgg(runs, t.baseline);
    if (!A || !B) return row(claim, 'not comparable', { missing: `needs cases ${t.case} and ${t.baseline}` });
    const v = verdict(`${t.case} vs ${t.baseline}`, A, B);
    const o = oriented(v, t.case);
    if (!o) return row(claim, 'inconclusive', { lab: `no interval (${v.usable.join(' and ')} usable runs)`, why: v.sentence });
    const j = judge(o, claim.reproduced_when, claim.published);
    return row(claim, j.status, { lab: `${labText(o, v)} ${t.case}/${t.baseline}`, ratio: o.ratio, ci: o.ci, why: j.why });
  }, [t.case, t.baseline]);
}

function evalOrdering(claim, results) {
  const t = claim.test;
  const tie = (a, b) => (t.may_tie || []).some(([x, y]) => x === a && y === b);
  return perSide(claim, results, (side, runs) => {
    const pairs = [];
    for (let i = 0; i + 1 < t.cases.length; i++) {
      const [a, b] = [t.cases[i], t.cases[i + 1]];
      const A = caseAgg(runs, a);
      const B = caseAgg(runs, b);
      if (!A || !B) { pairs.push({ a, b, state: 'missing' }); continue; }
      const v = verdict(`${a} vs ${b}`, A, B);
      const o = oriented(v, a);
      if (!o) { pairs.push({ a, b, state: 'unmeasured', why: v.sentence }); continue; }
      const state = o.ci[0] > 1 ? 'ordered' : o.ci[1] < 1 ? 'reversed' : tie(a, b) ? 'tie-allowed' : 'no-difference';
      pairs.push({ a, b, state, ratio: o.ratio, ci: o.ci });
    }
    const fig = pairs.map((p) => `${p.a}/${p.b} ${p.ratio ? f2(p.ratio) : p.state === 'missing' ? 'not run' : 'n/a'}`).join(', ');
    const of = (st) => pairs.filter((p) => p.state === st).map((p) => `${p.a}/${p.b}`);
    const count = `${of('ordered').length} of ${pairs.length} steps slower as durability rises`;
    const lab = `${count} (ops/s ratios: ${fig})`;
    if (of('reversed').length) return row(claim, 'contradicted', { lab, pairs, why: `reversed: ${of('reversed').join(', ')} (interval clear of 1.0)` });
    const open = [...of('no-difference'), ...of('unmeasured'), ...of('missing')];
    if (!open.length) return row(claim, 'reproduced', { lab, pairs, why: `every step ordered${of('tie-allowed').length ? `; ${of('tie-allowed').join(', ')} tie as they may here` : ''}` });
    const why = [of('no-difference').length ? `no difference shown: ${of('no-difference').join(', ')}` : '', of('unmeasured').length ? `not measurable (excluded or too few runs): ${of('unmeasured').join(', ')}` : '', of('missing').length ? `not run: ${of('missing').join(', ')}` : ''].filter(Boolean).join('; ');
    return row(claim, 'inconclusive', { lab, pairs, why });
  }, t.cases);
}

function evalKnee(claim, results) {
  return perSide(claim, results, (side, runs) => {
    const names = [...new Set(runs.flatMap((r) => r.points.map((p) => p.name)))];
    const steps = names.map((n) => aggregate(runs, n, n)).filter((a) => a && typeof a.clients === 'number').sort((x, y) => x.clients - y.clients);
    if (steps.length < 3) return row(claim, 'not comparable', { missing: `needs a sweep of at least 3 steps (have ${steps.length})` });
    const rises = [];
    for (let i = 0; i + 1 < steps.length; i++) {
      const v = verdict(`${steps[i + 1].point} vs ${steps[i].point}`, { ...steps[i + 1], engine: steps[i + 1].point }, { ...steps[i], engine: steps[i].point });
      const o = oriented(v, steps[i + 1].point);
      rises.push(o ? (o.ci[0] > 1 ? 'up' : o.ci[1] < 1 ? 'down' : 'flat') : 'n/a');
    }
    const seq = steps.map((s, i) => `${s.clients}${i < rises.length ? ` ${{ up: '<', down: '>', flat: '=', 'n/a': '?' }[rises[i]]} ` : ''}`).join('');
    const lab = `${seq} (ops/s step to step; < significant climb)`;
    if (rises.includes('n/a')) return row(claim, 'inconclusive', { lab, why: 'some steps have fewer than 2 usable runs (--repeat)' });
    const lastUp = rises.lastIndexOf('up');
    if (lastUp === -1) return row(claim, 'contradicted', { lab, why: 'no significant climb from the first step: no sweet spot to find' });
    if (lastUp === rises.length - 1) return row(claim, 'inconclusive', { lab, why: `still climbing at ${steps[steps.length - 1].clients} clients: no knee within the sweep (extend --threads)` });
    const knee = steps[lastUp + 1].clients;
    return row(claim, 'reproduced', { lab: `knee at ${knee}: ${lab}`, knee, why: `climbs to ${knee} clients, no significant climb beyond (published ${claim.published.knee.join(' / ')}; the knee moves with the hardware)` });
  });
}

function evalLabels(claim, results) {
  const t = claim.test;
  const s = sets(results, t.experiment, t.label).find((x) => x.sides.size >= 2);
  if (!s) return [notComparable(claim, `${t.experiment} runs labelled with at least two values of --label ${t.label}=...`)];
  const sides = [...s.sides.keys()].sort();
  const found = [];
  for (let i = 0; i < sides.length; i++) {
    for (let j = i + 1; j < sides.length; j++) {
      const A = aggregate(s.sides.get(sides[i]), t.point, sides[i]);
      const B = aggregate(s.sides.get(sides[j]), t.point, sides[j]);
      if (!A || !B) continue;
      const v = verdict(t.point, A, B);
      if (v.ci) found.push({ v, o: oriented(v, v.faster) });
    }
  }
  const diff = differs(claim, s.runs);
  if (!found.length) return [row(claim, 'inconclusive', { lab: 'no interval', why: 'too few usable runs per label (--repeat)', differs: diff })];
  const top = found.sort((x, y) => y.o.ratio - x.o.ratio)[0];
  const lab = `${top.v.faster}/${top.v.slower} ${labText(top.o, top.v)}`;
  if (found.some((x) => x.o.ci[0] > 1)) return [row(claim, 'reproduced', { lab, ratio: top.o.ratio, ci: top.o.ci, why: `${t.label} labels differ (interval clear of 1.0)`, differs: diff })];
  if (found.every((x) => x.o.ci[0] >= 1 / 1.1 && x.o.ci[1] <= 1.1)) return [row(claim, 'contradicted', { lab, ratio: top.o.ratio, ci: top.o.ci, why: `every pair of ${t.label} labels within 10%`, differs: diff })];
  return [row(claim, 'inconclusive', { lab, ratio: top.o.ratio, ci: top.o.ci, why: 'no difference shown, none ruled out', differs: diff })];
}

// dips (issue 40's steps[].stability.dips[].causes) and replication (issue 39's steps[].replication).
function evalDips(claim, results) {
  const t = claim.test;
  const runs = results.filter((r) => r.experiment === t.experiment && r.complete);
  if (!runs.some((r) => r.points.some((p) => p.stability))) return [notComparable(claim, t.record)];
  const out = [];
  for (const [side, cause] of Object.entries(t.sides)) {
    const mine = runs.filter((r) => sideOf(r, t.dimension) === side);
    const dips = mine.flatMap((r) => r.points.flatMap((p) => p.stability?.dips || []));
    const hit = dips.filter((d) => (d.causes || []).some((c) => new RegExp(cause, 'i').test(typeof c === 'string' ? c : [c.cause, c.rule, c.says].filter(Boolean).join(' ')))).length;
    const lab = `${dips.length} dip(s) in ${mine.length} run(s), ${hit} during a ${cause}`;
    let status;
    let why;
    if (!mine.length) [status, why] = ['not comparable', `needs runs of ${t.experiment} on ${side}`];
    else if (!dips.length) [status, why] = ['inconclusive', 'no dips recorded'];
    else if (hit * 2 >= dips.length) [status, why] = ['reproduced', `most dips during a ${cause}`];
    else if (hit === 0) [status, why] = ['contradicted', `no dip during a ${cause}`];
    else [status, why] = ['inconclusive', `fewer than half the dips during a ${cause}`];
    out.push(row(claim, status, { side, lab, why, ...(status === 'not comparable' ? { missing: why } : {}), differs: differs(claim, mine) }));
  }
  return out;
}

function evalReplication(claim, results) {
  const t = claim.test;
  const runs = results.filter((r) => r.experiment === t.experiment && r.complete);
  if (!runs.some((r) => r.points.some((p) => p.replication))) return [notComparable(claim, t.record)];
  const flaggedRuns = (side) => {
    const mine = runs.filter((r) => sideOf(r, t.dimension) === side && r.points.some((p) => p.replication));
    return { n: mine.length, flagged: mine.filter((r) => r.points.some((p) => p.replication?.flagged)).length, runs: mine };
  };
  const a = flaggedRuns(t.flagged);
  const b = flaggedRuns(t.steady);
  const lab = `${t.flagged} flagged in ${a.flagged}/${a.n} run(s), ${t.steady} in ${b.flagged}/${b.n}`;
  const diff = differs(claim, [...a.runs, ...b.runs]);
  if (!a.n || !b.n) return [row(claim, 'not comparable', { lab, missing: `needs runs of ${t.experiment} on ${!a.n ? t.flagged : t.steady} with the record`, why: `needs runs of ${t.experiment} on both; runs: ${claim.needs.filter((n) => n.startsWith('./run.sh')).join(' ; ')}`, differs: diff })];
  if (a.flagged && !b.flagged) return [row(claim, 'reproduced', { lab, why: `${t.flagged}'s secondaries fell behind, ${t.steady}'s kept up`, differs: diff })];
  if (!a.flagged) return [row(claim, 'contradicted', { lab, why: `${t.flagged}'s secondaries kept up`, differs: diff })];
  return [row(claim, 'inconclusive', { lab, why: 'both fell behind', differs: diff })];
}

const KINDS = { ratio: evalRatio, cost: evalCost, ordering: evalOrdering, knee: evalKnee, labels: evalLabels, dips: evalDips, replication: evalReplication };

// claimsReport(runs, claims) -> rows (report.json `claims`), one per claim and side it was tested on.
function claimsReport(runs, claims = loadClaims()) {
  const { results } = mergeGroups(runs);
  return claims.flatMap((c) => {
    const fn = KINDS[c.test.kind];
    if (!fn) return [row(c, 'not comparable', { missing: `a test of kind ${c.test.kind}`, why: `claims.json: unknown test.kind '${c.test.kind}' (${Object.keys(KINDS).join(', ')})` })];
    // Runs that ended early never count (as in every verdict), but they are not "no runs": say so.
    const incomplete = results.filter((r) => r.experiment === c.test.experiment && !r.complete).length;
    return fn(c, results).map((r) => (r.status === 'not comparable' && incomplete ? { ...r, why: `${r.why} (${incomplete} incomplete run(s) of ${c.test.experiment} not counted)` } : r));
  });
}

module.exports = { claimsReport, loadClaims, judge, KINDS };
