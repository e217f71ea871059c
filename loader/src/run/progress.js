'use strict';
// Progress on stderr (stdout is kept for the summary table). A terminal gets a cli-progress bar
// with rate and ETA; a pipe or a log file gets one plain line every few seconds, because a bar
// redrawn 10 times a second turns a CI log into megabytes of carriage returns.
const cliProgress = require('cli-progress');

class Progress {
  constructor({ stream = process.stderr, intervalMs = 5000 } = {}) {
    this.stream = stream;
    this.tty = Boolean(stream.isTTY);
    this.intervalMs = intervalMs;
    this.bar = null;
    this.lastLine = 0;
  }

  // start(label, total, unit): a new bar (one per phase or client step).
  start(label, total, unit) {
    this.stop();
    this.active = true;
    this.label = label;
    // Seconds to the millisecond: warm-up + --duration 1ms printed 5.001000000000000334.
    this.total = unit === 's' && typeof total === 'number' ? Math.round(total * 1000) / 1000 : total;
    this.unit = unit;
    this.startedAt = Date.now();
    this.lastLine = Date.now();
    if (this.tty) {
      this.bar = new cliProgress.SingleBar({
        stream: this.stream,
        format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {rate} ops/s | ETA {eta_formatted}`,
        hideCursor: true,
        etaBuffer: 30,
      }, cliProgress.Presets.shades_classic);
      this.bar.start(this.total, 0, { rate: 0 });
    } else {
      this.stream.write(`${label}: started (${this.total} ${unit})\n`);
    }
  }

  update(value, rate) {
    // Between a stop and the next start (a case skipped, the ticks after a step): nothing to show.
    // A line then read "undefined: 0/undefined undefined (?%)".
    if (!this.active) return;
    if (this.bar) {
      this.bar.update(Math.min(value, this.total), { rate: Math.round(rate) });
    } else if (Date.now() - this.lastLine >= this.intervalMs) {
      this.lastLine = Date.now();
      const pct = this.total ? ((100 * value) / this.total).toFixed(1) : '?';
      const elapsed = (Date.now() - this.startedAt) / 1000;
      // Seconds of a timed step: what is left of the shown value (10/30 s: ETA 20s). Extrapolated
      // from the elapsed time it came out a second off the line's own figures.
      // To the millisecond: 1.001 - 1 is 0.001000000000000334 in floating point.
      const eta = this.unit === 's' ? Math.max(0, Math.round((this.total - value) * 1000) / 1000)
        : value > 0 && this.total ? Math.max(0, Math.round((elapsed * (this.total - value)) / value)) : '?';
      this.stream.write(`${this.label}: ${value}/${this.total} ${this.unit} (${pct}%), ${Math.round(rate)} ops/s, ETA ${eta}s\n`);
    }
  }

  stop() {
    this.active = false;
    if (this.bar) this.bar.stop();
    this.bar = null;
  }

  log(msg) {
    if (this.bar) { this.stream.write('\n'); }
    this.stream.write(msg + '\n');
  }
}

module.exports = { Progress };
