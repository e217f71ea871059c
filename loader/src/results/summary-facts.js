'use strict';
// `lab-loader summary-facts DIR...`: what ./run.sh needs to know of runs it started, read from
// their summary.json by the loader that wrote it, one line per DIR in the order given:
//   documents_written=N|-  concurrent_runs=N|-
// ("-": no summary, or the field absent: a loader that did not finish). bash reads these lines,
// never the JSON: it used to grep summary.json by JSON.stringify's indentation (compare's
// overlap check, the block writes' per-document figure).
const fs = require('node:fs');
const path = require('node:path');

// factsOf(dir) -> { documents_written, concurrent_runs }, each a number or null.
function factsOf(dir) {
  let summary;
  try {
    summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
  } catch {
    return { documents_written: null, concurrent_runs: null };
  }
  const docs = summary?.documents_written;
  const concurrent = summary?.concurrent_runs;
  return {
    documents_written: Number.isInteger(docs) && docs >= 0 ? docs : null,
    concurrent_runs: Array.isArray(concurrent) ? concurrent.length : null,
  };
}

// factsLine(facts): the line ./run.sh reads.
const factsLine = (f) => Object.entries(f).map(([k, v]) => `${k}=${v ?? '-'}`).join(' ');

function factsCommand(dirs, out) {
  for (const dir of dirs) out.write(`${factsLine(factsOf(dir))}\n`);
}

module.exports = { factsCommand, factsOf, factsLine };
