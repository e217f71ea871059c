'use strict';
// writeconcern (seeds/000): insertOne of one static document, --ops times per case, one case per
// write concern (w:0, w:1, w:1+j, w:2, w:2+j, majority, majority+j, w:3). Case k's documents
// have _id k * KEY_SPAN + i, so a count per case is exact (afterStep counts what arrived: for
// w:0 the only evidence that the writes happened).
//
// A case the topology the run reached cannot satisfy (w:2 or majority on a standalone, w above the
// replica set's data-bearing members, j:true on an engine without a journal: src/kinds/durability/wc-topology.js)
// is not run: beforeStep records it as `not_applicable` with the reason, whatever the server would
// have answered. A case that runs and that the server cannot do after all (w:3 with a member down)
// fails its first insert: with a bounded wtimeout the server answers with a write concern error
// instead of waiting forever. The client records the op as an error, posts a note and ends the
// case; afterStep turns the note into the case's `unsupported` line. The run goes on with the next
// case.
const { parseCount, parseDuration, UsageError } = require('../text/usage');
const { parseWriteConcerns, driverWriteConcern, isNetworkError, describeError, caseNotes } = require('./durability');
const { journalOf } = require('./durability/journal-facts');
const { countArrived } = require('./durability/arrived');
const { dataBearing, notApplicable } = require('./durability/wc-topology');
const { ignoresUnsatisfiableW } = require('../server/products');

// The topology's data-bearing members, asked once per run (config object -> promise).
const membersPerRun = new WeakMap();
const membersOf = (ctx) => membersPerRun.get(ctx.config)
  ?? membersPerRun.set(ctx.config, dataBearing(ctx.client, ctx.description?.topology)).get(ctx.config);

const KEY_SPAN = 1e9; // ids of one case: [k * 1e9, (k + 1) * 1e9); --ops <= 1e8 stays inside
const MAX_ERRORS_IN_A_ROW = 100; // after the first op succeeded: a case, not a measurement, any more

// --wtimeout: at most 10 s, so that a case waiting on an unsatisfiable write concern ends before
// the runner's --stall-timeout (15 s by default: no operation completed) stops the whole run.
const MAX_WTIMEOUT_MS = 10000;
function parseWtimeout(flag, text) {
  const ms = parseDuration(flag, text);
  if (ms > MAX_WTIMEOUT_MS) throw new UsageError(`${flag}: ${text} is over 10s (a write waiting that long would trip the loader's --stall-timeout)`);
  return ms;
}

// w:0's latency, as summary.json states it beside the case.
const W0_LATENCY = 'w:0 is unacknowledged: the driver writes the insert to the socket and does not wait for a reply, so its "latency" is the time to serialise the message and hand it to the socket, not a server acknowledgement; documents.arrived (counted after the case) is the only evidence that the writes happened';

module.exports = {
  name: 'writeconcern',
  ops: ['insert'],
  opsPerIteration: 1,
  bound: 'own',
  needsPreload: false,
  shape: 'cases',
  options: {
    ops: { flag: '--ops', file: 'workload.ops', required: true, parse: (f, s) => parseCount(f, s, 1, 1e8), help: 'inserts per case (seeds/000: 1000)' },
    writeConcerns: { flag: '--write-concerns', file: 'workload.write_concerns', required: true, parse: parseWriteConcerns, help: 'cases, e.g. w:0,w:1,w:1+j,majority+j (w:N or majority, +j = j:true)' },
    wtimeout: { flag: '--wtimeout', file: 'workload.wtimeout', default: '5s', parse: parseWtimeout, help: 'bound on waiting for an acknowledged write concern; a case past it is recorded as unsupported' },
  },
  configure({ doc, options: o, need }) {
    const d = doc.document || {};
    need(d.static && typeof d.static === 'object' && !Array.isArray(d.static) && !('_id' in d.static), 'document.static: the mapping every insert writes (no _id: each case numbers its own)');
    return { cases: o.writeConcerns, ops: o.ops, wtimeout_ms: o.wtimeout, static: d.static };
  },
  // One case per write concern (per client count, when --clients lists several).
  plan(config) {
    const many = config.workload.clients.length > 1;
    return config.params.cases.flatMap((c) => config.workload.clients.map((n) => ({
      name: many ? `${c.name} clients=${n}` : c.name,
      clients: n,
      params: { write_concern: c.write_concern, ops: config.params.ops,
        wtimeout_ms: c.write_concern.w === 0 ? null : config.params.wtimeout_ms },
    })));
  },
  stepTotal: (config) => ({ total: config.params.ops, unit: 'ops' }),
  // Before each case: can this topology satisfy it? If not, step.skip reaches the clients with the
  // step: they insert nothing, and the case says why.
  async beforeStep(ctx, step) {
    const members = await membersOf(ctx);
    const journal = await journalOf(ctx);
    const why = notApplicable(step.params.write_concern, members, journal.journal);
    // A server that ignores w acknowledges what a standalone cannot satisfy: not MongoDB's reason
    // for skipping, but this server's (src/server/products.js): recorded as server_ignores, not run.
    const ignored = why ? ignoresUnsatisfiableW(ctx.description?.server, step.params.write_concern, members) : null;
    if (ignored) {
      step.skip = ignored;
      step.skipAs = 'server_ignores';
      ctx.log(`${step.phase}: not run: ${ignored}`);
    } else if (why) {
      step.skip = why;
      ctx.log(`${step.phase}: not applicable here, not run: ${why}`);
    }
    return { data_bearing: members };
  },
  next(config, col, rng, id, step, env) {
    if (step.skip) return async () => false;
    const { ops, static: fields } = config.params;
    const wc = step.params.write_concern;
    const options = { writeConcern: driverWriteConcern(wc, step.params.wtimeout_ms) };
    const n = step.clientIds.length;
    let i = step.clientIds.indexOf(id); // client j of n inserts j, j + n, ...
    const base = step.index * KEY_SPAN;
    let sent = 0; // inserts the driver completed without error (for w:0: handed to the socket)
    let errors = 0;
    let inRow = 0;
    let over = false;
    const finish = (extra = {}) => {
      over = true;
      env.note({ client: id, sent, errors, ...extra });
      return false;
    };
    return async (record, intended, now) => {
      if (over) return false;
      if (i >= ops) return finish();
      const doc = { _id: base + i, ...fields };
      i += n;
      const t = now();
      try {
        await col.insertOne(doc, options);
        record('insert', t, now(), intended, true);
        sent++;
        inRow = 0;
      } catch (e) {
        record('insert', t, now(), intended, false);
        errors++;
        const d = describeError(e);
        // An unacknowledged write cannot report its own failure; a server that drops the
        // connection after one (mongo-java-server refuses OP_MSG's moreToCome flag) shows it on
        // the next write. That is this case's answer, not a lost server.
        if (wc.w === 0 && isNetworkError(e)) return finish({ unsupported: `the server closed the connection after an unacknowledged write (${d.text})` });
        if (isNetworkError(e)) throw e; // the framework stops the run: a lost server is no case property
        if (sent === 0) return finish({ unsupported: d.timedOut ? `not satisfied within the ${step.params.wtimeout_ms} ms wtimeout (${d.text})` : d.text, timed_out: d.timedOut });
        if (++inRow >= MAX_ERRORS_IN_A_ROW) return finish({ stopped: `${MAX_ERRORS_IN_A_ROW} errors in a row, last: ${d.text}` });
      }
      return i < ops ? true : finish();
    };
  },
  async afterStep(ctx, step, notes) {
    const wc = step.params.write_concern;
    if (step.skip) return { [step.skipAs || 'not_applicable']: step.skip, ...(step.skipAs ? { skipped: true } : {}), ...(await journalOf(ctx)) };
    const sent = notes.reduce((a, x) => a + (x.sent || 0), 0);
    const lo = step.index * KEY_SPAN;
    const counted = await countArrived(ctx.col, { _id: { $gte: lo, $lt: lo + KEY_SPAN } }, sent);
    const out = { documents: { sent, arrived: counted.arrived, count_waited_ms: counted.waited_ms } };
    Object.assign(out, await journalOf(ctx));
    if (wc.w === 0) out.latency_meaning = W0_LATENCY;
    Object.assign(out, caseNotes(ctx, step, notes, wc, 'verdicts'));
    if (counted.arrived < sent) {
      out.documents.lost = sent - counted.arrived;
      ctx.log(`${step.phase}: ${sent} insert(s) sent, ${counted.arrived} arrived (counted after the case, ${counted.waited_ms} ms)`);
    }
    return out;
  },
};
