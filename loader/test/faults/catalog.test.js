'use strict';
// src/faults/catalog.js and `lab-fault.js usage|list|check`: the scenario modules are the only
// registry (usage, flags, checks, stack hooks); bash reads all of it through these.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const catalog = require('../../src/faults/catalog');
const { scenarioNames, loadScenario } = require('../../src/faults/process');
const { TABLE } = require('../../src/faults/protocol');

const BIN = path.join(__dirname, '../../bin/lab-fault.js');
const DIR = path.join(__dirname, '../../src/faults/scenarios');
const FIXTURES = path.join(__dirname, 'fixtures/scenarios');
const run = (...args) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 20000 });

// The whole-module contract (name, summary, check ... heal, verdict) is loadScenario's own check
// (src/module-contract.js; test/module-contract.test.js); here, what usage needs of the flags.
test('every module loads as a whole scenario; every listed flag names its value', () => {
  const names = scenarioNames(DIR);
  assert.ok(names.length >= 5, names.join(' '));
  for (const n of names) {
    const s = loadScenario(n, DIR);
    for (const [k, o] of Object.entries(s.options || {})) if (o.help && o.type === 'string') assert.ok(o.arg, `${n} --${k}: arg`);
  }
});

test('usage lists each scenario with its helped flags and their defaults, not the tests\' knobs', () => {
  const u = catalog.usage(DIR);
  for (const n of scenarioNames(DIR)) assert.match(u, new RegExp(`^  fault ${n} +\\S`, 'm'));
  assert.match(u, /^ {4}--method M {12}fsync .*$/m);
  assert.match(u, /\(default 30s\)/);
  assert.match(u, /^ {4}--w 1\|majority {8}write concern/m);
  assert.doesNotMatch(u, /--rate|--baseline-seconds|--stopped/);
  for (const l of u.split('\n')) assert.ok(l.length <= 120, l); // the rest of ./run.sh help's width (common/text.js)
  assert.ok(u.split('\n').some((l) => l.length > 100), 'wrapped at 120 like the rest, no longer at 100');
  // the CLI prints the same, and reads another folder when told
  assert.equal(run('usage').stdout, u);
  const r = run('usage', '--scenarios-dir', FIXTURES);
  assert.match(r.stdout, /^ {2}fault pause-member {6}pause one member/m);
  assert.equal(run('list', '--scenarios-dir', FIXTURES).stdout, 'pause-member\n');
});

test('check: the module\'s flags checked, then its stack hooks as request lines (id 0), each a hook of docker-ops.tsv', () => {
  assert.deepEqual(catalog.check(['replica-lag', '--method', 'failpoint']), ['@lab-docker\t0\ttest-commands']);
  assert.deepEqual(catalog.check(['replica-lag']), []);
  assert.deepEqual(catalog.check(['replica-lag', '--method', 'netem']), ['@lab-docker\t0\tnetem-kernel']);
  assert.deepEqual(catalog.check(['stale-secondary', '--oplog-size-mb', '8']), ['@lab-docker\t0\tsmall-oplog\t8']);
  assert.deepEqual(catalog.check(['heal']), ['@lab-docker\t0\trunning-stack']);
  assert.deepEqual(catalog.check(['resync', '--member', 'shard01-b']), ['@lab-docker\t0\trunning-stack']);
  assert.deepEqual(catalog.check(['failover', '--w', '1']), []);
  for (const kind of Object.values(TABLE).map((o) => o.kind)) assert.ok(['action', 'probe', 'hook'].includes(kind), kind);
  assert.throws(() => catalog.check(['failover', '--w', '2']), (e) => e instanceof catalog.UsageError && e.message === "--w must be 1 or majority (got '2')");
  assert.throws(() => catalog.check(['replica-lag', '--w', '1']), { message: /^fault replica-lag does not take --w \(its flags: --member --method --threshold\)$/ });
  // through the CLI: exit 2 and one `error:` line; the hooks on stdout
  const bad = run('check', 'replica-lag', '--threshold', 'soon');
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr, "error: --threshold 'soon' is not a duration (use a number and a unit: 500ms, 30s, 2m, 1h; decimals allowed)\n");
  const ok = run('check', 'stale-secondary', '--engine', 'inmemory');
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(ok.stdout, '@lab-docker\t0\tsmall-oplog\t16\n');
});

test('a module asking for an op that is not a stack hook is an error of the module, not a request', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-scen-'));
  // a whole scenario (the recipe's example) but for its hook
  fs.writeFileSync(path.join(dir, 'bad-hook.js'), `module.exports = { ...require(${JSON.stringify(path.join(FIXTURES, 'pause-member.js'))}),
    name: 'bad-hook', hooks: () => [{ op: 'stop', args: { member: 'shard01-a' } }] };\n`);
  const r = run('check', 'bad-hook', '--member', 'shard01-a', '--scenarios-dir', dir);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /bad-hook: 'stop' is not a stack hook/);
});
