'use strict';
// ycsb (experiments/ycsb-a.yaml): YCSB's CoreWorkload run phase (YCSB 0.17.0), as the YCSB
// MongoDB binding sends it, on the records YCSB's load phase would have written:
//   records  _id "user" + fnvhash64(record number) (buildKeyName, insertorder=hashed), fields
//            field0..field{F-1}, each F = --fields values of --field-length random printable
//            bytes stored as BSON binary (loader/src/ycsb/document.js)
//   read     findOne({_id: key}): all fields (readallfields=true; MongoDbClient.read sends
//            find({_id: key}) without a projection and takes the first document)
//   update   updateOne({_id: key}, {$set: {fieldN: <new value>}}): one field chosen uniformly
//            (writeallfields=false; MongoDbClient.update)
//   keys     the scrambled zipfian (constant 0.99) over the records (loader/src/ycsb/scrambled.js)
//   mix      READ when a uniform draw is below readproportion / (read + update), else UPDATE
//            (DiscreteGenerator over the proportions in CoreWorkload's order)
// The load phase is the lab's bulk preload (insertMany, not measured) in record-number order:
// the question is the read/update mix (seeds/002), and a bulk load of 5M records takes minutes
// where YCSB's one-insert-per-op load takes much longer; `--tool ycsb` measures YCSB's own load.
// A read that finds nothing or an update that matches nothing is an error outcome, as YCSB's
// NOT_FOUND is not OK.
const { parseCount, parseClients, UsageError } = require('../text/usage');
const { keyChooser } = require('../ycsb/scrambled');
const { KeyCache, buildKeyName } = require('../ycsb/keys');
const { fieldNames, value, record: ycsbRecord } = require('../ycsb/document');
const { uniform53 } = require('../ycsb/zipfian');
const { findOneCommand } = require('./ops');

// BSON's 16 MB document limit, less room for _id and field names.
const MAX_RECORD_BYTES = 15 * 1024 * 1024;

// One per worker thread: keys depend only on the record number.
let keyCache = null;
const keyOf = (keynum) => (keyCache ??= new KeyCache()).key(keynum);

// share(total, clients, id): YCSB's split of operationcount over threads (Client.java:
// opcount / threadcount, one more for each thread id below opcount % threadcount).
function share(total, clients, id) {
  return Math.floor(total / clients) + (id < total % clients ? 1 : 0);
}

module.exports = {
  name: 'ycsb',
  clientWord: 'thread', // YCSB's word: the progress says "4 threads", as --threads does
  ops: ['read', 'update'],
  opsPerIteration: 1,
  bound: 'duration',
  refuses: ['--preload-docs'], // its records are --records
  needsPreload: true,
  shape: 'steps',
  options: {
    records: { flag: '--records', file: 'document.records', required: true, parse: (f, s) => parseCount(f, s, 1, 2147483646), help: 'records loaded before the run (YCSB recordcount)' },
    fields: { flag: '--fields', file: 'document.fields', required: true, parse: (f, s) => parseCount(f, s, 1, 1000), help: 'fields per record (YCSB fieldcount)' },
    fieldLength: { flag: '--field-length', file: 'document.field_length', required: true, parse: (f, s) => parseCount(f, s, 1, MAX_RECORD_BYTES), help: 'bytes per field (YCSB fieldlength)' },
    threads: { flag: '--threads', file: 'workload.threads', required: true, alias: 'clients', parse: parseClients, help: 'thread steps (YCSB -threads per step; --clients is the same)' },
    operations: { flag: '--operations', parse: (f, s) => parseCount(f, s, 1), help: 'operations per step, over all threads (YCSB operationcount), instead of --duration' },
  },
  configure({ doc, options: o, config, need, opts }) {
    const w = doc.workload || {};
    need(typeof w.readproportion === 'number' && typeof w.updateproportion === 'number' &&
      w.readproportion >= 0 && w.updateproportion >= 0 && w.readproportion + w.updateproportion > 0,
    'workload.readproportion, workload.updateproportion: numbers >= 0, not both 0');
    need(w.requestdistribution === 'zipfian', 'workload.requestdistribution: zipfian (the one this kind implements)');
    if (opts.durationMs !== undefined && o.operations !== null) throw new UsageError('--duration and --operations both bound a step: give one');
    const { records, fields, fieldLength, threads, operations } = o;
    const most = Math.max(...threads);
    if (records < most) throw new UsageError(`--records ${records} is below the largest --threads step (${most}): every thread needs records to work on`);
    if (fields * fieldLength > MAX_RECORD_BYTES) throw new UsageError(`--fields ${fields} x --field-length ${fieldLength} makes records over ${MAX_RECORD_BYTES} bytes (BSON's limit is 16 MB)`);
    if (operations !== null) {
      if (operations < most) throw new UsageError(`--operations ${operations} is below the largest --threads step (${most}): every thread needs an operation`);
      config.workload.durationMs = null; // bounded by operations, not time
    }
    config.workload.clients = threads;
    config.preload.docs = records;
    return {
      records, fields, field_length: fieldLength, operations_per_step: operations,
      readproportion: w.readproportion, updateproportion: w.updateproportion,
      requestdistribution: 'zipfian', zipfian_constant: 0.99, readallfields: true, writeallfields: false,
      insertorder: 'hashed', zeropadding: 1,
    };
  },
  stepTotal(config, step) {
    return config.params.operations_per_step ? { total: config.params.operations_per_step, unit: 'ops' } : null;
  },
  makeDoc(config, rng, i) {
    const p = config.params;
    return ycsbRecord(buildKeyName(i), fieldNames(p.fields), rng, p.field_length);
  },
  next(config, col, rng, id, step, env) {
    const p = config.params;
    // findOne's own find command through db.command (kinds/ops.js findOneCommand): the same
    // command on the server, without a FindCursor per read (loader/bench).
    const findOne = findOneCommand(env.db, col);
    const chooser = keyChooser(p.records);
    const names = fieldNames(p.fields);
    const readShare = p.readproportion / (p.readproportion + p.updateproportion);
    let left = p.operations_per_step ? share(p.operations_per_step, step.clientIds.length, id) : Infinity;
    return async (record, intended, now) => {
      if (left <= 0) return false;
      left--;
      const isRead = uniform53(rng) < readShare;
      const key = keyOf(chooser.nextKeynum(rng));
      const op = isRead ? 'read' : 'update';
      const set = isRead ? null : { [names[Math.floor(uniform53(rng) * names.length)]]: value(rng, p.field_length) };
      const t = now();
      let found;
      try {
        found = isRead ? (await findOne({ _id: key })) !== null
          : (await col.updateOne({ _id: key }, { $set: set })).matchedCount > 0;
      } catch (e) {
        record(op, t, now(), intended, false);
        throw e;
      }
      record(op, t, now(), intended, found);
      return true;
    };
  },
  share,
};
