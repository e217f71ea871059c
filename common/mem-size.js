'use strict';
// A Compose memory size (compose/profiles.tsv data_mem, cfg_mem): a whole number of bytes, or one
// with the unit b, k, m or g (either case; k/m/g are 2^10, 2^20, 2^30), as lib/common.sh mem_bytes
// reads it for bash. Both run over test/vectors/mem-sizes.tsv, so they cannot drift apart.
const UNIT = { '': 1, b: 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 };

// memBytes('2g') -> 2147483648; null when the text is not such a size ('1.5g', '2gb', '').
function memBytes(text) {
  const m = /^(\d+)([bkmg]?)$/i.exec(String(text ?? ''));
  return m ? Number(m[1]) * UNIT[m[2].toLowerCase()] : null;
}

module.exports = { memBytes };
