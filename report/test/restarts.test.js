'use strict';
// A server restarted between runs, or during one, is said where the runs are pooled: real loader
// runs against mongo-java-server, restarted on the same port between two of
// them, then the report. Two runs against one process give no note: the note is not printed for
// every pooling.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const fs = require('node:fs');
const { tmpDir } = require('./support/fixtures');
const { main } = require('../src/cli');
const { restartNotes } = require('../src/restarts');

const LOADER_TEST = path.join(__dirname, '..', '..', 'loader', 'test', 'support');

test('two runs on one server process, then one after a restart on the same port: one note naming both processes', { timeout: 120000 }, async () => {
  const { startServer } = require(path.join(LOADER_TEST, 'server.js'));
  const { runLoader } = require(path.join(LOADER_TEST, 'loader.js'));
  const results = tmpDir();
  const run = (uri) => runLoader(['experiment1', '--uri', uri, '--engine', 'rs-label', '--docs', '200', '--results-dir', results, '--metrics-port', '0']);
  let server = await startServer();
  const port = server.port;
  try {
    for (let i = 0; i < 2; i += 1) assert.equal((await run(server.uri)).code, 0);
    let out = '';
    assert.equal(main(['--results-dir', results], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
    assert.doesNotMatch(out, /restarted (between|during)/, 'one process: no restart note');
    await server.stop();
    server = await startServer({ port });
    assert.equal((await run(server.uri)).code, 0);
    out = '';
    assert.equal(main(['--results-dir', results], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
    const flat = out.replace(/\n\s+/g, ' ');
    assert.match(flat, /note: experiment1 rs-label: the server was restarted between runs, 2 processes: pid \d+ started \S+ \(2 runs\), pid \d+ started \S+ \(1 run\)/);
  } finally {
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});

test('restartNotes: a run during which the server restarted gets its own note; readings 1 s apart are one process', () => {
  const run = (pid, at, extra = {}) => ({ experiment: 'e', engine: 'x', started_at: at, process_start: { pid, started_at: at }, ...extra });
  assert.deepEqual(restartNotes([run(7, '2026-01-01T00:00:00.000Z'), run(7, '2026-01-01T00:00:01.000Z')]), []);
  const notes = restartNotes([run(7, '2026-01-01T00:00:00.000Z', { restarted_during_run: true, restart_note: 'the server restarted during the run: pid 7 ..., pid 8 ...' })]);
  assert.deepEqual(notes, ['e x 2026-01-01T00:00:00.000Z: the server restarted during the run: pid 7 ..., pid 8 ...; not a sample, left out of verdicts (compare --resume runs it again)']);
  assert.equal(restartNotes([run(7, '2026-01-01T00:00:00.000Z'), run(8, '2026-01-01T00:00:00.000Z')]).length, 1, 'a new pid is a new process');
  // A pid without its start time places no process (a restarted mongod in a container is pid 1
  // again): such a run is not tracked, never said to be another process by its pid alone.
  const noStart = { experiment: 'e', engine: 'x', started_at: '2026-01-01T00:00:00.000Z', process_start: { pid: 1, started_at: null } };
  assert.deepEqual(restartNotes([noStart, run(2, '2026-01-01T00:00:05.000Z')]), []);
});
