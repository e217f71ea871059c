'use strict';
// Progress: a cli-progress bar with rate and ETA on a terminal, plain periodic lines otherwise.
const test = require('node:test');
const assert = require('node:assert/strict');
const { Writable } = require('node:stream');
const { Progress } = require('../src/run/progress');

function sink(isTTY) {
  const s = new Writable({ write(chunk, enc, cb) { s.text += chunk; cb(); } });
  s.text = '';
  s.isTTY = isTTY;
  s.columns = 120;
  s.cursorTo = () => true;
  s.clearLine = () => true;
  s.moveCursor = () => true;
  return s;
}

test('not a terminal: a start line, then one plain line per interval with rate and ETA', async () => {
  const out = sink(false);
  const p = new Progress({ stream: out, intervalMs: 50 });
  p.start('step 1/2 (4 clients)', 30, 's');
  p.update(1, 1234.4); // too soon: no line
  await new Promise((r) => setTimeout(r, 60));
  p.update(10, 2345.6);
  p.stop();
  const lines = out.text.trim().split('\n');
  assert.equal(lines[0], 'step 1/2 (4 clients): started (30 s)');
  assert.equal(lines.length, 2);
  assert.match(lines[1], /^step 1\/2 \(4 clients\): 10\/30 s \(33\.3%\), 2346 ops\/s, ETA \d+s$/);
  assert.ok(!out.text.includes('\r'), 'no carriage returns in a log');
});

test('terminal: a cli-progress bar with value, rate and ETA', () => {
  const out = sink(true);
  const p = new Progress({ stream: out, intervalMs: 50 });
  p.start('clients-1', 1000, 'docs');
  p.update(500, 4321);
  p.stop();
  assert.match(out.text, /clients-1 \[[█░]+\] 50% \| 500\/1000 docs \| 4321 ops\/s \| ETA \d+s/);
});

// "10/30 s ..., ETA 21s" (off by one: extrapolated from the elapsed time), and a
// progress line printed after the run said "stopping:".
test('a timed step: the ETA is what is left of the line\'s own figures; after stop() no line at all', async () => {
  const out = sink(false);
  const p = new Progress({ stream: out, intervalMs: 10 });
  p.start('step 1/1 (1 client)', 30, 's');
  p.startedAt = Date.now() - 9600; // 9.6 s elapsed, shown rounded as 10
  await new Promise((r) => setTimeout(r, 20));
  p.update(10, 100);
  assert.match(out.text, /: 10\/30 s \(33\.3%\), 100 ops\/s, ETA 20s\n$/);
  p.stop();
  const before = out.text;
  await new Promise((r) => setTimeout(r, 20));
  p.update(11, 100);
  assert.equal(out.text, before, 'nothing after stop()');
});
