/* global Plot */
// Runs in the browser before page.js (src/html.js inlines it): the marks that shade a run's dips
// on its appendix timeline (src/steadiness.js runDips), each labelled with its causes.
// page.js asks window.labTimelineMarks(tl) for the extra marks of a run's charts.
(function () {
  'use strict';
  const report = JSON.parse(document.getElementById('report-data').textContent);
  const byRun = new Map((report.run_dips || []).map((r) => [r.run, r.dips]));
  window.labTimelineMarks = function (tl) {
    const dips = byRun.get(tl.id);
    if (!dips || !dips.length) return [];
    return [
      Plot.rectX(dips, { x1: 'from_s', x2: 'to_s', fill: '#d62728', fillOpacity: 0.15, title: (d) => `dip to ${Math.round(d.depth * 100)} % of the median: ${d.cause_text}` }),
      Plot.text(dips, { x: 'from_s', text: 'cause_text', frameAnchor: 'bottom', textAnchor: 'start', dx: 2, dy: -4, fill: '#a00', fontSize: 9 }),
    ];
  };
})();
