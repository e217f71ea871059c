'use strict';
// summary.json's one schema (summary.schema.json, JSON Schema draft-07), checked by the loader
// before it writes a summary and by the report before it reads one. The validator is Ajv, which
// each package brings (this folder has no dependencies of its own: the loader image copies it
// as is), so the caller passes Ajv's class in.

const SCHEMA = require('./summary.schema.json');

// Ajv's JSON pointer "/steps/0/ops/find" as its keys, unescaped (RFC 6901: ~1 is /, ~0 is ~).
const keysOf = (pointer) => pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
// where(pointer): the field as it reads in the docs and in messages: "steps[0].ops.find".
const where = (pointer) => keysOf(pointer).reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out ? `${out}.${p}` : p), '');
const valueAt = (data, pointer) => keysOf(pointer).reduce((v, p) => (v == null ? v : v[p]), data);

// explain(error, data) -> one line naming the field: 'steps[0].ops.find.ops_per_s is "12", must be
// number or null', 'steps[0].ops.find.count is missing'.
function explain(e, data) {
  if (e.keyword === 'required') {
    const base = where(e.instancePath);
    return `${base ? `${base}.` : ''}${e.params.missingProperty} is missing`;
  }
  const field = where(e.instancePath) || 'the summary';
  const got = JSON.stringify(valueAt(data, e.instancePath));
  const msg = e.keyword === 'type' ? `must be ${[].concat(e.params.type).join(' or ')}`
    : e.keyword === 'const' ? `must be ${JSON.stringify(e.params.allowedValue)}`
    : e.keyword === 'enum' ? `must be one of ${e.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}` : e.message;
  return `${field} is ${got === undefined ? 'undefined' : got.length > 60 ? `${got.slice(0, 57)}...` : got}, ${msg}`;
}

// How the schema is compiled, here and for the loader's standalone code. The schema itself is not
// checked against draft-07 (validateSchema: false): that took a third of the compile, in every
// loader run and report; the tests check it once (loader/test/results-summary.test.js).
const AJV_OPTIONS = { allErrors: false, validateSchema: false };

// summaryValidator(Ajv) -> (summary) => null when it matches, else the first mismatch, one line.
function summaryValidator(Ajv) {
  return explaining(new Ajv(AJV_OPTIONS).compile(SCHEMA));
}

// explaining(validate) -> the same for an Ajv validate function compiled elsewhere (the loader's,
// made ahead as standalone code: loader/src/results/summary-validator-source.js).
const explaining = (validate) => (summary) => (validate(summary) ? null : explain(validate.errors[0], summary));

module.exports = { summaryValidator, explaining, SCHEMA, AJV_OPTIONS };
