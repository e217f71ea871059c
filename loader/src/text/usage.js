'use strict';
// Usage errors and the value parsers every flag uses (args.js for the common flags, workload kinds
// for their own): one grammar and one message style, whoever declares the flag. A UsageError is
// exit 2 with its one-line message (bin/lab-loader.js).
const { durationMs } = require('./duration');
const { wholeNumber } = require('./numbers');

class UsageError extends Error {}

// parseDuration('--duration', '2m') -> 120000 (ms): the lab's one grammar (src/text/duration.js).
function parseDuration(flag, s) {
  const r = durationMs(flag, s);
  if (r.error) throw new UsageError(r.error);
  return r.ms;
}

// parseWarmup('--warmup', '10s') -> 10000; '0' (or 0s, 0ms) is no warm-up, which the duration
// grammar alone refuses (a duration is more than zero). The flag and the file's warmup: alike.
function parseWarmup(flag, text) {
  if (/^0(\.0+)?(ms|s|m|h)?$/.test(String(text))) return 0;
  return parseDuration(flag, text);
}

// parseCount: a whole number within [min, max] (src/text/numbers.js, the grammar every verb shares).
// Rejects 1e3, 0x10, "10k", " 5"; names a value out of range as typed (-5, 99999999999999999999999).
function parseCount(flag, s, min = 1, max = Number.MAX_SAFE_INTEGER) {
  const r = wholeNumber(flag, s, min, max);
  if (r.error) throw new UsageError(r.error);
  return r.value;
}

// The client counts a step may have, for --clients and the experiment file's workload.clients
// alike (config.js): 1,000 clients in one process (each its own connection and monitor: 2,000
// sockets; about 0.3 MiB each above the loader's base) stand for a few application servers' worth
// of connections (test/clients-thousand.test.js: the timeline exact at 1,000 against the test
// server); the bound keeps a typo from opening tens of thousands.
const CLIENTS = { min: 1, max: 1000 };

// parseClients('1,2,4,6') -> [1, 2, 4, 6].
function parseClients(flag, s) {
  const parts = String(s).split(',');
  if (parts.some((p) => p === '')) throw new UsageError(`${flag}: '${s}' is not a list like 1,2,4,6`);
  return parts.map((p) => parseCount(flag, p, CLIENTS.min, CLIENTS.max));
}

module.exports = { UsageError, parseDuration, parseWarmup, parseCount, parseClients, CLIENTS };
