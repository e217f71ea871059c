'use strict';
// The text a run ends with (src/results/closing-text.js), carved out of the Run class as a pure
// function of the facts it is handed: the table, then the footprint at the end, then each step's
// replication that did not keep up, wrapped, in that order; nothing for what the run did not have.
const test = require('node:test');
const assert = require('node:assert/strict');
const { closingText } = require('../src/results/closing-text');
const { formatTable } = require('../src/results/table');

const RUN = { name: 'experiment1', engine: 'wiredtiger', complete: true, preload: null, warmupMs: 0, capacity: null };
const bytes = (o) => ({ logical: 50, on_disk_with_indexes: null, engine_storage: null, ...o });

test('closing text: the footprint line says where the bytes were counted, or that disk is unknown', () => {
  const end = (b) => ({ end: { documents: 10, bytes_per_doc: bytes(b), file_bytes: 4096 } });
  assert.equal(closingText({ ...RUN, steps: [], footprint: end({}) }),
    'footprint at the end: 10 documents, 50 bytes/doc logical (BSON), on disk unknown, data files 4096 bytes\n');
  const with80 = closingText({ ...RUN, steps: [], footprint: end({ on_disk_with_indexes: 80 }) });
  assert.match(with80, /, 80 bytes\/doc on disk with indexes,/);
  const storage70 = closingText({ ...RUN, steps: [], footprint: end({ engine_storage: 70 }) });
  assert.match(storage70, /, 70 in collStats storage \(not on disk here\),/);
  assert.equal(closingText({ ...RUN, steps: [], footprint: { end: { documents: 0 } } }), '', 'no documents, no line');
  assert.equal(closingText({ ...RUN, steps: [], footprint: null }), '');
});

test('closing text: the table first, then each flagged replication said per step within 120 columns', () => {
  const long = `secondary shard01-b lagged ${'far '.repeat(40)}behind`;
  const steps = [{
    index: 1, phase: 'clients-1', clients: 1, ops: {}, complete: true,
    loader: { limited: false, contention: [] }, replication: { flagged: [long] },
  }];
  const text = closingText({ ...RUN, steps, footprint: null });
  const table = formatTable({ ...RUN, steps });
  assert.ok(text.startsWith(table), 'the table comes first, as formatTable writes it');
  const rest = text.slice(table.length).split('\n').filter(Boolean);
  assert.match(rest[0], /^REPLICATION: step 1: secondary shard01-b lagged far/);
  assert.ok(rest.length > 1 && rest.every((l) => l.length <= 120), rest.join('\n'));
});
