'use strict';
// The operations of an experiment, from its workload kind (src/kinds/<kind>.js). A factory
// returns next(record, intended, now), one call = one loop iteration of the seed's shell
// function, resolving false when the client is done. Op names are the metric label values.
const { OPS, kind } = require('../kinds');
const { makeDoc } = require('../kinds/ops');

// clientStream(id, step): the random stream of client `id` in client step `step`, so a client's
// keys do not depend on how many other clients run, and step 2 does not replay step 1's keys.
function clientStream(id, stepIndex) {
  return 1 + id * 1009 + stepIndex; // 1009 (prime) > any step count; stream 0 is the preload
}

function opsFor(config, col, rng, id, step, env) {
  return kind(config.workload.type).next(config, col, rng, id, step, env);
}

module.exports = { OPS, opsFor, clientStream, makeDoc };
