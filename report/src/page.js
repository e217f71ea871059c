/* global Plot */
// Runs in the browser, inlined into index.html after d3 and Observable Plot: draws every chart
// and table from the embedded report.json. No chart is drawn by hand: each one is a Plot spec.
// Every chart is a <figure class="chart" data-kind=...> so tests (and readers) can find it.
(function () {
  'use strict';
  const report = JSON.parse(document.getElementById('report-data').textContent);
  const root = document.getElementById('report');
  const PCTS = [['p50', 'p50'], ['p99', 'p99'], ['p999', 'p99.9']];

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, v);
    for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
    return e;
  }
  const num = (x, d = 0) => (typeof x === 'number' ? x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : '-');
  const ms = (us) => (typeof us === 'number' ? (us / 1000).toFixed(2) : '-');
  // run folders relative to the first input, so tables stay readable (report.json keeps full paths)
  const base = report.inputs.length ? `${report.inputs[0].replace(/\/$/, '')}/` : '';
  const rel = (id) => String(id).split(' + ').map((p) => (base && p.startsWith(base) ? p.slice(base.length) : p)).join(' + ');

  function table(head, rows, cls) {
    return el('table', { class: cls }, el('thead', {}, el('tr', {}, head.map((h) => el('th', {}, h)))),
      el('tbody', {}, rows.map((r) => el('tr', { class: r.cls }, (r.cells || r).map((c) => el('td', {}, c))))));
  }

  function chart(parent, kind, caption, engines, options) {
    const fig = el('figure', { class: 'chart', 'data-kind': kind, 'data-engines': engines.join(',') });
    fig.append(el('figcaption', {}, caption));
    fig.append(Plot.plot({ width: 760, height: 320, marginLeft: 70, marginRight: 20, marginTop: 30, style: { fontSize: '12px' }, ...options }));
    parent.append(fig);
  }

  // Throughput per point per engine for one op type (measure: ops_per_s, or docs_per_s / mb_per_s
  // where the kind records them): the median of the repetitions (dot and line), the fastest
  // (triangle: the figure seeds/000 kept), the slowest-fastest bar, the seed's numbers as dashed
  // reference lines and loader-limited points ringed in red.
  const MEASURES = { ops_per_s: ['ops/s', 'throughput'], docs_per_s: ['docs/s', 'throughput-docs'], mb_per_s: ['MB/s', 'throughput-mb'] };
  const xLabel = (set) => (set.aggregates.some((a) => a.parameters) ? 'case' : 'step');
  function throughputChart(parent, set, op, color, measure = 'ops_per_s') {
    const [unit, kind] = MEASURES[measure];
    const data = set.aggregates.filter((a) => a.ops[op] && typeof a.ops[op][`${measure}_median`] === 'number').map((a) => ({
      point: a.point, engine: a.engine, rate: a.ops[op][`${measure}_median`],
      min: a.ops[op][`${measure}_slowest`], max: a.ops[op][`${measure}_fastest`], fastest: a.ops[op][`${measure}_fastest`],
      limited: a.loader_limited_runs > 0, limitedRuns: a.loader_limited_runs, runs: a.runs,
    }));
    if (!data.length) return;
    const pub = (set.published?.series || []).filter((p) => (measure === 'docs_per_s' ? p.measure === 'docs_per_s' : measure === 'ops_per_s' && p.op === op && !p.measure));
    const limited = data.filter((d) => d.limited);
    const x = xLabel(set);
    const caption = `${op} ${unit} per ${x}: median of repetitions (dot), fastest (triangle), bar: slowest-fastest` +
      (pub.length ? `; dashed: published ${set.published.source}` : '') +
      (limited.length ? `; red ring: the loader was the limit in n of the ${x}'s runs (those runs are excluded from verdicts)` : '');
    chart(parent, kind, caption, set.engines, {
      x: { type: 'point', domain: set.points, label: x, padding: 0.3 },
      y: { label: `${op} ${unit}`, grid: true, zero: true },
      color,
      marks: [
        Plot.ruleY(pub, { y: 'value', stroke: '#777', strokeDasharray: '5,4' }),
        Plot.text(pub, { y: 'value', text: (d) => `published ${d.name}: ${num(d.value)}/s`, frameAnchor: 'left', textAnchor: 'start', dy: -7, fill: '#555' }),
        // slowest-fastest of the repetitions, one bar per engine side by side so they never hide each other
        ...set.engines.map((e, i) => Plot.ruleX(data.filter((d) => d.engine === e), { x: 'point', y1: 'min', y2: 'max', stroke: 'engine', strokeWidth: 3, strokeOpacity: 0.5, dx: (i - (set.engines.length - 1) / 2) * 6 })),
        Plot.line(data, { x: 'point', y: 'rate', stroke: 'engine' }),
        Plot.dot(data, { x: 'point', y: 'rate', fill: 'engine', r: 4, tip: true }),
        ...set.engines.map((e, i) => Plot.dot(data.filter((d) => d.engine === e && d.runs > 1), { x: 'point', y: 'fastest', stroke: 'engine', symbol: 'triangle', r: 4, dx: (i - (set.engines.length - 1) / 2) * 6 })),
        Plot.dot(limited, { x: 'point', y: 'rate', r: 10, stroke: 'red', strokeWidth: 2 }),
        // one label per engine, stacked, so two limited engines at one step stay readable
        ...set.engines.map((e, i) => Plot.text(limited.filter((d) => d.engine === e), { x: 'point', y: 'rate', text: (d) => `loader-limited ${d.limitedRuns}/${d.runs}`, dy: -16 - 13 * i, fill: 'red' })),
      ],
    });
  }

  function latencyChart(parent, set, op, color) {
    const data = [];
    for (const a of set.aggregates) {
      const l = a.ops[op]?.latency_us;
      if (!l) continue;
      for (const [k, name] of PCTS) if (typeof l[k] === 'number' && l[k] > 0) data.push({ point: a.point, engine: a.engine, pct: name, ms: l[k] / 1000, series: `${a.engine} ${name}` });
    }
    if (!data.length) return;
    const merged = set.aggregates.every((a) => !a.ops[op] || /merged/.test(a.ops[op].latency_source));
    const how = merged ? 'exact percentiles of the repetitions\' merged histograms' : 'median of each run\'s own percentiles (the runs stored no histogram)';
    chart(parent, 'latency', `${op} latency p50 / p99 / p99.9 per ${xLabel(set)} (ms, log scale; ${how})`, set.engines, {
      x: { type: 'point', domain: set.points, label: xLabel(set), padding: 0.3 },
      y: { type: 'log', label: `${op} latency (ms)`, grid: true, tickFormat: '~g' }, // 0.5, not d3's SI "500m"
      color,
      symbol: { legend: true, domain: PCTS.map((p) => p[1]) },
      marks: [
        Plot.line(data, { x: 'point', y: 'ms', stroke: 'engine', z: 'series', strokeOpacity: 0.6 }),
        Plot.dot(data, { x: 'point', y: 'ms', stroke: 'engine', symbol: 'pct', r: 4, tip: true }),
      ],
    });
  }

  // One run's seconds: ops/s and p99 per op, each step's start marked and named.
  function timelineCharts(parent, tl, set) {
    const rows = [];
    for (const s of tl.seconds) {
      if (s.partial) continue; // the last fraction of a step is a rate over a short interval
      for (const [op, o] of Object.entries(s.ops)) rows.push({ t: s.elapsed_s, op, rate: o.ops_per_s, p99: typeof o.p99_us === 'number' ? o.p99_us / 1000 : null, phase: s.phase });
    }
    const phases = [];
    for (const s of tl.seconds) if (!phases.length || phases[phases.length - 1].phase !== s.phase) phases.push({ phase: s.phase, t: s.elapsed_s });
    const name = `${tl.engine}${tl.group ? ` group ${tl.group} rep ${tl.repetition}` : ''} on ${tl.host}${tl.complete ? '' : ' (INCOMPLETE)'}`;
    if (!rows.length) {
      parent.append(el('p', { class: 'note' }, `timeline of ${name}: no complete second recorded`));
      return;
    }
    const marks = (y) => [
      Plot.ruleX(phases, { x: 't', stroke: '#bbb', strokeDasharray: '2,3' }),
      Plot.text(phases, { x: 't', text: 'phase', frameAnchor: 'top', textAnchor: 'start', dx: 3, dy: 4, fill: '#666' }),
      Plot.line(rows.filter((r) => r[y] !== null), { x: 't', y, stroke: 'op' }),
    ];
    const common = { height: 220, x: { label: 'seconds since the first step' }, color: { legend: true, scheme: 'dark2' } };
    chart(parent, 'timeline-rate', `ops/s per second: ${name} (${rel(tl.id)})`, [tl.engine], { ...common, y: { label: 'ops/s', grid: true, zero: true }, marks: marks('rate') });
    chart(parent, 'timeline-p99', `p99 latency per second (ms): ${name}`, [tl.engine], { ...common, y: { label: 'p99 (ms)', grid: true, zero: true }, marks: marks('p99') });
  }

  function runsTable(set) {
    const head = ['engine', 'group / rep', 'hosts', 'state', 'server', 'storage engine (reported)', 'journal', 'images', 'profile', 'topology', 'loader', 'host CPUs', 'CPU model', 'started', 'folder'];
    const rows = [...set.runs, ...set.incomplete].map((r) => ({
      cls: r.complete ? '' : 'incomplete',
      cells: [r.engine, r.group ? `${r.group} / ${r.repetition}` : '-', r.hosts, r.complete ? 'complete' : `INCOMPLETE: ${r.reason}`,
        r.description.server_version, r.description.storage_engine, r.description.journal ?? 'not recorded', r.description.images, r.description.profile, r.description.topology,
        r.description.loader, `${r.description.host_cpus} (${r.description.host})`, r.description.cpu_model, r.started_at, rel(r.id)],
    }));
    return table(head, rows, 'runs');
  }

  // What a point says beyond its numbers: unsupported here, what w:0 delivered, cost vs baseline.
  function pointNote(a) {
    const n = [];
    if (a.unsupported) n.push(`UNSUPPORTED in ${a.unsupported.runs}/${a.runs}: ${a.unsupported.why.join(' | ')}`);
    if (a.documents && a.documents.arrived !== a.documents.sent) n.push(`${a.documents.sent} sent, ${a.documents.arrived} arrived`);
    if (a.relative_to_baseline) n.push(`${a.relative_to_baseline.change_percent_median > 0 ? '+' : ''}${a.relative_to_baseline.change_percent_median}% docs/s vs ${a.relative_to_baseline.baseline}`);
    if (a.loader_limited_runs) n.push(`loader-limited in ${a.loader_limited_runs}/${a.runs} run(s): ${a.loader_reasons.join('; ')}`);
    return n.join('; ');
  }

  function numbersTable(set) {
    const ops = [...new Set(set.aggregates.flatMap((a) => Object.keys(a.ops)))].sort();
    const moves = ops.filter((op) => set.aggregates.some((a) => a.ops[op]?.docs_per_s_median !== undefined));
    const head = [xLabel(set), 'engine', 'runs', 'ops/s fastest', 'ops/s median', 'ops/s slowest'];
    for (const op of ops) head.push(`${op}/s`, `${op} p50 ms`, `${op} p99 ms`, `${op} p99.9 ms`);
    for (const op of moves) head.push(`${op} docs/s fastest`, `${op} docs/s median`, `${op} MB/s median`);
    head.push('note');
    const rows = [];
    for (const p of set.points) for (const a of set.aggregates.filter((x) => x.point === p)) {
      const cells = [p, a.journal === false ? `${a.engine} (no journal)` : a.engine, a.runs, num(a.ops_per_s.fastest, 1), num(a.ops_per_s.median, 1), num(a.ops_per_s.slowest, 1)];
      for (const op of ops) { const o = a.ops[op]; cells.push(num(o?.ops_per_s_median, 1), ms(o?.latency_us?.p50), ms(o?.latency_us?.p99), ms(o?.latency_us?.p999)); }
      for (const op of moves) { const o = a.ops[op]; cells.push(num(o?.docs_per_s_fastest, 1), num(o?.docs_per_s_median, 1), num(o?.mb_per_s_median, 3)); }
      cells.push(pointNote(a));
      rows.push({ cls: a.unsupported ? 'unsupported' : a.loader_limited_runs ? 'limited' : '', cells });
    }
    const out = [table(head, rows, 'numbers')];
    const w0 = set.aggregates.find((a) => a.latency_meaning);
    if (w0) out.push(el('p', { class: 'note' }, w0.latency_meaning));
    if (set.aggregates.some((a) => a.runs > 1)) out.push(el('p', { class: 'note' }, report.method.fastest_and_median));
    return out;
  }

  function renderSet(ex, set, section) {
    const box = el('section', { class: 'set', 'data-experiment': ex.name, 'data-set': set.id });
    if (ex.sets.length > 1) box.append(el('h3', {}, `set ${set.id}: ${set.engines.join(', ') || 'incomplete runs only'}`));
    const color = { legend: true, domain: set.engines, scheme: 'tableau10' };
    if (set.aggregates.length) {
      const ops = [...new Set(set.aggregates.flatMap((a) => Object.keys(a.ops)))].sort();
      for (const op of ops) throughputChart(box, set, op, color);
      for (const op of ops) for (const m of ['docs_per_s', 'mb_per_s']) throughputChart(box, set, op, color, m);
      for (const op of ops) latencyChart(box, set, op, color);
      box.append(el('h4', {}, 'Verdicts'), el('ul', { class: 'verdicts' }, set.verdicts.map((v) => el('li', { class: v.status }, v.sentence))));
      if (!set.verdicts.length) box.append(el('p', { class: 'note' }, `one engine only (${set.engines.join(', ')}): nothing to compare`));
      box.append(el('h4', {}, 'Numbers'), ...numbersTable(set));
    } else {
      box.append(el('p', { class: 'note' }, 'no complete run with these parameters'));
    }
    for (const n of set.published?.notes || []) box.append(el('p', { class: 'note' }, `published: ${n}`));
    box.append(el('h4', {}, 'Runs (each run\'s description beside its numbers)'), runsTable(set));
    box.append(el('h4', {}, 'Timelines (every run)'));
    for (const tl of set.timelines) timelineCharts(box, tl, set);
    section.append(box);
  }

  root.append(el('p', { class: 'meta' }, `generated ${report.generated_at} from ${report.inputs.join(', ')}. ${report.method.verdict}.`));
  for (const ex of report.experiments) {
    const section = el('section', { class: 'experiment', id: `experiment-${ex.name}` }, el('h2', {}, ex.name));
    for (const d of ex.differences) section.append(el('p', { class: 'differs' }, `Not compared: ${d.sentence}`));
    for (const set of ex.sets) renderSet(ex, set, section);
    root.append(section);
  }
  if (report.safety.length) {
    const s = el('section', { class: 'safety' }, el('h2', {}, 'Speed beside safety (fault failover)'));
    s.append(table(['engine', 'w', 'writes/s', 'write p99 ms', 'measured in', 'acknowledged', 'lost', 'recovered', 'verdict'], report.safety.map((r) => {
      const sp = r.speed[0];
      return [r.engine, r.w, sp ? num(sp.write_ops_per_s, 1) : '-', sp ? ms(sp.write_p99_us) : '-', sp ? `${sp.experiment} ${sp.point}` : `no experiment run at w:${r.w}`, num(r.acknowledged), num(r.lost), num(r.recovered), r.verdict];
    }), 'safety'));
    for (const r of report.safety) if (r.sentence) s.append(el('p', {}, r.sentence));
    root.append(s);
  }
  if (report.notes.length || report.skipped.length) {
    root.append(el('section', { class: 'skipped' }, el('h2', {}, 'Not read'), el('ul', {},
      report.notes.map((n) => el('li', {}, n)), report.skipped.map((s) => el('li', {}, `${rel(s.dir)}: ${s.why}`)))));
  }
  document.body.setAttribute('data-rendered', 'true');
})();
