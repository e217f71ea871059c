'use strict';
// The claims' documentation for the people who add one (DEVELOPERS.md "Adding a claim") and read
// the report (README.md, the seeds' findings) names what claims.json and src/claims.js hold: every
// test.kind and reproduced_when.expect in use, the fields a kind needs beyond the plain ones, the
// "lab figure" status a stand-in gets and not_claims. A kind added to claims.json without a word
// in either fails here.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { CLAIMS } = require('./support/claim-runs');

const ROOT = path.join(__dirname, '..', '..');
const read = (f) => fs.readFileSync(path.join(ROOT, f), 'utf8');

// section(text, heading): the text under "## heading" up to the next "## ".
function section(text, heading) {
  const at = text.indexOf(`## ${heading}\n`);
  assert.ok(at >= 0, `no "## ${heading}"`);
  const next = text.indexOf('\n## ', at + 3);
  return text.slice(at, next < 0 ? undefined : next);
}

test('DEVELOPERS.md "Adding a claim": every kind, expect and kind field in use, not_claims and the lab figure', () => {
  const doc = section(read('DEVELOPERS.md'), 'Adding a claim');
  const named = (w) => doc.includes(`\`${w}\``);
  const kinds = [...new Set(CLAIMS.map((c) => c.test.kind))];
  const expects = [...new Set(CLAIMS.map((c) => c.reproduced_when.expect).filter(Boolean))];
  assert.ok(kinds.length >= 9 && expects.includes('figure'), `${kinds} ${expects}`);
  for (const w of [...kinds, ...expects]) assert.ok(named(w), `"Adding a claim" does not name \`${w}\``);
  // the fields only some kinds read
  const fields = new Set();
  for (const c of CLAIMS) {
    if (c.test.tie_band) fields.add('tie_band');
    if (c.test.kind === 'resolution') ['window_s', 'flat'].forEach((f) => fields.add(f));
    if (c.test.kind === 'fluctuation') fields.add('high');
  }
  for (const f of fields) assert.ok(named(f), `"Adding a claim" does not name \`${f}\``);
  if (CLAIMS.some((c) => c.test.point === 'max')) assert.ok(doc.includes('`point: "max"`'), 'point: "max" not named');
  assert.ok(named('not_claims') && doc.includes('**lab figure**'), 'not_claims and the lab figure status');
});

test('README.md, the seeds\' findings: the lab figure status and not_claims', () => {
  const readme = read('README.md');
  const at = readme.indexOf('The seeds\' findings: the report also tests');
  assert.ok(at >= 0, 'the paragraph moved');
  const para = readme.slice(at, readme.indexOf('\n\n', at));
  for (const w of ['**lab figure**', '`"figure"`', '`not_claims`', '`test.tie_band`', '`test.point: "max"`']) {
    assert.ok(para.includes(w), `README's seeds' findings paragraph does not name ${w}`);
  }
});
