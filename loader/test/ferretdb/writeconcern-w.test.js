'use strict';
// A server that ignores w, met where MongoDB refuses it: FerretDB v1.24.2 answers hello as a
// standalone and acknowledges w:2 (and w:3, and an unknown tag) there. The writeconcern experiment
// skipped such a case with MongoDB's reason ("MongoDB refuses w > 1 ... BadValue"), which says
// nothing true of this server; it must say that FerretDB ignores w, so w:2 cannot be tested here,
// and leave the case out of verdicts as the server's doing. The loader's "server" line names the
// product. Runs only in the FerretDB suite (MONGODB_URI, test/suites/45-ferretdb.sh).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { suiteClient } = require('../support/ferretdb');
const { runLoader, tmpResults, runsOf } = require('../support/loader');
const { exclusionFacts, stepExclusion, EXCLUSIONS } = require('../../../common/step-exclusion');

let client;
let results;
test.before(async () => {
  client = await suiteClient();
  results = tmpResults();
});
test.after(async () => {
  await client?.close();
  if (results) fs.rmSync(results, { recursive: true, force: true });
});

test('w:2 on FerretDB (a standalone that ignores w): "FerretDB ignores w", not run, never a verdict; the server line names FerretDB', async () => {
  // The premise: a standalone that acknowledges what MongoDB refuses (BadValue on a standalone).
  const hello = await client.db('admin').command({ hello: 1 });
  assert.equal(hello.setName, undefined, 'FerretDB answers as a standalone');
  for (const w of [2, 3, 'nosuchtag']) {
    const r = await client.db('lab').collection('wc-premise').insertOne({ w }, { writeConcern: { w } });
    assert.equal(r.acknowledged, true, `FerretDB acknowledges w:${w} on a standalone`);
  }
  const r = await runLoader(['writeconcern', '--uri', process.env.MONGODB_URI, '--results-dir', results, '--metrics-port', '0',
    '--ops', '30', '--repeat', '1', '--write-concerns', 'w:1,w:2']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^server FerretDB v1\.24\.2 \(MongoDB 7\.0\.\d+ compatible, backend SQLite \d+\.\d+\.\d+\) \(standalone\), storage engine not reported$/m);
  const [label] = fs.readdirSync(`${results}/writeconcern`);
  const [s] = runsOf(results, 'writeconcern', label);
  const w2 = s.cases.find((c) => c.name === 'w:2');
  assert.equal(w2.not_applicable, undefined, "MongoDB's reason is not this server's");
  assert.match(w2.server_ignores, /^FerretDB ignores w: it acknowledges w:2 on a standalone, which MongoDB refuses \(BadValue\), so w:2 cannot be tested on this server; /);
  assert.deepEqual(w2.ops, {}, 'not run');
  assert.equal(w2.failed, undefined, 'a case not run is not a failed one');
  assert.equal(stepExclusion(exclusionFacts(w2, [])), 'server_ignores');
  assert.match(EXCLUSIONS.server_ignores, /cannot be tested on this server/);
  assert.match(r.stdout, /^FerretDB ignores w: 2 w:2: not run, cannot be tested on this server$/m);
  assert.doesNotMatch(`${r.stdout}${r.stderr}`, /MongoDB refuses w > 1/);
  const w1 = s.cases.find((c) => c.name === 'w:1');
  assert.equal(w1.ops.insert.count, 30);
});
