'use strict';
// The console lines of a capacity search (--sla, src/experiment/sla.js): at the end of a run, every step
// tried in the order it ran (offered, achieved, the worst op's intended and service latency at the
// SLA's percentile, how busy the clients were, passed or why not) and the capacity; at the end of
// a --repeat group, the capacity of each repetition and their median (the report gives the
// interval). A search's steps differ between repetitions (each follows its own verdicts), so they
// are never pooled by step number as a sweep's are (table.js groupTable).
const { median, round } = require('../../../common/stats');
const { grid, ms } = require('./table');
// The capacity line and its caveat (a step's delay and what it is set against) are prose: wrapped
// within 120 columns as printed.
const { wrapProse, wrapLine } = require('../text/wrap');
const { searchExclusion, HOST_LIMITED } = require('../../../common/capacity-sample');
const { slaText } = require('../../../common/sla-text');

function capacityLine(c) {
  const found = c.capacity_ops_per_s === null ? 'no rate passed' : `${c.capacity_ops_per_s} ops/s`;
  const above = c.lowest_failing_ops_per_s === null ? '' : `, lowest failing ${c.lowest_failing_ops_per_s}`;
  const line = `capacity at ${slaText(c.sla)}: ${found}${above} (${c.complete ? '' : 'search not finished, a lower bound: '}${c.search.ended})`;
  return c.host_caveat ? `${line}\nCAVEAT: ${c.host_caveat.text}` : line;
}

// capacityTable(capacity) -> text: summary.json capacity as a table.
function capacityTable(c) {
  const p = c.sla.percentile;
  const rows = [['step', 'offered', 'achieved', `intended ${p} ms`, `service ${p} ms`, 'clients busy', 'verdict']];
  c.steps.forEach((s, i) => rows.push([String(i + 1), String(s.offered_ops_per_s), String(s.achieved_ops_per_s),
    ms(s.intended_us), ms(s.service_us),
    s.clients_busy === null || s.clients_busy === undefined ? '-' : `${Math.round(s.clients_busy * 100)}%`, s.passed ? 'passed' : `failed: ${s.why}`]));
  return `\ncapacity search, ${c.clients} clients, latency from each op's intended start (worst op type), ops/s:\n${grid(rows, (i, n) => i === n - 1)}\n${wrapProse(capacityLine(c))}\n`;
}

// capacityGroup(results) -> text: one capacity per repetition (summary.json capacity objects), and
// the median of those that are samples (common/capacity-sample.js, the report's rule: a
// host-limited search is marked and left out) to 0.1 ops/s, as the report prints it
// (report/src/capacity.js).
function capacityGroup({ name, engine, group, results }) {
  const why = results.map(searchExclusion);
  const each = results.map((c, i) => (c.capacity_ops_per_s === null ? 'none' : `${c.capacity_ops_per_s}${why[i] === HOST_LIMITED ? ' (host-limited)' : ''}`));
  const samples = results.filter((_, i) => why[i] === null).map((c) => c.capacity_ops_per_s);
  const out = samples.length < results.length ? ` of ${samples.length}` : '';
  const sla = results[0].sla;
  return `\n${wrapLine(`${name} on ${engine}: ${results.length} repetitions${group ? ` (group ${group})` : ''}, capacity at ${slaText(sla)} per repetition: ${each.join(', ')} ops/s${samples.length ? `; median ${round(median(samples), 1)}${out}` : ''} (the report gives its interval)`)}\n`;
}

module.exports = { capacityTable, capacityGroup, capacityLine };
