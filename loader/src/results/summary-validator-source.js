'use strict';
// summary-validator.generated.js, the loader's summary.json check, is Ajv's standalone code for
// common/summary.schema.json, made here: compiling the schema at each run's end cost 0.19 CPU s
// of its ~1.3 s fixed cost (Ajv's load and compile, 2026-11-30), the standalone code 0.01 s. Ajv
// documents standalone code for start-up time (ajv.js.org/standalone.html). The report, which
// reads many summaries per process, still compiles the schema itself (common/summary-schema.js).
// After an edit of the schema: node loader/src/results/summary-validator-source.js (rewrites it;
// loader/test/results-summary.test.js fails while it is stale).
const fs = require('node:fs');
const path = require('node:path');

const GENERATED = path.join(__dirname, 'summary-validator.generated.js');

// validatorSource() -> the generated file's text, from the schema as it is now, compiled with the
// options the report's validator has (common/summary-schema.js AJV_OPTIONS).
function validatorSource() {
  const Ajv = require('ajv');
  const standalone = require('ajv/dist/standalone').default;
  const { SCHEMA, AJV_OPTIONS } = require('../../../common/summary-schema');
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } });
  return `// Generated from common/summary.schema.json by ${path.basename(__filename)}: do not edit.\n${standalone(ajv, ajv.compile(SCHEMA))}\n`;
}

if (require.main === module) fs.writeFileSync(GENERATED, validatorSource());

module.exports = { validatorSource, GENERATED };
