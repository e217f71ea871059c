'use strict';
// A closed stdout or stderr (`./run.sh ... 2>&1 | head -3`: the reader exited) ends the run as a
// stop does, never as a crash. Node reports the closed pipe as an 'error' event (EPIPE) on the
// stream; unhandled, it killed the loader at its next progress line, silently (its error
// message had nowhere to go), and left the "running" placeholder summary and the .reserve file.
// Here the stream is muted (later writes are dropped: nobody reads them) and the run is told
// once, so it stops, writes its summary marked incomplete with the reason, and exits 1.
// The report shares it (report/bin/lab-report.js): `./run.sh report | head -1` ends quietly.
let closedName = null;
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
function watchOutput({ stdout = process.stdout, stderr = process.stderr } = {}, onClosedWithoutRun = () => process.exit(0)) {
  for (const [name, stream] of [['stdout', stdout], ['stderr', stderr]]) {
    stream.on('error', (e) => {
      if (e.code !== 'EPIPE') throw e;
      mute(stream);
      if (closedName) return;
      closedName = name;
      if (listeners.size === 0) return onClosedWithoutRun(name);
      for (const f of [...listeners]) f(name);
    });
  }
}

// onOutputClosed(f) -> unsubscribe: f(name) once when stdout or stderr closes (at once if it
// already has).
function onOutputClosed(f) {
  if (closedName) {
    process.nextTick(() => f(closedName));
    return () => {};
  }
  listeners.add(f);
  return () => listeners.delete(f);
}

const closedReason = (name) => `${name} closed: nothing reads the loader's output any more (e.g. | head); stopped, and the results are what was measured until then`;

module.exports = { watchOutput, onOutputClosed, closedReason };
