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
  window.labEl = el; // the DOM helper of the sections inlined after this file (claims-page.js, ...)
  // The numbers' columns, format and a point's note, the terminal's too (src/set-numbers.js), and
  // why runs were left out of verdicts.
  const { num, ms, numbersRows, exclLabel, EXCL } = window.labSetNumbers;
  // run folders relative to the first input, so tables stay readable (report.json keeps full paths)
  const base = report.inputs.length ? `${report.inputs[0].replace(/\/$/, '')}/` : '';
  const rel = (id) => String(id).split(' + ').map((p) => (base && p.startsWith(base) ? p.slice(base.length) : p)).join(' + ');

  function table(head, rows, cls) {
    return el('table', { class: cls }, el('thead', {}, el('tr', {}, head.map((h) => el('th', {}, h)))),
      el('tbody', {}, rows.map((r) => el('tr', { class: r.cls, ...(r.attrs || {}) }, r.span ? el('td', { colspan: head.length }, r.span) : (r.cells || r).map((c) => el('td', {}, c))))));
  }

  function chart(parent, kind, caption, sides, options) {
    parent.append(el('figure', { class: 'chart', 'data-kind': kind, 'data-sides': sides.join(',') }, el('figcaption', {}, caption),
      Plot.plot({ width: 760, height: 320, marginLeft: 70, marginRight: 20, marginTop: 30, style: { fontSize: '12px' }, ...options })));
  }

  // Throughput per point per side for one op type (measure: ops_per_s, or docs_per_s / mb_per_s
  // where the kind records them): the median of the repetitions (dot and line), the fastest
  // (triangle: the figure seeds/000 kept), the slowest-fastest bar, the seed's numbers as dashed
  // reference lines and loader-limited points ringed in red.
  const MEASURES = { ops_per_s: ['ops/s', 'throughput'], docs_per_s: ['docs/s', 'throughput-docs'], mb_per_s: ['MB/s', 'throughput-mb'] };
  const xLabel = (set) => (set.aggregates.some((a) => a.parameters) ? 'case' : 'step');

  function throughputChart(parent, set, op, color, measure = 'ops_per_s') {
    const [unit, kind] = MEASURES[measure];
    // ops/s is drawn from the usable runs (src/usable.js); excluded runs hollow and grey
    const fromUsable = measure === 'ops_per_s' ? (a) => a.usable?.ops[op] : () => null;
    const data = set.aggregates.filter((a) => a.ops[op] && typeof a.ops[op][`${measure}_median`] === 'number').map((a) => ({
      point: a.point, side: a.side, rate: fromUsable(a)?.median ?? a.ops[op][`${measure}_median`],
      min: fromUsable(a)?.slowest ?? a.ops[op][`${measure}_slowest`], max: fromUsable(a)?.fastest ?? a.ops[op][`${measure}_fastest`], fastest: fromUsable(a)?.fastest ?? a.ops[op][`${measure}_fastest`],
      limited: a.loader_limited_runs > 0, limitedRuns: a.loader_limited_runs, runs: a.runs,
      excluded: exclLabel(a), measured: a.verdict_samples.length > 0,
    }));
    if (!data.length) return;
    // A point none of whose runs measured the engine (w:0 dropped, errors, unsupported) is no
    // point on the line: a grey cross with its reason.
    const measured = data.filter((d) => d.measured);
    const notMeasured = data.filter((d) => !d.measured);
    const marked = data.filter((d) => d.excluded);
    const hollow = measure === 'ops_per_s' ? set.aggregates.flatMap((a) => (a.excluded_values?.[op] || []).map((v) => ({ point: a.point, side: a.side, value: v }))) : [];
    // The seed's published numbers never rescale the measured points: those within the measured
    // range are dashed lines, those above it are named at the top of the chart (off scale).
    const top = Math.max(...data.map((d) => d.max ?? d.rate), ...hollow.map((d) => d.value)) * 1.15;
    // A byte figure (seeds/003's MiB/s) is drawn in the chart's MB/s and named as published.
    const pubAll = (set.published?.series || []).filter((p) => (measure === 'docs_per_s' ? p.measure === 'docs_per_s'
      : measure === 'mb_per_s' ? p.measure === 'mb_per_s' && (p.op === null || p.op === op)
        : measure === 'ops_per_s' && p.op === op && !p.measure))
      .map((p) => (p.measure === 'mb_per_s' ? { ...p, value: p.mb_value, said: `${num(p.value, 2)} ${p.unit}` } : { ...p, said: `${num(p.value)}/s` }));
    const pub = pubAll.filter((p) => p.value <= top);
    const pubOff = pubAll.filter((p) => p.value > top);
    const x = xLabel(set);
    const caption = `${op} ${unit} per ${x}: median of repetitions (dot), fastest (triangle), bar: slowest-fastest` +
      (pubAll.length ? `; published ${set.published.source}: ${pub.length ? 'dashed' : ''}${pub.length && pubOff.length ? ', ' : ''}${pubOff.length ? 'above the measured range, named at the top (off scale)' : ''}` : '') +
      (hollow.length ? '; hollow grey dots: excluded runs, one each (never in the median)' : '') +
      (marked.length ? `; red ring: runs excluded from verdicts (loader-limited, errors, unsupported, shared host, docs lost: n of the ${x}'s runs); grey cross: no run usable for a verdict` : '');
    chart(parent, kind, caption, set.sides, {
      x: { type: 'point', domain: set.points, label: x, padding: 0.3 },
      y: { label: `${op} ${unit}`, grid: true, zero: true, domain: [0, top] },
      color,
      marks: [
        Plot.ruleY(pub, { y: 'value', stroke: '#777', strokeDasharray: '5,4' }),
        Plot.text(pub, { y: 'value', text: (d) => `published ${d.name}: ${d.said}`, frameAnchor: 'left', textAnchor: 'start', dy: -7, fill: '#555' }),
        ...pubOff.map((p, i) => Plot.text([p], { text: (d) => `\u2191 published ${d.name}: ${d.said} (off scale)`, frameAnchor: 'top-left', textAnchor: 'start', dx: 4, dy: 4 + 13 * i, fill: '#555' })),
        // slowest-fastest of the repetitions, one bar per side, side by side so they never hide each other
        ...set.sides.map((e, i) => Plot.ruleX(measured.filter((d) => d.side === e), { x: 'point', y1: 'min', y2: 'max', stroke: 'side', strokeWidth: 3, strokeOpacity: 0.5, dx: (i - (set.sides.length - 1) / 2) * 6 })),
        Plot.line(measured, { x: 'point', y: 'rate', stroke: 'side' }),
        Plot.dot(measured, { x: 'point', y: 'rate', fill: 'side', r: 4, tip: true }),
        ...set.sides.map((e, i) => Plot.dot(measured.filter((d) => d.side === e && d.runs > 1), { x: 'point', y: 'fastest', stroke: 'side', symbol: 'triangle', r: 4, dx: (i - (set.sides.length - 1) / 2) * 6 })),
        Plot.dot(hollow, { x: 'point', y: 'value', stroke: '#999', fill: 'none', r: 3, className: 'excluded-run' }),
        Plot.dot(notMeasured, { x: 'point', y: 'rate', symbol: 'times', stroke: '#888', r: 5 }),
        Plot.dot(marked, { x: 'point', y: 'rate', r: 10, stroke: 'red', strokeWidth: 2 }),
        // one label per side, stacked, so two marked sides at one step stay readable
        ...set.sides.map((e, i) => Plot.text(marked.filter((d) => d.side === e), { x: 'point', y: 'rate', text: 'excluded', dy: -16 - 13 * i, fill: 'red' })),
      ],
    });
  }

  // Log-axis ticks at every decade with 1-2-5 labels, over the data's range.
  function ticks125(values) {
    const v = values.filter((x) => x > 0);
    if (!v.length) return undefined;
    const out = [];
    for (let e = Math.floor(Math.log10(Math.min(...v))); e <= Math.ceil(Math.log10(Math.max(...v))); e++) {
      for (const m of [1, 2, 5]) out.push(Number((m * 10 ** e).toPrecision(1)));
    }
    return out;
  }

  function latencyChart(parent, set, op, color) {
    const data = set.aggregates.flatMap((a) => {
      const l = a.ops[op]?.latency_us || {};
      return PCTS.filter(([k]) => typeof l[k] === 'number' && l[k] > 0)
        .map(([k, name]) => ({ point: a.point, side: a.side, pct: name, ms: l[k] / 1000, series: `${a.side} ${name}` }));
    });
    if (!data.length) return;
    const ns = set.aggregates.filter((a) => a.ops[op]?.latency_us?.p50 > 0).map((a) => ({ point: a.point, side: a.side,
      ms: a.ops[op].latency_us.p50 / 1000, n: a.ops[op].latency_us.count }));
    const merged = set.aggregates.every((a) => !a.ops[op] || /merged/.test(a.ops[op].latency_source));
    const how = merged ? 'exact percentiles of the repetitions\' merged histograms' : 'median of each run\'s own percentiles (the runs stored no histogram)';
    const tk = ticks125(data.map((d) => d.ms));
    const lo = Math.min(...data.map((d) => d.ms));
    const hi = Math.max(...data.map((d) => d.ms));
    chart(parent, 'latency', `${op} latency p50 / p99 / p99.9 per ${xLabel(set)} (ms, log scale; ${how}; n = the operations the percentiles rest on)`, set.sides, {
      x: { type: 'point', domain: set.points, label: xLabel(set), padding: 0.3 },
      // every decade, labelled 1-2-5 (0.5, not d3's SI "500m"), within the measured range
      y: { type: 'log', label: `${op} latency (ms)`, grid: true, ticks: tk && tk.filter((t) => t >= lo / 1.5 && t <= hi * 1.5), tickFormat: '~g' },
      color,
      symbol: { legend: true, domain: PCTS.map((p) => p[1]) },
      marks: [
        Plot.line(data, { x: 'point', y: 'ms', stroke: 'side', z: 'series', strokeOpacity: 0.6 }),
        Plot.dot(data, { x: 'point', y: 'ms', stroke: 'side', symbol: 'pct', r: 4, tip: true }),
        Plot.text(ns, { x: 'point', y: 'ms', text: (d) => `n=${num(d.n)}`, dy: 12, fill: '#666', fontSize: 10 }),
      ],
    });
  }

  // One run's seconds: ops/s and p99 per op, each step's start marked and named.
  function timelineCharts(parent, tl, set) {
    // not the partial seconds: the last fraction of a step is a rate over a short interval
    const rows = tl.seconds.filter((s) => !s.partial).flatMap((s) => Object.entries(s.ops)
      .map(([op, o]) => ({ t: s.elapsed_s, op, rate: o.ops_per_s, p99: typeof o.p99_us === 'number' ? o.p99_us / 1000 : null, phase: s.phase })));
    const phases = [];
    for (const s of tl.seconds) {
      const last = phases[phases.length - 1];
      if (!last || last.phase !== s.phase) phases.push({ phase: s.phase, t: s.elapsed_s });
    }
    const name = `${tl.side}${tl.group ? ` group ${tl.group} rep ${tl.repetition}` : ''} on ${tl.host}${tl.complete ? '' : ' (INCOMPLETE)'}`;
    if (!rows.length) {
      parent.append(el('p', { class: 'note' }, `timeline of ${name}: no complete second recorded`));
      return;
    }
    const marks = (y) => [
      Plot.ruleX(phases, { x: 't', stroke: '#bbb', strokeDasharray: '2,3' }),
      Plot.text(phases, { x: 't', text: 'phase', frameAnchor: 'top', textAnchor: 'start', dx: 3, dy: 4, fill: '#666' }),
      Plot.line(rows.filter((r) => r[y] !== null), { x: 't', y, stroke: 'op' }),
      ...(window.labTimelineMarks ? window.labTimelineMarks(tl) : []), // dips shaded (src/timeline-dips.js)
    ];
    const common = { height: 220, x: { label: 'seconds since the first step' }, color: { legend: true, scheme: 'dark2' } };
    chart(parent, 'timeline-rate', `ops/s per second: ${name} (${rel(tl.id)})`, [tl.side], { ...common, y: { label: 'ops/s', grid: true, zero: true }, marks: marks('rate') });
    chart(parent, 'timeline-p99', `p99 latency per second (ms): ${name}`, [tl.side], { ...common, y: { label: 'p99 (ms)', grid: true, zero: true }, marks: marks('p99') });
  }

  function runsTable(set) {
    const head = [report.by, 'group / rep', 'hosts', 'state', 'server', 'storage engine (reported)', 'journal', 'images', 'profile', 'topology', 'loader', 'host CPUs', 'CPU model', 'started', 'folder'];
    const rows = [...set.runs, ...set.incomplete].map((r) => ({
      cls: r.complete ? '' : 'incomplete',
      cells: [r.side, r.group ? `${r.group} / ${r.repetition}` : '-', r.hosts, r.complete ? 'complete' : `INCOMPLETE: ${r.reason}`,
        r.description.server_version, r.description.storage_engine, r.description.journal ?? 'not recorded', r.description.images, r.description.profile, r.description.topology,
        r.description.loader, `${r.description.host_cpus} (${r.description.host})`, r.description.cpu_model, r.started_at, rel(r.id)],
    }));
    return table(head, rows, 'runs');
  }

  function numbersTable(set) {
    const { head, rows: numbers } = numbersRows(set, xLabel(set), report.by);
    const rows = numbers.map(({ a, cells }) => ({ cls: a.not_applicable ? 'not-applicable' : a.unsupported ? 'unsupported' : Object.keys(a.excluded || {}).length ? 'limited' : '', cells }));
    const out = [table(head, rows, 'numbers')];
    const w0 = set.aggregates.find((a) => a.latency_meaning);
    if (w0) out.push(el('p', { class: 'note' }, w0.latency_meaning));
    if (set.aggregates.some((a) => a.runs > 1)) out.push(el('p', { class: 'note' }, report.method.fastest_and_median));
    return out;
  }

  function renderSet(ex, set, section) {
    const box = el('section', { class: 'set', 'data-experiment': ex.name, 'data-set': set.id });
    if (ex.sets.length > 1) box.append(el('h3', {}, `set ${set.id}: ${set.sides.join(', ') || 'incomplete runs only'}`));
    const color = { legend: true, domain: set.sides, scheme: 'tableau10' };
    if (set.parameters?.sla) {
      // a capacity search's steps are offered rates, not a sweep (drawn in the capacity section)
      box.append(el('p', { class: 'note' }, 'capacity searches (--sla): their steps are offered rates, drawn as latency against rate in the capacity section, not as a throughput sweep'));
    } else if (set.aggregates.length) {
      const ops = [...new Set(set.aggregates.flatMap((a) => Object.keys(a.ops)))].sort();
      for (const op of ops) throughputChart(box, set, op, color);
      for (const op of ops) for (const m of ['docs_per_s', 'mb_per_s']) throughputChart(box, set, op, color, m);
      for (const op of ops) latencyChart(box, set, op, color);
      box.append(el('h4', {}, 'Verdicts'), el('ul', { class: 'verdicts' }, set.verdicts.map((v) => el('li', { class: v.status }, v.sentence))));
      if (!set.verdicts.length) box.append(el('p', { class: 'note' }, `one side only (${set.sides.join(', ')}): nothing to compare`));
      box.append(el('h4', {}, 'Numbers'), ...numbersTable(set));
    } else {
      box.append(el('p', { class: 'note' }, 'no complete run with these parameters'));
    }
    for (const n of set.published?.notes || []) box.append(el('p', { class: 'note' }, `published: ${n}`));
    box.append(el('h4', {}, 'Runs (each run\'s description beside its numbers)'), runsTable(set));
    section.append(box);
  }

  // The answer first: one row per experiment, set and point (per pair of sides): who is faster,
  // the ratio with its 95% interval drawn against a 1.0 line (a forest plot on one log scale),
  // runs per side (usable/all), what was excluded and the safety facts.
  function summarySection() {
    const rows = report.summary;
    const box = el('section', { id: 'summary' }, el('h2', {}, `Summary: who is faster, by ${report.by}`));
    if (!rows.length) { box.append(el('p', { class: 'note' }, 'no experiment runs')); return box; }
    if (report.family) box.append(el('p', { class: 'family' }, report.family.text)); // src/words.js
    // one log scale for every row: the intervals' range, at least 0.5-2, at most 0.01-100 (an
    // interval beyond is clipped at the edge: its numbers are in the ratio column)
    const bounds = rows.filter((r) => r.ci).flatMap((r) => r.ci).map((x) => Math.min(100, Math.max(0.01, x)));
    const domain = [Math.min(0.5, ...bounds) / 1.1, Math.max(2, ...bounds) * 1.1];
    const W = 260;
    const wide = Math.log10(domain[1] / domain[0]) > 2.5;
    const fx = { type: 'log', domain, clamp: true, ticks: (ticks125(domain) || []).filter((t) => t >= domain[0] && t <= domain[1] && (!wide || Math.abs(Math.log10(t) - Math.round(Math.log10(t))) < 1e-9)), tickFormat: '~g' };
    const forest = (r) => Plot.plot({ width: W, height: 26, marginLeft: 8, marginRight: 8, marginTop: 4,
      marginBottom: 4, x: { ...fx, axis: null }, y: { axis: null, domain: [0, 1] },
      marks: [Plot.ruleX([1], { stroke: '#333' }),
        ...(r.ci ? [Plot.ruleY([0.5], { x1: r.ci[0], x2: r.ci[1], stroke: r.status === 'verdict' ? '#1f6f3f' : '#999', strokeWidth: 3 }), Plot.dot([r.ratio], { x: (d) => d, y: 0.5, fill: '#000', r: 4 })] : [])] });
    const axis = Plot.plot({ width: W, height: 30, marginLeft: 8, marginRight: 8, marginTop: 0, marginBottom: 24, x: { ...fx, label: null }, marks: [Plot.ruleX([1], { stroke: '#333' })] });
    const head = ['experiment', 'point', 'answer', 'ratio (95% CI)', el('div', {}, 'forest: ratio and 95% CI (log scale)', axis), 'runs usable/all (in the order of the sides)', 'excluded from verdicts', 'safety'];
    const answer = (r) => (r.status === 'verdict' ? `${r.faster} is faster than ${r.slower}` : r.status === 'no-difference' ? `no difference shown: ${r.sides.join(' ~ ')}` : r.status === 'excluded' ? 'no verdict: runs excluded' : r.status === 'drift' ? 'no verdict: drift with the runs\' order' : r.status === 'not-interleaved' ? `no verdict: ${r.faster}/${r.slower} ${r.ratio.toFixed(2)}, not interleaved` : r.status === 'equivalent' ? `no difference within ±${Math.round(r.words.margin * 100)}%: ${r.sides.join(' ~ ')}` : r.status === 'inconclusive' ? 'inconclusive' : r.status === 'one-side' ? `one side only: ${r.sides.join(', ') || 'no complete run'}` : 'no verdict: too few runs');
    const ex = (r) => r.sides.map((side, i) => { const t = Object.entries(r.excluded[i] || {}).map(([k, n]) => `${EXCL[k] || k} ${n}/${r.runs[i]}`).join(', '); return t ? `${side}: ${t}` : null; }).filter(Boolean).join('; ');
    // rows grouped by experiment and set under a line naming the sides; runs in the sides' order
    const trs = [];
    let group = null;
    for (const r of rows) {
      const g = `${r.experiment}${r.sets > 1 ? ` (set ${r.set})` : ''}`;
      const sides = [...new Set(rows.filter((x) => x.experiment === r.experiment && x.set === r.set)
        .flatMap((x) => x.sides))];
      if (g !== group) {
        trs.push({ cls: 'group', span: `${g}: ${sides.join(' vs ') || 'no complete run'}` });
        group = g;
      }
      trs.push({
        cls: `row ${r.status}`,
        attrs: { 'data-experiment': r.experiment, 'data-set': r.set, 'data-point': r.point, 'data-sides': r.sides.join(' | ') },
        cells: [g, r.point, r.order_note ? `${answer(r)} (${r.order_note})` : answer(r), // src/drift.js
          // a ratio without an interval: sides run one after the other (no verdict, src/drift.js)
          r.ratio === null || r.ratio === undefined ? '-' : `${fmt(r.ratio)}x${r.ci ? ` (${fmt(r.ci[0])}-${fmt(r.ci[1])})` : ' (no interval)'}`,
          forest(r), r.sides.map((_, i) => `${r.usable[i]}/${r.runs[i]}`).join(' v '), ex(r) || '-', r.safety.join('; ') || '-'],
      });
    }
    box.append(table(head, trs, 'summary'));
    box.append(el('p', { class: 'meta method' }, `Method: ${report.method.verdict}. Forest: the dot is the ratio, the bar its 95% interval (green: it excludes 1.0), the line 1.0. ${report.method.comparable}. ${report.method.excluded}.`));
    const notCompared = report.experiments.flatMap((x) => x.differences.map((d) => `${x.name}: ${d.sentence}`));
    for (const t of notCompared) box.append(el('p', { class: 'differs' }, `Not compared: ${t}`));
    for (const l of report.left_out) box.append(el('p', { class: 'differs left-out' }, `Left out: ${l.experiment} ${l.engine} ${l.host} (${rel(l.dir)}): ${l.why}`));
    box.append(el('p', { class: 'note' }, 'The evidence is below: per experiment the charts, the verdicts, every number and each run\'s description; the per-second timeline of every run is in the appendix at the end.'));
    return box;
  }
  const fmt = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));

  root.append(el('p', { class: 'meta' }, `generated ${report.generated_at} from ${report.inputs.join(', ')}.`));
  // a report of capacity searches alone opens with the capacities (src/capacity-page.js)
  if (report.summary.length || !(report.capacity || []).length) root.append(summarySection());
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
  // Appendix, collapsed: the per-second timeline of every run (the evidence behind each number).
  const timelines = report.experiments
    .flatMap((ex) => ex.sets.flatMap((set) => set.timelines.map((tl) => ({ ex, set, tl }))));
  if (timelines.length) {
    // past src/page-data.js's bound, runs evenly spaced, and the appendix says how many of how many
    const shown = report.appendix ? `${timelines.length} of ${report.appendix.runs} runs, evenly spaced (report.json has every run)` : `every run (${timelines.length})`;
    const app = el('details', { class: 'appendix', id: 'timelines' }, el('summary', {}, `Appendix: per-second timelines of ${shown}`));
    for (const { ex, set, tl } of timelines) {
      const box = el('div', { class: 'timeline', 'data-experiment': ex.name, 'data-set': set.id });
      box.append(el('h4', {}, `${ex.name}${ex.sets.length > 1 ? ` set ${set.id}` : ''}`));
      timelineCharts(box, tl, set);
      app.append(box);
    }
    root.append(app);
  }
  document.body.setAttribute('data-rendered', 'true');
})();
