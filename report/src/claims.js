'use strict';
// The seeds' findings, reproduced or not: each claim of report/claims.json tested on the runs at
// hand, under the seed's conditions and at the seed's size.
// - Runs: only from one set of alike runs (compare.js setKey, the sets every verdict uses); the
//   set that meets the claim's conditions is chosen first, then the one nearest the seed's scale,
//   then the one with most runs. A condition a set's runs do not meet (the engine the server
//   reports, the topology, the write concern, the journal, the data against memory, the scale
//   where it is the finding) makes the claim not comparable, naming it; what differs but does not
//   break the finding is listed in the row.
//   A condition the runs do not record is not met; emulated runs, sides through different paths
//   (mongos against the primary) or with the journal in different places (unless that is the
//   claim's dimension) are not comparable.
// - Figures: ratios through verdict.js judge (ratio of geometric means, Welch's t at 95%) on the
//   samples compare.js aggregate() keeps (the same exclusions), then drift.js's order and drift
//   guard, as every verdict of the summary: sides run one after the other, or drifting runs, give
//   no verdict here either. A direction is reproduced when the interval is clear of 1.0 that way;
//   a size when the interval lies within the claim's band, contradicted when it lies wholly
//   outside it; a zero-width interval (identical values) is no interval; no evidence is
//   inconclusive; expect "figure" (a stand-in) is shown, never judged.
// - Holm: every claim decided on an interval carries the p of the bound it rests on; the claims
//   are one Holm family (words.js holmAdjusted), and a decision that does not hold after it is
//   inconclusive.
const fs = require('node:fs');
const path = require('node:path');
const tQuantile = require('@stdlib/stats-base-dists-t-quantile');
const { aggregate, verdict, setKey } = require('./compare');
const { mergeGroups } = require('./merge');
const { fingerprint } = require('./params');
const { groupBy } = require('./group-by');
const { dimensionValue, pathOf } = require('./identity');
const { rowsOf } = require('./lazy-series');
const { judge: judgeSamples, fmt, LEVEL } = require('./verdict');
const { twoSidedP } = require('./tdist');
const { holmAdjusted } = require('./words');
const { dataDirPerDoc } = require('./data-dir');
const { stepExclusion, keptStep } = require('../../common/step-exclusion');
// the order and drift guard every verdict of the summary passes (compare.js buildSet)
const { guardVerdict, orderGuarded, sidesOrder } = require('./drift');
const { memBytes } = require('../../common/mem-size');

const ALPHA = 1 - LEVEL;
const CLAIMS_FILE = path.join(__dirname, '..', 'claims.json');
const loadClaims = (file = CLAIMS_FILE) => JSON.parse(fs.readFileSync(file, 'utf8')).claims;

const getPath = (o, p) => p.split('.').reduce((a, k) => (a && typeof a === 'object' ? a[k] : undefined), o);
const geo = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
const num = (x) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x >= 1 ? x.toFixed(2) : x.toPrecision(2));
const uniq = (xs) => [...new Set(xs)];

// The memory of each profile's data-bearing member (compose/profiles.tsv data_mem), in bytes (null
// where not a size); none where the table cannot be read.
function profileMemories() {
  try {
    return new Map(require('../../common/tables').readTable('profiles').map((p) => [p.profile, memBytes(p.data_mem)]));
  } catch {
    return new Map();
  }
}

// The least memory a data-bearing member has in any of the lab's profiles (profileMemories): data
// and indexes below it exceeded the memory of no server the lab runs, whatever this run's (not
// recorded) was.
function leastProfileMemory(memories) {
  const mems = [...memories.values()].filter((m) => m > 0);
  return mems.length ? Math.min(...mems) : null;
}

// The run's own value along a dimension: its engine label (a ./run.sh compare --uri side's name),
// else the label.
const rawSide = (r, dim) => (dim === 'engine' || dim === 'profile' ? dimensionValue(r, dim) : r.labels[dim]);

// The value of run r along a claim's dimension: the engine, where the journal lives, whether the
// members ran without a journal, or a label (test.match 'prefix': the claim's side its value
// starts with, so os=ubuntu-24.04 is the side 'ubuntu').
function sideOf(r, t) {
  const dim = t.dimension;
  if (dim === 'journal_path') return r.record?.storage?.journal_path ? 'journal apart' : 'journal with data';
  if (dim === 'members_journal') return r.parameters?.params?.members_journal === 'off' ? 'journal off' : 'journal on';
  const v = rawSide(r, dim);
  if (v === undefined || v === null) return null;
  if (t.match !== 'prefix') return v;
  const names = [t.numerator, t.denominator, ...(t.pairs || []).flat()].filter(Boolean);
  return names.find((n) => String(v).toLowerCase().startsWith(n)) ?? null;
}

// sets(results, t) -> [{ runs, sides: Map(value -> runs) }]: compare.js's alike sets along the
// claim's dimension (a parameter that is the dimension itself is left out of the key). The path to
// the server and emulation are left out too: conditions() refuses either with its own reason, which
// a set apart would hide behind 'needs runs alike'.
function sets(results, t) {
  const keyOf = (r) => {
    const key = JSON.parse(JSON.stringify(setKey(r, ['journal_path', 'members_journal'].includes(t.dimension) ? 'journal' : t.dimension)));
    delete key.run.path;
    delete key.run.emulated;
    for (const p of t.ignore_parameters || []) {
      const parts = p.split('.');
      const parent = parts.slice(0, -1).reduce((o, k) => (o && typeof o === 'object' ? o[k] : undefined), key);
      if (parent && typeof parent === 'object') delete parent[parts[parts.length - 1]];
    }
    return fingerprint(key);
  };
  const sided = results.filter((x) => x.experiment === t.experiment)
    .map((r) => ({ r, v: sideOf(r, t) })).filter((x) => x.v !== null);
  // every: each side's runs, incomplete ones too: the order guard reads how the runs were made
  return [...groupBy(sided, (x) => keyOf(x.r)).values()].map((all) => {
    const xs = all.filter((x) => x.r.complete);
    return { runs: xs.map((x) => x.r), sides: groupBy(xs, (x) => x.v, (x) => x.r),
      every: groupBy(all, (x) => x.v, (x) => x.r) };
  }).filter((s) => s.runs.length);
}

const journalOfRun = (r) => {
  const js = r.points.map((p) => p.journal).filter((j) => typeof j === 'boolean');
  if (js.length) return js.every(Boolean);
  return r.description?.journal === 'yes' ? true : /^NO JOURNAL/.test(r.description?.journal ?? '') ? false : null;
};
const scaleOf = (claim, r) => {
  const sc = claim.seed_setup?.scale;
  const v = sc ? getPath(r.parameters, sc.parameter) : undefined;
  return typeof v === 'number' ? v : null;
};
const MB = (b) => `${Math.round(b / 1e6).toLocaleString('en-US')} MB`;

// conditions(claim, bySide) -> { fail: [...], differ: [...] }: each of the claim's conditions on
// the runs of the sides it reads. fail: not comparable for this claim; differ: shown in the row.
function conditions(claim, bySide) {
  const c = claim.conditions || {};
  const fail = [];
  const differ = [];
  // weak: what leaves a reproduction unshown but a contradiction standing (a smaller oplog than the
  // seed's makes secondaries fall off sooner: staying caught up on it holds a fortiori)
  const weak = [];
  const dim = claim.test?.dimension;
  const all = [...bySide.values()].flat();
  const count = (runs, pred) => runs.filter(pred).length;
  for (const [side, runs] of bySide) {
    // one side, one server, whether or not the claim names the side's engine: along the engine the
    // alike sets span servers (an engine comparison spans builds), so the durability order, the
    // knee or the j:true stand-in would pool wiredtiger of 7.0 with 8.0's as one side
    const servers = uniq(runs.map((r) => fingerprint(r.identity.server)));
    if (servers.length > 1) fail.push(`engine: the ${side} runs come from ${servers.length} different servers (versions ${uniq(runs.map((r) => r.identity.server.version)).join(', ')}): one side, one server`);
    const spec = c.engines?.[side];
    if (!spec) continue;
    const reported = uniq(runs.map((r) => r.identity.server.storage_engine));
    const wrong = reported.filter((e) => String(e ?? '').toLowerCase() !== spec.server_engine);
    if (wrong.length) fail.push(`engine: runs labelled ${side} ${wrong.map((e) => (e ? `report ${e}` : 'report no storage engine')).join(', ')} (the claim needs ${spec.server_engine}, standing in for ${spec.stands_for})`);
  }
  // runs under emulation (summary.json storage.emulated: an image of another architecture run
  // through QEMU or Rosetta) measure the emulator: README, such numbers "compare with nothing"
  const emulated = count(all, (r) => r.record?.storage?.emulated === true);
  if (emulated) fail.push(`emulated: ${emulated} of ${all.length} runs ran under emulation (summary.json storage.emulated): their numbers compare with nothing`);
  // A paced run's ops/s (--rate, or a capacity search's offered rates, --sla) is the rate it was
  // offered while the server kept up: a throughput claim is about what an engine does for clients
  // that never wait (the seeds' shell loops, mongofiles and YCSB without -target), so it reads no
  // such run. Both sides paced alike would give "about equal" of any two engines.
  if (claim.test?.metric === 'ops_per_s' || claim.test?.kind === 'knee') {
    const paced = all.filter((r) => r.parameters?.rate != null || r.parameters?.sla != null);
    const how = uniq(paced.map((r) => (r.parameters.sla != null ? `--sla ${r.parameters.sla}` : `--rate ${r.parameters.rate}`)));
    if (paced.length) fail.push(`paced: ${paced.length} of ${all.length} runs were offered a rate (${how.join(', ')}): their ops/s is the rate asked for, not what the engine does for clients that never wait, as the seed's did`);
  }
  // one path to the server for every side: mongos against the primary is the router's cost, not
  // the engines' difference
  const paths = uniq(all.map(pathOf));
  if (paths.length > 1) fail.push(`topology: the sides ran through different paths (${[...bySide].map(([side, runs]) => `${side} ${uniq(runs.map(pathOf)).join('+').replace(/_/g, ' ')}`).join(', ')}): one path for every side`);
  // one journal place for every run, unless the journal's place is what the claim compares
  const place = (r) => (r.record?.storage?.journal_path ? 'journal apart' : 'journal with data');
  const places = uniq(all.map(place));
  if (dim !== 'journal_path' && places.length > 1) fail.push(`journal place: ${[...bySide].map(([side, runs]) => `${side} ${uniq(runs.map(place)).join(' and ')}`).join(', ')}: one journal place for every run (the journal's place is not this claim's dimension)`);
  if (c.topology) {
    const bad = paths.filter((k) => !c.topology.need.includes(k));
    if (bad.length) fail.push(`topology: ${bad.join(', ')} in ${count(all, (r) => bad.includes(pathOf(r)))} of ${all.length} runs (the seed: ${c.topology.seed})`);
    else differ.push(`topology: ${paths.join(', ').replace(/_/g, ' ')} (seed: ${c.topology.seed})`);
  }
  if (c.write_concern) {
    const ws = uniq(all.map((r) => r.parameters?.write_concern?.w));
    const allowed = [c.write_concern.w].flat();
    const seedW = `w:${allowed.join(' or w:')}${c.write_concern.seed ? `, ${c.write_concern.seed}` : ''}`;
    const bad = ws.filter((w) => w !== undefined && !allowed.includes(w));
    if (bad.length) fail.push(`write concern: w:${bad.join(', w:')} (the seed: ${seedW})`);
    // not recorded is not met: the finding depends on it
    if (ws.includes(undefined)) fail.push(`write concern: not recorded in ${count(all, (r) => r.parameters?.write_concern?.w === undefined)} of ${all.length} runs (the seed: ${seedW})`);
    // j where the claim states it (the seed's acknowledged writes waited for no journal): a run's j
    // not given is j:false, the server's default
    if (typeof c.write_concern.j === 'boolean') {
      const js = all.filter((r) => (r.parameters?.write_concern?.j ?? false) !== c.write_concern.j).length;
      if (js) fail.push(`write concern: j:${!c.write_concern.j} in ${js} of ${all.length} runs (the seed: j:${c.write_concern.j})`);
    }
  }
  if (c.journal === true) {
    const js = all.map(journalOfRun);
    if (js.includes(false)) fail.push(`journal: ${count(js, (j) => j === false)} of ${all.length} runs on a server without a journal (the claim is about journal writes)`);
    else if (js.includes(null)) fail.push(`journal: not recorded in ${count(js, (j) => j === null)} of ${all.length} runs (the claim is about journal writes; durability cases record it)`);
  } else if (c.journal && typeof c.journal === 'object') {
    // per side: the seed's mongod with --journal against without it; a 'journal on' side whose
    // server wrote no journal (--nojournal, an in-memory engine) compares nothing with nothing
    for (const [side, runs] of bySide) {
      const want = c.journal[side];
      if (typeof want !== 'boolean') continue;
      const js = runs.map(journalOfRun);
      if (js.includes(!want)) fail.push(`journal: ${count(js, (j) => j === !want)} of ${runs.length} ${side} runs on a server ${want ? 'without' : 'with'} a journal (the seed's mongod ran ${want ? 'with' : 'without'} --journal)`);
      else if (js.includes(null)) fail.push(`journal: not recorded in ${count(js, (j) => j === null)} of ${runs.length} ${side} runs (the claim is about the journal; the journal experiment's cases record it)`);
    }
  }
  // a side named by a label's prefix is one system: os=ubuntu-22.04 and os=ubuntu-24.04 are two
  // systems, never one side's repetitions (as two servers under one label are two sides)
  if (claim.test?.match === 'prefix') {
    for (const [side, runs] of bySide) {
      const vs = uniq(runs.map((r) => rawSide(r, claim.test.dimension)));
      if (vs.length > 1) fail.push(`label: the ${side} runs carry ${vs.map((v) => `${claim.test.dimension}=${v}`).join(', ')}: one system a side, as the seed ran`);
    }
  }
  const sc = claim.seed_setup?.scale;
  if (sc) {
    const vs = all.map((r) => scaleOf(claim, r));
    const shown = uniq(vs.map((v) => (v === null ? 'not recorded' : v.toLocaleString('en-US')))).join(', ');
    if (c.scale_min && vs.some((v) => v === null || v < sc.min)) fail.push(`scale: ${shown} ${sc.unit}, below the seed's ${sc.min.toLocaleString('en-US')}, where the finding appeared`);
    else if (vs.some((v) => v !== sc.value)) differ.push(`scale: ${shown} ${sc.unit} (seed: ${sc.value.toLocaleString('en-US')})`);
  }
  if (c.data_vs_memory) {
    const need = c.data_vs_memory.need;
    const memories = profileMemories(); // the table read once for every run of the claim
    const seen = all.map((r) => {
      const e = r.record?.footprint?.end;
      const data = typeof e?.data_bytes === 'number' ? e.data_bytes + (e.index_bytes ?? 0) : null;
      return { data, mem: (r.profile ? memories.get(r.profile) : null) ?? null };
    });
    const known = seen.filter((s) => s.data !== null && s.mem !== null);
    const wrong = known.filter((s) => (need === 'exceeds' ? s.data <= s.mem : s.data >= s.mem));
    // where the memory is not recorded (a --uri run), data below every profile's memory did not
    // exceed it: a finding about data beyond memory is not tested on a few thousand documents,
    // and a finding about data that fits holds there
    const floor = leastProfileMemory(memories);
    const small = floor ? seen.filter((s) => s.data !== null && s.mem === null && s.data < floor) : [];
    // unknown is never met: no footprint, or no memory and data above the least profile's
    const unknown = all.length - known.length - (need === 'fits' ? small.length : 0);
    if (wrong.length) fail.push(`data against memory: ${MB(wrong[0].data)} of data and indexes ${need === 'exceeds' ? 'fit in' : 'exceed'} ${MB(wrong[0].mem)} of memory in ${wrong.length} of ${all.length} runs (the seed: ${c.data_vs_memory.seed})`);
    else if (need === 'exceeds' && small.length) fail.push(`data against memory: ${(small[0].data / 1e6).toPrecision(2)} MB of data and indexes in ${small.length} of ${all.length} runs, less than any profile's ${MB(floor)} of memory (the server's own is not recorded; the seed: ${c.data_vs_memory.seed})`);
    else if (unknown > 0) fail.push(`data against memory: not known in ${unknown} of ${all.length} runs (no profile or no footprint recorded; the seed: ${c.data_vs_memory.seed})`);
  }
  // one server build on every side where the seed ran one ("All nodes also ran MongoDB 2.0.2"):
  // along the engine label (./run.sh compare --uri sides) the alike sets span servers
  if (c.same_server) {
    const builds = uniq(all.map((r) => fingerprint(r.identity.server)));
    if (builds.length > 1) fail.push(`server: the sides run ${builds.length} different servers (versions ${uniq(all.map((r) => r.identity.server.version)).join(', ')}; the seed: ${c.same_server.seed})`);
  }
  // the oplog's size (summary.json storage: what the member reports, else what the lab started):
  // below the seed's, not the seed's condition; with below_weakens, a reproduction is not shown
  // on it while a contradiction stands
  if (c.oplog) {
    const mb = all.map((r) => r.record?.storage?.oplog_mb_reported ?? r.record?.storage?.oplog_mb ?? null);
    const shown = uniq(mb.map((v) => (v === null ? 'not recorded' : `${v.toLocaleString('en-US')} MB`))).join(', ');
    if (mb.includes(null)) fail.push(`oplog: not recorded in ${count(mb, (v) => v === null)} of ${all.length} runs (the seed: ${c.oplog.seed})`);
    else if (mb.some((v) => v < c.oplog.min_mb)) (c.oplog.below_weakens ? weak : fail).push(`oplog: ${shown}, below the seed's ${c.oplog.min_mb.toLocaleString('en-US')} MB (the seed: ${c.oplog.seed})`);
  }
  // labels the finding is about (seeds/002's instance size): every run carries the value
  for (const [k, want] of Object.entries(c.labels || {})) {
    const off = all.filter((r) => r.labels?.[k] !== want.value);
    if (off.length) fail.push(`label: ${k}=${uniq(off.map((r) => r.labels?.[k] ?? 'not set')).join(', ')} in ${off.length} of ${all.length} runs (the claim needs ${k}=${want.value}: ${want.seed})`);
  }
  // always different: the engine line and the hardware
  const lines = uniq(all.map((r) => `${dimensionValue(r, 'engine')} on ${r.identity.server.process ?? 'server'} ${r.identity.server.version ?? '?'}`)).join(', ');
  differ.unshift(`engine line: ${lines || 'no runs'} (seed: ${claim.seed_setup?.engines ?? '?'})`);
  const hw = uniq(all.map((r) => `${r.description.host_cpus} CPUs${r.profile ? `, profile ${r.profile}` : ''}`)).join(', ');
  differ.splice(1, 0, `hardware: ${hw || '-'} (seed: ${claim.seed_setup?.hardware ?? '?'})`);
  return { fail: uniq(fail), differ: uniq(differ), weak: uniq(weak) };
}

// choose(claim, results, needed) -> { set, bySide, cond } or { none: why }: among the alike sets
// that hold every needed side, the one that meets the conditions, then holds most of the claim's
// points (a writeconcern run of one case does not stand in for the whole ordering), then nearest
// the seed's scale, then with most runs.
function choose(claim, results, needed, filter = () => true) {
  const t = claim.test;
  const pts = uniq([...(t.dimension === 'engine' && t.pairs && !t.point ? t.pairs.flat() : []), t.case, t.baseline].filter(Boolean));
  const held = (runs) => pts.filter((p) => runs.some((r) => r.points.some((x) => x.name === p))).length;
  const all = sets(results, t).filter(filter);
  const cands = all.filter((s) => needed.every((n) => s.sides.has(n)));
  if (!cands.length) {
    const have = uniq(all.flatMap((s) => [...s.sides.keys()]));
    return { none: `runs of ${t.experiment} on ${needed.join(' and ')} alike${have.length ? ` (have: ${have.join(', ')})` : ''}` };
  }
  const sc = claim.seed_setup?.scale;
  const dist = (s) => {
    const vs = s.runs.map((r) => scaleOf(claim, r)).filter((v) => v > 0);
    return sc && vs.length ? Math.abs(Math.log(geo(vs) / sc.value)) : Infinity;
  };
  const scored = cands.map((s) => {
    const bySide = new Map(needed.map((n) => [n, s.sides.get(n)]));
    const every = new Map(needed.map((n) => [n, s.every.get(n)]));
    const runs = [...bySide.values()].flat();
    return { set: s, bySide, every, cond: conditions(claim, bySide), h: held(runs), d: dist(s), n: runs.length };
  });
  scored.sort((a, b) => (a.cond.fail.length > 0) - (b.cond.fail.length > 0) || b.h - a.h || a.d - b.d || b.n - a.n);
  return scored[0];
}

const standsFor = (claim) => Object.entries(claim.conditions?.engines || {}).map(([side, e]) => `${side} stands in for ${e.stands_for}`).join('; ') || null;

const row = (claim, status, fields) => {
  const differences = fields.differences ?? [];
  return {
    id: claim.id, seed: claim.seed, words: claim.words, quote: claim.quote,
      experiment_of_seed: claim.experiment_of_seed,
    published: claim.published.text, status, stands_for: standsFor(claim), side: null, lab: null, ratio: null, ci: null,
    p: null, why: '', missing: null, ...fields, differences, differs: differences.length ? differences.join('; ') : null,
  };
};

// the needs lines as a row says them: single runs of two configurations alternated A B B A are
// said once each, with their order
function runsNeeded(claim) {
  const lines = claim.needs.filter((n) => n.startsWith('./run.sh'));
  const once = uniq(lines);
  return once.length < lines.length ? `${once.join(' ; ')} (alternated A B B A, ${lines.length} runs)` : lines.join(' ; ');
}
const notComparable = (claim, what, differences = []) => row(claim, 'not comparable', { missing: `needs ${what}`, why: `needs ${what}; runs: ${runsNeeded(claim)}`, differences });
// a chosen set that fails a condition: not comparable, naming each condition
const failed = (claim, pick, fields = {}) => row(claim, 'not comparable', { missing: `runs that meet the seed's conditions: ${pick.cond.fail.join('; ')}`, why: `not the seed's conditions: ${pick.cond.fail.join('; ')}`, differences: pick.cond.differ, ...fields });
// refused(claim, pick): the not comparable row of no set chosen, or of one that fails a condition; else null
const refused = (claim, pick) => (pick.none ? notComparable(claim, pick.none)
  : pick.cond.fail.length ? failed(claim, pick) : null);

// pBeyond(o, b): the two-sided p of "the ratio is b", from the interval and its df (the test the
// 95% interval inverts: the interval excludes b exactly when p < 0.05).
function pBeyond(o, b) {
  const [lo, hi] = o.ci;
  if (!(hi > lo * (1 + 1e-9)) || !o.df) return null;
  const se = Math.log(hi / lo) / (2 * tQuantile(1 - ALPHA / 2, o.df));
  return twoSidedP(Math.log(o.ratio / b) / se, o.df);
}

// judgeClaim(o, when) -> { status, why, p }: the claim's rule on an oriented ratio { ratio, ci, df }
// (verdict.js judge makes the ratio; this reads it against what the seed said).
function judgeClaim(o, when) {
  const [lo, hi] = o.ci;
  // identical values leave a width of rounding errors only: no interval
  if (!(hi > lo * (1 + 1e-9)) || !o.df) return { status: 'inconclusive', why: 'no interval: every run gave the same value (zero width), so no spread was seen', p: null };
  if (when.expect === 'size') {
    const [b0, b1] = when.band;
    const band = `${fmt(b0)}-${fmt(b1)}`;
    if (lo >= b0 && hi <= b1) return { status: 'reproduced', why: `the interval lies within the claimed ${band}`, p: Math.max(pBeyond(o, b0), pBeyond(o, b1)) };
    if (hi < b0 || lo > b1) return { status: 'contradicted', why: `the interval lies wholly ${hi < b0 ? 'below' : 'above'} the claimed ${band}: not the seed's size`, p: pBeyond(o, hi < b0 ? b0 : b1) };
    // still one of the family's tests: the p of the bound that would have decided it
    const pIn = o.ratio >= b0 && o.ratio <= b1
      ? Math.max(pBeyond(o, b0), pBeyond(o, b1)) : pBeyond(o, o.ratio < b0 ? b0 : b1);
    return { status: 'inconclusive', why: `the interval reaches ${lo < b0 && hi > b1 ? 'both below and above' : lo < b0 ? 'below' : 'above'} the claimed ${band}: neither the size nor its absence shown (more runs narrow it)`, p: pIn };
  }
  const up = when.expect === 'higher';
  if (up ? hi < 1 : lo > 1) return { status: 'contradicted', why: 'the other way round (interval clear of 1.0)', p: pBeyond(o, 1) };
  if (up ? lo > 1 : hi < 1) return { status: 'reproduced', why: `${up ? 'higher' : 'lower'}, interval clear of 1.0`, p: pBeyond(o, 1) };
  return { status: 'inconclusive', why: 'the interval spans 1.0: no difference shown', p: pBeyond(o, 1) };
}

// flip(v, same) -> { ratio, ci, df } of v as it is (same), else the other way round.
const flip = (v, same) => (same ? { ratio: v.ratio, ci: v.ci, df: v.df }
  : { ratio: 1 / v.ratio, ci: [1 / v.ci[1], 1 / v.ci[0]], df: v.df });
// Orient a report verdict as a / b (verdict() puts the faster side first).
const oriented = (v, a) => (v.ci ? flip(v, v.faster === a) : null);

// Run-level figures computed rather than read: the data directory per document, as the
// server-side appendix computes it (./data-dir.js), what seeds/004's du -sh measured.
const DERIVED = { 'footprint.data_dir_bytes_per_doc': dataDirPerDoc };

// A run-level number (footprint...) as an aggregate verdict() reads: one sample a run.
function runAggregate(runs, side, metric) {
  const read = DERIVED[metric] || ((rec) => getPath(rec, metric));
  const xs = runs.map((r) => read(r.record)).filter((x) => typeof x === 'number' && x > 0);
  return { side, runs: runs.length, excluded: {}, verdict_samples: xs };
}

// sideMax(runs, side, min) -> the step where this side does most: the highest geometric mean of its
// usable runs among the steps with at least min of them (else any with one): each engine's own
// "Max throughput", as seeds/004 read it off each engine's own curve.
function sideMax(runs, side, min) {
  const aggs = uniq(runs.flatMap((r) => r.points.map((p) => p.name)))
    .map((n) => aggregate(runs, n, side)).filter((a) => a?.verdict_samples.length);
  const enough = (a) => Number(a.verdict_samples.length >= min);
  aggs.sort((x, y) => enough(y) - enough(x) || geo(y.verdict_samples) - geo(x.verdict_samples));
  return aggs[0]?.point ?? null;
}
// One step of each run, renamed, so that two sides' maxima at different steps are one point for
// aggregate(), verdict() and the order and drift guard alike.
const MAX = 'max';
const atStep = (runs, name, as = MAX) => runs.map((r) => ({
  ...r, points: r.points.filter((p) => p.name === name).map((p) => ({ ...p, name: as })),
}));

// guarded(v, names, every, point) -> the verdict through the order and drift guard the summary
// applies to every verdict (drift.js guardVerdict, as compare.js buildSet calls it), on every run
// of the two sides, incomplete ones too. A figure that is no step's ops/s (a run's footprint, its
// seconds outside dips) has no drift test of its own: its order is guarded as capacity.js guards
// its capacities (runOrder, notInterleaved).
function guarded(v, names, every, point) {
  const sides = names.map((n) => every?.get(n) ?? []);
  if (point) return guardVerdict(v, { point, names, sides, usable: (p) => stepExclusion(p) === null });
  return orderGuarded(v, names, sides);
}

const minRunsWhy = (claim, usable) => `needs at least ${claim.minimum?.runs ?? 2} usable runs a side (have ${usable.join(' and ')})`;
const labText = (o, A, B, a, b, unit, v) => `${a} ${num(geo(A.verdict_samples))} vs ${b} ${num(geo(B.verdict_samples))} ${unit} (geometric means): ${fmt(o.ratio)}x (95% CI ${fmt(o.ci[0])}-${fmt(o.ci[1])}, ${v.usable.join(' and ')} runs)`;

// ratioRow(claim, A, B, names, where, unit, extra, guard): verdict, the order and drift guard
// (guard: { every, point }, as guarded() reads them; none where both sides are cases of the same
// runs), minimum, judge.
function ratioRow(claim, A, B, [a, b], where, unit, extra, guard = null) {
  const v0 = verdict(where, A, B);
  const v = guard ? guarded(v0, [a, b], guard.every, guard.point) : v0;
  const min = claim.minimum?.runs ?? 2;
  if (v.usable.some((n) => n < min)) return row(claim, 'inconclusive', { lab: `${v.usable.join(' and ')} usable runs at ${where}`, why: `${minRunsWhy(claim, v.usable)}${v.ci ? '' : `: ${v.sentence}`}`, ...extra });
  // no verdict where the summary gives none: sides one after the other, or runs that drift
  if (v.status === 'not-interleaved' || v.status === 'drift') {
    const o0 = oriented(v0, a);
    return row(claim, 'inconclusive', { lab: `${labText(o0, A, B, a, b, unit, v0)} at ${where}`, ratio: o0.ratio, why: `no verdict, as in the summary: ${v.sentence}`, ...extra });
  }
  const o = oriented(v, a);
  if (!o) return row(claim, 'inconclusive', { lab: `no interval (${v.usable.join(' and ')} usable runs)`, why: v.sentence, ...extra });
  // a stand-in's figure (the lab's own quantity, or the seed's cause absent here): shown beside the
  // seed's, never reproduced or contradicted of the seed's words
  if (claim.reproduced_when.expect === 'figure') return row(claim, 'lab figure', { lab: `${labText(o, A, B, a, b, unit, v)} at ${where}`, ratio: o.ratio, ci: o.ci, why: claim.reproduced_when.why, ...extra });
  const j = judgeClaim(o, claim.reproduced_when);
  return row(claim, j.status, { lab: `${labText(o, A, B, a, b, unit, v)} at ${where}`, ratio: o.ratio, ci: o.ci, p: j.p, why: j.why, ...extra });
}

function evalRatio(claim, results) {
  const t = claim.test;
  const record = t.metric.startsWith('footprint');
  const one = (pick) => {
    // every run of each side at its step (pa, pb), renamed as, for the order and drift guard
    const everyAt = (pa, pb, as) => new Map([[t.numerator, atStep(pick.every.get(t.numerator), pa, as)],
      [t.denominator, atStep(pick.every.get(t.denominator), pb, as)]]);
    const extra = { differences: pick.cond.differ, side: t.per_engine ? pick.set.runs[0].engine : null };
    if (pick.cond.fail.length) return failed(claim, pick, { side: extra.side });
    const [na, nb] = [pick.bySide.get(t.numerator), pick.bySide.get(t.denominator)];
    if (record) {
      const [A, B] = [runAggregate(na, t.numerator, t.metric), runAggregate(nb, t.denominator, t.metric)];
      if (!A.verdict_samples.length || !B.verdict_samples.length) return row(claim, 'not comparable', { missing: `needs ${t.record}`, why: `the runs hold no ${t.metric}; runs: ${runsNeeded(claim)}`, ...extra });
      return ratioRow(claim, A, B, [t.numerator, t.denominator], t.metric.split('.').slice(-2).join(' '), t.unit ?? '', extra, { every: pick.every, point: null });
    }
    if (t.point === 'max') {
      const min = claim.minimum?.runs ?? 2;
      const [pa, pb] = [sideMax(na, t.numerator, min), sideMax(nb, t.denominator, min)];
      if (!pa || !pb) return row(claim, 'inconclusive', { lab: `no usable step on ${!pa ? t.numerator : t.denominator}`, why: `needs at least ${min} usable runs a side (${!pa ? t.numerator : t.denominator} has none at any step)`, ...extra });
      const [A, B] = [aggregate(atStep(na, pa), MAX, t.numerator), aggregate(atStep(nb, pb), MAX, t.denominator)];
      return ratioRow(claim, A, B, [t.numerator, t.denominator], `each side's maximum (${t.numerator} at ${pa}, ${t.denominator} at ${pb})`, 'ops/s', extra, { every: everyAt(pa, pb, MAX), point: MAX });
    }
    const [pa, pb] = [t.points?.[t.numerator] ?? t.point, t.points?.[t.denominator] ?? t.point];
    const A = aggregate(na, pa, t.numerator);
    const B = aggregate(nb, pb, t.denominator);
    if (!A || !B) return row(claim, 'not comparable', { missing: `needs ${!A ? pa : pb} measured on ${!A ? t.numerator : t.denominator}`, why: `no ${!A ? pa : pb} on ${!A ? t.numerator : t.denominator}`, ...extra });
    // one point for both sides where each reads its own step (001's j:false against journal off)
    const where = pa === pb ? pa : `${pa} vs ${pb}`;
    return ratioRow(claim, A, B, [t.numerator, t.denominator], where, 'ops/s', extra, { every: everyAt(pa, pb, where), point: where });
  };
  const needed = [t.numerator, t.denominator];
  if (t.per_engine) {
    const engines = uniq(sets(results, t).flatMap((s) => s.runs.map((r) => r.engine)));
    const rows = engines.map((e) => choose(claim, results, needed,
      (s) => s.runs[0].engine === e)).filter((p) => !p.none).map(one);
    return rows.length ? rows : [notComparable(claim, `runs of ${t.experiment} with ${needed.join(' and ')} on one engine`)];
  }
  const pick = choose(claim, results, needed);
  if (pick.none) return [notComparable(claim, t.record
    && !sets(results, t).some((s) => s.sides.has(t.numerator)) ? t.record : pick.none)];
  return [one(pick)];
}

// Each run's seconds per minute outside dips over its measured steps (src/stability-of.js).
function steadinessAggregate(runs, side, figure) {
  const xs = runs.map((r) => {
    const vals = r.points.filter((p) => p.stability && stepExclusion(p) === null).map((p) => p.stability[figure]).filter((x) => typeof x === 'number');
    return vals.length ? vals.reduce((a, x) => a + x, 0) / vals.length : null;
  }).filter((x) => typeof x === 'number' && x > 0);
  return { side, runs: runs.length, excluded: {}, verdict_samples: xs };
}

// unrecorded(claim, results, field): no run of the claim's experiment has a step with field (its record)
const unrecorded = (claim, results, field) => !results.some((r) => r.experiment === claim.test.experiment
  && r.points.some((p) => p[field]));

function evalSteadiness(claim, results) {
  const t = claim.test;
  if (unrecorded(claim, results, 'stability')) return [notComparable(claim, t.record)];
  const pick = choose(claim, results, [t.numerator, t.denominator]);
  const refusal = refused(claim, pick);
  if (refusal) return [refusal];
  const [A, B] = [steadinessAggregate(pick.bySide.get(t.numerator), t.numerator, t.figure),
    steadinessAggregate(pick.bySide.get(t.denominator), t.denominator, t.figure)];
  return [ratioRow(claim, A, B, [t.numerator, t.denominator], 'the whole sweep', 's/min outside dips', { differences: pick.cond.differ }, { every: pick.every, point: null })];
}

// per-side kinds: each side value of the dimension, its own chosen set.
function perSide(claim, results, fn) {
  const t = claim.test;
  const sides = t.side ? [t.side] : t.sides ?? uniq(sets(results, t).flatMap((s) => [...s.sides.keys()]));
  if (!sides.length) return [notComparable(claim, `runs of ${t.experiment}`)];
  return sides.map((side) => {
    const pick = choose(claim, results, [side]);
    const refusal = refused(claim, pick);
    if (refusal) return { ...refusal, side };
    return { ...fn(side, pick.bySide.get(side), pick), side, differences: pick.cond.differ, differs: pick.cond.differ.join('; ') };
  });
}

const caseAgg = (runs, name) => aggregate(runs, name, name);

function evalCost(claim, results) {
  const t = claim.test;
  return perSide(claim, results, (side, runs) => {
    const A = caseAgg(runs, t.case);
    const B = caseAgg(runs, t.baseline);
    if (!A || !B) return row(claim, 'not comparable', { missing: `needs cases ${t.case} and ${t.baseline}` });
    return ratioRow(claim, A, B, [t.case, t.baseline], `${t.case}/${t.baseline}`, 'ops/s', {});
  });
}

// ordering: each pair [a, b] of cases (or of sides at one point): a faster than b. guardOf(v, a, b):
// the order and drift guard for a pair of sides (none for cases of the same runs).
// A pair that may tie ("There's not much difference") is reversed only below the tie band
// (test.tie_band, the claims' "about equal"): within it, it ties as the seed said it may.
function orderPairs(claim, aggOf, guardOf = (v) => v) {
  const t = claim.test;
  const tie = (a, b) => (t.may_tie || []).some(([x, y]) => x === a && y === b);
  const tieLow = t.tie_band?.[0] ?? 1;
  const min = claim.minimum?.runs ?? 2;
  const pairs = t.pairs.map(([a, b]) => {
    const A = aggOf(a);
    const B = aggOf(b);
    if (!A || !B) return { a, b, state: 'missing' };
    // every run of a case that the server ignored (FerretDB acknowledges w:2 on a standalone):
    // nothing of the case was measured, and no more runs on that server would measure it
    const ignored = (x) => x.runs > 0 && (x.excluded?.server_ignores ?? 0) === x.runs;
    if (ignored(A) || ignored(B)) return { a, b, state: 'untestable' };
    const v0 = verdict(`${a} vs ${b}`, A, B);
    const v = guardOf(v0, a, b);
    const o = oriented(v0, a);
    if (!o || v.usable.some((n) => n < min)) return { a, b, state: 'unmeasured', why: v.sentence };
    const means = { A: geo(A.verdict_samples), B: geo(B.verdict_samples) };
    if (v.status === 'not-interleaved' || v.status === 'drift') return { a, b, state: 'unguarded', ratio: o.ratio, why: v.sentence, ...means };
    if (!(o.ci[1] > o.ci[0] * (1 + 1e-9)) || !o.df) return { a, b, state: 'no-interval', ratio: o.ratio, ci: o.ci, ...means };
    const low = tie(a, b) ? tieLow : 1;
    const state = o.ci[0] > 1 ? 'ordered' : o.ci[1] < low ? 'reversed' : tie(a, b) ? 'tie-allowed' : 'no-difference';
    return { a, b, state, ratio: o.ratio, ci: o.ci, p: pBeyond(o, low), ...means };
  });
  const fig = pairs.map((p) => `${p.a}/${p.b} ${p.ratio ? `${fmt(p.ratio)} (${num(p.A)}/${num(p.B)})` : p.state === 'missing' ? 'not run' : 'n/a'}`).join(', ');
  const of = (st) => pairs.filter((p) => p.state === st).map((p) => `${p.a}/${p.b}`);
  const need = pairs.filter((p) => !tie(p.a, p.b));
  const lab = `${of('ordered').length} of ${pairs.length} pairs in the seed's order (ops/s ratio, geometric means: ${fig})`;
  const rev = pairs.filter((p) => p.state === 'reversed');
  if (rev.length) return row(claim, 'contradicted', { lab, pairs, p: Math.min(1, Math.min(...rev.map((p) => p.p)) * pairs.length), why: `reversed: ${of('reversed').join(', ')} (interval clear of 1.0)` });
  if (of('untestable').length) return row(claim, 'not comparable', { lab, pairs, missing: `a server that does what ${of('untestable').join(', ')} ask`, why: `cannot be tested on this server: it ignores what ${of('untestable').join(', ')} ask (its product documents it: loader/src/server/products.js)` });
  const open = [...of('no-difference'), ...of('unmeasured'), ...of('missing'), ...of('no-interval'), ...of('unguarded')];
  if (!open.length && need.every((p) => p.state === 'ordered')) {
    return row(claim, 'reproduced', { lab, pairs, p: Math.max(...need.map((p) => p.p)), why: `every pair in order${of('tie-allowed').length ? `; ${of('tie-allowed').join(', ')} tie as they may` : ''}` });
  }
  const why = [of('unguarded').length ? `no verdict, as in the summary: ${pairs.filter((p) => p.state === 'unguarded').map((p) => p.why).join('; ')}` : '', of('no-difference').length ? `no difference shown: ${of('no-difference').join(', ')}` : '', of('no-interval').length ? `no interval (identical values): ${of('no-interval').join(', ')}` : '', of('unmeasured').length ? `too few usable runs (at least ${min} a side): ${of('unmeasured').join(', ')}` : '', of('missing').length ? `not run: ${of('missing').join(', ')}` : ''].filter(Boolean).join('; ');
  return row(claim, 'inconclusive', { lab, pairs, why, p: pairs.some((x) => typeof x.p === 'number') ? 1 : null });
}

function evalOrdering(claim, results) {
  const t = claim.test;
  // pairs of cases within each side's runs, unless the pairs are sides at one point (test.point:
  // ./run.sh compare --uri sides, named by the engine label)
  if (t.dimension === 'engine' && !t.point) return perSide(claim, results, (side, runs) => orderPairs(claim, (name) => caseAgg(runs, name)));
  const names = uniq(t.pairs.flat());
  const pick = choose(claim, results, names);
  const refusal = refused(claim, pick);
  if (refusal) return [refusal];
  const guardOf = (v, a, b) => guarded(v, [a, b], pick.every, t.point);
  return [{ ...orderPairs(claim, (n) => aggregate(pick.bySide.get(n), t.point, n), guardOf), differences: pick.cond.differ, differs: pick.cond.differ.join('; ') }];
}

// A usable point's latency: the geometric mean over its ops of latency_us.p50 (ms shown).
function latencySamples(runs, name) {
  return runs.map((r) => keptStep(r, name)).filter(Boolean)
    .map((p) => Object.values(p.ops).map((o) => o.latency_us?.p50).filter((x) => x > 0))
    .filter((xs) => xs.length).map(geo);
}

// knee: the seed read its sweet spot from latency. Step to step, throughput and latency each
// climb ('<'), fall ('>') or show no difference ('=') on the 95% interval; '?' too few runs.
function evalKnee(claim, results) {
  return perSide(claim, results, (side, runs) => {
    const names = uniq(runs.flatMap((r) => r.points.map((p) => p.name)));
    const steps = names.map((n) => aggregate(runs, n, n)).filter((a) => a && typeof a.clients === 'number').sort((x, y) => x.clients - y.clients);
    if (steps.length < 3) return row(claim, 'not comparable', { missing: `needs a sweep of at least 3 steps (have ${steps.length})` });
    const lat = steps.map((s) => latencySamples(runs, s.point));
    const min = claim.minimum?.runs ?? 2;
    const move = (a, b) => {
      if (a.length < min || b.length < min) return { s: '?' };
      const j = judgeSamples(b, a); // b / a as the higher first: recompute orientation below
      if (!j || !(j.ci[1] > j.ci[0] * (1 + 1e-9)) || !j.df) return { s: '?' };
      const o = flip(j, !j.first);
      return { s: o.ci[0] > 1 ? '<' : o.ci[1] < 1 ? '>' : '=', p: pBeyond(o, 1) };
    };
    const thr = steps.slice(1).map((s, i) => move(steps[i].verdict_samples, s.verdict_samples));
    const lt = lat.slice(1).map((xs, i) => move(lat[i], xs));
    const clients = steps.map((s) => s.clients).join(' ');
    const ops = steps.map((s) => (s.verdict_samples.length ? num(geo(s.verdict_samples)) : '-')).join(' ');
    const ms = lat.map((xs) => (xs.length ? (geo(xs) / 1000).toPrecision(2) : '-')).join(' ');
    const lab = `clients ${clients}; ops/s ${ops}; p50 ms ${ms}; ops/s ${thr.map((x) => x.s).join(' ')}; latency ${lt.map((x) => x.s).join(' ')} (< climbs, = no difference, > falls, ? too few runs)`;
    for (let j = 1; j < steps.length - 1; j++) {
      if (thr[j - 1].s === '<' && lt[j].s === '<' && thr[j].s !== '<' && thr[j].s !== '?') {
        return row(claim, 'reproduced', { lab: `sweet spot at ${steps[j].clients}: ${lab}`, knee: steps[j].clients, p: Math.max(thr[j - 1].p, lt[j].p), why: `throughput climbs to ${steps[j].clients} clients, then latency rises while throughput climbs no more (published ${claim.published.knee.join(' / ')}; it moves with the hardware)` });
      }
    }
    // flat from the first step while latency climbs at every step: the seed read its sweet spot
    // from latency ("Com base nos números de latências"), so more clients than the first only wait
    // longer for the same throughput: the sweet spot is the first step (pure noise moves neither)
    if (thr.every((x) => x.s === '=') && lt.every((x) => x.s === '<')) {
      return row(claim, 'reproduced', { lab: `sweet spot at ${steps[0].clients}: ${lab}`, knee: steps[0].clients, p: Math.max(...lt.map((x) => x.p)), why: `throughput flat from ${steps[0].clients} client(s) while latency rises at every step: read from latency as the seed read it, the sweet spot is the first step (published ${claim.published.knee.join(' / ')}; it moves with the hardware)` });
    }
    if (thr[0].s === '>' && lt[0].s === '<' && !thr.some((x) => x.s === '<')) return row(claim, 'contradicted', { lab, p: Math.max(thr[0].p, lt[0].p), why: 'throughput falls and latency rises from the first step: no load to climb to' });
    const why = thr.some((x) => x.s === '?') || lt.some((x) => x.s === '?') ? `some steps lack ${min} usable runs (--repeat)` : thr[thr.length - 1].s === '<' ? `throughput still climbing at ${steps[steps.length - 1].clients} clients: no sweet spot within the sweep` : 'no step where throughput climbs up to it and latency rises after it';
    return row(claim, 'inconclusive', { lab, why, p: [...thr, ...lt].some((x) => typeof x.p === 'number') ? 1 : null });
  });
}

// dips: the side's dips during its own cause, matched by the cause id the loader writes.
function evalDips(claim, results) {
  const t = claim.test;
  if (unrecorded(claim, results, 'stability')) return [notComparable(claim, t.record)];
  return perSide(claim, results, (side, runs) => {
    // a run counts toward the minimum only with measured steps that recorded stability (a run the
    // loader was the limit of all along saw no dip of the engine's) over at least minimum.seconds:
    // a cause that comes once a minute may not come at all in a shorter record, and its absence
    // there contradicts nothing
    const usable = (r) => r.points.filter((p) => p.stability && stepExclusion(p) === null);
    const long = claim.minimum?.seconds ?? 0;
    const withRec = runs.filter((r) => usable(r).length
      && usable(r).reduce((a, p) => a + (p.stability.seconds ?? 0), 0) >= long);
    const dips = withRec.flatMap((r) => usable(r).flatMap((p) => p.stability.dips || []));
    const hit = dips.filter((d) => (d.causes || []).some((c) => c && typeof c === 'object' && t.cause_ids.includes(c.id))).length;
    const lab = `${dips.length} dip(s) in ${withRec.length} run(s), ${hit} during a ${t.cause} (cause ${t.cause_ids.join(' or ')})`;
    const min = claim.minimum || {};
    if (withRec.length < (min.runs ?? 2)) return row(claim, 'inconclusive', { lab, why: `needs at least ${min.runs ?? 2} runs with the record on measured steps${long ? ` of ${long} s or more, as its cause comes ${t.cause_period ?? 'periodically'}` : ''} (have ${withRec.length})` });
    if (dips.length < (min.dips ?? 1)) return row(claim, 'inconclusive', { lab, why: `needs at least ${min.dips ?? 1} dips to attribute (have ${dips.length})` });
    // the seed's period ("every minute"): the median gap between successive dips of a step
    const gaps = t.period_s ? withRec.flatMap((r) => usable(r).flatMap((p) => {
      const at = (p.stability.dips || []).map((d) => Date.parse(d.start)).filter(Number.isFinite).sort((x, y) => x - y);
      return at.slice(1).map((x, i) => (x - at[i]) / 1000);
    })) : [];
    const gap = gaps.length ? [...gaps].sort((x, y) => x - y)[gaps.length >> 1] : null;
    const [g0, g1] = t.period_band ?? [];
    const periodic = !t.period_s || (gap !== null && gap >= g0 && gap <= g1);
    const periodText = t.period_s ? `; median gap between dips ${gap === null ? 'none (one dip a step)' : `${Math.round(gap)} s`} (the seed: every ${t.period_s} s, ${g0}-${g1} s)` : '';
    if (hit * 2 >= dips.length && periodic) return row(claim, 'reproduced', { lab: lab + periodText, why: `at least half the dips during a ${t.cause}${t.period_s ? ', about once a minute' : ''}` });
    if (hit * 2 >= dips.length) return row(claim, 'inconclusive', { lab: lab + periodText, why: `at least half the dips during a ${t.cause}, but not the seed's period` });
    // a cause the record cannot see (the kernel's own writeback): its absence from the record
    // contradicts nothing
    if (hit === 0 && t.unrecorded) return row(claim, 'inconclusive', { lab: lab + periodText, why: `no dip during a ${t.cause}; not contradicted: ${t.unrecorded}` });
    if (hit === 0) return row(claim, 'contradicted', { lab: lab + periodText, why: `no dip during a ${t.cause}` });
    return row(claim, 'inconclusive', { lab, why: `fewer than half the dips during a ${t.cause}` });
  });
}

function evalReplication(claim, results) {
  const t = claim.test;
  if (unrecorded(claim, results, 'replication')) return [notComparable(claim, t.record)];
  const pick = choose(claim, results, [t.flagged, t.steady]);
  const refusal = refused(claim, pick);
  if (refusal) return [refusal];
  // a run counts where a step the report keeps (common/step-exclusion.js) recorded replication
  const kept = (p) => stepExclusion(p) === null;
  const of = (side) => {
    const mine = pick.bySide.get(side).filter((r) => r.points.some((p) => p.replication && kept(p)));
    return { n: mine.length, flagged: mine.filter((r) => r.points.some((p) => p.server?.flagged && kept(p))).length };
  };
  const a = of(t.flagged);
  const b = of(t.steady);
  const lab = `${t.flagged} flagged in ${a.flagged} of ${a.n} run(s), ${t.steady} in ${b.flagged} of ${b.n}`;
  const extra = { lab, differences: pick.cond.differ };
  const [minA, minB] = [claim.minimum?.runs ?? 3, claim.minimum?.runs_steady ?? 1];
  if (a.n < minA || b.n < minB) return [row(claim, 'inconclusive', { ...extra, why: `needs at least ${minA} ${t.flagged} and ${minB} ${t.steady} run(s) with the record (have ${a.n} and ${b.n})` })];
  // one side against the other, as every verdict: not where one side's runs all came first
  const { order, first } = sidesOrder([t.flagged, t.steady].map((side) => pick.bySide.get(side)));
  if (order === 'sequential') {
    const [before, after] = first === 0 ? [t.flagged, t.steady] : [t.steady, t.flagged];
    return [row(claim, 'inconclusive', { ...extra, why: `${before} ran before ${after}: not interleaved, so a change over time cannot be told from the engines (interleave them with ./run.sh compare)` })];
  }
  if (a.flagged === a.n && b.flagged === 0 && pick.cond.weak.length) return [row(claim, 'inconclusive', { ...extra, why: `every ${t.flagged} run's secondaries fell behind, no ${t.steady} run's did; not the seed's conditions for a reproduction: ${pick.cond.weak.join('; ')}` })];
  if (a.flagged === a.n && b.flagged === 0) return [row(claim, 'reproduced', { ...extra, why: `every ${t.flagged} run's secondaries fell behind, no ${t.steady} run's did` })];
  if (a.flagged === 0) return [row(claim, 'contradicted', { ...extra, why: `no ${t.flagged} run's secondaries fell behind` })];
  return [row(claim, 'inconclusive', { ...extra, why: a.flagged < a.n ? `${t.flagged} fell behind in ${a.flagged} of ${a.n} runs, not every one` : `${t.steady} fell behind too` })];
}

// resolution (seeds/004's monitoring): the dips a side's runs show at 1 s, and the same runs' ops/s
// averaged over the seed's coarse monitor (test.window_s, MMS's 56 s): flat there (the lowest
// window at least test.flat of the median window) where the 1 s record dipped.
function perSecond(r) {
  const total = new Map();
  for (const part of r.parts ?? [r]) {
    for (const row of rowsOf(part.timeline) ?? []) { // read from the run's folder (src/lazy-series.js)
      const ops = Object.values(row.ops || {}).map((o) => o.ops_per_s).filter((x) => typeof x === 'number');
      if (row.partial || !ops.length || typeof row.elapsed_s !== 'number') continue;
      const k = Math.round(row.elapsed_s);
      total.set(k, (total.get(k) ?? 0) + ops.reduce((a, x) => a + x, 0));
    }
  }
  return [...total].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
}

function evalResolution(claim, results) {
  const t = claim.test;
  if (unrecorded(claim, results, 'stability')) return [notComparable(claim, t.record)];
  const min = claim.minimum?.runs ?? 2;
  return perSide(claim, results, (side, runs) => {
    const seen = runs.map((r) => {
      const dips = r.points.filter((p) => p.stability && stepExclusion(p) === null)
        .flatMap((p) => p.stability.dips || []).length;
      const secs = perSecond(r);
      const means = [];
      for (let i = 0; i + t.window_s <= secs.length; i += t.window_s) {
        means.push(secs.slice(i, i + t.window_s).reduce((a, x) => a + x, 0) / t.window_s);
      }
      const sorted = [...means].sort((a, b) => a - b);
      return { dips, windows: means.length, low: means.length ? sorted[0] / sorted[means.length >> 1] : null };
    }).filter((x) => x.dips > 0 && x.windows >= 3);
    const flat = seen.filter((x) => x.low >= t.flat).length;
    const w = `${t.window_s} s`;
    const lows = seen.map((x) => `${Math.round(x.low * 100)}%`).join(', ') || '-';
    const lab = `${seen.length} run(s) with dips at 1 s and ${w} means over 3 or more windows; `
      + `in ${flat} the lowest ${w} mean is ${t.flat * 100}% or more of the median (${lows})`;
    if (seen.length < min) {
      const why = `needs at least ${min} runs with dips at 1 s and ${t.window_s * 3} s or more of timeline `
        + `(have ${seen.length})`;
      return row(claim, 'inconclusive', { lab, why });
    }
    if (flat === seen.length) {
      return row(claim, 'reproduced', { lab, why: `every run's dips at 1 s vanish in its ${w} means` });
    }
    if (flat === 0) return row(claim, 'contradicted', { lab, why: `every run's dips show in its ${w} means too` });
    const why = `the dips vanish in the ${w} means of ${flat} of ${seen.length} runs`;
    return row(claim, 'inconclusive', { lab, why });
  });
}

// fluctuation (TokuMX at 5 and 6 clients): one side's seconds per minute outside dips at its high
// steps (test.high: clients at or above) against its lower steps, run by run (the same runs on both
// sides of the ratio: no order to guard).
function evalFluctuation(claim, results) {
  const t = claim.test;
  if (unrecorded(claim, results, 'stability')) return [notComparable(claim, t.record)];
  return perSide(claim, results, (side, runs) => {
    const at = (keep) => runs.map((r) => ({
      ...r, points: r.points.filter((p) => typeof p.clients === 'number' && keep(p.clients)),
    }));
    const hi = steadinessAggregate(at((c) => c >= t.high), `${t.high}+ clients`, t.figure);
    const lo = steadinessAggregate(at((c) => c < t.high), `below ${t.high} clients`, t.figure);
    if (!hi.verdict_samples.length || !lo.verdict_samples.length) {
      return row(claim, 'not comparable', {
        missing: `needs steps with ${t.high} clients or more and fewer (./run.sh experiment2 sweeps 1 to 6)`,
        why: `no steps with ${t.high} clients or more, or none with fewer`,
      });
    }
    return ratioRow(claim, hi, lo, [hi.side, lo.side], 'the sweep', 's/min outside dips', {});
  });
}

const KINDS = {
  ratio: evalRatio, steadiness: evalSteadiness, cost: evalCost, ordering: evalOrdering, knee: evalKnee,
  labels: evalRatio, dips: evalDips, replication: evalReplication, resolution: evalResolution,
  fluctuation: evalFluctuation,
};

// holmClaims(rows): one Holm family over the claims tested on an interval (rows with p, the
// inconclusive ones too: each was a test); a reproduced or contradicted claim whose adjusted p is
// above 5% becomes inconclusive.
function holmClaims(rows) {
  const idx = rows.map((r, i) => (typeof r.p === 'number' ? i : -1)).filter((i) => i >= 0);
  const adj = holmAdjusted(idx.map((i) => rows[i].p));
  return rows.map((r, k) => {
    const at = idx.indexOf(k);
    if (at < 0) return r;
    const out = { ...r, p_holm: adj[at], comparisons: idx.length };
    if ((r.status === 'reproduced' || r.status === 'contradicted') && adj[at] > ALPHA) {
      return { ...out, status: 'inconclusive', why: `${r.why}, but does not hold after correcting for ${idx.length} claim tests (Holm-adjusted p = ${adj[at].toFixed(3)})` };
    }
    return out;
  });
}

// claimsReport(runs, claims) -> rows (report.json `claims`), one per claim and side it was tested on.
function claimsReport(runs, claims = loadClaims()) {
  const { results } = mergeGroups(runs);
  const rows = claims.flatMap((c) => {
    const fn = KINDS[c.test.kind];
    if (!fn) return [row(c, 'not comparable', { missing: `a test of kind ${c.test.kind}`, why: `claims.json: unknown test.kind '${c.test.kind}' (${Object.keys(KINDS).join(', ')})` })];
    // Runs that ended early never count (as in every verdict), but they are not "no runs": say so.
    const incomplete = results.filter((r) => r.experiment === c.test.experiment && !r.complete).length;
    return fn(c, results).map((r) => (r.status === 'not comparable' && incomplete ? { ...r, why: `${r.why} (${incomplete} incomplete run(s) of ${c.test.experiment} not counted)` } : r));
  });
  return holmClaims(rows);
}

module.exports = { claimsReport, loadClaims, judgeClaim, KINDS, holmClaims };
