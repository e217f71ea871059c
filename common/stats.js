'use strict';
// The lab's one median, mean and rounding, required by the loader (loader/src) and the report
// (report/src) alike, so that the two never print different numbers for the same runs.
// No dependencies: the loader image copies this folder beside loader/ (images/loader/Dockerfile)
// and both packages reach it by a relative require.

// median: the middle value, and for an even count the mean of the two middle values. That is the
// textbook definition (and numpy's, R's, Excel's); the lower middle element alone made the loader
// print "median 3100" where the report printed 6350 for the same two capacity searches.
const median = (xs) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const round = (x, d = 1) => (x === null || x === undefined ? null : Math.round(x * 10 ** d) / 10 ** d);

module.exports = { median, mean, round };
