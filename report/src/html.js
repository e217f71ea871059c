'use strict';
// index.html: one self-contained file that works opened from disk, offline. The chart library
// (Observable Plot, with d3 which it is built on) is read from node_modules and inlined at report
// time; the numbers are report.json (its per-run appendix bounded), inlined as JSON; src/page.js draws the page from
// them.
const fs = require('node:fs');
const path = require('node:path');
const { pageData } = require('./page-data');
const { writeJson } = require('./json-stream');

function libFile(pkg, rel) {
  // Plot's package.json "exports" hides its dist/ folder; resolve the package entry and step up.
  let dir = path.dirname(require.resolve(pkg));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return fs.readFileSync(path.join(dir, rel), 'utf8');
}

// Inline script text must not contain "</script" (it would end the element early).
const safeScript = (js) => js.replace(/<\/script/gi, '<\\/script');
const safeJson = (obj) => JSON.stringify(obj).replace(/</g, '\\u003c');

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 1400px; }
h2 { border-bottom: 2px solid #ccc; margin-top: 2em; }
figure.chart { margin: 1em 0; }
figcaption { font-size: 13px; color: #444; margin-bottom: .3em; }
table { border-collapse: collapse; font-size: 12px; margin: .5em 0; }
td, th { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }
tr.incomplete td { background: #fde8e8; }
tr.limited td { background: #fff3cd; }
tr.unsupported td, tr.not-applicable td { background: #eee; color: #555; }
li.verdict { font-weight: 600; }
table.summary { font-size: 13px; }
table.claims tr.reproduced td:nth-child(6) { color: #1a6b1a; font-weight: 600; }
table.claims tr.contradicted td:nth-child(6) { color: #a00; font-weight: 600; }
table.summary td { vertical-align: middle; }
table.summary td:nth-child(2), table.summary td:nth-child(4) { white-space: nowrap; }
table.summary td:nth-child(5), table.summary th:nth-child(5) { min-width: 262px; padding: 0 2px; }
table.summary svg { display: block; }
#summary p.meta { font-size: 12px; }
table.summary tr.group td { background: #f3f3f3; font-weight: 600; }
table.summary tr.verdict td:nth-child(3) { font-weight: 600; }
table.summary tr.excluded td, table.summary tr.no-verdict td, table.summary tr.one-side td { color: #8a4b00; }
details.appendix { margin-top: 2em; }
details.appendix > summary { font-size: 1.3em; cursor: pointer; }
li.no-verdict, li.excluded { color: #8a4b00; }
.note, .meta { color: #555; }
.differs { background: #eef; padding: .4em; }
`;

// pageParts(fullReport) -> { report: pageData(fullReport) (src/page-data.js: the per-run appendix kept
// to a number of runs a browser draws), head, tail }: the page is head + the report as JSON + tail.
function pageParts(fullReport) {
  const report = pageData(fullReport);
  const plotJs = libFile('@observablehq/plot', 'dist/plot.umd.min.js');
  const d3Js = libFile('d3', 'dist/d3.min.js');
  // The page's scripts, in order: the dips' marks before page.js (which asks for them),
  // page.js, then the sections it places: capacity (--sla runs), the server's side, the
  // seeds' findings, steadiness.
  const scripts = ['timeline-dips.js', 'set-numbers.js', 'page.js', 'capacity-page.js', 'server-side-page.js', 'claims-page.js', 'steadiness-page.js']
    .map((f) => `<script>${safeScript(fs.readFileSync(path.join(__dirname, f), 'utf8'))}</script>`).join('\n');
  const head = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Engine comparison report ${report.generated_at}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>MongoDB engine lab: comparison report</h1>
<div id="report"></div>
<script type="application/json" id="report-data">`;
  const tail = `</script>
<script>${safeScript(d3Js)}</script>
<script>${safeScript(plotJs)}</script>
${scripts}
</body>
</html>
`;
  return { report, head, tail };
}

// renderHtml(report) -> the page, one string
function renderHtml(fullReport) {
  const { report, head, tail } = pageParts(fullReport);
  return `${head}${safeJson(report)}${tail}`;
}

// writeHtml(fd, report): the same bytes as renderHtml(report) written to fd, its JSON streamed
// (src/json-stream.js): never one string, each run's series read from its folder one at a time
// (the page's appendix of 100 runs held at once took most of the report's memory).
function writeHtml(fd, fullReport) {
  const { report, head, tail } = pageParts(fullReport);
  fs.writeSync(fd, head);
  writeJson(fd, report, { compact: true, escape: (text) => text.replace(/</g, '\\u003c') });
  fs.writeSync(fd, tail);
}

module.exports = { renderHtml, writeHtml };
