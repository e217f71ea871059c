'use strict';
// A run's server record read against what the loader says it wrote: summary.json server_record
// counts the lines of server.ndjson per member (one a second); a file that lost lines (a disk
// that filled, a copy cut short) holds fewer. The report says so rather than drawing the gaps as
// if the server had been recorded throughout.

// recordGap(serverRecord, lines) -> null | { missing, recorded, members: [{ host, missing, recorded }], sentence }
// serverRecord: summary.json server_record (null: no record made); lines: server.ndjson as read.
function recordGap(serverRecord, lines) {
  if (!serverRecord || typeof serverRecord !== 'object' || !Array.isArray(serverRecord.members)) return null;
  const read = new Map();
  for (const l of lines) read.set(l.member, (read.get(l.member) || 0) + 1);
  const members = serverRecord.members
    .filter((m) => m && Number.isInteger(m.lines) && m.lines > 0)
    .map((m) => ({ host: m.host, recorded: m.lines, missing: Math.max(0, m.lines - (read.get(m.host) || 0)) }))
    .filter((m) => m.missing > 0);
  if (!members.length) return null;
  const missing = members.reduce((n, m) => n + m.missing, 0);
  const recorded = members.reduce((n, m) => n + m.recorded, 0);
  const each = serverRecord.members.length > 1 ? members.map((m) => `${m.missing} of ${m.recorded} seconds missing for ${m.host}`).join(', ') : `${missing} of ${recorded} seconds missing`;
  const file = lines.length ? 'server.ndjson' : 'server.ndjson (absent or empty)';
  return { missing, recorded, members, sentence: `server record: ${each} from ${file}, counted in summary.json` };
}

module.exports = { recordGap };
