'use strict';
// Server restarts, said where runs are pooled. Each run records the server
// process it measured (loader/src/server/describe.js: server.process_start, pid and start time from
// serverStatus, and restarted_during_run from a second reading at its end). Runs of one
// experiment and engine label whose server was restarted between them are still pooled as
// repetitions (a restart between repetitions is a legitimate way to run them), but never silently:
// one note per such side, naming the processes. A run during which the server restarted gets a
// note of its own: the loader marks it incomplete, so it is in no verdict, and the note says why.
const { dimensionValue } = require('./identity');

// Whether two readings are one process: the loader's own rule (common/process-start.js).
const { sameProcess } = require('../../common/process-start');

// restartNotes(results, by) -> [note]: results are normalised runs (src/normalise.js).
function restartNotes(results, by = 'engine') {
  const notes = [];
  const sides = new Map();
  for (const r of results) {
    // Such a run is not a sample (the loader marks it incomplete): left out of every verdict.
    if (r.restarted_during_run) notes.push(`${r.experiment} ${dimensionValue(r, by)} ${r.started_at}: ${r.restart_note}; not a sample, left out of verdicts (compare --resume runs it again)`);
    const p = r.process_start;
    if (!p || p.pid === null || !p.started_at) continue;
    const key = `${r.experiment}\u0000${dimensionValue(r, by)}`;
    if (!sides.has(key)) sides.set(key, { experiment: r.experiment, side: dimensionValue(r, by), processes: [] });
    const s = sides.get(key);
    const known = s.processes.find((q) => sameProcess(q, p));
    if (known) known.runs += 1; else s.processes.push({ ...p, runs: 1 });
  }
  for (const s of sides.values()) {
    if (s.processes.length < 2) continue;
    const list = s.processes.map((p) => `pid ${p.pid} started ${p.started_at} (${p.runs} run${p.runs === 1 ? '' : 's'})`).join(', ');
    notes.push(`${s.experiment} ${s.side}: the server was restarted between runs, ${s.processes.length} processes: ${list}; pooled as repetitions of one side`);
  }
  return notes;
}

module.exports = { restartNotes };
