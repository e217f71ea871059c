'use strict';
// summary.json checked against its one schema (common/summary.schema.json, the report checks the
// same one before it reads) before the loader writes it: a summary the report would skip is a
// loader bug, said at once with the field named, never written for the report to half-read.
const Ajv = require('ajv');
const { summaryValidator } = require('../../../common/summary-schema');

const validate = summaryValidator(Ajv);

class SummarySchemaError extends Error {
  constructor(wrong) {
    super(`summary.json does not match its schema (common/summary.schema.json): ${wrong}`);
    this.name = 'SummarySchemaError';
  }
}

// checkSummary(summary): throws SummarySchemaError naming the first field that is wrong.
function checkSummary(summary) {
  const wrong = validate(summary);
  if (wrong) throw new SummarySchemaError(wrong);
}

module.exports = { checkSummary, SummarySchemaError };
