'use strict';
// Folder names a run's engine label (results/<experiment>/<engine>/) must not take: `report` is
// the report's own folder, which it never reads as runs (report/src/read.js), and `latest` the link
// to the newest run. lib/compare.sh keeps the same list for compare's side names (bash).
const RESERVED_NAMES = ['report', 'latest'];

module.exports = { RESERVED_NAMES };
