'use strict';
// pageData(report) -> what index.html embeds: the report, but its per-run appendix (each run's
// per-second timeline, server series and dips) for at most APPENDIX_RUNS runs. Every run draws two
// charts there and a run of default length is about 0.35 MB of JSON: 5,000 runs made a page of
// hundreds of MB that Chromium could not draw. Up to APPENDIX_RUNS runs the page is what it was;
// beyond, runs evenly spaced over the appendix's order, and the appendix says how many of how many
// (report.json keeps every run's series). report itself is not changed.
const APPENDIX_RUNS = 100;

// evenly(count, keep) -> the indexes kept of 0..count-1: all, or keep of them, first and last included
function evenly(count, keep) {
  if (count <= keep) return null;
  const out = new Set();
  for (let i = 0; i < keep; i++) out.add(Math.round((i * (count - 1)) / (keep - 1)));
  return out;
}

function pageData(report, limit = APPENDIX_RUNS) {
  const all = (report.experiments || []).flatMap((ex) => ex.sets.flatMap((set) => set.timelines || []));
  const kept = evenly(all.length, limit);
  const series = report.server_series || [];
  const seriesKept = evenly(series.length, limit);
  if (!kept && !seriesKept) return report;
  const keptTimelines = new Set(kept ? all.filter((_, i) => kept.has(i)) : all);
  const shownRuns = new Set([...keptTimelines].map((tl) => tl.id));
  return {
    ...report,
    appendix: { runs: all.length, shown: keptTimelines.size, server_series: series.length },
    experiments: report.experiments.map((ex) => ({
      ...ex, sets: ex.sets.map((set) => ({ ...set, timelines: (set.timelines || [])
        .filter((tl) => keptTimelines.has(tl)) })),
    })),
    server_series: seriesKept ? series.filter((_, i) => seriesKept.has(i)) : series,
    run_dips: (report.run_dips || []).filter((r) => shownRuns.has(r.run)),
  };
}

module.exports = { pageData, APPENDIX_RUNS };
