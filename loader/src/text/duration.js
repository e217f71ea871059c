'use strict';
// The lab's one duration grammar (experiment --duration, fault --threshold, the loader's timeouts),
// and its one formatter (durationText).
// lib/common.sh's parse_duration is the same grammar in bash with the same messages; both run over
// test/vectors/durations.tsv, so they cannot drift apart.
//   <whole>[.<fraction>]<unit>, unit ms|s|m|h, at most 10 whole and 9 fraction digits; the result is a
//   whole number of milliseconds, more than zero and at most 596h (under setTimeout's 2^31-1 ms).
const UNIT_MS = { ms: 1n, s: 1000n, m: 60000n, h: 3600000n };
const MAX_MS = 596n * 3600000n;
const RE = /^([0-9]{1,10})(?:\.([0-9]{1,9}))?(ms|s|m|h)$/;

// durationMs(flag, text) -> { ms } or { error: 'one-line message' }.
function durationMs(flag, text) {
  const s = String(text);
  const m = RE.exec(s);
  if (!m) return { error: `${flag} '${s}' is not a duration (use a number and a unit: 500ms, 30s, 2m, 1h; decimals allowed)` };
  const frac = m[2] || '';
  const scale = 10n ** BigInt(frac.length);
  const scaled = (BigInt(m[1]) * scale + BigInt(frac || '0')) * UNIT_MS[m[3]];
  if (scaled === 0n) return { error: `${flag} must be more than zero (got '${s}')` };
  if (scaled % scale !== 0n) return { error: `${flag} '${s}' is finer than 1 ms` };
  const ms = scaled / scale;
  if (ms > MAX_MS) return { error: `${flag} '${s}' is longer than 596h` };
  return { ms: Number(ms) };
}

// durationText(ms) -> the duration written in the grammar above, so that it reads back as ms: the
// largest unit it is a whole number of (120000 -> '2m', 5000 -> '5s'), else seconds with their
// fraction from 1 s up (1500 -> '1.5s'), else milliseconds (250 -> '250ms'). The one formatter of
// every message, table and help text that shows a duration.
function durationText(ms) {
  const whole = ms > 0 ? [['h', 3600000], ['m', 60000], ['s', 1000]].find(([, size]) => ms % size === 0) : null;
  if (whole) return `${ms / whole[1]}${whole[0]}`;
  return ms >= 1000 ? `${ms / 1000}s` : `${ms}ms`;
}

module.exports = { durationMs, durationText };
