'use strict';
// timed(record, op, intended, now, fn): run one operation, record its outcome and service time.
// A failed op is recorded as an error and rethrown (the client loop counts and reports it).
async function timed(record, op, intended, now, fn) {
  const t = now();
  let r;
  try {
    r = await fn();
  } catch (e) {
    record(op, t, now(), intended, false);
    throw e;
  }
  record(op, t, now(), intended, true);
  return r;
}

// Documents are { x: i, y: <y_length random characters> } as in seeds/004 insertData().
function makeDoc(config, rng, i) {
  return { x: i, y: rng.string(config.document.yLength, config.document.alphabet) };
}

module.exports = { timed, makeDoc };
