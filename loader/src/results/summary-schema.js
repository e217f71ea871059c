'use strict';
// summary.json checked against its one schema (common/summary.schema.json, the report checks the
// same one before it reads) before the loader writes it: a summary the report would skip is a
// loader bug, said at once with the field named, never written for the report to half-read.
const { summaryValidator } = require('../../../common/summary-schema');

// Compiled at the first check, not when this file is loaded: the fault tool loads it (through the
// run folder's SummarySchemaError) for its checks, usage and dry runs, which write no summary, and
// Ajv's load and compile were two thirds of such a process's CPU (0.4 of 0.6 s, 2026-11-30).
let validate = null;

class SummarySchemaError extends Error {
  constructor(wrong) {
    super(`summary.json does not match its schema (common/summary.schema.json): ${wrong}`);
    this.name = 'SummarySchemaError';
  }
}

// checkSummary(summary): throws SummarySchemaError naming the first field that is wrong.
function checkSummary(summary) {
  validate ??= summaryValidator(require('ajv'));
  const wrong = validate(summary);
  if (wrong) throw new SummarySchemaError(wrong);
}

module.exports = { checkSummary, SummarySchemaError };
