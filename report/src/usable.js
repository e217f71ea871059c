'use strict';
// The side's figure from the runs its verdict uses: an aggregate's median,
// fastest and slowest (compare.js aggregate, the shared statistics) are over every run of the
// point, excluded ones too, so a page could draw a side from runs the verdict refused (an A/A page
// drew side A from 1 usable run of 8 and B from none). usableFigures adds, per aggregate and op,
// the same figures over the usable runs only and the excluded runs' values apart; the page draws
// the usable median as the side's figure and each excluded run as a hollow grey dot, and the
// numbers table shows the usable median beside a count of the runs left out.
const { spread } = require('./stats');

// usableFigures(aggregates, results, isUsable): adds `usable` {runs, ops_per_s: {median, fastest,
// slowest}, ops: {op: {median, fastest, slowest}}} and `excluded_values` {op: [ops/s]} to each
// aggregate. results: the set's runs (r.side); isUsable(point): the verdict's rule.
function usableFigures(aggregates, results, isUsable) {
  for (const a of aggregates) {
    const pts = results.filter((r) => r.side === a.side)
      .map((r) => r.points.find((p) => p.name === a.point)).filter(Boolean);
    const good = pts.filter(isUsable);
    const bad = pts.filter((p) => !isUsable(p));
    const ops = {};
    const excluded = {};
    for (const op of Object.keys(a.ops)) {
      ops[op] = spread(good.map((p) => p.ops[op]?.ops_per_s));
      excluded[op] = bad.map((p) => p.ops[op]?.ops_per_s).filter((x) => typeof x === 'number');
    }
    a.usable = { runs: good.length, ops_per_s: spread(good.map((p) => p.ops_per_s)), ops };
    a.excluded_values = excluded;
  }
  return aggregates;
}

module.exports = { usableFigures };
