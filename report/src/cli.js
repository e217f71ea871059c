'use strict';
// lab-report [--experiment NAME ...] [--engine E ...] [--since DATE] [--results-dir DIR] [RESULT_DIR ...]
const path = require('node:path');
const { parseArgs } = require('node:util');
const { readAll, InputError } = require('./read');
const { buildReport } = require('./compare');
const { renderHtml } = require('./html');
const { renderText } = require('./table');
const { writeReport } = require('./output');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

const USAGE = `Usage: lab-report [--experiment NAME ...] [--engine E ...] [--since DATE] [--results-dir DIR] [RESULT_DIR ...]

Reads results folders (summary.json + timeline.ndjson) and writes DIR/report/<UTC time>/index.html
and report.json, prints the comparison, and points DIR/report/latest at it.
  --experiment NAME   only this experiment (repeatable)
  --engine E          only this engine label (repeatable)
  --since DATE        only runs started at or after DATE (ISO 8601, e.g. 2026-11-01 or 2026-11-01T12:00Z)
  --results-dir DIR   results root to read and to write the report under (default <repo>/results)
  RESULT_DIR ...      read these folders (a run folder or any folder above runs) instead of DIR
Exit codes: 0 report written, 1 runtime error, 2 bad input (one line on stderr).`;

class UsageError extends Error {}

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
        'results-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new UsageError(e.message.split('\n')[0]);
  }
  const o = v.values;
  let since = null;
  if (o.since !== undefined) {
    since = new Date(o.since);
    if (!/^\d{4}-\d{2}-\d{2}/.test(o.since) || Number.isNaN(since.getTime())) throw new UsageError(`--since '${o.since}' is not a date (use ISO 8601, e.g. 2026-11-01)`);
  }
  const resultsDir = path.resolve(o['results-dir'] ?? path.join(REPO_ROOT, 'results'));
  return { help: Boolean(o.help), experiments: o.experiment, engines: o.engine, since, resultsDir, inputs: v.positionals.length ? v.positionals.map((p) => path.resolve(p)) : [resultsDir] };
}

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
    const report = buildReport(input, {
      generatedAt: now.toISOString(),
      inputs: opts.inputs,
      filters: { experiments: opts.experiments, engines: opts.engines, since: opts.since ? opts.since.toISOString() : null },
    });
    const dir = writeReport(path.join(opts.resultsDir, 'report'), now, report, renderHtml(report));
    io.stdout.write(renderText(report, dir));
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
