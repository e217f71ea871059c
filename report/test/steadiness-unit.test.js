'use strict';
// src/steadiness.js and src/stability-of.js on hand-made runs: per side the
// seconds in dips per minute and the worst second, compare.js's verdict on them (higher is
// steadier), the steadier side said with the causes of the other's dips, and each run's dips
// kept for the appendix's shading.
const test = require('node:test');
const assert = require('node:assert/strict');
const { steadiness, steadinessText, runDips, withSteadier } = require('../src/steadiness');
const { stabilityOf } = require('../src/stability-of');

const dip = (cause) => ({ start: '2026-11-26T12:00:10Z', end: '2026-11-26T12:00:11Z', length_s: 1, depth: 0.1, causes: cause ? [{ id: 'checkpoint', says: cause }] : [], cause_text: cause || 'no server event recorded' });
// step(worst, dipS, causes): a 60 s step with dipS seconds in dips.
const step = (worst, dipS, cause) => ({ stability: { seconds: 60, worst_second_fraction: worst, dip_seconds: dipS,
  dips: Array.from({ length: dipS }, () => dip(cause)) } });
const run = (dir, side, e) => ({ dir, engine: side, started_at: '2026-11-26T12:00:00Z', points: [{ name: 'clients-1', complete: true, stability: stabilityOf(e) }] });

const runs = [
  run('a1', 'toku', step(0.82, 0)), run('a2', 'toku', step(0.85, 0)), run('a3', 'toku', step(0.8, 0)),
  run('b1', 'mmap', step(0.1, 6, 'during an MMAPv1 background flush')), run('b2', 'mmap', step(0.15, 5, 'during an MMAPv1 background flush')), run('b3', 'mmap', step(0.12, 6)),
];
const report = { experiments: [{ name: 'experiment1', sets: [{ id: 1, points: ['clients-1'], runs: runs.map((r) => ({ id: r.dir, side: r.engine })) }] }], summary: [{ experiment: 'experiment1', set: 1, point: 'clients-1' }] };

test('stabilityOf: seconds in dips per minute, outside them, and the causes counted; null where dips were not judged', () => {
  const s = stabilityOf(step(0.1, 6, 'during a checkpoint'));
  assert.equal(s.dip_s_per_min, 6);
  assert.equal(s.steady_s_per_min, 54);
  assert.deepEqual(s.causes, { 'during a checkpoint': 6 });
  assert.deepEqual(stabilityOf(step(0.1, 1)).causes, { 'with no server event recorded': 1 });
  assert.equal(stabilityOf({ stability: { seconds: 3, dips: null } }), null);
  assert.equal(stabilityOf({}), null);
});

test('the steadier side by compare.js verdict on both figures, and why the other dropped', () => {
  const [s] = steadiness(report, runs);
  const [p] = s.points;
  assert.deepEqual(p.dip_s_per_min, { toku: 0, mmap: 6 });
  const v = p.worst_second_fraction.verdicts[0];
  assert.equal(v.status, 'verdict');
  assert.equal(v.faster, 'toku');
  assert.ok(v.ratio > 5 && v.ci[0] > 1, JSON.stringify(v));
  assert.equal(p.steady_s_per_min.verdicts[0].faster, 'toku');
  assert.match(p.steadier, /^clients-1: toku was steadier than mmap \(worst second \/ median second [\d.]+x, 95% CI [\d.]+-[\d.]+; seconds per minute outside dips 1\.\d\dx, 95% CI [\d.]+-[\d.]+\); mmap's dips: 11 during an MMAPv1 background flush, 6 with no server event recorded$/);
  withSteadier({ ...report, steadiness: [s] });
  assert.equal(report.summary[0].steadier, p.steadier);
  assert.match(steadinessText([s]), /experiment1 set 1 clients-1: seconds in dips per minute \(median\): toku 0, mmap 6/);
  assert.deepEqual(runDips(runs).map((d) => [d.run, d.dips.length]), [['b1', 6], ['b2', 5], ['b3', 6]]);
  assert.deepEqual(runDips(runs)[0].dips[0], { point: 'clients-1', from_s: 10, to_s: 11, depth: 0.1, cause_text: 'during an MMAPv1 background flush' });
});

// The guards every verdict of the report passes: a step left out (common/step-exclusion.js) is
// no sample of its steadiness, and two sides that ran one after the other get no verdict.
test('steadiness verdicts: left-out steps are no samples; sides not interleaved give no verdict', () => {
  const at = (r, minute) => ({ ...r, started_at: `2026-11-26T12:${String(minute).padStart(2, '0')}:00Z` });
  const leftOut = (r) => ({ ...r, points: r.points.map((p) => ({ ...p, loader_limited: true })) });
  const setOf = (rs) => ({ experiments: [{ name: 'experiment1', sets: [{ id: 1, points: ['clients-1'], runs: rs.map((r) => ({ id: r.dir, side: r.engine })) }] }] });
  // every mmap step the loader's limit: no mmap sample, no verdict, no steadier side
  const limited = runs.map((r) => (r.engine === 'mmap' ? leftOut(r) : r));
  const [s] = steadiness(setOf(limited), limited);
  assert.deepEqual(s.points[0].worst_second_fraction.sides.mmap.samples, []);
  assert.equal(s.points[0].worst_second_fraction.verdicts[0].status, 'no-verdict');
  assert.equal(s.points[0].steadier, null);
  // nor dips per minute, nor their causes: not judged, said so
  assert.equal(s.points[0].dip_s_per_min.mmap, null);
  assert.deepEqual(s.points[0].why.mmap, []);
  assert.match(steadinessText([s]), /seconds in dips per minute \(median\): toku 0, mmap n\/a/);
  // every toku run before every mmap run: not interleaved, the ratio kept, no steadier side
  const sequential = runs.map((r, i) => at(r, i));
  const [q] = steadiness(setOf(sequential), sequential);
  const v = q.points[0].worst_second_fraction.verdicts[0];
  assert.equal(v.status, 'not-interleaved', v.sentence);
  assert.equal(v.verdict_if_interleaved, 'verdict');
  assert.match(v.sentence, /^clients-1 worst second \/ median second: no verdict: toku ran before mmap \(ratio toku\/mmap [\d.]+, not interleaved/);
  assert.equal(q.points[0].steadier, null);
  // interleaved (toku, mmap, toku, ...): the verdict stands
  const mixed = [0, 3, 1, 4, 2, 5].map((i, k) => at(runs[i], k));
  assert.equal(steadiness(setOf(mixed), mixed)[0].points[0].worst_second_fraction.verdicts[0].status, 'verdict');
});

test('no steadier side when the intervals span 1 or a side has one run', () => {
  const alike = [run('a1', 'x', step(0.5, 2)), run('a2', 'x', step(0.6, 3)), run('b1', 'y', step(0.55, 2)), run('b2', 'y', step(0.62, 3))];
  const rep = { experiments: [{ name: 'e', sets: [{ id: 1, points: ['clients-1'], runs: alike.map((r) => ({ id: r.dir, side: r.engine })) }] }] };
  const [s] = steadiness(rep, alike);
  assert.equal(s.points[0].steadier, null);
  // each verdict under the figure it is about, in words
  assert.match(steadinessText([s]), /^ {4}no side shown steadier \(worst second \/ median second: no difference; seconds per minute outside dips: no difference\)$/m);
  const one = [run('a1', 'x', step(0.9, 0)), run('b1', 'y', step(0.1, 9))];
  const [s1] = steadiness({ experiments: [{ name: 'e', sets: [{ id: 1, points: ['clients-1'], runs: one.map((r) => ({ id: r.dir, side: r.engine })) }] }] }, one);
  assert.equal(s1.points[0].steadier, null);
  assert.equal(s1.points[0].worst_second_fraction.verdicts[0].status, 'no-verdict');
  assert.match(steadinessText([s1]), /^ {4}no side shown steadier \(worst second \/ median second: no verdict; seconds per minute outside dips: no verdict\)$/m);
  // A worst second with no operation: no ratio (log 0), said so, never NaN.
  const zero = [run('a1', 'x', step(0.9, 0)), run('a2', 'x', step(0.8, 0)), run('b1', 'y', step(0, 9)), run('b2', 'y', step(0.1, 9))];
  const [s0] = steadiness({ experiments: [{ name: 'e', sets: [{ id: 1, points: ['clients-1'], runs: zero.map((r) => ({ id: r.dir, side: r.engine })) }] }] }, zero);
  assert.match(s0.points[0].worst_second_fraction.verdicts[0].sentence, /no verdict possible between x and y \(a ratio needs values above 0/);
});

// The terminal's steadiness lines reached 487 columns: four sides with long names, each figure's
// verdicts unlabelled (three "1.59x" of different pairs, none saying whose), and a set of one side
// printed "no side shown steadier ()".
test('steadiness lines: within 120 columns, each verdict naming its pair of sides, one side said so', () => {
  const names = ['wiredtiger-7.0.14-zstd-journal', 'inmemory-7.0.14-standalone', 'ferretdb-sqlite-1.24.2', 'ferretdb-postgresql-1.24.2'];
  const cause = 'during a WiredTiger checkpoint (wt.checkpoint_running 1 and the dirty cache above its eviction trigger)';
  const four = names.flatMap((n, k) => [0, 1, 2].map((i) => run(`${n}-${i}`, n, step(0.5 + 0.01 * i + (k ? 0 : 0.3), 2 + i + (k ? 5 : 0), cause))));
  const rep = (rs) => ({ experiments: [{ name: 'experiment2-readmostly-with-a-long-name', sets: [{ id: 1, points: ['clients-1'], runs: rs.map((r) => ({ id: r.dir, side: r.engine })) }] }] });
  const text = steadinessText(steadiness(rep(four), four));
  const lines = text.split('\n');
  assert.deepEqual(lines.filter((l) => l.length > 120), []);
  const flat = text.replace(/\n {6}/g, ' ');
  assert.ok(flat.includes(`${names[0]} was steadier than ${names[1]}, ${names[2]} and ${names[3]} (worst second / median second: ${names[0]} `), flat);
  for (const n of names.slice(1)) assert.match(flat, new RegExp(`${names[0]} [\\d.]+x ${n} \\(95% CI [\\d.]+-[\\d.]+\\)`));
  assert.ok(flat.includes(`${names[1]}'s dips: 24 ${cause}`), flat);
  const alone = steadinessText(steadiness(rep(four.slice(0, 3)), four.slice(0, 3)));
  assert.match(alone, new RegExp(`^ {4}one side only \\(${names[0]}\\): nothing to compare it with$`, 'm'));
  assert.doesNotMatch(alone, /\(\)/);
  // three sides, none steadier: each verdict names its pair
  const three = names.slice(0, 3).flatMap((n) => [0, 1].map((i) => run(`${n}-${i}`, n, step(0.5 + 0.05 * i, 2 + i))));
  const t3 = steadinessText(steadiness(rep(three), three));
  assert.deepEqual(t3.split('\n').filter((l) => l.length > 120), []);
  assert.ok(t3.replace(/\n {6}/g, ' ').includes(`no side shown steadier (worst second / median second: ${names[0]} v ${names[1]} no difference, ${names[0]} v ${names[2]} no difference,`), t3);
});
