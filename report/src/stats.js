'use strict';
// Verdict statistics over repetitions: the ratio of the two sides' geometric mean throughput,
// with Welch's Student t 95 % interval on log(throughput), exponentiated. Why t and not the
// bootstrap, why logs, why Welch: report/README.md, "Verdicts".
const tQuantile = require('@stdlib/stats-base-dists-t-quantile');

// The median and mean are the loader's too (common/stats.js: one definition for both).
const { median, mean } = require('../../common/stats');

const variance = (xs) => {
  const m = mean(xs);
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
};

// ratioCI(a, b, level) -> { ratio, low, high, df } for throughput samples a (numerator), b;
// ratio = geomean(a) / geomean(b), always inside [low, high].
// Needs >= 2 positive samples on each side (callers check and say why not).
function ratioCI(a, b, level = 0.95) {
  const la = a.map(Math.log);
  const lb = b.map(Math.log);
  const va = variance(la) / la.length;
  const vb = variance(lb) / lb.length;
  const d = mean(la) - mean(lb);
  const se = Math.sqrt(va + vb);
  // The headline is the ratio this interval describes: of geometric means (exp of the mean log
  // difference), never the ratio of medians (with bimodal samples that fell outside its own CI).
  const ratio = Math.exp(d);
  if (se === 0) return { ratio, low: Math.exp(d), high: Math.exp(d), df: null };
  // Welch-Satterthwaite degrees of freedom
  const df = (va + vb) ** 2 / (va ** 2 / (la.length - 1) + vb ** 2 / (lb.length - 1));
  const t = tQuantile(1 - (1 - level) / 2, df);
  return { ratio, low: Math.exp(d - t * se), high: Math.exp(d + t * se), df };
}

// geomeanCI(xs, level) -> { mean, low, high, df } for positive samples xs: the geometric mean and
// its Student t interval on log(xs), exponentiated (the ratio's interval above, for one side).
// Needs >= 2 samples; null otherwise.
function geomeanCI(xs, level = 0.95) {
  if (xs.length < 2) return null;
  const l = xs.map(Math.log);
  const m = mean(l);
  const se = Math.sqrt(variance(l) / l.length);
  const df = l.length - 1;
  const t = se === 0 ? 0 : tQuantile(1 - (1 - level) / 2, df);
  return { mean: Math.exp(m), low: Math.exp(m - t * se), high: Math.exp(m + t * se), df };
}

// sig(x) -> x to 6 significant digits: what report.json stores of a computed ratio or bound, so a
// product of exact factors reads 2, not 2.0000000000000004. null and non-numbers pass through.
const sig = (x) => (typeof x === 'number' && Number.isFinite(x) ? Number(x.toPrecision(6)) : x);

// spread(xs): median, fastest and slowest of the numbers in xs (null when there are none): a side's
// figure over its repetitions, all of them (compare.js) or the usable ones (usable.js).
function spread(xs) {
  const n = xs.filter((x) => typeof x === 'number');
  return { median: median(n), fastest: n.length ? Math.max(...n) : null, slowest: n.length ? Math.min(...n) : null };
}

module.exports = { median, mean, ratioCI, geomeanCI, sig, spread };
