/* global Plot */
// Runs in the browser after page.js (src/html.js inlines it): the capacity section (--sla runs,
// src/capacity.js), placed right after the summary: per experiment and set, the verdict
// sentences, the capacities, and each side's latency-throughput curve (intended latency at the
// SLA's percentile against the achieved rate, log latency axis, 1-2-5 ticks, the SLA as a dashed
// line, failing steps hollow). One Plot spec per chart, as page.js draws its own.
(function () {
  'use strict';
  const report = JSON.parse(document.getElementById('report-data').textContent);
  const sections = report.capacity || [];
  if (!sections.length) return;
  const el = window.labEl; // page.js's
  const ticks125 = (lo, hi) => {
    const out = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
      for (const m of [1, 2, 5]) out.push(Number((m * 10 ** e).toPrecision(1)));
    }
    return out.filter((t) => t >= lo / 1.5 && t <= hi * 1.5);
  };
  const box = el('section', { id: 'capacity' }, el('h2', {}, `Capacity under a latency SLA, by ${report.by}`));
  for (const c of sections) {
    const sla = `${c.sla.percentile} <= ${c.sla.target_ms} ms`;
    box.append(el('h3', {}, `${c.experiment}${c.set > 1 ? ` set ${c.set}` : ''}: ${sla}`));
    box.append(el('ul', {}, c.verdicts.map((v) => el('li', { class: v.status }, v.sentence)), c.verdicts.length ? [] : [el('li', {}, 'one side only: nothing to compare')]));
    // the geometric mean first, the statistic the verdict uses (src/capacity-limits.js),
    // then the median to 0.1 ops/s as the terminal and the loader print it (common/stats.js round)
    // and the side's own interval (src/capacity.js, widened by the brackets in capacity-limits.js)
    const iv = (s) => (s.interval && s.interval.low !== null ? `, ${s.interval.level * 100}% CI ${Math.round(s.interval.low)}-${Math.round(s.interval.high)}` : '');
    const figure = (s) => (s.geomean !== undefined && s.geomean !== null ? `${Math.round(s.geomean)} ops/s (geometric mean${iv(s)}; median ${Math.round(s.median * 10) / 10}` : `${Math.round(s.median * 10) / 10} ops/s (median${iv(s)}`);
    // a host-limited search (capacity.host_caveat) is left out of the figure and
    // the verdict (src/capacity.js), and shown apart with its caveat
    const hostLimited = (s) => s.host_limited || [];
    const hostFigure = (s) => {
      const xs = hostLimited(s).map((h) => h.capacity_ops_per_s).sort((a, b) => a - b);
      const mid = xs.length % 2 ? xs[(xs.length - 1) / 2] : (xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2;
      return xs.length ? `${Math.round(mid * 10) / 10} ops/s (host-limited: median` : '';
    };
    const leftOut = (s) => (hostLimited(s).length && s.median !== null ? `; ${hostLimited(s).length} host-limited run(s) left out` : '');
    box.append(el('p', { class: 'meta' }, c.sides.map((s) => (s.median === null && hostLimited(s).length
      ? `${s.side}: ${hostFigure(s)} of ${hostLimited(s).length} host-limited of ${s.runs} run(s); ${s.clients.join(',')} clients)`
      : `${s.side}: ${s.median === null ? 'no capacity' : figure(s)} of ${s.samples.length} usable of ${s.runs} run(s)${leftOut(s)}; ${s.clients.join(',')} clients)`)).join('; ')));
    const caveats = c.sides.flatMap((s) => hostLimited(s).map((h) => el('li', { class: 'host-limited' }, `${s.side} host-limited (${h.run}): ${h.text}`)));
    if (caveats.length) box.append(el('ul', { class: 'caveats' }, caveats));
    const data = c.sides.flatMap((s) => s.curve.filter((p) => p.intended_us > 0).map((p) => ({ ...p, side: s.side, ms: p.intended_us / 1000, series: `${s.side} ${p.run}` })));
    if (!data.length) continue;
    const msAll = [...data.map((d) => d.ms), c.sla.target_ms];
    const fig = el('figure', { class: 'chart', 'data-kind': 'capacity-curve', 'data-sides': c.sides.map((s) => s.side).join(',') });
    fig.append(el('figcaption', {}, `${c.experiment}: intended ${c.sla.percentile} (ms, log) against the achieved rate, each step of each search; dashed: the SLA; hollow: a step that failed`));
    fig.append(Plot.plot({
      width: 760, height: 320, marginLeft: 70, marginRight: 20, marginTop: 30, style: { fontSize: '12px' },
      x: { label: 'achieved ops/s', grid: true },
      y: { type: 'log', label: `intended ${c.sla.percentile} ms`, ticks: ticks125(Math.min(...msAll), Math.max(...msAll)), tickFormat: '~g', grid: true },
      color: { legend: true },
      marks: [
        Plot.ruleY([c.sla.target_ms], { stroke: '#c00', strokeDasharray: '6,4' }),
        Plot.text([c.sla.target_ms], { y: (d) => d, text: () => `SLA ${sla}`, frameAnchor: 'left', textAnchor: 'start', dy: -7, fill: '#c00' }),
        Plot.line([...data].sort((a, b) => a.offered - b.offered), { x: 'achieved', y: 'ms', stroke: 'side', z: 'series', strokeOpacity: 0.5 }),
        Plot.dot(data.filter((d) => d.passed), { x: 'achieved', y: 'ms', fill: 'side', r: 4, tip: true }),
        Plot.dot(data.filter((d) => !d.passed), { x: 'achieved', y: 'ms', stroke: 'side', r: 4, tip: true }),
      ],
    }));
    box.append(fig);
  }
  const summary = document.getElementById('summary');
  if (summary) summary.after(box); else document.getElementById('report').prepend(box);
})();
