'use strict';
// A run's per-second series (its timeline.ndjson or server.ndjson, as the report shows it), read
// from the run's folder each time it is needed and never held: a run of default length is about
// 0.35 MB of series, so holding every run's made the report's memory grow with the runs (10,000
// runs peaked at 3.5 GB, V8's heap of about 4 GB was reached at about 11,000). What reads a series:
// report.json's writer and the page's JSON (through toJSON, one run at a time: src/json-stream.js)
// and src/claims.js (rowsOf). The run's folder is read once before (src/read.js), so an unreadable
// file skips the run there; a file that changed since (a loader still writing) is shown as it is now.
class LazySeries {
  // read() -> the series (an array), from the run's folder
  constructor(read) {
    this.read = read;
  }

  toJSON() {
    return this.read();
  }
}

// rowsOf(series) -> the array: a LazySeries read now, an array (a run made in memory) as it is
const rowsOf = (series) => (series instanceof LazySeries ? series.read() : series);

module.exports = { LazySeries, rowsOf };
