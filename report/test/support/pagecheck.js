'use strict';
// What the tests read from the rendered page: every chart figure with its marks, axis labels and
// legend text, counted in the DOM that Chromium built.
async function chartsOf(page) {
  return page.evaluate(() => [...document.querySelectorAll('figure.chart')].map((f) => ({
    kind: f.dataset.kind,
    // a chart of sides names them; a chart of one run (the server's side) its engine
    sides: f.dataset.sides ? f.dataset.sides.split(',') : [],
    engine: f.dataset.engine ?? null,
    caption: f.querySelector('figcaption').textContent,
    svgs: f.querySelectorAll('svg').length,
    lines: f.querySelectorAll('g[aria-label="line"] path').length,
    dots: f.querySelectorAll('g[aria-label="dot"] > *').length,
    rules: f.querySelectorAll('g[aria-label="rule"] > *').length,
    axisLabels: [...f.querySelectorAll('g[aria-label$="axis label"] text')].map((t) => t.textContent),
    legend: [...f.querySelectorAll('div[class*="-swatches"] > span')].map((s) => s.textContent.trim()).filter(Boolean),
    texts: [...f.querySelectorAll('g[aria-label="text"] text')].map((t) => t.textContent),
    // the chart's own svg is the largest one (legend swatches are small svgs too)
    box: [...f.querySelectorAll('svg')].map((s) => s.getBoundingClientRect()).map((r) => [r.width, r.height]).sort((a, b) => b[0] * b[1] - a[0] * a[1])[0],
  })));
}

module.exports = { chartsOf };
