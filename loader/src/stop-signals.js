'use strict';
// The two-signal stop, one rule for the loader's run (runner.js) and a fault scenario's
// (faults/runner.js): the first SIGINT or SIGTERM asks for a clean stop (what was measured is
// written, a fault is healed); one that comes while stopping (the stop seems stuck to whoever
// sends it) forces the end at once. The exit code of each signal is the shell's: 128 + its number.
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

// onStopSignals({ stopping, stop, force, names, signals }) -> off(): stop(name, code) on a signal while
// stopping() is false, force(name, code) on one while it is true. The handlers stay until off() is
// called: a second signal while finishing must still reach force, not kill the process outright.
// names: the signals handled (SIGINT and SIGTERM unless given: the loader's run adds SIGHUP, a
// closed terminal). signals: the emitter to listen on (the process; tests pass their own).
function onStopSignals({ stopping, stop, force, names = ['SIGINT', 'SIGTERM'], signals = process }) {
  const handlers = names.map((name) => [name, EXIT_CODES[name]])
    .map(([name, code]) => [name, () => (stopping() ? force(name, code) : stop(name, code))]);
  for (const [name, handler] of handlers) signals.on(name, handler);
  return () => {
    for (const [name, handler] of handlers) signals.off(name, handler);
  };
}

module.exports = { onStopSignals, EXIT_CODES };
