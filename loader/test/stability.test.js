'use strict';
// A step's stability on hand-made seconds and server rows: the pure
// functions of src/stability/. The same paths run through the real loader, driver and wire shim
// in test/stability-run.test.js.
const test = require('node:test');
const assert = require('node:assert/strict');
const { stepStability } = require('../src/stability/stability');
const { explainDips, NO_EVENT, RULES, MIN_OUTSIDE_WINDOWS } = require('../src/stability/explain');
const { stabilityLine, stabilityLines, MAX_LINES } = require('../src/stability/line');
const { FIELDS } = require('../src/server-record/fields');

const T0 = Date.parse('2026-11-26T12:00:00Z');
// seconds(rates, p99s): one full second each, ending at T0 + (i + 1) s.
const seconds = (rates, p99s = []) => rates.map((r, i) => ({ end: T0 + (i + 1) * 1000, interval_s: 1, ops: r,
  p99_us: p99s[i] ?? 1000 }));

test('a steady step: no dips, CV and worst second as measured', () => {
  const st = stepStability(seconds([1000, 1010, 990, 1005, 995, 1000, 1002, 998]));
  assert.deepEqual(st.dips, []);
  assert.equal(st.dip_seconds, 0);
  assert.equal(st.median_ops_per_s, 1000);
  assert.equal(st.worst_second_fraction, 0.99);
  assert.ok(st.cv > 0 && st.cv < 0.01, String(st.cv));
  assert.deepEqual(st.p99_us, { median: 1000, worst: 1000 });
});

test('a second below half the median is a dip; adjacent ones are one dip; start, length, depth', () => {
  const st = stepStability(seconds([1000, 1000, 400, 100, 1000, 1000, 1000, 300, 1000, 1000]));
  assert.equal(st.dips.length, 2, JSON.stringify(st.dips));
  assert.equal(st.dips[0].start, new Date(T0 + 2000).toISOString());
  assert.equal(st.dips[0].length_s, 2);
  assert.equal(st.dips[0].depth, 0.1);
  assert.equal(st.dips[1].length_s, 1);
  assert.equal(st.dip_seconds, 3);
  assert.equal(st.worst_second_fraction, 0.1);
});

test('a second whose p99 passed 4x the median per-second p99 is a dip even when its throughput held', () => {
  const st = stepStability(seconds([1000, 1000, 1000, 1000, 1000, 1000], [1000, 1000, 4100, 1000, 3900, 1000]));
  assert.equal(st.dips.length, 1, JSON.stringify(st.dips));
  assert.deepEqual(st.dips[0].by, ['p99']);
  assert.equal(st.dips[0].p99_ratio, 4.1);
  assert.equal(st.p99_us.worst, 4100);
});

test('the partial last second is left out; too few seconds or operations: dips not judged, with the reason', () => {
  const st = stepStability([...seconds([1000, 1000, 1000, 1000, 1000]),
    { end: T0 + 5300, interval_s: 0.3, ops: 10, p99_us: 1000 }]);
  assert.equal(st.seconds, 5);
  assert.deepEqual(st.dips, []);
  assert.equal(stepStability(seconds([1000, 1000, 10])).dips, null);
  assert.match(stepStability(seconds([1000, 1000, 10])).not_judged, /3 measured seconds/);
  assert.match(stepStability(seconds([5, 6, 5, 6, 5, 1])).not_judged, /median second of 5 operations/);
});

// A server row as the sampler keeps it (src/server-record/sampler.js series).
const row = (s, member, values, repl = null) => ({ at: T0 + s * 1000 + 100, member, role: 'shard', interval_s: 1, values, repl });

test('a dip during a checkpoint is attributed to it, with the row that shows it; none is "no server event recorded"', () => {
  const st = stepStability(seconds([1000, 1000, 1000, 100, 1000, 1000, 1000, 1000, 100, 1000]));
  const series = [];
  for (let s = 0; s < 10; s++) series.push(row(s, 'a:1', { wt: { checkpoint_running: s === 3 ? 1 : 0, checkpoints: 0 } }));
  const dips = explainDips(st.dips, { series, loader: [], from: T0, to: T0 + 10000 });
  assert.deepEqual(dips[0].causes.map((c) => c.id), ['checkpoint']);
  assert.equal(dips[0].causes[0].evidence[0].field, 'wt.checkpoint_running');
  assert.equal(dips[0].causes[0].evidence[0].t, new Date(T0 + 3100).toISOString());
  assert.deepEqual(dips[1].causes, []);
  assert.equal(dips[1].cause_text, NO_EVENT);
  assert.equal(stabilityLine(1, { ...st, dips }), 'STABILITY: step 1: 2 dips, 2 s in all: 1 during a checkpoint, 1 with no server event recorded');
});

test('live: a dip is posted once the server record has reached its end (or after RECORD_WAIT_MS), explained by that record', () => {
  const { LiveDips, RECORD_WAIT_MS } = require('../src/stability/live');
  const secs = seconds([1000, 1000, 1000, 100, 1000, 1000]); // the dip: the 4th second, ending at T0 + 4000
  const rows = (n) => Array.from({ length: n }, (_, s) => row(s, 'a:1', { wt: { checkpoint_running: s === 3 ? 1 : 0, checkpoints: 0 } }));
  const live = new LiveDips();
  assert.deepEqual(live.update(secs, rows(3), T0).ended, [], 'the record (rows to T0 + 2100) has not reached the dip');
  const [d] = live.update(secs, rows(5), T0).ended;
  assert.ok(d, 'posted once a row after its end arrived');
  assert.deepEqual(d.causes.map((c) => c.id), ['checkpoint']);
  // Grafana's annotation: the dip's second did 100 of the median 1000 operations
  const { annotationText } = require('../src/stability/live');
  assert.equal(annotationText('experiment2', 1, d), 'experiment2: step 1: dip of 1 s to 10 % of the median: during a checkpoint');
  assert.deepEqual(live.update(secs, rows(6), T0).ended, [], 'posted once');
  // no server record: posted at once, with nothing to say about the server
  assert.equal(new LiveDips().update(secs, null, T0).ended[0].cause_text, NO_EVENT);
  // a record that stopped (a frozen server): posted RECORD_WAIT_MS after the dip's end
  const stuck = new LiveDips();
  const wait = seconds([1000, 1000, 1000, 100, ...Array(RECORD_WAIT_MS / 1000).fill(1000)]);
  assert.deepEqual(stuck.update(wait.slice(0, -1), rows(3), T0).ended, []);
  assert.equal(stuck.update(wait, rows(3), T0).ended.length, 1);
});

test('several causes are all listed; the previous second counts, the next does not', () => {
  const st = stepStability(seconds([1000, 1000, 1000, 1000, 100, 1000, 1000, 1000]));
  const series = [
    row(3, 'a:1', { wt: { cache_dirty_bytes: 30, cache_max_bytes: 100, app_evicted_pages: 12 } }, { state: 'PRIMARY' }),
    row(4, 'a:1', { tickets: { write_available: 0, read_available: 100 } }, { state: 'PRIMARY' }),
    row(3, 'b:1', {}, { state: 'SECONDARY', lag_s: 0 }),
    row(4, 'b:1', { proc: { page_faults: 50 } }, { state: 'SECONDARY', lag_s: 3 }),
    row(5, 'a:1', { mmapv1: { flushes: 1 } }, { state: 'PRIMARY' }), // the second after: not a cause
    ...[0, 1, 2, 5, 6].map((s) => row(s, 'b:1', { proc: { page_faults: 5 } }, { state: 'SECONDARY', lag_s: 0 })),
  ].sort((x, y) => x.at - y.at);
  const [d] = explainDips(st.dips, { series, loader: [], from: T0, to: T0 + 8000 });
  assert.deepEqual(d.causes.map((c) => c.id), ['dirty_cache', 'app_eviction', 'tickets', 'lag_jump', 'page_faults']);
  assert.match(d.cause_text, /^with dirty cache above the eviction trigger, with application threads evicting, .*, with a burst of page faults$/);
});

test('a member silent in the dip, or changing state, and the loader stalled, are causes', () => {
  const st = stepStability(seconds([1000, 1000, 1000, 1000, 100, 1000, 1000]));
  // A member answers every second, as the record samples it; c:1 is silent in the dip's seconds.
  const series = [
    ...[0, 1, 2, 3, 4, 5, 6].map((s) => row(s, 'a:1', {}, { state: s < 3 ? 'PRIMARY' : 'SECONDARY' })),
    ...[0, 1, 2, 5, 6].map((s) => row(s, 'c:1', {}, { state: 'SECONDARY' })),
  ].sort((x, y) => x.at - y.at);
  const loader = seconds([1000, 1000, 1000, 1000, 100, 1000, 1000]).map((s, i) => ({ ...s,
    selfs: [{ worker: 0, eldMaxMs: i === 4 ? 300 : 1 }], host: { cores: 2, steal_cores: 0, other_cores: 0 } }));
  const [d] = explainDips(st.dips, { series, loader, from: T0, to: T0 + 7000 });
  assert.deepEqual(d.causes.map((c) => c.id), ['member', 'loader_host']);
  assert.equal(d.cause_text, "with a member unreachable or changing state; with the loader's host stalled or busy");
  assert.deepEqual(d.causes[0].evidence.map((e) => e.member).sort(), ['a:1', 'c:1']);
});

test('every rule of causes.json names fields the server record writes, and cites each server line', () => {
  const keys = new Set(FIELDS.map((f) => f.key));
  for (const r of RULES) {
    // every server line causes.json lists (its own registry, not a count copied here)
    assert.deepEqual(Object.keys(r.meaning).sort(), [...require('../src/stability/causes.json').lines].sort(), `${r.id}: meaning on every line`);
    assert.ok(r.says && r.why, r.id);
    for (const c of r.any) {
      if (!c.field || r.source === 'loader' || c.field.startsWith('repl.')) continue;
      assert.ok(keys.has(c.field), `${r.id}: ${c.field} is a server.ndjson field`);
      if (c.over) assert.ok(keys.has(c.over), `${r.id}: ${c.over}`);
    }
  }
});

test('the terminal lines stay within 120 columns however many kinds of causes; past three lines the rest are counted', () => {
  const dips = RULES.filter((r) => r.id !== 'loader_host').map((r) => ({ start: '', end: '', length_s: 1, depth: 0.1, causes: [{ id: r.id, says: r.says }, { id: 'loader_host', says: 'with the loader\'s host stalled or busy' }] }));
  const text = stabilityLine(3, { dips, dip_seconds: dips.length, cv: 0.2, worst_second_fraction: 0.1 });
  const lines = text.split('\n');
  assert.deepEqual(lines.filter((l) => l.length > 120), []);
  assert.ok(lines.length <= MAX_LINES, text);
  assert.match(text.replace(/\n {2}/g, ' '), /^STABILITY: step 3: 10 dips, 10 s in all: 1 during a checkpoint, (.*, )?\d+ more \(summary\.json\); loader host busy in 10$/);
});

// A dip's cause was hidden behind "1 more" to keep one line: it is named, the line wrapped.
test('every cause named where the lines allow: none behind "1 more"', () => {
  const says = (id) => RULES.find((r) => r.id === id).says;
  const dip = (ids) => ({ start: '', end: '', length_s: 1, depth: 0.1, causes: ids.map((id) => ({ id, says: says(id) })) });
  const dips = [dip(['checkpoint', 'dirty_cache']), dip(['checkpoint', 'app_eviction']), dip(['rocks_flush', 'loader_host'])];
  const text = stabilityLine(12, { dips, dip_seconds: 4, cv: 0.3, worst_second_fraction: 0.2 });
  assert.deepEqual(text.split('\n').filter((l) => l.length > 120), []);
  assert.doesNotMatch(text, /more/);
  assert.equal(text.replace(/\n {2}/g, ' '), `STABILITY: step 12: 3 dips, 4 s in all: 2 during a checkpoint, 1 ${says('dirty_cache')}, 1 ${says('app_eviction')}, 1 ${says('rocks_flush')} (some dips: several); loader host busy in 1`);
});

// A capacity search of 13 short steps printed 13 lines each saying "dips not judged (...)".
test('consecutive steps with the same line are said once: "steps 1-13"', () => {
  const short = { dips: null, not_judged: '1 measured second (fewer than 5): no median to judge dips by' };
  const judged = { dips: [], cv: 0.01, worst_second_fraction: 0.97, dip_seconds: 0 };
  const steps = [...Array(13)].map((_, i) => ({ index: i + 1, stability: short }));
  assert.deepEqual(stabilityLines(steps), ['STABILITY: steps 1-13: dips not judged (1 measured second (fewer than 5): no median to judge dips by)']);
  steps.splice(5, 1, { index: 6, stability: judged });
  assert.deepEqual(stabilityLines(steps), [
    'STABILITY: steps 1-5: dips not judged (1 measured second (fewer than 5): no median to judge dips by)',
    'STABILITY: step 6: no dips; worst second 97 % of the median, CV 0.01',
    'STABILITY: steps 7-13: dips not judged (1 measured second (fewer than 5): no median to judge dips by)',
  ]);
  assert.deepEqual(stabilityLines([{ index: 1, stability: short }, { index: 2, stability: null }, { index: 3, stability: short }]).length, 2, 'a step between breaks the run');
  // the count in words, as the step measured it
  assert.equal(stepStability(seconds([1000])).not_judged, '1 measured second (fewer than 5): no median to judge dips by');
  assert.match(stepStability(seconds([1000, 1000])).not_judged, /^2 measured seconds \(fewer than 5\)/);
});

test('the other engines\' events: an MMAPv1 flush, a RocksDB flush pending, flow control, a member the primary sees down', () => {
  const st = stepStability(seconds([1000, 1000, 1000, 1000, 100, 1000, 1000]));
  const series = [
    row(4, 'm:1', { mmapv1: { flushes: 1, last_flush_ms: 900 } }),
    row(4, 'r:1', { rocks: { mem_table_flush_pending: 1, compaction_pending: 0 } }),
    row(3, 'w:1', { flow: { is_lagged: 0, time_acquiring_us: 250000 } }),
    { at: T0 + 4100, view: [{ name: 'w:1', state: 'PRIMARY' }, { name: 'x:1', state: '(not reachable/healthy)' }] },
    row(4, 'm:1', { mmapv1: { flushes: 0 } }), // a member's second row: nothing more
    // every member answers in the other seconds, with nothing to say
    ...[0, 1, 2, 5, 6].flatMap((s) => ['m:1', 'r:1', 'w:1'].map((m) => row(s, m, {}))),
    row(3, 'm:1', {}), row(3, 'r:1', {}), row(4, 'w:1', {}),
  ].sort((x, y) => (x.at - y.at));
  const [d] = explainDips(st.dips, { series, loader: [], from: T0, to: T0 + 7000 });
  assert.deepEqual(d.causes.map((c) => c.id), ['flow_control', 'mmapv1_flush', 'rocks_flush', 'member']);
  assert.deepEqual(d.causes.find((c) => c.id === 'member').evidence, [{ t: new Date(T0 + 4100).toISOString(), field: 'view_unhealthy', value: 'x:1 (not reachable/healthy)' }]);
});

// A step of 20 seconds with one dip (the 11th second) and rows for one member every second.
function oneDip(values) {
  const st = stepStability(seconds(Array.from({ length: 20 }, (_, i) => (i === 10 ? 100 : 1000))));
  const series = Array.from({ length: 20 }, (_, s) => row(s, 'a:1', values(s), { state: 'PRIMARY' }));
  return explainDips(st.dips, { series, loader: [], from: T0, to: T0 + 20000 })[0];
}

test('an event as frequent outside the dips as in them is no cause: "coincides with", its base rate said', () => {
  // Application threads evicting in every other second: as often outside the dip as in it.
  const d = oneDip((s) => ({ wt: { app_evicted_pages: s % 2 ? 1 : 0 } }));
  assert.deepEqual(d.causes, []);
  assert.deepEqual(d.coincides.map((c) => c.id), ['app_eviction']);
  assert.match(d.coincides[0].base_rate.outside_dips, /^\d+\/\d+$/);
  assert.match(d.cause_text, /^no server event recorded; coincides with application threads evicting \(as often outside dips: \d+\/\d+ windows\)$/);
  // The same event only in the dip's seconds: a cause, with its base rate.
  const e = oneDip((s) => ({ wt: { app_evicted_pages: s === 10 ? 5 : 0 } }));
  assert.deepEqual(e.causes.map((c) => c.id), ['app_eviction']);
  assert.match(e.causes[0].base_rate.outside_dips, /^0\//);
});

test('with too few windows outside the dips to compare, an event in the dip is a cause, its base rate kept', () => {
  // A live dip early in a step: its checkpoint's last row falls in the one window after it.
  const st = stepStability(seconds([1000, 1000, 100, 1000, 1000]));
  const series = Array.from({ length: 5 }, (_, s) => row(s, 'a:1', { wt: { checkpoint_running: s === 2 || s === 3 ? 1 : 0 } },
    { state: 'PRIMARY' }));
  const early = explainDips(st.dips, { series, loader: [], from: T0, to: T0 + 5000 })[0];
  assert.equal(early.causes.find((c) => c.id === 'checkpoint')?.base_rate.outside_dips, '1/1', JSON.stringify(early));
  assert.ok(1 < MIN_OUTSIDE_WINDOWS);
  assert.doesNotMatch(early.cause_text, new RegExp(NO_EVENT));
  // The same event in as many windows outside as in: "coincides with", once there are enough.
  const every = Array.from({ length: 20 }, (_, s) => row(s, 'a:1', { wt: { checkpoint_running: 1 } }, { state: 'PRIMARY' }));
  const st20 = stepStability(seconds(Array.from({ length: 20 }, (_, i) => (i === 10 ? 100 : 1000))));
  const late = explainDips(st20.dips, { series: every, loader: [], from: T0, to: T0 + 20000 })[0];
  assert.deepEqual(late.coincides.map((c) => c.id), ['checkpoint'], JSON.stringify(late));
});

test("a lag jump is a rise between adjacent seconds, never against a row further back", () => {
  const st = stepStability(seconds([1000, 1000, 1000, 1000, 1000, 100, 1000, 1000]));
  const mk = (secs) => explainDips(st.dips, { series: secs.map(([s, lag]) => row(s, 'b:1', {}, { state: 'SECONDARY', lag_s: lag })), loader: [], from: T0, to: T0 + 8000 })[0];
  // 0 at second 1, then nothing until 2.5 s at second 4 (the row before is 3 s back): no jump.
  assert.deepEqual(mk([[1, 0], [4, 2.5], [5, 2.5]]).causes, []);
  // 0 at second 3, 2.5 at second 4: a jump.
  assert.deepEqual(mk([[0, 0], [1, 0], [2, 0], [3, 0], [4, 2.5], [5, 2.5], [6, 2.5], [7, 2.5]]).causes.map((c) => c.id), ['lag_jump']);
});

test('an MMAPv1 flush reported in the second it ended is placed back over its last_ms', () => {
  // The dip is the 11th second (T0 + 10 s .. 11 s); the flush ended at 12.1 s and lasted 2,500 ms.
  const d = oneDip((s) => ({
    mmapv1: s === 12 ? { flushes: 1, last_flush_ms: 2500 } : { flushes: 0, last_flush_ms: 2500 },
  }));
  assert.deepEqual(d.causes.map((c) => c.id), ['mmapv1_flush']);
  // A short flush ending that late did not cover the dip.
  const e = oneDip((s) => ({
    mmapv1: s === 12 ? { flushes: 1, last_flush_ms: 300 } : { flushes: 0, last_flush_ms: 300 },
  }));
  assert.deepEqual(e.causes, []);
});

test("inMemory never checkpoints nor evicts for dirty pages: those rules do not hold on its rows; MongoRocks' compaction-pending is no event, stall-micros is", () => {
  const st = stepStability(seconds([1000, 1000, 1000, 100, 1000, 1000]));
  const mem = (values) => ({ ...row(3, 'i:1', values), engine: 'inMemory' });
  const d = explainDips(st.dips, { series: [mem({ wt: { checkpoint_running: 1, app_evicted_pages: 3,
    cache_dirty_bytes: 90, cache_max_bytes: 100 } })], loader: [], from: T0, to: T0 + 6000 })[0];
  assert.deepEqual(d.causes, []);
  const r = (values) => explainDips(st.dips, { series: [row(3, 'r:1', { rocks: values })], loader: [], from: T0, to: T0 + 6000 })[0];
  assert.deepEqual(r({ compaction_pending: 1 }).causes, []);
  assert.deepEqual(r({ compaction_pending: 1, stall_micros: 250000 }).causes.map((c) => c.id), ['rocks_flush']);
});

test('on a line whose lag is the heartbeat optime (2 s floor), a 0 -> 2 s step is the heartbeat, not a jump', () => {
  const st = stepStability(seconds([1000, 1000, 1000, 1000, 1000, 100, 1000, 1000]));
  const mk = (lags) => explainDips(st.dips, { series: lags.map((lag, s) => row(s, 'b:1', {}, { state: 'SECONDARY', lag_s: lag, lag_source: 'optimeDate', lag_floor_s: 2 })), loader: [], from: T0, to: T0 + 8000 })[0];
  assert.deepEqual(mk([0, 0, 0, 0, 2, 2, 0, 0]).causes, []);
  assert.deepEqual(mk([0, 0, 0, 0, 5, 5, 5, 5]).causes.map((c) => c.id), ['lag_jump']);
});
