'use strict';
// The experiment file's own bounds (src/experiment/config.js load), each beside the flag's: a file must not
// allow what the flag refuses (workload.clients: 1..1000, as --clients; src/text/usage.js parseClients:
// "keeps a typo from opening tens of thousands"). Checked on a real file through the
// parser and through `lab-loader check` (one line, exit 2, nothing connected).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parse, UsageError } = require('../src/cli/args');
const { load } = require('../src/experiment/config');
const { runLoader } = require('./support/loader');

const BASE = fs.readFileSync(path.join(__dirname, '..', '..', 'experiments', 'experiment3.yaml'), 'utf8');
let dir;
test.before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-config-bounds-')); });
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

// withClients(list): experiment3 with its workload.clients line replaced; the file's path.
function withClients(list) {
  const text = BASE.replace(/^ {2}clients: \[.*\]$/m, `  clients: ${list}`);
  assert.notEqual(text, BASE, 'the clients line was replaced');
  const file = path.join(dir, `experiment3-${fs.readdirSync(dir).length}.yaml`);
  fs.writeFileSync(file, text.replace(/^name: .*$/m, `name: ${path.basename(file, '.yaml')}`));
  return file;
}
const loadFile = (file, flags = []) => load(parse([file, ...flags]));

test('workload.clients: 1..1000 in the file, the same bound as --clients', () => {
  assert.deepEqual(loadFile(withClients('[1, 1000]')).config.workload.clients, [1, 1000]);
  for (const bad of ['[1001]', '[1, 10000]', '[0]', '[2.5]', '[]', '"4"']) {
    assert.throws(() => loadFile(withClients(bad)), (e) => e instanceof UsageError && /workload\.clients: list of whole numbers 1\.\.1000/.test(e.message), bad);
  }
  // the flag's bound, the same
  assert.deepEqual(loadFile(withClients('[1]'), ['--clients', '1000']).config.workload.clients, [1000]);
  assert.throws(() => parse([withClients('[1]'), '--clients', '1001']), /--clients: 1001 is out of range/);
});

test('lab-loader check: a file with 1001 clients is refused in one line, exit 2', async () => {
  const file = withClients('[1, 1001]');
  const r = await runLoader(['check', file]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^error: .*workload\.clients: list of whole numbers 1\.\.1000/);
  assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  const ok = await runLoader(['check', withClients('[1, 1000]')]);
  assert.equal(ok.code, 0, ok.stderr);
});
