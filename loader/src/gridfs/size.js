'use strict';
// Sizes on the command line and in the experiment file: a whole number (or a decimal that comes
// to whole bytes) and a unit, in GNU dd's grammar because the seed made its file with dd:
//   B                           bytes
//   kB KB, MB, GB, TB           powers of 1000 (MB/s in the lab's results is 10^6 bytes too)
//   K KiB, M MiB, G GiB, T TiB  powers of 1024 (dd's K/M/G; the seed's "5GB" is 5120 MB = 5 GiB)
// Units are case-sensitive, as in dd: 'mb' or 'Gb' is refused rather than guessed (megabit?).
// A bare number is refused too: '5' could mean bytes, MB or GB depending on the tool.
const { UsageError } = require('../text/usage');

const UNITS = {
  B: 1,
  kB: 1e3, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12,
  K: 1024, KiB: 1024, M: 1024 ** 2, MiB: 1024 ** 2, G: 1024 ** 3, GiB: 1024 ** 3, T: 1024 ** 4, TiB: 1024 ** 4,
};
const UNIT_HELP = 'B; KB, MB, GB, TB = 10^3..; K/KiB, M/MiB, G/GiB, T/TiB = 2^10..';

// parseSize(flag, text, {min, max}) -> bytes (a whole number in [min, max]; max 1 PiB by default).
function parseSize(flag, text, { min = 1, max = 1024 ** 5 } = {}) {
  const s = String(text);
  const m = /^(\d+(?:\.\d+)?)([A-Za-z]*)$/.exec(s);
  if (!m) throw new UsageError(`${flag}: '${s}' is not a size (a number and a unit, e.g. 5GiB, 64MB; units ${UNIT_HELP})`);
  if (Number(m[1]) === 0) throw new UsageError(`${flag}: '${s}' is zero bytes (at least ${formatBytes(min)}, e.g. 64MB)`);
  if (m[2] === '') throw new UsageError(`${flag}: '${s}' has no unit (e.g. ${s}MB; units ${UNIT_HELP})`);
  if (!Object.hasOwn(UNITS, m[2])) throw new UsageError(`${flag}: unknown unit '${m[2]}' in '${s}' (units ${UNIT_HELP})`);
  // In whole numbers (1.1KB is 1100 bytes, not 1100.0000000000002): 1.0001KB is not whole bytes.
  const [whole, frac = ''] = m[1].split('.');
  const unit = BigInt(UNITS[m[2]]);
  const scaled = BigInt(whole + frac) * unit;
  const ten = 10n ** BigInt(frac.length);
  if (scaled % ten !== 0n) throw new UsageError(`${flag}: '${s}' is not a whole number of bytes`);
  const bytes = Number(scaled / ten);
  if (bytes < min || bytes > max) throw new UsageError(`${flag}: '${s}' (${bytes} bytes) is out of range ${formatBytes(min)}..${formatBytes(max)}`);
  return bytes;
}

// formatBytes(261120) -> '255 KiB'; 5e9 -> '5 GB': the shortest exact form, for messages.
function formatBytes(n) {
  for (const [u, f] of [['TiB', 1024 ** 4], ['TB', 1e12], ['GiB', 1024 ** 3], ['GB', 1e9], ['MiB', 1024 ** 2], ['MB', 1e6], ['KiB', 1024], ['KB', 1e3]]) {
    if (n >= f && n % f === 0) return `${n / f} ${u}`;
  }
  return `${n} B`;
}

module.exports = { parseSize, formatBytes };
