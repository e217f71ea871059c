'use strict';
// What a capacity verdict can know (src/capacity-limits.js), through the real
// report CLI on synthetic --sla results folders: an interval that includes the searches' brackets
// (searches that all stopped at the same rates used to give "2.09x (95% CI 2.09-2.09)", excluding
// the true 2.0); a search whose passing step shared the host stays a sample (the loader's rule,
// loader/src/experiment/sla.js hostCaveat: only a failing step on a busy host makes a search host-limited).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir, makeRun } = require('./support/fixtures');
const { main } = require('../src/cli');

const ops = (rate) => ({ find: { rate } });
// a search that passed at `pass` and failed at `fail` (its two deciding steps)
function search(root, engine, stamp, pass, fail, { contended = false, startedAt, older = false } = {}) {
  const step = (offered, passed) => ({ offered_ops_per_s: offered, achieved_ops_per_s: offered, intended_us: passed ? 2000 : 50000, service_us: 1000, passed, why: passed ? null : 'x' });
  const capacity = { sla: { percentile: 'p99', target_ms: 10, text: 'p99=10ms' }, capacity_ops_per_s: pass, lowest_failing_ops_per_s: fail, clients: 32, complete: true,
    search: { start: pass, growth: 2, refine_within: 0.05 }, steps: [step(pass, true), step(fail, false)] };
  // older: a summary from before the loader recorded search.growth, whose search never failed
  if (older) Object.assign(capacity, { lowest_failing_ops_per_s: null, search: { start: pass },
    steps: [step(pass, true)] });
  const steps = [{ name: `rate-${pass}`, ops: ops(pass) }, ...(older ? [] : [{ name: `rate-${fail}`, ops: ops(fail) }])];
  const dir = makeRun(root, { engine, stamp, started_at: startedAt, parameters: { sla: 'p99=10ms' }, steps, extra: { capacity } });
  if (contended) {
    const f = path.join(dir, 'summary.json');
    const s = JSON.parse(fs.readFileSync(f, 'utf8'));
    s.steps[0].loader.contention = ['worker 0 event-loop delay p99 150 ms (> 20 ms)'];
    fs.writeFileSync(f, JSON.stringify(s, null, 2));
  }
}
const report = (root) => {
  let out = '';
  assert.equal(main(['--results-dir', root], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  return { out, rep: JSON.parse(fs.readFileSync(path.join(root, 'report', 'latest', 'report.json'), 'utf8')) };
};

test('searches that all stopped at the same rates: the interval includes their brackets and the true ratio', () => {
  const root = tmpDir();
  // true capacities 102 and 204 (ratio 2.0): every search of a brackets them at 100..105, of b at 209..219
  for (let i = 0; i < 3; i++) search(root, 'a', `a${i}`, 100, 105);
  for (let i = 0; i < 3; i++) search(root, 'b', `b${i}`, 209, 219);
  const { out, rep } = report(root);
  const v = rep.capacity[0].verdicts[0];
  assert.deepEqual(v.ci_statistical.map((x) => x.toFixed(2)), ['2.09', '2.09'], 'the t interval alone has zero width');
  assert.ok(v.ci[0] < 2 && v.ci[1] > 2, `widened: ${v.ci}`);
  assert.match(v.sentence, /b sustains 2\.09x a's rate at p99 <= 10 ms \(95% CI 1\.99-2\.19 with the searches' brackets, 3 runs each\)/);
  assert.match(out, /with the searches' brackets/);
  // the capacity line shows the verdict's statistic, the geometric mean (not the median)
  assert.match(out, /a 100 ops\/s \(geometric mean of 3\/3 run\(s\)/);
});

test('the capacity line shows the geometric mean the verdict uses', () => {
  const root = tmpDir();
  // a: 100, 100, 400 -> median 100, geometric mean 159; the verdict's ratio is of geometric means
  [100, 100, 400].forEach((c, i) => search(root, 'a', `a${i}`, c, c + 4));
  [300, 310, 320].forEach((c, i) => search(root, 'b', `b${i}`, c, c + 10));
  const { out } = report(root);
  assert.match(out, /a 159 ops\/s \(geometric mean of 3\/3 run\(s\)/);
});

test('a search whose passing step shared the host is a sample, as the loader printed it (one rule: loader/src/experiment/sla.js hostCaveat)', () => {
  const root = tmpDir();
  search(root, 'a', 'a0', 100, 105);
  search(root, 'a', 'a1', 100, 105);
  search(root, 'a', 'a2', 60, 63, { contended: true }); // contention on its passing step (rate-60)
  for (let i = 0; i < 3; i++) search(root, 'b', `b${i}`, 200, 210);
  const { out, rep } = report(root);
  const [a] = rep.capacity[0].sides;
  assert.deepEqual([...a.samples].sort((x, y) => x - y), [60, 100, 100]);
  assert.deepEqual(a.excluded, {});
  assert.deepEqual(a.brackets.map((b) => `${b.pass}..${b.fail}`).sort(), ['100..105', '100..105', '60..63']);
  const v = rep.capacity[0].verdicts[0];
  assert.deepEqual(v.usable, [3, 3]);
  assert.doesNotMatch(out, /contention|host-limited/);
});

// A single side's capacity has its own interval (the loader's --repeat line says the report gives
// it): the geometric mean's t interval over the side's searches, widened by their brackets; one
// search has none and says why. Stored bounds are rounded: searches where nothing failed bracket
// their capacity by the growth factor (2), whose ratio of geometric means came out as
// 2.0000000000000004.
test('each side\'s capacity has its interval; stored ratios and bounds carry no float noise', () => {
  const root = tmpDir();
  [1000, 1040, 980].forEach((c, i) => search(root, 'a', `a${i}`, c, c * 2));
  [500, 510, 490].forEach((c, i) => search(root, 'b', `b${i}`, c, c * 2));
  search(root, 'c', 'c0', 700, 1400);
  const { out, rep } = report(root);
  const [a, b, c] = rep.capacity[0].sides;
  assert.ok(a.interval.low_statistical < a.geomean && a.geomean < a.interval.high_statistical,
    JSON.stringify(a.interval));
  assert.ok(a.interval.low === a.interval.low_statistical && a.interval.high > a.interval.high_statistical * 1.99, 'widened by the bracket (x2 above)');
  assert.equal(c.interval.low, null);
  assert.match(out, /^ {4}95% CI \d+-\d+ of the geometric mean \(Student t over 3 run\(s\), widened by the searches' brackets\)$/m);
  assert.match(out, /^ {4}no interval: 1 usable run\(s\): an interval needs at least 2 \(--repeat\)$/m);
  const v = rep.capacity[0].verdicts.find((x) => x.sides.join() === 'a,b');
  assert.equal(v.resolution.faster, 2);
  assert.equal(v.resolution.slower, 0.5);
  const six = (x) => x === null || x === Number(x.toPrecision(6));
  for (const w of rep.capacity[0].verdicts.filter((x) => Array.isArray(x.ci))) for (const x of [w.ratio, ...w.ci, ...w.ci_statistical, w.resolution.faster, w.resolution.slower]) assert.ok(six(x), `${w.sentence}: ${x}`);
  for (const side of [a, b]) for (const x of [side.geomean, side.interval.low, side.interval.high]) assert.ok(six(x), `${side.side}: ${x}`);
});

// Capacity searches follow the throughput verdicts' order rule (src/drift.js runOrder): sides
// searched one after the other give no verdict, only their ratio marked not interleaved.
test('capacity searches run one side after the other: no verdict, the ratio marked not interleaved', () => {
  const root = tmpDir();
  const at = (m) => new Date(Date.parse('2026-11-01T00:00:00Z') + m * 60000).toISOString();
  [209, 210, 211].forEach((c, i) => search(root, 'b', `b${i}`, c, c + 10, { startedAt: at(i) }));
  [100, 101, 99].forEach((c, i) => search(root, 'a', `a${i}`, c, c + 5, { startedAt: at(10 + i) }));
  const { out, rep } = report(root);
  const v = rep.capacity[0].verdicts[0];
  assert.equal(v.status, 'not-interleaved', v.sentence);
  assert.equal(v.order, 'sequential');
  assert.equal(v.ci, null);
  assert.match(v.sentence, /^capacity at p99 <= 10 ms: no verdict: b ran before a \(ratio b\/a 2\.\d\d, not interleaved/);
  assert.match(out, /no verdict: b ran before a/);
  assert.doesNotMatch(out, /b sustains/);
});

// An older summary without search.growth whose search never failed: its capacity is known only to
// within the growth its loader used (2), so its bracket is pass..2 x pass, never a point that
// would leave the interval unwidened.
test('an older summary without search.growth: its bracket is widened by the growth its loader used', () => {
  const root = tmpDir();
  for (let i = 0; i < 3; i++) search(root, 'a', `a${i}`, 100, null, { older: true });
  for (let i = 0; i < 3; i++) search(root, 'b', `b${i}`, 200, 210);
  const { rep } = report(root);
  const a = rep.capacity[0].sides.find((x) => x.side === 'a');
  assert.deepEqual(a.brackets.map((b) => `${b.pass}..${b.fail}`), ['100..200', '100..200', '100..200']);
  const v = rep.capacity[0].verdicts[0];
  assert.ok(v.ci[1] / v.ci[0] > 1.9, `the interval spans the unknown factor of 2: ${v.ci}`);
});
