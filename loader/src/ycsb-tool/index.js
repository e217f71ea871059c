'use strict';
// `./run.sh ycsb-a --tool ycsb`: YCSB 0.17.0 itself, with the parameters the lab's loader would
// use, so the report can put both side by side on one engine. Node does what needs the
// experiment file: prepare() checks the flags exactly as a loader run does (config.load), makes
// the results folder and writes YCSB's properties and the plan; summarize() turns YCSB's output
// files into summary.json. The runs themselves are YCSB's (lib/ycsb.sh, images/ycsb/).
// Credentials never reach these files: the YCSB container adds mongodb.url from the mounted secret.
const fs = require('node:fs');
const path = require('node:path');
const { load } = require('../experiment/config');
const { RunDir } = require('../results/run-folder');
const { checkSummary } = require('../results/summary-schema');
const { redactUri } = require('../text/redact-uri');
const { kind } = require('../kinds');
const { parse, toStep, statusTimeline } = require('./output');

const TOOL = { name: 'ycsb', version: '0.17.0' };
// Client.java caps the threads at operationcount (`if (threadcount > opcount)`), so a
// duration-bound step gives YCSB the largest count it takes and maxexecutiontime stops it.
const UNBOUNDED_OPERATIONS = 2147483647;

// properties(config) -> YCSB's properties for the run phase (the load phase uses the same file).
function properties(config) {
  const p = config.params;
  const lines = {
    workload: 'site.ycsb.workloads.CoreWorkload',
    table: config.collection,
    recordcount: p.records,
    fieldcount: p.fields,
    fieldlength: p.field_length,
    readproportion: p.readproportion,
    updateproportion: p.updateproportion,
    insertproportion: 0,
    scanproportion: 0,
    readmodifywriteproportion: 0,
    requestdistribution: 'zipfian',
    readallfields: true,
    writeallfields: false,
    insertorder: 'hashed',
    zeropadding: 1,
    operationcount: p.operations_per_step ?? UNBOUNDED_OPERATIONS,
    measurementtype: 'hdrhistogram',
    'hdrhistogram.percentiles': '50,90,95,99,99.9',
    // With a target rate, latency also from each op's intended start (as the lab's --rate).
    'measurement.interval': config.rate ? 'both' : 'op',
    'status.interval': 1,
  };
  if (!p.operations_per_step) lines.maxexecutiontime = Math.ceil(config.workload.durationMs / 1000);
  if (config.rate) lines.target = config.rate;
  return Object.entries(lines).map(([k, v]) => `${k}=${v}`).join('\n') + '\n';
}

// prepare(opts) -> { dir, threads }: the same checks as a run, the results folder, the files.
function prepare(opts, startedAt = new Date()) {
  const { file, config } = load(opts);
  const { UsageError } = require('../text/usage');
  // One YCSB run per invocation; its random numbers are YCSB's own (no --seed).
  if (opts.repeat > 1) throw new UsageError('--repeat does not apply to --tool ycsb (run it again for another repetition)');
  // YCSB paces with -target (workload.properties target) but does not search over rates.
  if (config.sla) throw new UsageError('--sla does not apply to --tool ycsb (YCSB paces at one -target and does not search; the capacity search is the lab loader\'s: --tool lab)');
  if (kind(config.workload.type).name !== 'ycsb') {
    throw new UsageError(`--tool ycsb runs YCSB's workloads only; ${config.name} is a ${config.workload.type} workload`);
  }
  const engine = opts.engine ?? 'unknown';
  const run = new RunDir(opts.resultsDir, config.name, engine, startedAt, { check: checkSummary });
  const plan = {
    tool: TOOL,
    experiment: config.name,
    engine,
    started_at: startedAt.toISOString(),
    database: config.database,
    write_concern: config.writeConcern,
    threads: config.workload.clients,
    config,
    profile: opts.profile ?? null,
    images: opts.images ?? {},
    uri: redactUri(opts.uri), // the file is the run's record: no password (YCSB gets the URI from run.sh)
  };
  run.create(file, summaryOf(plan, { complete: false, reason: 'running (YCSB)', steps: [], preload: null }));
  run.close();
  fs.rmSync(path.join(run.dir, 'timeline.ndjson'), { force: true }); // summarize writes it from YCSB's status lines
  fs.mkdirSync(path.join(run.dir, 'ycsb'));
  fs.writeFileSync(path.join(run.dir, 'ycsb', 'workload.properties'), properties(config));
  fs.writeFileSync(path.join(run.dir, 'ycsb', 'plan.json'), JSON.stringify(plan, null, 2) + '\n');
  return { dir: run.dir, threads: config.workload.clients };
}

// summaryOf(plan, {...}) -> summary.json (schema_version 1, as the loader's).
function summaryOf(plan, { complete, reason, steps, preload, endedAt = null }) {
  const c = plan.config;
  return {
    schema_version: 1,
    complete,
    reason,
    exit_code: complete ? 0 : null,
    experiment: plan.experiment,
    engine: plan.engine,
    engine_source: 'flag',
    engine_reported: null,
    tool: plan.tool,
    started_at: plan.started_at,
    ended_at: endedAt,
    profile: plan.profile,
    group: null,
    repetition: 1,
    placement: null, // where YCSB's container ran is not recorded
    parameters: {
      database: c.database, collection: c.collection, write_concern: c.writeConcern,
      read_preference: c.readPreference, read_concern: c.readConcern, seed: null,
      workload: c.workload, preload: c.preload, rate: c.rate, params: c.params, uri: plan.uri,
      ycsb_properties: 'ycsb/workload.properties',
    },
    server: null,
    images: plan.images,
    loader: {
      version: `ycsb ${plan.tool.version}`,
      node: process.version,
      driver: 'mongo-java-driver 3.8.0 (YCSB 0.17.0 mongodb-binding)',
      histogram: 'YCSB hdrhistogram (percentiles as YCSB printed them)',
      peak_rss_bytes: null,
    },
    preload,
    steps,
    loader_limited: null,
    published: c.published ?? null,
    files: { ycsb: 'ycsb/', timeline: 'timeline.ndjson' },
  };
}

// startedOf(text): the "# started: ISO" line the YCSB container writes before YCSB's output.
const startedOf = (text) => (/^# started: (\S+)$/m.exec(text) || [])[1] ?? null;

// summarize(dir) -> summary: YCSB's load output as the preload (measured, as YCSB's -load), one
// step per thread count from run-threads-N.txt, in the plan's order. A missing or unreadable
// step output ends the list and marks the run incomplete.
function summarize(dir) {
  const plan = JSON.parse(fs.readFileSync(path.join(dir, 'ycsb', 'plan.json'), 'utf8'));
  const steps = [];
  let reason = null;
  let preload = null;
  const read = (name) => fs.readFileSync(path.join(dir, 'ycsb', name), 'utf8');
  try {
    const load = parse(read('load.txt'));
    const ins = load.series.INSERT;
    const docs = ins ? (ins.returns.OK ?? ins.operations) : 0;
    preload = { docs, requested: plan.config.params.records, duration_s: load.overall.runtime_ms / 1000,
      docs_per_s: Math.round(load.overall.throughput ?? 0), measured_by: 'ycsb -load', insert: toStep(load, { index: 0, phase: 'load', clients: null }).ops.insert ?? null };
  } catch (e) {
    reason = `YCSB's load phase has no complete output: ${e.message}`;
  }
  const timeline = [];
  let runStartMs = null;
  for (const [i, threads] of plan.threads.entries()) {
    if (reason) break;
    const phase = `clients-${threads}`;
    try {
      const text = read(`run-threads-${threads}.txt`);
      const started = startedOf(text);
      runStartMs ??= started ? Date.parse(started) : null;
      steps.push(toStep(parse(text), { index: i + 1, phase, clients: threads, startedAt: started,
        targetRate: plan.config.rate }));
      // The 1 s timeline from YCSB's status lines (its stderr), where it kept them.
      let log = '';
      try { log = read(`run-threads-${threads}.log`); } catch { /* no status output */ }
      const lines = statusTimeline(log, { step: i + 1, phase, clients: threads,
        startedMs: started ? Date.parse(started) : null, runStartMs });
      if (lines.length) runStartMs ??= Date.parse(lines[0].t) - lines[0].interval_s * 1000;
      timeline.push(...lines);
    } catch (e) {
      reason = `YCSB's run with ${threads} threads has no complete output: ${e.message}`;
    }
  }
  fs.writeFileSync(path.join(dir, 'timeline.ndjson'), timeline.map((l) => JSON.stringify(l) + '\n').join(''));
  const summary = summaryOf(plan, { complete: reason === null, reason, steps, preload,
    endedAt: new Date().toISOString() });
  if (!summary.complete) summary.exit_code = 1;
  checkSummary(summary); // the schema the report reads with (src/results/summary-schema.js)
  fs.writeFileSync(path.join(dir, 'summary.json.tmp'), JSON.stringify(summary, null, 2) + '\n');
  fs.renameSync(path.join(dir, 'summary.json.tmp'), path.join(dir, 'summary.json'));
  fs.rmSync(path.join(dir, '.reserve'), { force: true });
  return summary;
}

// annotate(summary, { url, password, post }) -> how many were posted: one Grafana annotation per
// phase (YCSB's load, each thread step) spanning its time (time .. timeEnd), with the tags the
// loader's phase annotations carry, posted after YCSB ran (YCSB cannot post them). Best effort:
// a failure is one warning, never a failed run. post(url, init) is fetch, replaceable in tests.
async function annotate(summary, { url, password, post = fetch, log = () => {} }) {
  if (!url) return 0;
  const endpoint = url.replace(/\/+$/, '') + '/api/annotations';
  const auth = 'Basic ' + Buffer.from(`admin:${password ?? ''}`).toString('base64');
  const phases = summary.steps.map((st) => ({ phase: st.phase, start: Date.parse(st.started_at), seconds: st.duration_s,
    text: `${summary.experiment} (ycsb ${summary.tool.version}): step ${st.index}/${summary.steps.length}, ${st.clients} thread(s)` }));
  let n = 0;
  for (const p of phases.filter((x) => Number.isFinite(x.start))) {
    const body = JSON.stringify({ time: p.start, timeEnd: Math.round(p.start + p.seconds * 1000), tags: ['lab', summary.experiment, p.phase, 'ycsb'], text: p.text });
    try {
      const res = await post(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: auth }, body, signal: AbortSignal.timeout(2000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      n++;
    } catch (e) {
      log(`warning: Grafana annotation failed (${endpoint}): ${e.message}; the results are complete without it`);
      break;
    }
  }
  return n;
}

module.exports = { prepare, summarize, annotate, properties };
