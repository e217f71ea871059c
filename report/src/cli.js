'use strict';
// lab-report's command line: its flags (USAGE), the report made, written and printed (main).
const path = require('node:path');
const { setIndex } = require('./set-index');
const { parseArgs } = require('node:util');
const { readAll, InputError } = require('./read');
const { buildReport } = require('./compare');
const { writeHtml } = require('./html');
const { renderText } = require('./table');
const { writeReport } = require('./output');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

const USAGE = `Usage: lab-report [--by DIM] [--wide] [--experiment NAME ...] [--engine E ...] [--since DATE]
                  [--results-dir DIR] [RESULT_DIR ...]

Reads results folders (summary.json + timeline.ndjson) and writes DIR/report/<UTC time>/index.html
and report.json, prints the comparison (the summary first), and points DIR/report/latest at it.
  --by DIM            what to compare along: engine (default), server, profile, or any label the
                      runs carry (loader --label KEY=VALUE, e.g. platform, os)
  --wide              print every number below the summary (default: the summary, then notes)
  --experiment NAME   only this experiment (repeatable)
  --engine E          only this engine label (repeatable)
  --since DATE        only runs started at or after DATE (ISO 8601, e.g. 2026-11-01 or 2026-11-01T12:00Z)
  --results-dir DIR   results root to read and to write the report under (default <repo>/results)
  RESULT_DIR ...      read these folders (a run folder or any folder above runs) instead of DIR
Exit codes: 0 report written, 1 runtime error, 2 bad input (one line on stderr).`;

class UsageError extends Error {}

// Dimensions every run has; any other --by is a label (summary.json labels).
const BUILT_IN = ['engine', 'server', 'profile'];

function parse(argv) {
  let v;
  try {
    v = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        experiment: { type: 'string', multiple: true, default: [] },
        engine: { type: 'string', multiple: true, default: [] },
        since: { type: 'string' },
        by: { type: 'string', default: 'engine' },
        wide: { type: 'boolean', default: false },
        'results-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    // util.parseArgs' own text ("To specify a positional argument starting with a '-', place it at
    // the end of the command after '--'...") sends the user the wrong way: one line naming the flag.
    const flag = /'(-[^' ]*)/.exec(e.message)?.[1];
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown flag '${flag}' (./run.sh help lists the report's flags)`);
    if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new UsageError(`${flag} needs a value`);
    throw new UsageError(e.message.split('\n')[0]);
  }
  const o = v.values;
  let since = null;
  if (o.since !== undefined) {
    since = new Date(o.since);
    if (!/^\d{4}-\d{2}-\d{2}/.test(o.since) || Number.isNaN(since.getTime())) throw new UsageError(`--since '${o.since}' is not a date (use ISO 8601, e.g. 2026-11-01)`);
  }
  if (!/^[a-z][a-z0-9_]*$/.test(o.by)) throw new UsageError(`--by '${o.by}' is not a dimension (engine, server, profile or a label name such as platform)`);
  const resultsDir = path.resolve(o['results-dir'] ?? path.join(REPO_ROOT, 'results'));
  return { help: Boolean(o.help), by: o.by, wide: o.wide, experiments: o.experiment, engines: o.engine, since,
    resultsDir, inputs: v.positionals.length ? v.positionals.map((p) => path.resolve(p)) : [resultsDir] };
}

// Every line the report prints fits 120 columns (common/text.js), its 'lab-report: ' prefix included.
const { WIDTH } = require('../../common/text');
const PREFIX = 'lab-report: ';

// cut(text, max): text, or its first max-3 characters and '...' (a name the user typed, kept short):
// cut on purpose, as the message naming it is one line and the names are the runs' own, listed whole
// by the report's page.
const cut = (text, max) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);

// missingLabel(by, runs): --by names a label no run carries: one line within WIDTH naming the
// labels the runs do carry, as many as fit, then how many more (runs labelled by many keys made
// it 200 columns and more), and the built-in dimensions.
function missingLabel(by, runs) {
  const found = [...new Set(runs.flatMap((r) => Object.keys(r.labels)))].sort().map((l) => cut(l, 20));
  const head = `--by ${cut(by, 20)}: no run has that label (`;
  const tail = `; built in: ${BUILT_IN.join(', ')})`;
  if (!found.length) return `--by ${cut(by, 20)}: no run has labels (--label KEY=VALUE sets them${tail}`;
  const room = WIDTH - PREFIX.length - head.length - tail.length;
  const list = (n) => `labels: ${found.slice(0, n).join(', ')}${n < found.length ? `${n ? ', ' : ''}${found.length - n} more` : ''}`;
  let shown = found.length;
  while (shown > 0 && list(shown).length > room) shown -= 1;
  return `${head}${list(shown)}${tail}`;
}

// unwrittenAdvice(code, inputs): what to do when the report folder cannot be written. --results-dir
// alone also moves where the runs are read (it is both), so writing elsewhere is advised with the
// folders just read named as RESULT_DIR: the same runs, the report under DIR. A full disk
// (ENOSPC, EDQUOT: the quota) is said as such: making the folder writable would not help.
function unwrittenAdvice(code, inputs) {
  const quote = (p) => (/^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replaceAll("'", "'\\''")}'`);
  const elsewhere = `write it elsewhere with --results-dir DIR ${inputs.map(quote).join(' ')} (the same runs read)`;
  if (code === 'ENOSPC' || code === 'EDQUOT') return `its disk is full: free space there, or ${elsewhere}`;
  return `make the folder writable, or ${elsewhere}`;
}

const { capacityReport, capacityText } = require('./capacity');
const { serverSide, serverSideText, seriesOf } = require('./server-side');
const { claimsReport } = require('./claims');
const { applyWords } = require('./words');
const { applyCapacityLimits } = require('./capacity-limits');
const { steadiness, steadinessText, runDips, withSteadier } = require('./steadiness');

function main(argv, io = { stdout: process.stdout, stderr: process.stderr }, now = new Date()) {
  let opts;
  try {
    opts = parse(argv);
    if (opts.help) {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const input = readAll(opts.inputs, opts);
    if (!input.runs.length && !input.faults.length) {
      const why = input.skipped.length ? `; skipped ${input.skipped.length}: ${input.skipped[0].dir}: ${input.skipped[0].why}` : '';
      throw new UsageError(`no results found in ${opts.inputs.join(', ')}${opts.experiments.length || opts.engines.length || opts.since ? ' matching the filters' : ''}${why}`);
    }
    if (!BUILT_IN.includes(opts.by) && input.runs.length && !input.runs.some((r) => opts.by in r.labels)) {
      throw new UsageError(missingLabel(opts.by, input.runs));
    }
    const report = buildReport(input, {
      by: opts.by,
      generatedAt: now.toISOString(),
      inputs: opts.inputs,
      filters: { experiments: opts.experiments, engines: opts.engines,
        since: opts.since ? opts.since.toISOString() : null },
    });
    // --sla runs: capacities compared (src/capacity.js); their steps are a search's offered rates,
    // not a sweep, so they get no per-step throughput verdicts in the summary.
    // intervals widened by the searches' brackets (host-limited searches are
    // left out in capacityReport, by the loader's capacity.host_caveat)
    report.capacity = applyCapacityLimits(capacityReport(input.runs, opts.by), input.runs);
    // The seeds' findings (report/claims.json, src/claims.js): one row per claim, by engine or label.
    report.claims = claimsReport(input.runs);
    const setOf = setIndex(report);
    const slaOf = (row) => setOf(row.experiment, row.set)?.parameters?.sla;
    report.summary = report.summary.filter((row) => !slaOf(row));
    // words from the interval, one Holm family over every comparison (src/words.js)
    applyWords(report);
    // The server's side of the alike sets (src/server-side.js): footprint, write cost, CPU, lag.
    report.server_side = serverSide(report, input.runs);
    report.server_series = seriesOf(input.runs);
    // A run whose server.ndjson lost lines: said once per run; its appendix charts say it too.
    for (const r of input.runs) if (r.server_record_gap) report.notes.push(`${r.dir}: ${r.server_record_gap.sentence}; this run's server charts in the appendix have gaps there`);
    // Steadiness of the alike sets (src/steadiness.js), its sentence on each summary row, and
    // each run's dips for the appendix timeline's shading.
    report.steadiness = steadiness(report, input.runs);
    report.run_dips = runDips(input.runs);
    withSteadier(report);
    // A folder the report cannot write into (read-only, another owner): the summary is still
    // printed, then one line naming the folder and the cause, exit 1.
    let dir = null;
    let unwritten = null;
    try {
      dir = writeReport(path.join(opts.resultsDir, 'report'), now, report, (fd) => writeHtml(fd, report));
    } catch (e) {
      if (!e.code) throw e;
      unwritten = e;
    }
    io.stdout.write(capacityText(report.capacity) + renderText(report, dir, { wide: opts.wide })
      + serverSideText(report.server_side) + steadinessText(report.steadiness));
    if (unwritten) {
      io.stderr.write(`lab-report: cannot write the report into ${path.join(opts.resultsDir, 'report')} (${[`${unwritten.code}:`, unwritten.syscall || 'write', unwritten.path].filter(Boolean).join(' ')}): the summary above was not saved; ${unwrittenAdvice(unwritten.code, opts.inputs)}\n`);
      return 1;
    }
    return 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof InputError) {
      io.stderr.write(`lab-report: ${e.message}\n`);
      return 2;
    }
    io.stderr.write(`lab-report: ${e.stack || e.message}\n`);
    return 1;
  }
}

module.exports = { main, parse, USAGE, UsageError };
