'use strict';
// The loader's Prometheus endpoint (prom-client 15), scraped every second as loader:9464.
// Names and labels are a contract with the dashboards (DEVELOPERS.md, "Loader contract").
// Workers never touch prom-client: they post interval deltas, the main thread applies them here.
const http = require('node:http');
const client = require('prom-client');
const { PROM_BOUNDS_US } = require('../results/hist');
const { RESOLUTION_MS: LOOP_DELAY_RESOLUTION_MS } = require('./loop-delay');

class Metrics {
  constructor(experiment) {
    this.experiment = experiment;
    const register = new client.Registry();
    this.register = register;
    // The main thread's event-loop lag at the workers' resolution, not prom-client's 10 ms: each
    // fire wakes the thread, and at 10 ms that was ~5 of its ~10 ms of CPU a second (src/run/loop-delay.js).
    client.collectDefaultMetrics({ register, eventLoopMonitoringPrecision: LOOP_DELAY_RESOLUTION_MS });
    const metric = (Type, name, help, labelNames) => new Type({ name, help, labelNames, registers: [register] });
    this.opsTotal = metric(client.Counter, 'lab_loader_ops_total', 'Operations completed, by op type and outcome', ['experiment', 'op', 'outcome']);
    // What successful ops moved, where a kind says (GridFS: a chunk's bytes): MB/s in Grafana is
    // rate(lab_loader_bytes_total[...]) / 1e6, as mb_per_s in the timeline and summary.
    this.bytesTotal = metric(client.Counter, 'lab_loader_bytes_total', 'Bytes moved by successful operations, by op type', ['experiment', 'op']);
    // Documents moved by successful ops, where a kind says (bulk_import: a batch's documents):
    // the seed's docs/s is rate(lab_loader_docs_total[...]), as docs_per_s in the timeline.
    this.docsTotal = metric(client.Counter, 'lab_loader_docs_total', 'Documents moved by successful operations, by op type', ['experiment', 'op']);
    this.latency = metric(client.Gauge, 'lab_loader_latency_seconds', "Last second's HdrHistogram latency quantiles", ['experiment', 'op', 'quantile']);
    // The coordinated-omission corrected latency (from each op's intended start) of a paced step
    // (--rate, --sla), last second's quantiles as lab_loader_latency_seconds: the capacity search
    // judges its steps on it. Absent when the step is not paced.
    this.intendedLatency = metric(client.Gauge, 'lab_loader_intended_latency_seconds', "Last second's latency from each op's intended start (paced steps), quantiles", ['experiment', 'op', 'quantile']);
    // The rate the step offers (--rate, or a capacity search's step): 0 when not paced. What was
    // achieved is rate(lab_loader_ops_total{outcome="ok"}[...]).
    this.offeredRate = metric(client.Gauge, 'lab_loader_offered_ops_per_second', 'Operations per second the current step offers (paced steps; 0 = not paced)', ['experiment']);
    this.activeClients = metric(client.Gauge, 'lab_loader_active_clients', 'Clients running operations now', ['experiment']);
    this.phaseInfo = metric(client.Gauge, 'lab_loader_phase_info', 'Current phase (1) of the experiment', ['experiment', 'phase', 'step']);
    // 1 while a step runs its warm-up (run, not measured: step-loop.js), 0 otherwise: the dashboards
    // shade those seconds, and the timeline marks them (warmup: true).
    this.warmup = metric(client.Gauge, 'lab_loader_warmup', 'A step is in its warm-up (1): its operations are not measured', ['experiment']);
    // The current step's stability so far (src/stability/live.js): CV of its measured
    // seconds, its worst second as a fraction of its median, and its dips (count and seconds) as
    // judged live against the median so far; summary.json steps[].stability is the record.
    this.stability = metric(client.Gauge, 'lab_loader_stability', "The current step's stability so far: cv, worst_second_fraction, dips, dip_seconds", ['experiment', 'figure']);
    // lab_loader_op_duration_seconds is a Prometheus histogram whose bucket counts are summed
    // from the workers' per-op bucket deltas; prom-client's Histogram only takes one observation
    // at a time, so it is a registry metric object with its own get() (prom-client's documented
    // custom-metric interface: name, help, type, get()).
    this.durations = {}; // op -> { buckets: Float64Array (non-cumulative), sum, count }
    const self = this;
    register.registerMetric({
      name: 'lab_loader_op_duration_seconds',
      help: 'Operation service time (start to reply)',
      type: 'histogram',
      aggregator: 'sum',
      get() {
        const values = [];
        for (const [op, d] of Object.entries(self.durations)) {
          const labels = { experiment: self.experiment, op };
          let acc = 0;
          [...PROM_BOUNDS_US.map((b) => b / 1e6), '+Inf'].forEach((le, i) => {
            acc += d.buckets[i];
            values.push({ metricName: 'lab_loader_op_duration_seconds_bucket', labels: { ...labels, le }, value: acc });
          });
          values.push({ metricName: 'lab_loader_op_duration_seconds_sum', labels, value: d.sum });
          values.push({ metricName: 'lab_loader_op_duration_seconds_count', labels, value: acc });
        }
        return { name: 'lab_loader_op_duration_seconds', help: this.help, type: 'histogram', values, aggregator: 'sum' };
      },
      reset() { self.durations = {}; },
    });
    this.activeClients.set({ experiment }, 0);
    this.offeredRate.set({ experiment }, 0);
    this.current = null;
    this.lastScrapeAt = 0;
    this.scrapeWaiters = [];
  }

  // addInterval(op, delta): delta = { ok, err, sumUs, docs, bytes, buckets } from one worker's flush.
  addInterval(op, delta) {
    const e = this.experiment;
    if (delta.ok) this.opsTotal.inc({ experiment: e, op, outcome: 'ok' }, delta.ok);
    if (delta.err) this.opsTotal.inc({ experiment: e, op, outcome: 'error' }, delta.err);
    if (delta.bytes) this.bytesTotal.inc({ experiment: e, op }, delta.bytes);
    if (delta.docs) this.docsTotal.inc({ experiment: e, op }, delta.docs);
    const d = (this.durations[op] ||= { buckets: new Float64Array(PROM_BOUNDS_US.length + 1), sum: 0 });
    delta.buckets.forEach((c, i) => { d.buckets[i] += c; });
    d.sum += delta.sumUs / 1e6;
  }

  // setLatency(op, pct): pct from hist.percentiles() in microseconds (null when no op completed);
  // setIntendedLatency(op, pct): the intended latency's. No op completed (or no pct): removed.
  setLatency(op, pct) { this.setQuantiles(this.latency, op, pct); }
  setIntendedLatency(op, pct) { this.setQuantiles(this.intendedLatency, op, pct); }
  setQuantiles(gauge, op, pct) {
    for (const [quantile, p] of [['0.5', 'p50'], ['0.99', 'p99'], ['0.999', 'p999']]) {
      const labels = { experiment: this.experiment, op, quantile };
      if (!pct || pct.count === 0) gauge.remove(labels);
      else gauge.set(labels, pct[p] / 1e6);
    }
  }

  setOfferedRate(rate) {
    this.offeredRate.set({ experiment: this.experiment }, rate || 0);
  }

  setActiveClients(n) {
    this.activeClients.set({ experiment: this.experiment }, n);
  }

  // setStability(st): src/stability/stability.js's figures for the step so far (null: removed).
  setStability(st) {
    for (const figure of ['cv', 'worst_second_fraction', 'dips', 'dip_seconds']) {
      const v = !st ? null : figure === 'dips' ? (st.dips ? st.dips.length : null) : st[figure];
      if (typeof v === 'number') this.stability.set({ experiment: this.experiment, figure }, v);
      else this.stability.remove({ experiment: this.experiment, figure });
    }
  }

  setWarmup(on) {
    this.warmup.set({ experiment: this.experiment }, on ? 1 : 0);
  }

  setPhase(phase, step) {
    if (this.current) this.phaseInfo.set(this.current, 0);
    this.current = { experiment: this.experiment, phase, step: String(step ?? '') };
    this.phaseInfo.set(this.current, 1);
  }

  // listen(port): resolves with the bound port (port 0 = any free port, used by the tests).
  // host: 127.0.0.1 unless told otherwise, so a loader run on a laptop never serves the network.
  listen(port, host = '127.0.0.1') {
    this.server = http.createServer(async (req, res) => {
      if (req.url === '/metrics' || req.url.startsWith('/metrics?')) {
        try {
          const body = await this.register.metrics();
          res.writeHead(200, { 'Content-Type': this.register.contentType });
          res.end(body);
          this.scraped();
        } catch (e) {
          res.writeHead(500);
          res.end(String(e));
        }
      } else {
        res.writeHead(404);
        res.end('see /metrics\n');
      }
    });
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve(this.server.address().port));
    });
  }

  // scraped(): a scrape was served; whoever waits for one (lastScrape) is answered.
  scraped() {
    this.lastScrapeAt = Date.now();
    for (const w of this.scrapeWaiters.splice(0)) w();
  }

  // lastScrape(maxMs): resolves once a scrape after this call has been served, so that the run's
  // final counts reach Prometheus (each scrape takes what is there at its second; what the last
  // second added after the last scrape would be missing from Grafana), or after maxMs. At once
  // when nothing scraped this endpoint in the last 3 s: a run with no Prometheus waits for none.
  lastScrape(maxMs) {
    if (!this.server || !this.lastScrapeAt || Date.now() - this.lastScrapeAt > 3000) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), maxMs);
      this.scrapeWaiters.push(() => { clearTimeout(timer); resolve(true); });
    });
  }

  close() {
    if (!this.server) return Promise.resolve();
    // Prometheus keeps its scrape connection alive; close() alone would wait for it.
    const p = new Promise((r) => this.server.close(() => r()));
    this.server.closeAllConnections();
    return p;
  }
}

module.exports = { Metrics };
