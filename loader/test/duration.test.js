'use strict';
// One duration grammar: src/text/duration.js over the shared vectors (test/vectors/durations.tsv), the
// same file test/experiment.bats runs through lib/common.sh's parse_duration. Every flag that
// takes a duration goes through it, with the same message.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { durationMs } = require('../src/text/duration');
const { parse } = require('../src/cli/args');

const VECTORS = path.resolve(__dirname, '..', '..', 'test', 'vectors', 'durations.tsv');

function vectors() {
  return fs.readFileSync(VECTORS, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => {
    const i = l.indexOf('\t');
    return [l.slice(0, i), l.slice(i + 1)];
  });
}

test('durations.tsv: every vector gives exactly the expected ms or message', () => {
  const v = vectors();
  assert.ok(v.length >= 30, `only ${v.length} vectors`);
  for (const [input, want] of v) {
    const r = durationMs('FLAG', input);
    assert.equal(r.error ? `error: ${r.error}` : String(r.ms), want, `input '${input}'`);
  }
});

test('every duration flag of the loader uses the one grammar and message', () => {
  for (const flag of ['--duration', '--server-selection-timeout', '--stall-timeout', '--progress-interval']) {
    const argv = ['experiment2', flag, '90'];
    assert.throws(() => parse(argv), { message: durationMs(flag, '90').error });
    const ok = parse(['experiment2', flag, '1.5s']);
    assert.ok(Object.values(ok).includes(1500), `${flag} 1.5s -> 1500 ms`);
  }
});

// One formatter beside the grammar: what the help shows as a default (common-flags.js durText) and
// what a run says (a warm-up, a --stall-timeout) are written alike, and each reads back through
// the grammar as the same milliseconds. (Two used to differ: '2m' in the help, '120s' in a run.)
test('durationText: one way to write a duration, read back by the grammar as the same ms', () => {
  const { durationText } = require('../src/text/duration');
  const { durText } = require('../src/cli/common-flags');
  const samples = [1, 250, 999, 1000, 1500, 1234, 5000, 59999, 60000, 90000, 120000, 3600000, 5400000, 596 * 3600000];
  for (const [, want] of vectors()) if (/^\d+$/.test(want)) samples.push(Number(want));
  for (const ms of samples) {
    assert.equal(durationMs('FLAG', durationText(ms)).ms, ms, `${ms} -> '${durationText(ms)}'`);
    assert.equal(durText(ms), durationText(ms), `the help and the run write ${ms} ms alike`);
  }
  assert.deepEqual([120000, 5000, 1500, 250].map(durationText), ['2m', '5s', '1.5s', '250ms']);
  assert.equal(durText(0), 'none');
});
