'use strict';
// closingText(facts) -> what a run prints on stdout as it ends: the table of its steps
// (table.js formatTable), an --sla search's steps and capacity (capacity-table.js), the
// collection's footprint at the end, each step's replication that did not keep up, and each step's
// dips with their causes (src/stability/line.js). A pure function of the facts the run hands over
// (run/runner.js printTable), so the Run keeps when it is said and this file what is said.
const { formatTable } = require('./table');
const { capacityTable } = require('./capacity-table');
const { wrapLine } = require('../text/wrap');
const { stabilityLines } = require('../stability/line');

// footprintLine(end) -> the footprint at the end in one line, or '' when no documents were counted.
function footprintLine(end) {
  if (!end || !end.documents) return '';
  const b = end.bytes_per_doc;
  // On disk only where collStats says what lies on disk on this engine (common/meanings.js).
  const disk = b.on_disk_with_indexes !== null ? `${b.on_disk_with_indexes} bytes/doc on disk with indexes`
    : b.engine_storage !== null ? `${b.engine_storage} in collStats storage (not on disk here)` : 'on disk unknown';
  const files = end.file_bytes ? `, data files ${end.file_bytes} bytes` : '';
  const logical = `${b.logical ?? 'n/a'} bytes/doc logical (BSON)`;
  return `footprint at the end: ${end.documents} documents, ${logical}, ${disk}${files}\n`;
}

// closingText({ name, engine, complete, steps, preload, warmupMs, capacity, footprint }) -> text.
function closingText({ name, engine, complete, steps, preload, warmupMs, capacity, footprint }) {
  let text = formatTable({ name, engine, complete, steps, preload, warmupMs });
  if (capacity) text += capacityTable(capacity);
  text += footprintLine(footprint && footprint.end);
  // A step whose replication did not keep up (steps[].replication.flagged) is said under the table.
  for (const st of steps) {
    for (const f of (st.replication && st.replication.flagged) || []) {
      text += `${wrapLine(`REPLICATION: step ${st.index}: ${f}`)}\n`;
    }
  }
  // Per step its dips and their causes; steps that read the same said once.
  for (const line of stabilityLines(steps)) text += `${line}\n`;
  return text;
}

module.exports = { closingText };
