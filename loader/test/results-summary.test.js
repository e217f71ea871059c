'use strict';
// src/results/run-folder.js RunDir.summary: summary.json is replaced whole (written to summary.json.tmp, then
// renamed over it), never rewritten in place, so a reader (./run.sh report, the k8s collector, a
// person with `cat`) holding the file sees one whole summary or the next, never a truncated mix.
// Shown by what a rename does and an in-place write does not: the name gets a new file, and the
// file already open keeps the previous summary whole.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { RunDir } = require('../src/results/run-folder');

test('each summary replaces summary.json by rename: the open file keeps the previous one whole, no .tmp is left', (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-results-summary-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const exp = path.join(root, 'e.yaml');
  fs.writeFileSync(exp, 'name: e\n');
  const run = new RunDir(root, 'e', 'wt', new Date('2026-01-01T00:00:00Z'));
  run.create(exp, { complete: false, placeholder: true });
  const file = path.join(run.dir, 'summary.json');
  const fd = fs.openSync(file, 'r');
  t.after(() => fs.closeSync(fd));
  const before = fs.fstatSync(fd).ino;
  run.summary({ complete: true, steps: Array.from({ length: 50 }, (_, i) => ({ index: i + 1 })) }, { final: true });
  run.close();
  assert.notEqual(fs.statSync(file).ino, before, 'summary.json is a new file (renamed over the old one)');
  const old = JSON.parse(fs.readFileSync(fd, 'utf8'));
  assert.deepEqual(old, { schema_version: 1, complete: false, placeholder: true }, 'the reader of the old file saw it whole');
  assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).steps.length, 50);
  assert.deepEqual(fs.readdirSync(run.dir).filter((f) => f.endsWith('.tmp')), []);
});

// The loader and the report compile the schema without checking it against draft-07 (common/
// summary-schema.js, validateSchema: false, for their start-up time): it is checked here, once.
test('summary.schema.json is a valid draft-07 JSON Schema', () => {
  const Ajv = require('ajv');
  const { SCHEMA } = require('../../common/summary-schema');
  const ajv = new Ajv();
  assert.ok(ajv.validateSchema(SCHEMA), ajv.errorsText(ajv.errors));
  // and a schema broken so is refused by that check (the check can fail)
  assert.equal(ajv.validateSchema({ ...SCHEMA, properties: { complete: { type: 'boolen' } } }), false);
});

// The loader checks summaries with Ajv's standalone code for the schema, made ahead (src/results/
// summary-validator-source.js): made again from the schema as it is, it is the same file.
test('the loader\'s generated summary validator is the schema\'s as it is now', () => {
  const { validatorSource, GENERATED } = require('../src/results/summary-validator-source');
  assert.ok(fs.readFileSync(GENERATED, 'utf8') === validatorSource(),
    `${path.relative(path.join(__dirname, '..', '..'), GENERATED)} is stale: run node loader/src/results/summary-validator-source.js`);
});

test('a summary that breaks the schema is not written: the error names the field, summary.json keeps the last whole one', (t) => {
  const { checkSummary } = require('../src/results/summary-schema');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-results-summary-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const exp = path.join(root, 'e.yaml');
  fs.writeFileSync(exp, 'name: e\n');
  const run = new RunDir(root, 'e', 'wt', new Date('2026-01-01T00:00:00Z'), { check: checkSummary });
  const placeholder = { complete: false, experiment: 'e', engine: 'wt', steps: [] };
  run.create(exp, placeholder);
  const bad = { ...placeholder, complete: true, steps: [{ ops: { find: { count: 10, errors: 0, ops_per_s: '12' } } }] };
  assert.throws(() => run.summary(bad, { final: true }), { name: 'SummarySchemaError', message: 'summary.json does not match its schema (common/summary.schema.json): steps[0].ops.find.ops_per_s is "12", must be number or null' });
  run.close();
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(run.dir, 'summary.json'), 'utf8')), { schema_version: 1, ...placeholder });
  assert.ok(fs.existsSync(path.join(run.dir, '.reserve')), 'the reserve is kept for the summary that follows');
  // a placeholder that breaks it: no folder is left behind, the error is the schema's
  const other = new RunDir(root, 'e', 'wt2', new Date('2026-01-01T00:00:00Z'), { check: checkSummary });
  assert.throws(() => other.create(exp, { complete: 'no', experiment: 'e', engine: 'wt2' }), { name: 'SummarySchemaError', message: /complete is "no", must be boolean/ });
  assert.deepEqual(fs.readdirSync(path.join(root, 'e', 'wt2')), []);
});
