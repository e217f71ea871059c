'use strict';
// bulk_import (seeds/001): an import like mongoimport's, insertMany of --batch documents
// {_id: i, val: <val_length random characters>} until --docs are in, once per durability case:
//   j:false                       acknowledged by the primary, no wait for the journal
//   j:true                        each batch waits for the journal to be on disk
//   j:false interval=<N>ms        j:false with the server's journalCommitInterval set to N ms for
//                                 the case (how often the background journal flush runs), then
//                                 put back
// Each case starts from an empty collection (the seed loaded "into a fresh database"), so every
// case writes the same data into the same state. Each case records docs/s, MB/s (BSON bytes of
// the documents, 10^6 bytes per MB) and, against the j:false case, its relative cost.
// A case the server cannot do is a line, not a crash: j:true on an engine without a journal fails
// its first batch (BadValue); setParameter without the privilege names the role that grants it;
// on an engine without a journal the interval cases are not run (nothing to flush).
// The driver's own BSON library, not the driver: `lab-loader check` configures every experiment
// (src/cli/stack-requests.js) and the driver costs about 0.25 CPU s to load. bson itself is loaded
// at first use: every loader start loads each kind, and bson took 20 of a check's 140 ms of CPU
// where no document is sized (a run loads it with the driver anyway).
const calculateObjectSize = (doc) => require('bson').calculateObjectSize(doc);
const { parseCount, parseDuration, UsageError } = require('../text/usage');
const { driverWriteConcern, isNetworkError, describeError, dataMembers, caseNotes } = require('./durability');
const { journalOf, caseMeasures } = require('./durability/journal-facts');
const { getOn, setOn } = require('./durability/member-params');
const { journalDefaultOff, journalDefaultBack, heldFor } = require('./durability/journal-majority');
const { dropIfThere } = require('./ops');

const MAX_MESSAGE_BYTES = 48000000; // the server's maxMessageSizeBytes (hello): one insert command
const MAX_WRITE_BATCH = 100000; // the server's maxWriteBatchSize (hello): the driver splits above it
const MAX_ERRORS_IN_A_ROW = 100;
const PARAM = 'journalCommitInterval'; // ms, 1..500 (mongod setParameter, settable at run time)
// What a member that reads 0 runs at, and so what it is put back to: on 4.0 and 3.6 the parameter
// reads 0 until it is given (storage_options.h has no initializer; mongod_options.cpp stores it
// only when --journalCommitInterval is passed), 0 means "the engine's default", and setParameter
// takes only 1..500, so 0 itself cannot be put back. The default is 100 ms on WiredTiger 4.0
// (wiredtiger_session_cache.cpp) and MongoRocks (percona/mongo-rocks rocks_durability_manager:
// if (!ms) ms = 100); MMAPv1's dur.cpp takes 100 ms with the journal on the data files' volume,
// as every lab member has it, and 30 ms with the journal on a disk of its own.
const ENGINE_DEFAULT_INTERVAL_MS = 100;
// putBackValues({host: value}) -> {host: value to set}: 0 (unset, the engine's default) becomes
// the default's value in ms; anything else as it was read.
const putBackValues = (original) => Object.fromEntries(Object.entries(original)
  .map(([h, v]) => [h, v === 0 ? ENGINE_DEFAULT_INTERVAL_MS : v]));

const BASELINE = 'j:false';
const JOURNAL_OFF = 'journal off';

// membersWithoutJournal(ctx) -> { journal_source } when the members that take the writes run
// without a journal (getCmdLineOpts parsed.storage.journal.enabled false: --nojournal), else
// { error }: the case is not run on members that journal. getCmdLineOpts through mongos describes
// the router, so there it is taken from ./run.sh's word and said so.
async function membersWithoutJournal(ctx) {
  if (ctx.description?.topology?.kind === 'mongos') {
    return { journal: false, journal_source: 'not verified through mongos (getCmdLineOpts describes the router): ./run.sh restarted the shard members with --nojournal' };
  }
  let opts;
  try {
    opts = await ctx.client.db('admin').command({ getCmdLineOpts: 1 });
  } catch (e) {
    return { journal: null, journal_source: 'getCmdLineOpts failed', error: `cannot tell whether the members run without a journal (getCmdLineOpts: ${e.codeName || e.name}: ${e.message})` };
  }
  const enabled = opts?.parsed?.storage?.journal?.enabled;
  if (enabled === false) return { journal: false, journal_source: 'getCmdLineOpts: storage.journal.enabled false (the members run with --nojournal)' };
  return { journal: true, journal_source: 'getCmdLineOpts: storage.journal.enabled not false', error: 'the members run with a journal: the journal-off case needs them started with --nojournal (./run.sh journal does so where compose/engines.tsv nojournal says yes)' };
}
// A cost (this case's docs/s against j:false's) only from cases that each measured at least this
// long: a 0.2 s case printed "+12.8 %" (a speed-up called a cost) from the first batches' noise.
// The seed's cases ran 422-448 s (seeds/001); 5 s is this lab's floor, a judgement, not a source's.
const MIN_COST_MS = 5000;
const perRun = new WeakMap(); // config -> { baselines by client count, original interval values, changed }
const runState = (config) => perRun.get(config)
  ?? perRun.set(config, { baselines: new Map(), original: null, changed: false }).get(config);

function parseIntervals(flag, text) {
  if (text === 'none' || text === '') return []; // '': the file's empty list
  const parts = String(text).split(',');
  if (parts.some((p) => p === '')) throw new UsageError(`${flag}: '${text}' is not a list like 1,100,500 (or none)`);
  return parts.map((p) => parseCount(flag, p, 1, 500));
}

// docBytes(config-ish): the BSON size of the largest document (the last _id is the widest number).
const docBytes = (docs, valLength) => calculateObjectSize({ _id: docs - 1, val: 'x'.repeat(valLength) });

module.exports = {
  name: 'bulk_import',
  ops: ['insert'],
  opsPerIteration: 1,
  bound: 'documents',
  needsPreload: false,
  shape: 'cases',
  options: {
    batch: { flag: '--batch', file: 'workload.batch', required: true, parse: (f, s) => parseCount(f, s, 1, MAX_WRITE_BATCH), help: `documents per insertMany (at most ${MAX_WRITE_BATCH}, the server's maxWriteBatchSize, and ${MAX_MESSAGE_BYTES} bytes)` },
    valLength: { flag: '--val-length', file: 'document.val_length', required: true, parse: (f, s) => parseCount(f, s, 0, 16000000), help: 'characters of each document\'s val (seeds/001: 5)' },
    commitIntervals: { flag: '--commit-intervals', file: 'workload.commit_intervals_ms', default: 'none', parse: parseIntervals, help: 'journalCommitInterval values (ms, 1..500) swept as j:false cases, e.g. 1,100,500, or none' },
    costMinTime: { flag: '--cost-min-time', default: `${MIN_COST_MS / 1000}s`, parse: (f, s) => parseDuration(f, s), help: 'shortest measured time of a case (and of j:false) for its cost against j:false to be computed' },
    // ./run.sh journal passes it after restarting the shard members with --nojournal where the
    // engines table allows it (compose/engines.tsv nojournal: MMAPv1 on 4.0), for seeds/001's own
    // with/without-journal comparison; checked against getCmdLineOpts before the case runs.
    membersJournal: { flag: '--members-journal', default: 'on', parse: (f, s) => { if (s !== 'on' && s !== 'off') throw new UsageError(`${f}: '${s}' is not on or off`); return s; }, help: 'off: the shard members run with --nojournal (./run.sh journal restarts them so where compose/engines.tsv nojournal says yes): only the journal-off case runs' },
  },
  // seeds/001's import without a journal: after the cases, ./run.sh restarts the shard members
  // with --nojournal where the engines table allows it and runs the journal-off case, then
  // restarts them with their journal (lib/experiment.sh experiment_hook_journal_off). Not asked
  // for by the journal-off run itself.
  hooks: (config) => (config.params.members_journal === 'on' ? [{ op: 'journal-off' }] : []),
  configure({ doc, options: o, settings, config, need }) {
    const d = doc.document || {};
    need(typeof d.alphabet === 'string' && d.alphabet.length > 0, 'document.alphabet: required');
    const bytes = docBytes(config.workload.docs ?? 1, o.valLength);
    if (o.batch * bytes > MAX_MESSAGE_BYTES) {
      const what = `${o.batch} documents of up to ${bytes} bytes are ${o.batch * bytes} bytes, over the ${MAX_MESSAGE_BYTES}-byte message limit (maxMessageSizeBytes)`;
      throw new UsageError(settings.batch.source === 'flag' ? `--batch ${o.batch}: ${what}` : `${config.name}: workload.batch: ${what}`);
    }
    return { batch: o.batch, val_length: o.valLength, alphabet: d.alphabet, doc_bytes: bytes,
      commit_intervals_ms: o.commitIntervals, cost_min_s: o.costMinTime / 1000,
      members_journal: o.membersJournal };
  },
  plan(config) {
    const p = config.params;
    // The shard members without a journal: the one case seeds/001 ran "without --journal".
    const cases = p.members_journal === 'off' ? [{ name: JOURNAL_OFF, wc: { w: 1, j: false }, iv: null, off: true }] : [
      { name: BASELINE, wc: { w: 1, j: false }, iv: null },
      { name: 'j:true', wc: { w: 1, j: true }, iv: null },
      ...p.commit_intervals_ms.map((iv) => ({ name: `j:false interval=${iv}ms`, wc: { w: 1, j: false }, iv })),
    ];
    const many = config.workload.clients.length > 1;
    return cases.flatMap((c) => config.workload.clients.map((n) => ({
      name: many ? `${c.name} clients=${n}` : c.name,
      clients: n,
      params: { write_concern: c.wc, journal_commit_interval_ms: c.iv, batch: p.batch, docs: config.workload.docs, ...(c.off ? { members_journal: 'off' } : {}) },
    })));
  },
  stepTotal: (config) => ({ total: Math.ceil(config.workload.docs / config.params.batch), unit: 'batches' }),

  // The journal-off case: before the setup's drop (through mongos a majority write on the shard),
  // the shard's set gets writeConcernMajorityJournalDefault false; afterStep or, on a signal or an
  // error, afterRun puts it back (src/kinds/durability/journal-majority.js, cited there).
  async beforeSetup(ctx) {
    if (ctx.config.params.members_journal !== 'off') return;
    const off = await membersWithoutJournal(ctx);
    if (!off.error) await journalDefaultOff(ctx);
  },
  async afterRun(ctx) {
    if (ctx.config.params.members_journal === 'off') await journalDefaultBack(ctx);
    // A stop between a case's setParameter and its step ends the run before the step, so its
    // afterStep never puts the interval back (step-loop.js): the members would keep the case's
    // value until they restart, and the next run would measure under it.
    const state = runState(ctx.config);
    if (state.changed) {
      state.changed = false;
      const err = await setOn(ctx.client, Object.keys(state.original), PARAM, putBackValues(state.original));
      ctx.log(err ? `warning: ${PARAM} could not be put back after the stop: ${err}` : `${PARAM} put back after the stop`);
    }
  },

  async beforeStep(ctx, step) {
    // A fresh collection per case that runs: the same data into the same (empty) state.
    const fresh = () => dropIfThere(ctx.col);
    // step.skip reaches the clients with the step: they insert nothing and the case says why.
    const skip = (why, facts) => {
      step.skip = why;
      ctx.log(`${step.phase}: not run: ${why}`);
      return { ...facts, unsupported: why };
    };
    if (step.params.members_journal === 'off') {
      const off = await membersWithoutJournal(ctx);
      if (off.error) return skip(off.error, { journal: off.journal, journal_source: off.journal_source });
      // w:majority never completes without a journal while the set's
      // writeConcernMajorityJournalDefault is true: set false before the setup (beforeSetup)
      const held = heldFor(ctx.config);
      if (!held || held.error) {
        const why = held ? held.error : 'writeConcernMajorityJournalDefault was not set false before the setup';
        return skip(why, { journal: false, journal_source: off.journal_source });
      }
      await fresh();
      return { journal: false, journal_source: off.journal_source,
        write_concern_majority_journal_default: held.record };
    }
    const facts = await journalOf(ctx);
    const iv = step.params.journal_commit_interval_ms;
    if (iv === null) {
      await fresh();
      return facts;
    }
    if (facts.journal === false) return skip(`the engine has no journal (${facts.journal_source}): ${PARAM} has nothing to flush`, facts);
    const state = runState(ctx.config);
    const members = dataMembers(ctx.description, (ctx.client.options.hosts || []).map(String));
    if (!state.original) {
      const got = await getOn(ctx.client, members, PARAM);
      if (got.error) return skip(got.error, facts);
      state.original = got.values;
    }
    state.changed = true; // until afterStep (or afterRun, after a stop) puts it back
    const err = await setOn(ctx.client, members, PARAM, iv);
    if (err) {
      await setOn(ctx.client, members, PARAM, putBackValues(state.original)); // members set before the failure
      state.changed = false;
      return skip(err, facts);
    }
    try {
      await fresh();
    } catch (e) {
      await setOn(ctx.client, members, PARAM, putBackValues(state.original)); // never leave the server changed
      state.changed = false;
      throw e;
    }
    ctx.log(`${step.phase}: ${PARAM} set to ${iv} ms on ${members.join(', ')} (was ${[...new Set(Object.values(state.original))].join('/')} ms)`);
    return { ...facts, members, journal_commit_interval_ms_before: state.original };
  },

  next(config, col, rng, id, step, env) {
    const { batch, val_length: valLength, alphabet } = config.params;
    const docs = config.workload.docs;
    const options = { ordered: false, writeConcern: driverWriteConcern(step.params.write_concern, null) };
    const n = step.clientIds.length;
    let b = step.clientIds.indexOf(id); // client j of n writes batches j, j + n, ...
    let sent = 0;
    let inRow = 0;
    let over = Boolean(step.skip);
    const finish = (extra = {}) => {
      over = true;
      env.note({ client: id, sent, ...extra });
      return false;
    };
    // The batch's BSON bytes without sizing every document (that cost 20 % over the bench's
    // floor): a document's size depends only on its _id's BSON type (int32 up to 2^31 - 1, then
    // double) and on val's UTF-8 length, fixed when the alphabet is ASCII; else size each one.
    const ascii = /^[\x00-\x7f]*$/.test(alphabet);
    const sizeOf = (i) => calculateObjectSize({ _id: i, val: 'x'.repeat(valLength) });
    const int32Size = sizeOf(0);
    const doubleSize = sizeOf(2 ** 31);
    const batchBytes = (from, to, list) => {
      if (!ascii) return list.reduce((sum, d) => sum + calculateObjectSize(d), 0);
      const ints = Math.max(0, Math.min(to, 2 ** 31) - from);
      return ints * int32Size + (to - from - ints) * doubleSize;
    };
    return async (record, intended, now) => {
      if (over) return false;
      const from = b * batch;
      if (from >= docs) return finish();
      const to = Math.min(docs, from + batch);
      b += n;
      const list = [];
      for (let i = from; i < to; i++) list.push({ _id: i, val: rng.string(valLength, alphabet) });
      const bytes = batchBytes(from, to, list);
      const t = now();
      try {
        await col.insertMany(list, options);
        record('insert', t, now(), intended, true, list.length, bytes);
        sent += list.length;
        inRow = 0;
      } catch (e) {
        record('insert', t, now(), intended, false);
        if (isNetworkError(e)) throw e; // a lost server stops the run (clients.js)
        const d = describeError(e);
        if (sent === 0) return finish({ unsupported: d.text });
        if (++inRow >= MAX_ERRORS_IN_A_ROW) return finish({ stopped: `${MAX_ERRORS_IN_A_ROW} failed batches in a row, last: ${d.text}` });
      }
      return b * batch < docs ? true : finish();
    };
  },

  async afterStep(ctx, step, notes, entry) {
    // What the case measures on this engine (journal-facts.js caseMeasures, cited there).
    const out = { ...(await caseMeasures(ctx, step.params)) };
    if (step.params.members_journal === 'off') {
      const back = await journalDefaultBack(ctx);
      if (back !== null) out.write_concern_majority_journal_default_restored = back;
    }
    const state = runState(ctx.config);
    if (step.params.journal_commit_interval_ms !== null && state.original && !step.skip) {
      state.changed = false;
      const members = Object.keys(state.original);
      const back = putBackValues(state.original);
      const err = await setOn(ctx.client, members, PARAM, back);
      const unset = members.filter((h) => state.original[h] === 0);
      out.journal_commit_interval_restored = err ? `NOT restored: ${err}` : true;
      if (!err && unset.length) {
        out.journal_commit_interval_default_ms = { members: unset, ms: ENGINE_DEFAULT_INTERVAL_MS,
          why: `read 0 (unset: the engine's default), which setParameter cannot set (1..500): put back as the default's value` };
        ctx.log(`${step.phase}: ${PARAM} on ${unset.join(', ')} read 0 (the engine's default, not settable): put back as ${ENGINE_DEFAULT_INTERVAL_MS} ms`);
      }
      if (err) ctx.log(`${step.phase}: ${PARAM} could not be put back: ${err}`);
    }
    if (step.skip) return out;
    // Sent: every acknowledged batch's documents, as the recorder counted them batch by batch
    // (entry.ops.insert.docs); a client's own total arrives only when it finishes (finish), so a
    // case interrupted by a signal counted 0 sent. The larger of the two: a step with
    // a warm-up leaves the warm-up's batches out of entry.ops.
    const noted = notes.reduce((a, x) => a + (x.sent || 0), 0);
    const sent = Math.max(noted, entry?.ops?.insert?.docs ?? 0);
    // The collection holds this case only (dropped before it): its count is the case's. A case cut
    // short (the run is stopping) takes the collection's metadata count (the count command):
    // counting 11M documents one by one kept the loader 7 s past SIGTERM.
    const early = entry && entry.complete === false;
    out.documents = early
      ? { sent, arrived: await ctx.col.estimatedDocumentCount(), arrived_source: 'the collection\'s metadata count (count command): the case was cut short, no full count' }
      : { sent, arrived: await ctx.col.countDocuments({}) };
    const said = caseNotes(ctx, step, notes, step.params.write_concern, 'costs and verdicts');
    Object.assign(out, said);
    const rate = entry?.ops?.insert?.docs_per_s ?? null;
    const clients = step.clientIds.length;
    if (step.params.write_concern.j === false && step.params.journal_commit_interval_ms === null) {
      state.baselines.set(clients, { name: step.phase, rate, measured_s: entry?.measured_s ?? 0 });
    } else if (state.baselines.get(clients)?.rate && rate !== null && !said.unsupported) {
      const { journal } = await journalOf(ctx);
      const base = state.baselines.get(clients);
      const minS = ctx.config.params.cost_min_s ?? MIN_COST_MS / 1000;
      const short = [[step.phase, entry?.measured_s ?? 0],
        [base.name, base.measured_s]].filter(([, sec]) => sec < minS);
      if (said.server_ignores) {
        out.cost_not_computed = `${said.server_ignores.split(':')[0]}: no cost against j:false`;
      } else if (journal !== true) {
        // No journal reported (not known, or none): the difference from j:false is not a journal's
        // cost, so none is computed; the case stays as measured, and says why it has no cost.
        out.cost_not_computed = `${journal === null ? 'journal not known' : 'no journal'}: no cost against j:false`;
      } else if (short.length) {
        out.cost_not_computed = `${short.map(([n, sec]) => `${n} measured ${sec} s`).join(', ')}: under ${minS} s (--cost-min-time), too short to tell a cost from noise: no cost against j:false`;
      } else {
        // The seed's "-34%": this case's docs/s against j:false's (same client count, same run).
        out.relative_to_baseline = { baseline: base.name,
          docs_per_s_ratio: Math.round((rate / base.rate) * 1000) / 1000,
          change_percent: Math.round((rate / base.rate - 1) * 1000) / 10 };
      }
    }
    return out;
  },
};
