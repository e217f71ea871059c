'use strict';
// Documents the loader wrote: the divisor of a write cost measured over the whole invocation
// (./run.sh reads each shard member's block I/O before the loader starts and after it ends,
// lib/block-writes.sh), so it counts everything that span wrote: the preload, every step's
// warm-up and its measured part. Successful writes only (a failed one may or may not have landed).
// Per op: a batch's documents where the kind records them (bulk_import), else one per operation
// (insert, update); a GridFS upload writes one chunk document per operation.
const WRITE_OPS = ['insert', 'update', 'upload'];

// written(ops) -> documents the successful write ops of one accumulator wrote ({op: {ok, docs}}).
function written(ops) {
  let n = 0;
  for (const op of WRITE_OPS) if (ops && ops[op]) n += ops[op].docs || ops[op].ok || 0;
  return n;
}

// stepWritten(acc) -> the step's documents written, measured part and warm-up together.
const stepWritten = (acc) => written(acc.ops) + written(acc.warm && acc.warm.ops);

// runWritten(preload, steps) -> every document this run wrote: the preload's and each step's.
function runWritten(preload, steps) {
  return (preload && preload.docs ? preload.docs : 0) + steps.reduce((a, s) => a + (s.documents_written || 0), 0);
}

module.exports = { WRITE_OPS, stepWritten, runWritten };
