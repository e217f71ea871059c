'use strict';
// The lab's one whole-number grammar, for every flag of every verb: digits only (no sign, no
// exponent, no unit), within [min, max]; a value out of range is named as typed, with the bounds
// (never the float it parses to: "99999999999999999999999", not "1e+23"). The same grammar as
// lib/common.sh parse_count; both are run over test/vectors/counts.tsv.

// wholeNumber(flag, text, min, max) -> { value } or { error } (one line).
function wholeNumber(flag, text, min = 1, max = Number.MAX_SAFE_INTEGER) {
  const s = String(text);
  const m = /^(-?)(\d+)$/.exec(s);
  if (!m) return { error: `${flag}: '${s}' is not a whole number` };
  const digits = m[2].replace(/^0+(?=\d)/, '');
  // Compared as digit strings, so a value past 2^53 is judged exactly, as typed.
  const big = BigInt(digits);
  if (m[1] === '-' || big < BigInt(min) || big > BigInt(max)) return { error: `${flag}: ${s} is out of range ${min}..${max}` };
  return { value: Number(digits) };
}

module.exports = { wholeNumber };
