'use strict';
// A closed stdout or stderr (`./run.sh ... 2>&1 | head -3`: the reader exited) ends the run as a
// stop does, never as a crash. Node reports the closed pipe as an 'error' event (EPIPE) on the
// stream; unhandled, it killed the loader at its next progress line, silently (its error
// message had nowhere to go), and left the "running" placeholder summary and the .reserve file.
// Here the stream is muted (later writes are dropped: nobody reads them) and the run is told
// once, so it stops, writes its summary marked incomplete with the reason, and exits 1.
// A terminal that went away (its window or tmux pane closed) is the same loss of the reader, seen
// as EIO on the next write to the hung-up tty (Linux drivers/tty/tty_io.c hung_up_tty_write
// returns -EIO); unhandled it killed the loader before it saved, leaving the placeholder
// summary (steps []). It stops the run as a hang-up: interrupted, exit 129 (128 + SIGHUP).
// The report shares it (report/bin/lab-report.js): `./run.sh report | head -1` ends quietly.
const CLOSED_CODES = new Set(['EPIPE', 'EIO', 'ENXIO']);
let closedName = null;
let closedCode = null;
const listeners = new Set();

function mute(stream) {
  stream.write = (chunk, encoding, cb) => {
    const done = typeof encoding === 'function' ? encoding : cb;
    if (done) process.nextTick(done);
    return true;
  };
}

// watchOutput(streams, onClosedWithoutRun): stdout and stderr watched; when no run listens (list,
// --help, a usage error) a closed output exits 0 as before: the reader had what it wanted. The
// report passes its own onClosedWithoutRun (nothing to do: it keeps its exit code).
function watchOutput({ stdout = process.stdout, stderr = process.stderr } = {},
  onClosedWithoutRun = () => process.exit(0)) {
  for (const [name, stream] of [['stdout', stdout], ['stderr', stderr]]) {
    stream.on('error', (e) => {
      if (!CLOSED_CODES.has(e.code)) throw e;
      mute(stream);
      if (closedName) return;
      closedName = name;
      closedCode = e.code;
      if (listeners.size === 0) return onClosedWithoutRun(name);
      for (const f of [...listeners]) f(name, e.code);
    });
  }
}

// onOutputClosed(f) -> unsubscribe: f(name, code) once when stdout or stderr closes (at once if
// it already has); code is the write's error, EIO for a terminal gone.
function onOutputClosed(f) {
  if (closedName) {
    process.nextTick(() => f(closedName, closedCode));
    return () => {};
  }
  listeners.add(f);
  return () => listeners.delete(f);
}

// terminalGone(code): the write failed because the terminal hung up, not because a pipe closed.
const terminalGone = (code) => code === 'EIO' || code === 'ENXIO';
const closedReason = (name, code) => (terminalGone(code)
  ? `interrupted (the terminal was closed: ${name} ${code}); the results are what was measured until then`
  : `${name} closed: nothing reads the loader's output any more (e.g. | head); stopped, and the results are what was measured until then`);
// closedExitCode(code): 129 (a hang-up, as SIGHUP) for a terminal gone, 1 for a closed pipe.
const closedExitCode = (code) => (terminalGone(code) ? 129 : 1);

module.exports = { watchOutput, onOutputClosed, closedReason, closedExitCode };
