'use strict';
// The two-signal stop the loader's run and a fault scenario share (src/stop-signals.js): the first
// SIGINT or SIGTERM stops, one while stopping forces, each with the shell's exit code, and off()
// leaves no handler behind. The real signals through both runners: signals.test.js,
// faults/runner.test.js, faults/frozen-heal.test.js.
const test = require('node:test');
const assert = require('node:assert/strict');
const { EventEmitter } = require('node:events');
const { onStopSignals } = require('../src/stop-signals');

test('first signal stops, one while stopping forces, off() removes both handlers', () => {
  const signals = new EventEmitter();
  const seen = [];
  let stopping = false;
  const off = onStopSignals({
    signals,
    stopping: () => stopping,
    stop: (name, code) => { seen.push(['stop', name, code]); stopping = true; },
    force: (name, code) => seen.push(['force', name, code]),
  });
  signals.emit('SIGTERM');
  signals.emit('SIGINT');
  signals.emit('SIGTERM');
  assert.deepEqual(seen, [['stop', 'SIGTERM', 143], ['force', 'SIGINT', 130], ['force', 'SIGTERM', 143]]);
  off();
  assert.deepEqual([signals.listenerCount('SIGINT'), signals.listenerCount('SIGTERM')], [0, 0]);
});

test('a run already stopping for another reason (a stall, a closed output): the first signal forces', () => {
  const signals = new EventEmitter();
  const seen = [];
  const off = onStopSignals({ signals, stopping: () => true, stop: () => seen.push('stop'), force: (name) => seen.push(name) });
  signals.emit('SIGINT');
  off();
  assert.deepEqual(seen, ['SIGINT']);
});
