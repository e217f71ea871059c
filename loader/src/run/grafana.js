'use strict';
// Grafana annotations at each phase, so a dashboard shows where "clients 4" began. Best effort:
// a failure is reported once and never stops or slows the run (2 s timeout, not awaited by the
// measurement loop).
class Annotator {
  constructor({ url, password, experiment, log }) {
    this.url = url ? url.replace(/\/+$/, '') + '/api/annotations' : null;
    this.auth = url ? 'Basic ' + Buffer.from(`admin:${password ?? ''}`).toString('base64') : null;
    this.experiment = experiment;
    this.log = log;
    this.reported = false;
    this.pending = new Set();
  }

  // annotate(phase, text, { time, timeEnd, tags }): a point now, or a region (a dip's seconds,
  // src/stability/live.js) with more tags after the phase's.
  annotate(phase, text, { time = Date.now(), timeEnd, tags = [] } = {}) {
    if (!this.url) return;
    const body = JSON.stringify({ time, ...(timeEnd ? { timeEnd } : {}), tags: ['lab', this.experiment, phase, ...tags], text });
    const p = fetch(this.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: this.auth },
      body,
      signal: AbortSignal.timeout(2000),
    }).then((res) => {
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
    }).catch((e) => {
      if (!this.reported) {
        this.reported = true;
        this.log(`warning: Grafana annotation failed (${this.url}): ${e.message}; the run goes on without annotations`);
      }
    }).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  // flush: let the last annotation ("end") go out before exit, at most 2 s.
  async flush() {
    await Promise.allSettled([...this.pending]);
  }
}

module.exports = { Annotator };
