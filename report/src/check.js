'use strict';
// A summary checked before anything adds it up: against
// summary.json's one schema (../common/summary.schema.json, the loader validates it before it
// writes), then each stored histogram decoded (a torn one would throw in the middle of a merge;
// no schema says whether base64 is a histogram). checkSummary throws BadRun naming the first
// field that is wrong; read.js skips that run with the message, never half-reads it.
const Ajv = require('ajv');
const { summaryValidator } = require('../../common/summary-schema');
const { decode } = require('./hist');
const { POINT_LISTS } = require('./normalise');

class BadRun extends Error {}

const validate = summaryValidator(Ajv);

function checkSummary(s) {
  const wrong = validate(s);
  if (wrong) throw new BadRun(wrong);
  for (const list of POINT_LISTS) {
    for (const [i, e] of (s[list] || []).entries()) {
      for (const [op, o] of Object.entries(e.ops)) {
        if (typeof o.histogram !== 'string') continue;
        try {
          decode(o.histogram);
        } catch (err) {
          throw new BadRun(`${list}[${i}].ops.${op}.histogram is not a readable HdrHistogram (${String(err.message || err).split('\n')[0].slice(0, 80)})`);
        }
      }
    }
  }
}

module.exports = { checkSummary, BadRun };
