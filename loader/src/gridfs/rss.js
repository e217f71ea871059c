'use strict';
// RssWatch: the loader process's resident memory (all threads) during one case, sampled on the
// main thread every 100 ms. summary.json's loader.peak_rss_bytes is the process's high-water mark
// over the whole run; this is the peak within one case, so an upload that held its file in memory
// would show it in that case's figure.
class RssWatch {
  constructor(periodMs = 100) {
    this.start = process.memoryUsage.rss();
    this.peak = this.start;
    this.timer = setInterval(() => this.sample(), periodMs);
    this.timer.unref();
  }

  sample() {
    const r = process.memoryUsage.rss();
    if (r > this.peak) this.peak = r;
    return r;
  }

  // stop() -> { rss_start_bytes, rss_peak_bytes, rss_end_bytes }
  stop() {
    clearInterval(this.timer);
    const end = this.sample();
    return { rss_start_bytes: this.start, rss_peak_bytes: this.peak, rss_end_bytes: end };
  }
}

module.exports = { RssWatch };
