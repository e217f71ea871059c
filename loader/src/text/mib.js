'use strict';
// mibPerS(mbPerS): MB/s (10^6 bytes) as MiB/s (2^20 bytes), the seed's unit (seeds/003 published
// MiB/s as "MB/s"), to 3 decimals. One conversion for the gridfs log line, summary.json and the
// table, from MB/s that summary.js computed over the unrounded measured time: the table once
// divided the bytes by measured_s rounded to the millisecond, and said 61.527 beside 61.613.
const mibPerS = (mbPerS) => (mbPerS === null || mbPerS === undefined
  ? null : Math.round((mbPerS / 1.048576) * 1000) / 1000);

module.exports = { mibPerS };
