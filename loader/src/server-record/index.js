'use strict';
// The server record of a run: server.ndjson, one line per member per second, beside
// timeline.ndjson. One file per job in this folder:
//   members.js  which members to sample, and each one's direct URI
//   fields.js   the per-line field map, each name with the source it was read in
//   delta.js    counters to per-second rates, gauges as read, nothing invented
//   repl.js     member state, optime, lag, oplog window
//   sampler.js  the once-a-second loop over its own connections
//   file.js     server.ndjson
//   step-facts.js  per-step replication and write cost from the record
const { ServerRecord } = require('./sampler');
const { RecordFile } = require('./file');
const { stepFacts } = require('./step-facts');

// startServerRecord({ conn, description, client, dir, log }) -> { stop(), summary(), series }
function startServerRecord({ conn, description, client, dir, log, intervalMs }) {
  const out = new RecordFile(dir, log);
  const seedHosts = (client.options.hosts || []).map((h) => h.toString());
  const record = new ServerRecord({ conn, description, seedHosts, out, log, intervalMs });
  record.start();
  return {
    record,
    get series() { return record.series; },
    async stop() { await record.stop(); out.close(); },
    // stepFacts(from, to): steps[].replication and steps[].write_cost for that time range.
    stepFacts(from, to) { return stepFacts(record.series, from, to); },
    summary() { return { ...record.summary(), ...(out.error ? { write_error: out.error } : {}) }; },
  };
}

module.exports = { startServerRecord };
