'use strict';
// journalOf(ctx) -> { journal, journal_source }: whether this run's server journals (durability.js
// journalFacts), asked once per run and recorded on every durability case, so the comparison
// between engines shows inMemory's "no journal" beside its numbers.
const { engine } = require('./tables');
const { journalFacts } = require('./durability');

const perRun = new WeakMap(); // config object (one per run) -> facts

async function journalOf(ctx) {
  if (perRun.has(ctx.config)) return perRun.get(ctx.config);
  let row = null;
  try {
    row = ctx.engine ? engine(ctx.engine) : null; // the table is absent outside the repository
  } catch {
    row = null;
  }
  // getCmdLineOpts through mongos describes the router, not the shard members: not asked there.
  let cmdLine = null;
  if (!row && ctx.description?.topology?.kind !== 'mongos') {
    cmdLine = await ctx.client.db('admin').command({ getCmdLineOpts: 1 }).catch(() => null);
  }
  const facts = journalFacts({ row, storageEngine: ctx.description?.server?.storage_engine, cmdLine });
  perRun.set(ctx.config, facts);
  return facts;
}

module.exports = { journalOf };
