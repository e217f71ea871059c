'use strict';
// `lab-loader merge-summary DIR... < MEASURED.json`: what ./run.sh measured around a run on Compose
// (lib/summary-merge.sh), merged into each run folder's summary.json by the loader, its only
// writer, and checked against the schema (common/summary.schema.json) as every summary is. bash
// measures (lib/block-writes.sh, lib/experiment.sh) and hands the result over as data; where each
// field goes and what an OOM kill does to the run's verdict is decided here.
// MEASURED is one JSON object holding any of:
//   block_writes, block_writes_note   each shard member's block writes (lib/block-writes.sh)
//   data_dir_bytes, data_dir_note     each shard member's data directory on disk, into footprint
//   oom_killed, oom_reason            the stack's services the kernel killed for memory during the
//                                     run and why that voids it: the run is made incomplete
//   marked_incomplete {reason, exit_code}  what ended or voided the run outside the loader (a
//                                     loader killed outright, 137; another loader overlapping a
//                                     comparison's run, 1): complete false, the reason first,
//                                     exit_code as given
const fs = require('node:fs');
const path = require('node:path');
const { UsageError } = require('../text/usage');
const { checkSummary, SummarySchemaError } = require('./summary-schema');

const TOP_LEVEL = ['block_writes', 'block_writes_note'];
const FOOTPRINT = ['data_dir_bytes', 'data_dir_note'];
const KNOWN = [...TOP_LEVEL, ...FOOTPRINT, 'oom_killed', 'oom_reason', 'marked_incomplete'];

// checkMeasured(measured): a usage error naming what ./run.sh sent that no summary field takes.
function checkMeasured(measured) {
  if (!measured || typeof measured !== 'object' || Array.isArray(measured)) {
    throw new UsageError('merge-summary: what ./run.sh measured must be one JSON object');
  }
  const unknown = Object.keys(measured).filter((k) => !KNOWN.includes(k));
  if (unknown.length) {
    const known = KNOWN.join(', ');
    throw new UsageError(`merge-summary: '${unknown[0]}' is not a field ./run.sh measures (known: ${known})`);
  }
  if (('oom_killed' in measured) !== ('oom_reason' in measured)) {
    throw new UsageError('merge-summary: oom_killed and oom_reason come together');
  }
  const mark = measured.marked_incomplete;
  if (mark !== undefined && (typeof mark?.reason !== 'string' || !Number.isInteger(mark?.exit_code))) {
    throw new UsageError('merge-summary: marked_incomplete is {"reason": TEXT, "exit_code": N}');
  }
}

// markedIncomplete(summary, reason, exitCode, killed): the run marked incomplete: complete false,
// the reason before any it had, exit_code from exitCode(the old one), and (an OOM kill)
// oom_killed beside exit_code. Field order kept, as the loader wrote it.
function markedIncomplete(summary, reason, exitCode, killed) {
  const out = {};
  for (const [k, v] of Object.entries(summary)) {
    if (k === 'oom_killed') continue;
    if (k === 'complete') out.complete = false;
    else if (k === 'reason') out.reason = v ? `${reason}; ${v}` : reason;
    else out[k] = v;
    if (k === 'exit_code') {
      out.exit_code = exitCode(v);
      if (killed !== undefined) out.oom_killed = killed;
    }
  }
  if (killed !== undefined && !('oom_killed' in out)) out.oom_killed = killed;
  return out;
}

// withOomKill(summary, killed, reason): a member killed mid-run may leave the run to finish on a
// new primary with numbers that look whole: incomplete, exit_code 1 where it was 0.
const withOomKill = (summary, killed, reason) => markedIncomplete(summary, reason, (v) => (v === 0 ? 1 : v), killed);

// merged(summary, measured) -> the summary with what ./run.sh measured in its place.
function merged(summary, measured) {
  let out = { ...summary };
  for (const k of TOP_LEVEL) if (k in measured) out[k] = measured[k];
  if (FOOTPRINT.some((k) => k in measured)) {
    out.footprint = { ...(out.footprint || {}) };
    for (const k of FOOTPRINT) if (k in measured) out.footprint[k] = measured[k];
  }
  if ('oom_killed' in measured) out = withOomKill(out, measured.oom_killed, measured.oom_reason);
  const mark = measured.marked_incomplete;
  if (mark) out = markedIncomplete(out, mark.reason, () => mark.exit_code);
  return out;
}

// mergedIn(dir, measured) -> { file, summary }: DIR/summary.json merged and checked.
function mergedIn(dir, measured) {
  const file = path.join(dir, 'summary.json');
  let summary;
  try {
    summary = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`merge-summary: ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
  const out = merged(summary, measured);
  try {
    checkSummary(out);
  } catch (e) {
    if (!(e instanceof SummarySchemaError)) throw e;
    throw new UsageError(`merge-summary: ${e.message.replace('summary.json', file)}`);
  }
  return { file, summary: out };
}

// mergeCommand(dirs, text): the CLI's work; text is MEASURED as read from stdin. Every folder is
// merged and checked before the first is written; each is written beside and renamed (as the run
// writes it), so it is always whole.
function mergeCommand(dirs, text) {
  let measured;
  try {
    measured = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`merge-summary: what ./run.sh measured is not JSON (${e.message})`);
  }
  checkMeasured(measured);
  for (const { file, summary } of dirs.map((dir) => mergedIn(dir, measured))) {
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(summary, null, 2) + '\n');
    fs.renameSync(`${file}.tmp`, file);
  }
}

module.exports = { mergeCommand, merged, KNOWN };
