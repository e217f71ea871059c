'use strict';
// support/loader.js waitFor: the budget is for silence, not for the whole wait (timing
// budgets from measured progress). A process that keeps printing is waited for past the budget; one
// that goes silent is given up after it. A shell stands in for the loader (startLoader's prefix
// runs it with the loader's arguments after it, which it ignores).
const test = require('node:test');
const assert = require('node:assert/strict');
const { startLoader } = require('./support/loader');

const sh = (script) => ({ prefix: ['sh', '-c', script, 'sh'] });

test('waitFor: a process printing every 100 ms is waited for well past a 300 ms budget', async () => {
  const l = startLoader([], sh('for i in 1 2 3 4 5 6 7 8 9 10; do echo tick >&2; sleep 0.1; done; echo the-end >&2'));
  const t0 = Date.now();
  await l.waitFor(/the-end/, 300);
  assert.ok(Date.now() - t0 >= 900, `waited ${Date.now() - t0} ms`);
  await l.done;
});

test('waitFor: a silent process is given up after the budget, saying so', async () => {
  const l = startLoader([], sh('echo started >&2; sleep 3'));
  const t0 = Date.now();
  await assert.rejects(l.waitFor(/never/, 300), /timeout waiting for \/never\/ \(300 ms without output\); stderr:\nstarted/);
  assert.ok(Date.now() - t0 < 2500, `gave up after ${Date.now() - t0} ms`);
  l.proc.kill('SIGKILL');
  await l.done;
});
