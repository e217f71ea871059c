'use strict';
// summary.json checked against its one schema (common/summary.schema.json, the report checks the
// same one before it reads) before the loader writes it: a summary the report would skip is a
// loader bug, said at once with the field named, never written for the report to half-read.
const { explaining } = require('../../../common/summary-schema');

// Ajv's standalone code for the schema, made ahead (summary-validator-source.js: compiling it here
// cost each run 0.19 CPU s), loaded at the first check: the fault tool loads this file (through
// the run folder's SummarySchemaError) for checks, usage and dry runs, which write no summary.
let validate = null;

class SummarySchemaError extends Error {
  constructor(wrong) {
    super(`summary.json does not match its schema (common/summary.schema.json): ${wrong}`);
    this.name = 'SummarySchemaError';
  }
}

// checkSummary(summary): throws SummarySchemaError naming the first field that is wrong.
function checkSummary(summary) {
  validate ??= explaining(require('./summary-validator.generated'));
  const wrong = validate(summary);
  if (wrong) throw new SummarySchemaError(wrong);
}

module.exports = { checkSummary, SummarySchemaError };
