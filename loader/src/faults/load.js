'use strict';
// Background write load of the fault scenarios, through mongos: upserts of docBytes of fresh random
// data over a FIXED key space (keys documents), rate documents per second. Every write logs
// ~docBytes in the oplog (churn for lag and for rolling a small oplog) while the data set stays
// keys x docBytes (10,000 x 1 KB = 10 MB): inMemory's 0.5 GB limit (WT_CACHE_FULL) is never the
// thing measured. 2,000 x 1 KB = ~2 MB/s of oplog: a 16 MB oplog rolls every ~8 s, well above
// what netem's 64 kbit/s of ACKs lets into a member (~350 KB/s), so that method builds lag too.
// Bounded by maxSeconds and shouldStop().
const crypto = require('node:crypto');

const { setTimeout: defaultSleep } = require('node:timers/promises');
const { within } = require('./runner');
const { watchStep } = require('./watch');

// batchFor(rate): documents per write, about ten writes a second and at most 100 a write: at
// --rate 50, 100 a write was one burst every 2 s, and the lag, the primary's last write against
// the member's, moved in 2 s steps (a heal's "< 2 s" then needed the member caught up to the last
// burst at the very tick).
const batchFor = (rate) => Math.max(1, Math.min(100, Math.round(rate / 10)));

async function runLoad({ client, rate = 2000, batch = batchFor(rate), keys = 10000, docBytes = 1024,
  maxSeconds = 1800, shouldStop = () => false, say = () => {}, sleep = defaultSleep }) {
  const coll = client.db('lab_fault').collection('load');
  const started = Date.now();
  const deadline = started + maxSeconds * 1000;
  let n = 0;
  let errors = 0;
  let last = started;
  let lastN = 0;
  while (Date.now() < deadline && !shouldStop()) {
    const ops = Array.from({ length: batch }, (_, k) => ({
      updateOne: { filter: { _id: (n + k) % keys }, update: { $set: { at: new Date(), pad: crypto.randomBytes(docBytes / 2).toString('hex') } }, upsert: true },
    }));
    try {
      await coll.bulkWrite(ops, { ordered: false, writeConcern: { w: 1 } });
      n += batch;
    } catch (e) {
      errors++;
      // asked to stop: the error is the stop's (the client closed under the batch), not a write's
      if (shouldStop()) break;
      if (errors % 10 === 1) say(`load: write error (${e.name}: ${String(e.message).split('\n')[0]}); continuing`);
      await sleep(500);
    }
    // pace to rate: sleep until the schedule catches up with the documents written
    // (in short steps, so that a stop is seen within 200 ms)
    let ahead;
    while ((ahead = (n / rate) * 1000 - (Date.now() - started)) > 0 && !shouldStop()) await sleep(Math.min(ahead, 200));
    if (Date.now() - last >= 5000) {
      say(`load: ${Math.round(((n - lastN) * 1000) / (Date.now() - last))} docs/s (${n} total, ${errors} failed batches)`);
      last = Date.now();
      lastN = n;
    }
  }
  say(`load: stopped after ${n} documents, ${errors} failed batches`);
  return { documents: n, failedBatches: errors };
}

// startLoad(ctx, maxSeconds): runLoad through mongos in the background of a scenario, at
// --rate; stopLoad(ctx) (in heal, which always runs) stops it and reports its error.
function startLoad(ctx, maxSeconds) {
  const client = ctx.mongos(); // refused once the run is stopped (runner.js bodyContext)
  ctx.state.stopLoad = false;
  ctx.state.loadAbandoned = false;
  // once its batch is abandoned (stopLoad), the load says nothing more: its last words would land
  // after the verdict, when the closed client ends the batch
  const say = (m) => { if (!ctx.state.loadAbandoned) ctx.say(m); };
  ctx.state.loading = runLoad({ client, rate: Number(ctx.params.rate), maxSeconds,
    shouldStop: () => ctx.state.stopLoad, say });
  ctx.state.loading.catch(() => {}); // its error is reported when stopLoad awaits it
}
// loadBaseline(ctx, maxSeconds): startLoad, then watch --baseline-seconds of it before the fault.
async function loadBaseline(ctx, maxSeconds) {
  startLoad(ctx, maxSeconds);
  await watchStep(ctx, 'never', Number(ctx.params['baseline-seconds']), 'baseline');
}
// checkRate(p): the load's --rate, documents per second.
function checkRate(p) {
  if (!/^[1-9][0-9]*$/.test(p.rate)) throw new Error(`--rate must be a whole number >= 1 (got '${p.rate}')`);
}
// The load sees the stop within a pacing step (200 ms) or when its batch in flight is answered.
// The wait is bounded by ctx.bounds.inFlightMs (why: runner.js BOUNDS, a member that stops
// answering); past it the batch is abandoned, said in one line and recorded by the runner as left.
async function stopLoad(ctx) {
  ctx.state.stopLoad = true;
  const loading = ctx.state.loading;
  if (!loading) return;
  const ms = ctx.bounds.inFlightMs;
  const r = await within(ctx.waitFor('the write load (stopping: its batch in flight through mongos)', loading), ms);
  ctx.state.loading = null;
  if (!r.settled) {
    // Not a failed heal: the fault was undone before (scenario heal()), and a batch unanswered
    // for 5 s comes from a host too busy as well as from a member that does not answer. The run
    // keeps its verdict; the batch is named as left.
    ctx.state.loadAbandoned = true;
    ctx.abandon(`load: did not stop within ${ms / 1000} s of the stop (its batch in flight unanswered: a member not answering, or a busy host); not part of the heal`,
      'its write batch in flight through mongos, abandoned (the server may still apply it)', { healFailed: false });
  } else if (r.error) {
    ctx.say(`load: ${r.error.message.split('\n')[0]}`);
  }
}

module.exports = { runLoad, batchFor, loadBaseline, stopLoad, checkRate };
