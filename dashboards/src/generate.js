#!/usr/bin/env node
// Generates the lab's four Grafana dashboards (dashboards/*.json) from the panel lists below, so
// that every dashboard shares one set of variables, one scrape-health row, one annotation source
// and one style, and a review reads queries rather than 3,000 lines of JSON.
//   node dashboards/src/generate.js           write dashboards/*.json
//   node dashboards/src/generate.js --check   exit 1 if a checked-in file differs (the tests run it)
// Grafana provisions the JSON files (dashboards/provisioning/dashboards/lab.yaml); nothing is
// hand-imported. The files hold no volatile fields (id, version, iteration): Grafana assigns them.
'use strict';
const fs = require('fs');
const path = require('path');

const OUT = path.join(__dirname, '..');
const DS = { type: 'prometheus', uid: 'lab-prometheus' }; // dashboards/provisioning/datasources

// Label filter of every per-member MongoDB query. The replica-set choice reaches these queries
// through the member variable (its values are the members of the chosen sets), because not every
// exporter series has rs_nm: mongodb_up carries only cluster_role (exporter/general_collector.go).
const MEMBER = 'engine="$engine", instance=~"$member"';
// The config servers run WiredTiger on every engine (compose/cluster.yml: --configsvr with the
// default engine), so a WiredTiger panel over every member fills with cfg1-3 on an engine whose
// shard members have no WiredTiger, and its "not collected" note never shows. Engine panels read
// the shard members or the config servers, never both. instance is the Compose service on Compose
// (compose/topology.tsv, compose/monitoring/prometheus.yml) and the pod's name on Kubernetes
// (k8s/monitoring.sh): the operator names a set's pods CLUSTER-SET-N, the shard's set rs0 and the
// config servers' cfg (k8s/manifests.sh K8S_CLUSTER, K8S_SHARD_RS).
const { members } = require('../../common/tables');
const K8S_POD_SET = { shard: 'rs0', config: 'cfg' };
const instancesOf = (role) => [...members({ role }).map((m) => m.service), `lab-${K8S_POD_SET[role]}-.+`].join('|');
const SHARD_MEMBER = `${MEMBER}, instance=~"${instancesOf('shard')}"`;
const CONFIG_SERVER = `${MEMBER}, instance=~"${instancesOf('config')}"`;
const ENGINE = 'engine="$engine"';
// cAdvisor names containers by Compose service; the member variable holds service names too.
const CONTAINER = 'engine="$engine", container_label_com_docker_compose_service=~"$member"';

// ---- panel builders ------------------------------------------------------------------------
function targets(list) {
  return list.map(([expr, legend], i) => ({
    datasource: DS, expr, legendFormat: legend || '__auto', range: true, refId: String.fromCharCode(65 + i),
  }));
}

// The fields every panel has; w and h are grid units, consumed by layout().
function panel(type, title, description, list, opts) {
  return { type, title, description, datasource: DS, targets: targets(list), w: opts.w || 12, h: opts.h || 8 };
}

function timeseries(title, description, list, unit, opts = {}) {
  return {
    ...panel('timeseries', title, description, list, opts),
    fieldConfig: {
      defaults: {
        unit: unit || 'short',
        min: opts.min,
        max: opts.max,
        custom: {
          drawStyle: 'line',
          lineWidth: 1,
          fillOpacity: opts.fill ?? 10,
          showPoints: 'never',
          spanNulls: false, // a missing sample is drawn as a gap, never bridged
          stacking: { mode: 'none', group: 'A' },
          thresholdsStyle: { mode: opts.thresholds ? 'line' : 'off' },
        },
        thresholds: opts.thresholds || { mode: 'absolute', steps: [{ color: 'green', value: null }] },
      },
      overrides: opts.overrides || [],
    },
    options: {
      legend: { displayMode: 'table', placement: 'right', calcs: ['lastNotNull', 'max'], showLegend: true },
      tooltip: { mode: 'multi', sort: 'desc' },
    },
  };
}

function stateTimeline(title, description, list, mappings, opts = {}) {
  return {
    ...panel('state-timeline', title, description, list, opts),
    fieldConfig: {
      defaults: {
        mappings,
        thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }] },
        color: { mode: opts.colorMode || 'thresholds' },
        custom: { fillOpacity: 80, lineWidth: 0 },
      },
      overrides: [],
    },
    options: { showValue: 'auto', mergeValues: true, rowHeight: 0.9, alignValue: 'left', legend: { showLegend: false } },
  };
}

// A stat panel that shows the name of the series it finds (legendFormat), not a number: used for
// facts such as what node_exporter can see. noValue says what an empty result means.
function statName(title, description, list, noValue, opts = {}) {
  return {
    ...panel('stat', title, description, list, opts),
    fieldConfig: { defaults: { noValue, color: { mode: 'fixed', fixedColor: 'text' } }, overrides: [] },
    options: {
      reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false },
      textMode: 'name',
      colorMode: 'none',
      graphMode: 'none',
      justifyMode: 'auto',
      orientation: 'auto',
    },
  };
}

// ---- panels that only some engines or server lines fill -------------------------------------
// A panel whose series only some engines or server lines report says so in Grafana's "no value"
// text, instead of an empty panel that looks like a broken scrape. The text says the rule (which
// storage engine or server line has the series), never the engines of compose/engines.tsv: a
// generated file that listed them would go stale with every new engine.
// reports(engineRow) states the same rule as code: dashboards/test/server-lines.test.js checks,
// per series, that every panel some engine of the table leaves empty carries the note.
const NOT_COLLECTED = 'not collected on this server line';
// The rule as data, in the note itself, so the smoke check (lib/monitoring.sh
// monitoring_collected, bash on a Docker host) and the tests read the one rule the panel shows:
// "collected where: A | B & C", alternatives of conditions on an engines.tsv column, either
// column=value or column>=number (server_line). reports(engineRow) below evaluates the same text.
function onlyWhere(p, why, where) {
  p.fieldConfig.defaults.noValue = `${NOT_COLLECTED}: ${why} (collected where: ${where}; compose/engines.tsv)`;
  return p;
}
// reports(where, engineRow) -> whether that engine's members produce the panel's series.
function reports(where, e) {
  return where.split('|').some((alt) => alt.split('&').every((term) => {
    const m = /^\s*([a-z_]+)\s*(>=|=)\s*(\S+)\s*$/.exec(term);
    if (!m) throw new Error(`unreadable rule term '${term}' in '${where}'`);
    return m[2] === '=' ? String(e[m[1]]) === m[3] : Number(e[m[1]]) >= Number(m[3]);
  }));
}
// serverStatus.wiredTiger of the shard members: where the engine is WiredTiger (the config servers'
// WiredTiger has panels of its own, SHARD_MEMBER above).
const onWiredTiger = (p) => onlyWhere(p, 'these WiredTiger series come from shard members that run WiredTiger (the config servers\' WiredTiger has its own panels)', 'server_engine=wiredTiger');
// Tickets: serverStatus.wiredTiger.concurrentTransactions, or queues.execution from 7.0 (on
// Percona's inMemory too: dashboards/metrics-catalog).
const withTickets = (p) => onlyWhere(p, 'execution tickets come from WiredTiger, and from queues.execution on 7.0+', 'server_engine=wiredTiger | server_engine=inMemory & server_line>=7');
const onInMemory = (p) => onlyWhere(p, 'inMemory series come only from Percona\'s inMemory engine', 'server_engine=inMemory');
// Flow control arrived in MongoDB 4.2 (serverStatus.flowControl).
const withFlowControl = (p) => onlyWhere(p, 'flow control exists from MongoDB 4.2', 'server_line>=4.2');

// valueMap([[value, text, color], ...]) -> a panel's value mappings: each value shown as its text.
const valueMap = (rows) => [{ type: 'value', options: Object.fromEntries(rows.map(([v, text, color]) => [v, { text, color }])) }];
const UP_DOWN = valueMap([[0, 'DOWN', 'red'], [1, 'up', 'green']]);

function row(title) {
  return { type: 'row', title, collapsed: false, panels: [], w: 24, h: 1 };
}

// ---- shared pieces ---------------------------------------------------------------------------
// The scrape-health row: a target that cannot be scraped within 1 s must show as such. Three
// failure modes, each with its own panel:
//  - up == 0: timeout or connection refused (Prometheus's view)
//  - up == 1 but no MongoDB series: the exporter answered without them (its deadline ran out, it
//    cannot reach its mongod, or getDiagnosticData returned nothing, as on a mongos without
//    diagnostic data capture). mongodb_up cannot tell: the exporter emits it on every scrape that
//    has a client, 0 or 1 after a ping (exporter/general_collector.go, v0.43.1), whatever the
//    other collectors returned. The lab's "MongoDB series" is therefore MONGO_DATA below.
//  - slow: scrape_duration_seconds near the 1 s timeout
// MONGO_DATA: serverStatus.uptime as the exporter names it (mongodb_ss_uptime). It exists only
// when getDiagnosticData returned a document that the exporter could decode and name
// (diagnosticDataCollector.collect -> makeMetrics, exporter/diagnostic_data_collector.go v0.43.1),
// on mongod and mongos alike (dashboards/metrics-catalog; dashboards/test/semantics checks the
// panel below against an exporter that answers with mongodb_up alone).
const MONGO_DATA = 'mongodb_ss_uptime';

function scrapeHealthRow() {
  return [
    row('Scrape health (1 s target: 60 samples per minute per target)'),
    stateTimeline(
      'Targets up (Prometheus scrape succeeded)',
      'up per target: red = the 1 s scrape failed (timeout, refused). Optional targets (loader, mongos2/3) appear only while they run.',
      [[`up{${ENGINE}}`, '{{job}} {{instance}}']],
      UP_DOWN,
      { w: 8 },
    ),
    timeseries(
      'Samples in the last minute per target',
      `Stored samples per target over 1 min. 60 = one every second. Below 60 = missed seconds; the MongoDB line counts scrapes that carried the server's own data (${MONGO_DATA}, from getDiagnosticData), so an exporter that answers without MongoDB data shows here even while up = 1.`,
      [
        [`count_over_time(up{${ENGINE}}[1m])`, 'scrapes {{job}} {{instance}}'],
        [`count_over_time(${MONGO_DATA}{${ENGINE}}[1m])`, 'mongodb data {{instance}}'],
      ],
      'short',
      { w: 8, min: 0, max: 62, thresholds: { mode: 'absolute', steps: [{ color: 'red', value: null }, { color: 'green', value: 59 }] } },
    ),
    timeseries(
      'Scrape duration (timeout 1 s)',
      "scrape_duration_seconds per target; the exporter's own cost of one scrape. At 1 s the scrape times out and up drops to 0.",
      [[`scrape_duration_seconds{${ENGINE}}`, '{{job}} {{instance}}']],
      's',
      { w: 8, min: 0, thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'orange', value: 0.5 }, { color: 'red', value: 1 }] } },
    ),
    stateTimeline(
      'MongoDB reachable from its exporter',
      'mongodb_up per member: 0 = the exporter\'s ping to its mongod/mongos failed. 1 says only that the ping worked, not that any MongoDB data came back: see "Targets answering without MongoDB series".',
      [[`mongodb_up{${MEMBER}}`, '{{instance}}']],
      UP_DOWN,
      { w: 8, h: 6 },
    ),
    timeseries(
      'Targets answering without MongoDB series',
      `Exporter targets scraped successfully (up = 1) whose scrape carried no ${MONGO_DATA}: the exporter answered without the server's data (deadline ran out, mongod unreachable, getDiagnosticData empty as on a mongos without diagnostic data capture). mongodb_up is no evidence: it is emitted on every scrape. Should be empty.`,
      [[`up{${ENGINE}, job=~"mongod|mongos"} == 1 unless on (instance) ${MONGO_DATA}{${ENGINE}}`, '{{instance}}']],
      'short',
      { w: 8, h: 6 },
    ),
    // Sample spacing inside Prometheus. At each 1 s step t of the last minute, timestamp(x) is the
    // newest sample at or before t and timestamp(x offset 1s) the newest at or before t - 1 s;
    // when a sample arrived in (t - 1 s, t] their difference is the time since the previous
    // sample. The maximum over the minute is the largest gap: 1 s when every scrape is stored,
    // 2 s after one missed scrape (dashboards/test/semantics checks both).
    timeseries(
      'Largest gap between samples (last minute)',
      'Per target: the longest time without a new sample over the last minute. 1 s = every scrape stored; 2 s or more = missed seconds. The mongodb line measures the exporter\'s MongoDB series, not just the scrape.',
      [
        [`max_over_time((timestamp(up{${ENGINE}}) - timestamp(up{${ENGINE}} offset 1s))[1m:1s])`, 'scrape {{job}} {{instance}}'],
        [`max_over_time((timestamp(${MONGO_DATA}{${ENGINE}}) - timestamp(${MONGO_DATA}{${ENGINE}} offset 1s))[1m:1s])`, 'mongodb data {{instance}}'],
      ],
      's',
      // Orange: a late scrape (still one sample per second); red: a missed one (~2 s).
      { w: 8, h: 6, min: 0, thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'orange', value: 1.2 }, { color: 'red', value: 1.9 }] } },
    ),
  ];
}

function variables() {
  const q = (name, label, query, opts = {}) => ({
    type: 'query',
    name,
    label,
    datasource: DS,
    query: { query, refId: 'PrometheusVariableQueryEditor-VariableQuery' },
    definition: query,
    refresh: 2, // on time range change: members come and go with profiles
    sort: 1,
    includeAll: !!opts.all,
    multi: !!opts.all,
    // No custom "All" value: Grafana then sends the regex of all current values, so "All members"
    // means all members of the chosen replica sets, not every instance.
    current: opts.all ? { text: 'All', value: '$__all' } : {},
    options: [],
    hide: 0,
  });
  return {
    list: [
      q('engine', 'Engine', 'label_values(up, engine)'),
      // Series that carry the exporter's topology labels (rs_nm); mongos has none, and the empty
      // alternative in "$rs|" keeps the routers in the member list whatever sets are chosen.
      q('rs', 'Replica set', 'label_values(mongodb_ss_opcounters{engine="$engine"}, rs_nm)', { all: true }),
      q('member', 'Member', 'label_values(mongodb_ss_opcounters{engine="$engine", rs_nm=~"$rs|"}, instance)', { all: true }),
    ],
  };
}

// Experiment phases: the loader POSTs a Grafana annotation tagged "lab" at each phase
// (DEVELOPERS.md, loader contract); they show on every panel of every dashboard.
const ANNOTATIONS = {
  list: [
    {
      builtIn: 1,
      datasource: { type: 'grafana', uid: '-- Grafana --' },
      enable: true,
      hide: true,
      iconColor: 'rgba(0, 211, 255, 1)',
      name: 'Annotations & Alerts',
      type: 'dashboard',
    },
    {
      datasource: { type: 'grafana', uid: '-- Grafana --' },
      enable: true,
      iconColor: 'rgba(255, 152, 48, 1)',
      name: 'Experiment phases',
      target: { type: 'tags', tags: ['lab'], matchAny: false, limit: 500 },
    },
  ],
};

// Lays panels out left to right, wrapping at 24 columns; a row is 24 wide, so it starts a new
// line and the panel after it another.
function layout(panels) {
  let x = 0;
  let y = 0;
  let rowH = 0;
  return panels.map(({ w, h, ...rest }) => {
    if (x + w > 24) {
      y += rowH;
      x = 0;
      rowH = 0;
    }
    const out = { ...rest, gridPos: { x, y, w, h } };
    x += w;
    rowH = Math.max(rowH, h);
    return out;
  });
}

function dashboard(uid, title, description, panels) {
  return {
    uid,
    title,
    description,
    tags: ['lab', 'mongodb'],
    timezone: 'utc',
    editable: false,
    graphTooltip: 1, // shared crosshair: a drop on one panel lines up with disk and cache
    refresh: '1s',
    time: { from: 'now-15m', to: 'now' },
    timepicker: { refresh_intervals: ['1s', '5s', '10s', '30s', '1m'] },
    fiscalYearStartMonth: 0,
    liveNow: false,
    schemaVersion: 39,
    annotations: ANNOTATIONS,
    templating: variables(),
    links: [{ type: 'dashboards', tags: ['lab'], asDropdown: false, title: 'Lab dashboards', includeVars: true, keepTime: true }],
    panels: layout(panels),
  };
}

// replSetGetStatus member states.
const MEMBER_STATES = valueMap([
  [0, 'STARTUP', 'blue'], [1, 'PRIMARY', 'green'], [2, 'SECONDARY', 'dark-green'], [3, 'RECOVERING', 'orange'],
  [5, 'STARTUP2', 'blue'], [6, 'UNKNOWN', 'red'], [7, 'ARBITER', 'purple'], [8, 'DOWN', 'red'], [9, 'ROLLBACK', 'red'],
  [10, 'REMOVED', 'red'],
]);

// Bytes in cache with the configured maximum as a dashed line; PREFIX is the engine's cache
// series prefix (mongodb_ss_wt_cache for WiredTiger, mongodb_ss_inMemory_cache for inMemory), SEL
// the members' label filter.
function cacheVsMax(title, description, prefix, sel = MEMBER, opts = {}) {
  return timeseries(title, description,
    [
      [`${prefix}_bytes_currently_in_the_cache{${sel}}`, '{{instance}} in cache'],
      [`${prefix}_maximum_bytes_configured{${sel}}`, '{{instance}} max'],
    ], 'bytes', { ...opts, overrides: [{ matcher: { id: 'byRegexp', options: '.* max' }, properties: [{ id: 'custom.lineStyle', value: { fill: 'dash', dash: [10, 10] } }, { id: 'custom.fillOpacity', value: 0 }] }] });
}

// ---- the four dashboards --------------------------------------------------------------------
const overview = dashboard('lab-cluster-overview', 'Lab: cluster overview',
  'Operations per member and through mongos, documents, connections, the loader\'s own view (ops/s, p99) and experiment phases. 1 s resolution.', [
    row('Throughput'),
    timeseries('Loader ops/s by op and outcome', "The loader's own count of completed operations (lab_loader_ops_total).",
      [[`sum by (op, outcome) (rate(lab_loader_ops_total{${ENGINE}}[$__rate_interval]))`, '{{op}} {{outcome}}']], 'ops'),
    timeseries('Loader MB/s by op', "Bytes moved by the loader's successful operations (lab_loader_bytes_total: GridFS chunks, bulk_import batches; MB = 10^6 bytes, as mb_per_s in the results). Empty for workloads that do not record bytes.",
      [[`sum by (op) (rate(lab_loader_bytes_total{${ENGINE}}[$__rate_interval]))`, '{{op}}']], 'Bps', { w: 12 }),
    timeseries('Loader documents/s by op', "Documents moved by the loader's successful operations (lab_loader_docs_total: bulk_import's insertMany batches, the seed's docs/s). Empty for workloads of one document per operation: their ops/s is above.",
      [[`sum by (op) (rate(lab_loader_docs_total{${ENGINE}}[$__rate_interval]))`, '{{op}}']], 'short', { w: 12 }),
    timeseries('Loader latency p99 / p99.9 by op (last second)', 'HdrHistogram of the last second, exported by the loader (lab_loader_latency_seconds).',
      [
        [`max by (op) (lab_loader_latency_seconds{${ENGINE}, quantile="0.99"})`, 'p99 {{op}}'],
        [`max by (op) (lab_loader_latency_seconds{${ENGINE}, quantile="0.999"})`, 'p99.9 {{op}}'],
        [`histogram_quantile(0.99, sum by (op, le) (rate(lab_loader_op_duration_seconds_bucket{${ENGINE}}[$__rate_interval])))`, 'p99 {{op}} (buckets)'],
      ], 's'),
    timeseries('Loader offered vs achieved ops/s (paced steps: --rate, --sla)', 'What the current step offers (lab_loader_offered_ops_per_second: --rate, or the capacity search\'s step; 0 when not paced) against what completed (lab_loader_ops_total, outcome ok). A capacity search (--sla) raises the offer step by step: achieved falling behind offered is the knee. Each step\'s start and verdict are annotations.',
      [
        [`max(lab_loader_offered_ops_per_second{${ENGINE}})`, 'offered'],
        [`sum(rate(lab_loader_ops_total{${ENGINE}, outcome="ok"}[$__rate_interval]))`, 'achieved'],
      ], 'ops', { w: 12 }),
    timeseries('Loader intended latency p99 by op (paced steps, last second)', 'Latency from each operation\'s intended start (coordinated omission corrected; lab_loader_intended_latency_seconds), which a capacity search (--sla) judges its steps on. Empty when the step is not paced.',
      [[`max by (op) (lab_loader_intended_latency_seconds{${ENGINE}, quantile="0.99"})`, 'intended p99 {{op}}']], 's', { w: 12 }),
    timeseries('Opcounters through mongos', 'Operations the routers received (serverStatus.opcounters on mongos, commands excluded).',
      [[`sum by (instance, legacy_op_type) (rate(mongodb_ss_opcounters{${ENGINE}, job="mongos", legacy_op_type!="command"}[$__rate_interval]))`, '{{instance}} {{legacy_op_type}}']], 'ops'),
    timeseries('Opcounters per member', 'Operations each mongod executed as primary (serverStatus.opcounters, commands excluded).',
      [[`sum by (instance, legacy_op_type) (rate(mongodb_ss_opcounters{${MEMBER}, job="mongod", legacy_op_type!="command"}[$__rate_interval]))`, '{{instance}} {{legacy_op_type}}']], 'ops'),
    timeseries('Replicated ops applied per member', 'serverStatus.opcountersRepl: what each secondary applies from the oplog.',
      [[`sum by (instance, legacy_op_type) (rate(mongodb_ss_opcountersRepl{${MEMBER}, legacy_op_type!="command"}[$__rate_interval]))`, '{{instance}} {{legacy_op_type}}']], 'ops'),
    timeseries('Documents per member', 'serverStatus.metrics.document: documents inserted, returned, updated, deleted.',
      [[`sum by (instance, doc_op_type) (rate(mongodb_ss_metrics_document{${MEMBER}}[$__rate_interval]))`, '{{instance}} {{doc_op_type}}']], 'ops'),
    row('Clients and queues'),
    timeseries('Loader clients and phase', 'Concurrent loader clients; the phase is also an annotation on every panel. "warm-up" is 1 while a step runs its warm-up: those seconds are run and not measured (the step\'s throughput, percentiles and verdict leave them out; loader/README.md, "Warm-up").',
      [
        [`sum(lab_loader_active_clients{${ENGINE}})`, 'clients'],
        [`max by (phase, step) (lab_loader_phase_info{${ENGINE}}) == 1`, 'phase {{phase}} {{step}}'],
        [`max(lab_loader_warmup{${ENGINE}})`, 'warm-up (not measured)'],
      ], 'short', { w: 8 }),
    timeseries('Loader stability (current step)', 'The current step so far (loader/README.md, "Stability"): cv = per-second throughput\'s coefficient of variation, worst_second_fraction = its worst second / median second, dips and dip_seconds = seconds below half the median (or p99 above 4x its median). Each dip is also an annotation (tag dip) saying what the server did in its seconds; summary.json steps[].stability is the record.',
      [[`max by (figure) (lab_loader_stability{${ENGINE}})`, '{{figure}}']], 'short', { w: 8 }),
    timeseries('Connections', 'serverStatus.connections.current per member.',
      [[`sum by (instance) (mongodb_ss_connections{${MEMBER}, conn_type="current"})`, '{{instance}}']], 'short', { w: 8 }),
    timeseries('Global lock queue', 'Operations queued for the global lock (serverStatus.globalLock.currentQueue).',
      [[`sum by (instance, count_type) (mongodb_ss_globalLock_currentQueue{${MEMBER}, count_type=~"readers|writers"})`, '{{instance}} {{count_type}}']], 'short', { w: 8 }),
    ...scrapeHealthRow(),
  ]);

// WiredTiger's checkpoint flag: 8.0 has no "transaction checkpoint currently running" (removed by
// WT-11171, in WiredTiger's mongodb-8.0 branch); its checkpoint section's "progress state" is the
// phase of the running checkpoint, 0 when none runs (wiredtiger src/include/checkpoint.h
// WT_CHECKPOINT_STATE_*, src/txn/txn_ckpt.c, tag mongodb-8.0.10), folded to 1 by clamp_max. 4.0's
// and 3.6's WiredTiger report the flag under serverStatus.wiredTiger.transaction, which the
// exporter names mongodb_ss_wt_txn_* (v0.43.1 exporter/metrics.go prefixes); `or` reads whichever
// the line has.
const checkpointRunning = (sel) => `clamp_max(mongodb_ss_wt_checkpoint_progress_state{${sel}}, 1) or mongodb_ss_wt_txn_transaction_checkpoint_currently_running{${sel}}`;
const CHECKPOINT_WHAT = 'WiredTiger checkpoints (every 60 s by default): seeds/004 saw throughput dip at each one. 1 = a checkpoint is in progress (8.0: serverStatus.wiredTiger.checkpoint "progress state" > 0; 4.0 and 3.6: wiredTiger.transaction "transaction checkpoint currently running").';

const cache = dashboard('lab-engine-cache', 'Lab: engine cache',
  'WiredTiger cache (bytes vs configured maximum, dirty bytes, pages in and out, evictions, tickets, checkpoints) of the shard members, the config servers\' WiredTiger (every engine runs it there) apart, and the Percona inMemory engine\'s own cache series. 1 s resolution.', [
    row('WiredTiger cache: shard members'),
    onWiredTiger(cacheVsMax('WT bytes in cache vs configured maximum', 'serverStatus.wiredTiger.cache of the shard members: bytes currently in the cache; dashed = maximum bytes configured.', 'mongodb_ss_wt_cache', SHARD_MEMBER)),
    onWiredTiger(timeseries('WT dirty bytes (% of maximum)', 'Tracked dirty bytes / maximum on the shard members. WiredTiger starts evicting dirty pages at 5 % (eviction_dirty_target) and makes application threads help at 20 % (eviction_dirty_trigger): stalls show up here first.',
      [[`mongodb_ss_wt_cache_tracked_dirty_bytes_in_the_cache{${SHARD_MEMBER}} / mongodb_ss_wt_cache_maximum_bytes_configured{${SHARD_MEMBER}}`, '{{instance}}']], 'percentunit',
      { min: 0, thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'orange', value: 0.05 }, { color: 'red', value: 0.2 }] } })),
    onWiredTiger(timeseries('WT pages read into / written from cache', 'Pages per second read from disk into the cache and written from the cache to disk, shard members.',
      [
        [`rate(mongodb_ss_wt_cache_pages_read_into_cache{${SHARD_MEMBER}}[$__rate_interval])`, '{{instance}} read in'],
        [`rate(mongodb_ss_wt_cache_pages_written_from_cache{${SHARD_MEMBER}}[$__rate_interval])`, '{{instance}} written'],
      ], 'ops')),
    onWiredTiger(timeseries('WT evictions', 'Modified pages evicted (written first) and unmodified pages evicted, per second, shard members.',
      [
        [`rate(mongodb_ss_wt_cache_modified_pages_evicted{${SHARD_MEMBER}}[$__rate_interval])`, '{{instance}} modified'],
        [`rate(mongodb_ss_wt_cache_unmodified_pages_evicted{${SHARD_MEMBER}}[$__rate_interval])`, '{{instance}} unmodified'],
      ], 'ops')),
    withTickets(timeseries('Tickets in use / total (read, write)', 'Concurrent transactions on the shard members: tickets out vs total (serverStatus.wiredTiger.concurrentTransactions, or queues.execution on 7.0+). All tickets out = operations queue inside the engine.',
      [
        [`sum by (instance, txn_rw) (mongodb_ss_wt_concurrentTransactions_out{${SHARD_MEMBER}})`, '{{instance}} {{txn_rw}} out'],
        [`sum by (instance, txn_rw) (mongodb_ss_wt_concurrentTransactions_totalTickets{${SHARD_MEMBER}})`, '{{instance}} {{txn_rw}} total'],
      ], 'short')),
    onWiredTiger(timeseries('Checkpoint running', `${CHECKPOINT_WHAT} Shard members.`,
      [[checkpointRunning(SHARD_MEMBER), '{{instance}}']], 'short', { min: 0, max: 1, fill: 40 })),
    // Collected on every engine: the config servers' WiredTiger, whatever the shard members run.
    row('WiredTiger cache: config servers (WiredTiger on every engine)'),
    cacheVsMax('Config servers: WT bytes in cache vs configured maximum', 'serverStatus.wiredTiger.cache of the config servers, which run WiredTiger whatever the shard members\' engine: bytes currently in the cache; dashed = maximum bytes configured.', 'mongodb_ss_wt_cache', CONFIG_SERVER, { w: 8 }),
    timeseries('Config servers: WT dirty bytes (% of maximum)', 'Tracked dirty bytes / maximum on the config servers.',
      [[`mongodb_ss_wt_cache_tracked_dirty_bytes_in_the_cache{${CONFIG_SERVER}} / mongodb_ss_wt_cache_maximum_bytes_configured{${CONFIG_SERVER}}`, '{{instance}}']], 'percentunit',
      { w: 8, min: 0, thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'orange', value: 0.05 }, { color: 'red', value: 0.2 }] } }),
    timeseries('Config servers: checkpoint running', `${CHECKPOINT_WHAT} Config servers.`,
      [[checkpointRunning(CONFIG_SERVER), '{{instance}}']], 'short', { w: 8, min: 0, max: 1, fill: 40 }),
    row('inMemory engine (Percona Server for MongoDB)'),
    onInMemory(cacheVsMax('inMemory bytes in cache vs configured maximum', 'serverStatus.inMemory.cache: the inMemory engine keeps all data here; at the maximum, writes fail with WT_CACHE_FULL.', 'mongodb_ss_inMemory_cache')),
    onInMemory(timeseries('inMemory fill and dirty (% of maximum)', 'Bytes in cache and tracked dirty bytes as a share of the configured maximum.',
      [
        [`mongodb_ss_inMemory_cache_bytes_currently_in_the_cache{${MEMBER}} / mongodb_ss_inMemory_cache_maximum_bytes_configured{${MEMBER}}`, '{{instance}} fill'],
        [`mongodb_ss_inMemory_cache_tracked_dirty_bytes_in_the_cache{${MEMBER}} / mongodb_ss_inMemory_cache_maximum_bytes_configured{${MEMBER}}`, '{{instance}} dirty'],
      ], 'percentunit', { min: 0, thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'red', value: 0.95 }] } })),
    ...scrapeHealthRow(),
  ]);

const disk = dashboard('lab-disk-host', 'Lab: disk and host',
  'Per-container disk IO and CPU (cAdvisor), host disk utilisation and queue, CPU user vs iowait and dirty pages (node_exporter). seeds/004: a dirty-page flush shows as iowait up, user down, disk writes up. 1 s resolution.', [
    row('Per container (cAdvisor)'),
    timeseries('Container disk write bytes/s', 'container_fs_writes_bytes_total per Compose service. Under cgroup v2 with runc < 1.0.1 these read zero (cadvisor#2881): compare with the block IO panel.',
      [[`sum by (container_label_com_docker_compose_service) (rate(container_fs_writes_bytes_total{${CONTAINER}}[$__rate_interval]))`, '{{container_label_com_docker_compose_service}}']], 'Bps'),
    timeseries('Container disk read bytes/s', 'container_fs_reads_bytes_total per Compose service.',
      [[`sum by (container_label_com_docker_compose_service) (rate(container_fs_reads_bytes_total{${CONTAINER}}[$__rate_interval]))`, '{{container_label_com_docker_compose_service}}']], 'Bps'),
    timeseries('Container IOPS (reads, writes)', 'Completed read and write operations per second per Compose service.',
      [
        [`sum by (container_label_com_docker_compose_service) (rate(container_fs_reads_total{${CONTAINER}}[$__rate_interval]))`, '{{container_label_com_docker_compose_service}} read'],
        [`sum by (container_label_com_docker_compose_service) (rate(container_fs_writes_total{${CONTAINER}}[$__rate_interval]))`, '{{container_label_com_docker_compose_service}} write'],
      ], 'iops'),
    timeseries('Container block IO bytes/s (cgroup io.stat)', 'container_blkio_device_usage_total by operation: the cgroup block IO counters, a cross-check for the fs counters.',
      [[`sum by (container_label_com_docker_compose_service, operation) (rate(container_blkio_device_usage_total{${CONTAINER}, operation=~"Read|Write"}[$__rate_interval]))`, '{{container_label_com_docker_compose_service}} {{operation}}']], 'Bps'),
    timeseries('Container CPU (cores)', 'CPU seconds per second per Compose service; mongods are limited by the resource profile.',
      [[`sum by (container_label_com_docker_compose_service) (rate(container_cpu_usage_seconds_total{${CONTAINER}}[$__rate_interval]))`, '{{container_label_com_docker_compose_service}}']], 'short'),
    timeseries('Container memory working set', 'container_memory_working_set_bytes per Compose service (what the memory limit is enforced against).',
      [[`sum by (container_label_com_docker_compose_service) (container_memory_working_set_bytes{${CONTAINER}})`, '{{container_label_com_docker_compose_service}}']], 'bytes'),
    row('Host (node_exporter)'),
    // Which node_exporter runs decides what the panels below show (lib/monitoring.sh
    // monitoring_host_view): on Docker Desktop the host's disks are out of reach and the same
    // series describe the Desktop VM. lab_node_view comes from node_exporter's textfile collector
    // (compose/monitoring/node-view/<view>/lab.prom), so the statement travels with the data.
    statName('What the host panels show', 'Set per platform when the stack starts: a Linux host shows its own disks, CPUs and page cache; Docker Desktop refuses node_exporter\'s host mount (node_exporter#2742), so there the panels below show the Desktop VM, where the containers do their IO.',
      [[`max by (view, shows) (lab_node_view{${ENGINE}})`, '{{shows}}']], 'node_exporter not answering: what the host panels show is unknown', { w: 24, h: 3 }),
    timeseries('CPU user vs iowait', 'Share of all host CPUs. seeds/004: during a dirty-page flush iowait rises and user falls. On Docker Desktop: the Desktop VM\'s, not the host\'s (see "What the host panels show").',
      [[`avg by (mode) (rate(node_cpu_seconds_total{${ENGINE}, mode=~"user|system|iowait"}[$__rate_interval]))`, '{{mode}}']], 'percentunit', { min: 0 }),
    timeseries('Dirty and writeback page cache', 'Linux dirty pages waiting for writeback and pages being written: the flush that seeds/004 blamed for the drops. On Docker Desktop: the Desktop VM\'s, not the host\'s (see "What the host panels show").',
      [
        [`node_memory_Dirty_bytes{${ENGINE}}`, 'dirty'],
        [`node_memory_Writeback_bytes{${ENGINE}}`, 'writeback'],
      ], 'bytes'),
    timeseries('Host disk utilisation', 'Share of time each device was busy (io_time). 100 % = saturated for a single-queue device. On Docker Desktop: the Desktop VM\'s, not the host\'s (see "What the host panels show").',
      [[`rate(node_disk_io_time_seconds_total{${ENGINE}, device!~"loop.*|ram.*"}[$__rate_interval])`, '{{device}}']], 'percentunit', { min: 0 }),
    timeseries('Host disk queue (average in flight)', 'Weighted io time per second = average number of requests in flight. On Docker Desktop: the Desktop VM\'s, not the host\'s (see "What the host panels show").',
      [[`rate(node_disk_io_time_weighted_seconds_total{${ENGINE}, device!~"loop.*|ram.*"}[$__rate_interval])`, '{{device}}']], 'short', { min: 0 }),
    timeseries('Host disk bytes/s', 'Read and written bytes per second per device. On Docker Desktop: the Desktop VM\'s, not the host\'s (see "What the host panels show").',
      [
        [`rate(node_disk_read_bytes_total{${ENGINE}, device!~"loop.*|ram.*"}[$__rate_interval])`, '{{device}} read'],
        [`rate(node_disk_written_bytes_total{${ENGINE}, device!~"loop.*|ram.*"}[$__rate_interval])`, '{{device}} write'],
      ], 'Bps'),
    timeseries('Host disk IOPS', 'Completed reads and writes per second per device. On Docker Desktop: the Desktop VM\'s, not the host\'s (see "What the host panels show").',
      [
        [`rate(node_disk_reads_completed_total{${ENGINE}, device!~"loop.*|ram.*"}[$__rate_interval])`, '{{device}} read'],
        [`rate(node_disk_writes_completed_total{${ENGINE}, device!~"loop.*|ram.*"}[$__rate_interval])`, '{{device}} write'],
      ], 'iops'),
    ...scrapeHealthRow(),
  ]);

// Lag = the primary's optime minus each secondary's, per replica set, from replSetGetStatus as
// the members' exporters report it (ms -> s). Each exporter reports every member, so observers
// are collapsed with max (the freshest view). Members that are not healthy are left out: an
// unreachable member keeps its last optime (or none) and the exporter's "lag" for it grows
// without bound (percona/mongodb_exporter#697); its state and health panels show it instead.
const LAG = `clamp_min(
  (
    max by (rs_nm) (mongodb_rs_members_optimeDate{${ENGINE}, rs_nm=~"$rs", member_state="PRIMARY"})
    - on (rs_nm) group_right ()
    max by (rs_nm, member_idx) (mongodb_rs_members_optimeDate{${ENGINE}, rs_nm=~"$rs", member_state="SECONDARY"})
  ) / 1000,
  0
)
and on (rs_nm, member_idx) (max by (rs_nm, member_idx) (mongodb_rs_members_health{${ENGINE}, rs_nm=~"$rs"}) == 1)`;

const replication = dashboard('lab-replication', 'Lab: replication',
  'Lag per secondary, oplog window, member states and health, flow control. Unreachable members are shown by state and health, and left out of the lag (the exporter reports absurd lag for them). 1 s resolution.', [
    row('Lag and oplog'),
    timeseries('Replication lag per secondary', 'Primary optime minus secondary optime (s), healthy secondaries only.',
      [[LAG, '{{rs_nm}} {{member_idx}}']], 's', { min: 0, thresholds: { mode: 'absolute', steps: [{ color: 'green', value: null }, { color: 'orange', value: 10 }, { color: 'red', value: 60 }] } }),
    timeseries('Oplog window', 'Time between the newest and oldest oplog entry per member: how long a secondary can be away and still catch up (RS102 "too stale" beyond it).',
      [[`mongodb_mongod_replset_oplog_head_timestamp{${MEMBER}} - mongodb_mongod_replset_oplog_tail_timestamp{${MEMBER}}`, '{{instance}}']], 's', { min: 0 }),
    // From 7.0 FTDC collects the oplog's stats with $collStats, under storageStats, and the
    // exporter (v0.43.1 exporter/metrics.go: the prefix local.oplog.rs.stats wins) names them
    // mongodb_oplog_stats_storageStats_*; before 7.0 (4.0, 3.6: FTDC's collStats of oplog.rs,
    // ftdc_mongod.cpp) size and maxSize sit at the top: mongodb_oplog_stats_size, _maxSize.
    timeseries('Oplog size used vs maximum', 'local.oplog.rs stats (storageStats from 7.0, the top level before): bytes used and configured maximum per member.',
      [
        [`mongodb_oplog_stats_storageStats_size{${MEMBER}} or mongodb_oplog_stats_size{${MEMBER}}`, '{{instance}} used'],
        [`mongodb_oplog_stats_storageStats_maxSize{${MEMBER}} or mongodb_oplog_stats_maxSize{${MEMBER}}`, '{{instance}} max'],
      ], 'bytes'),
    timeseries('Replicated ops applied', 'serverStatus.opcountersRepl per member: a secondary that stops applying shows a drop here before its lag grows.',
      [[`sum by (instance) (rate(mongodb_ss_opcountersRepl{${MEMBER}, legacy_op_type!="command"}[$__rate_interval]))`, '{{instance}}']], 'ops'),
    row('Members'),
    stateTimeline('Member states (as replica set members report them)', 'replSetGetStatus members[].state, highest value over observers.',
      [[`max by (rs_nm, member_idx) (mongodb_rs_members_state{${ENGINE}, rs_nm=~"$rs"})`, '{{rs_nm}} {{member_idx}}']], MEMBER_STATES, { colorMode: 'fixed' }),
    stateTimeline('Member health', 'replSetGetStatus members[].health: 0 = unreachable from at least one member.',
      [[`min by (rs_nm, member_idx) (mongodb_rs_members_health{${ENGINE}, rs_nm=~"$rs"})`, '{{rs_nm}} {{member_idx}}']],
      valueMap([[0, 'unreachable', 'red'], [1, 'healthy', 'green']])),
    row('Flow control'),
    withFlowControl(timeseries('Flow control: lagged and target rate', 'serverStatus.flowControl on the primary: isLagged (1 = throttling writes because majority commit lags) and the target rate (lock acquisitions/s).',
      [
        [`mongodb_ss_flowControl_isLagged{${MEMBER}}`, '{{instance}} lagged'],
        [`mongodb_ss_flowControl_targetRateLimit{${MEMBER}}`, '{{instance}} target rate'],
      ], 'short', { overrides: [{ matcher: { id: 'byRegexp', options: '.* target rate' }, properties: [{ id: 'custom.axisPlacement', value: 'right' }] }] })),
    withFlowControl(timeseries('Flow control: times lagged per second', 'rate of serverStatus.flowControl.isLaggedCount.',
      [[`rate(mongodb_ss_flowControl_isLaggedCount{${MEMBER}}[$__rate_interval])`, '{{instance}}']], 'short')),
    ...scrapeHealthRow(),
  ]);

const DASHBOARDS = {
  'cluster-overview.json': overview,
  'engine-cache.json': cache,
  'disk-host.json': disk,
  'replication.json': replication,
};

// JSON.stringify drops undefined values, so optional fields (min, max, allValue) vanish cleanly.
const render = (d) => `${JSON.stringify(d, null, 2)}\n`;

function main() {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [file, d] of Object.entries(DASHBOARDS)) {
    const p = path.join(OUT, file);
    const text = render(d);
    if (check) {
      const cur = fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : '';
      if (cur !== text) {
        console.error(`stale: dashboards/${file} (run: node dashboards/src/generate.js)`);
        stale++;
      }
    } else {
      fs.writeFileSync(p, text);
    }
  }
  process.exit(stale ? 1 : 0);
}

if (require.main === module) main();
module.exports = { DASHBOARDS, NOT_COLLECTED, reports, SHARD_MEMBER, CONFIG_SERVER };
