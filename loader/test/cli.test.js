'use strict';
// Bad input never starts anything: one line on stderr naming the flag and the fix, exit 2.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runLoader, runLoaders } = require('./support/loader');
const { parse, parseDuration, parseImages, UsageError } = require('../src/cli/args');
const { RunDir } = require('../src/results/run-folder');

const bad = [
  [['nope'], /unknown experiment 'nope'/],
  [[], /name an experiment/],
  [['experiment1', 'experiment2'], /one experiment at a time/],
  [['experiment1', '--bogus'], /unknown flag '--bogus'/],
  [['experiment1', '--docs', '1e3'], /--docs: '1e3' is not a whole number/],
  [['experiment1', '--docs', '0'], /--docs: 0 is out of range/],
  [['experiment1', '--docs'], /--docs needs a value/],
  [['experiment2', '--clients', '1,,2'], /--clients/],
  [['experiment2', '--clients', '0'], /--clients: 0 is out of range/],
  [['experiment2', '--duration', '30'], /--duration '30' is not a duration/],
  [['experiment2', '--duration', '0s'], /--duration must be more than zero \(got '0s'\)/],
  [['experiment2', '--stall-timeout', '1.5'], /--stall-timeout '1.5' is not a duration/],
  [['experiment2', '--rate', '-5'], /--rate/],
  [['experiment2', '--docs', '5'], /--docs does not apply to experiment2/],
  [['experiment1', '--duration', '5s'], /--duration does not apply to experiment1/],
  [['experiment1', '--uri', 'http://x'], /--uri 'http:\/\/x' is not a mongodb:\/\/ URI/],
  [['experiment1', '--uri', 'mongodb://'], /--uri 'mongodb:\/\/' names no server/],
  [['experiment1', '--uri', 'mongodb:///db'], /--uri 'mongodb:\/\/\/db' names no server/],
  [['experiment1', '--engine', '../etc'], /--engine/],
  // folder names the results keep (common/names.js RESERVED_NAMES): such a run would vanish from reports
  [['experiment1', '--engine', 'report'], /--engine: 'report' is a name the results folders keep for themselves/],
  [['experiment1', '--engine', 'latest'], /--engine: 'latest' is a name the results folders keep/],
  [['experiment1', '--password-file', '/nonexistent/pw', '--uri', 'mongodb://127.0.0.1:1/'], /--password-file: cannot read/],
  [['/nonexistent/x.yaml'], /cannot read experiment file/],
];

// Each case is its own loader process, as a mistyped command is; they start together (four at a
// time: support/loader.js inTurns) and each test reads its own.
let badRuns;
test.before(() => {
  badRuns = runLoaders(bad.map(([args]) => [...args, '--metrics-port', '0']));
});
for (const [i, [args, re]] of bad.entries()) {
  test(`exit 2: ${args.join(' ') || '(no arguments)'}`, async () => {
    const r = (await badRuns)[i];
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, re);
    // one line, not the 40-line listing (which names flags ./run.sh does not take)
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^error: /);
    assert.doesNotMatch(r.stderr, /Usage: lab-loader/);
    assert.doesNotMatch(r.stdout, /results:/, 'no results line: no folder was written');
  });
}

test('--help: usage on stdout, exit 0', async () => {
  const r = await runLoader(['--help']);
  assert.equal(r.code, 0);
  // Any experiments/NAME.yaml is an experiment: the usage names no fixed list.
  assert.match(r.stdout, /Usage: lab-loader \[check\|estimate\] <NAME\|FILE.yaml>/);
  for (const f of ['--repeat', '--group', '--profile', '--experiments-dir', '--uri', '--docs', '--preload-docs', '--clients', '--duration', '--rate', '--seed', '--engine', '--results-dir', '--metrics-port', '--grafana-url', '--server-selection-timeout']) {
    assert.ok(r.stdout.includes(f), `usage mentions ${f}`);
  }
});

test('durations and flag values', () => {
  assert.equal(parseDuration('x', '30s'), 30000);
  assert.equal(parseDuration('x', '1.5s'), 1500);
  assert.equal(parseDuration('x', '2m'), 120000);
  assert.equal(parseDuration('x', '500ms'), 500);
  assert.equal(parseDuration('x', '1h'), 3600000);
  assert.throws(() => parseDuration('x', '0s'), UsageError);
  const o = parse(['experiment2', '--clients', '1,2,4,6', '--duration', '30s', '--rate', '5000', '--seed', '7']);
  assert.deepEqual(o.clients, [1, 2, 4, 6]);
  assert.equal(o.durationMs, 30000);
  assert.equal(o.rate, 5000);
  assert.equal(o.seed, 7);
  assert.equal(o.metricsPort, 9464);
  assert.equal(o.metricsPortGiven, false);
  assert.equal(parse(['experiment1', '--metrics-port', '9464']).metricsPortGiven, true);
  assert.equal(o.serverSelectionTimeoutMs, 10000);
});

test('the URI from LAB_LOADER_URI when --uri is not given (./run.sh keeps it out of ps); --uri wins', () => {
  const before = process.env.LAB_LOADER_URI;
  try {
    process.env.LAB_LOADER_URI = 'mongodb://u:pw@db.example:27017/';
    assert.equal(parse(['experiment1']).uri, 'mongodb://u:pw@db.example:27017/');
    assert.equal(parse(['experiment1', '--uri', 'mongodb://other:27017/']).uri, 'mongodb://other:27017/');
    assert.equal(parse(['experiment1', '--uri=mongodb://other:27017/']).uri, 'mongodb://other:27017/');
    // checked as --uri is, its password masked in the message
    process.env.LAB_LOADER_URI = 'http://u:pw@x/';
    assert.throws(() => parse(['experiment1']), /--uri 'http:\/\/u:\*\*\*@x\/' is not a mongodb:\/\/ URI/);
    process.env.LAB_LOADER_URI = '';
    assert.equal(parse(['experiment1']).uri, 'mongodb://127.0.0.1:27017/');
  } finally {
    if (before === undefined) delete process.env.LAB_LOADER_URI; else process.env.LAB_LOADER_URI = before;
  }
});

test('a results folder is never reused: a taken second gets -2, -3; latest points at the newest run', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-rundir-'));
  const exp = path.join(root, 'e.yaml');
  fs.writeFileSync(exp, 'name: e\n');
  const t = new Date('2026-01-02T03:04:05.678Z');
  const a = new RunDir(root, 'experiment1', 'wiredtiger', t);
  a.create(exp, { complete: false });
  a.summary({ complete: true }, { final: true });
  a.close();
  assert.equal(path.basename(a.dir), '20260102T030405Z');
  const b = new RunDir(root, 'experiment1', 'wiredtiger', t);
  b.create(exp, { complete: false });
  b.close();
  assert.equal(path.basename(b.dir), '20260102T030405Z-2');
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(a.dir, 'summary.json'), 'utf8')), { schema_version: 1, complete: true }, 'the first run\'s folder is untouched');
  assert.ok(!fs.existsSync(path.join(a.dir, '.reserve')), 'the final summary gave back the reserve');
  const c = new RunDir(root, 'experiment1', 'wiredtiger', new Date(t.getTime() + 1000));
  c.create(exp, { complete: false });
  c.close();
  assert.equal(fs.readlinkSync(path.join(root, 'experiment1', 'wiredtiger', 'latest')), '20260102T030406Z');
  fs.rmSync(root, { recursive: true, force: true });
});

test('shard host strings from listShards become replica-set URIs', () => {
  const { shardUri } = require('../src/server/describe');
  assert.equal(shardUri('shard01/shard01-a:27017,shard01-b:27017,shard01-c:27017'),
    'mongodb://shard01-a:27017,shard01-b:27017,shard01-c:27017/?replicaSet=shard01');
  assert.equal(shardUri('host:27018'), 'mongodb://host:27018/');
});

test('--image NAME=REF: recorded as given; malformed or repeated names are usage errors', () => {
  assert.deepEqual(parseImages(['mongod=mongo:8.0@sha256:ab', 'loader=lab-loader:local']),
    { mongod: 'mongo:8.0@sha256:ab', loader: 'lab-loader:local' });
  assert.throws(() => parseImages(['mongo:8.0']), UsageError);
  assert.throws(() => parseImages(['=x']), UsageError);
  assert.throws(() => parseImages(['a=x', 'a=y']), /given twice/);
  assert.deepEqual(parse(['experiment1']).images, {});
});

test('--metrics-host: loopback unless told otherwise; not an address is a usage error', () => {
  assert.equal(parse(['experiment1']).metricsHost, '127.0.0.1');
  assert.equal(parse(['experiment1', '--metrics-host', '0.0.0.0']).metricsHost, '0.0.0.0');
  assert.throws(() => parse(['experiment1', '--metrics-host', 'a b']), UsageError);
});

// run.sh asks `lab-loader check` before every stack run and dry run (lib/experiment.sh
// experiment_loader_check), without --uri for the stack's own: such a check must not load the
// driver (about 0.25 CPU s of each check, most of the bats suite's node time). A --uri given is
// still the driver's to judge (its parser, its option checks), so that check loads it.
test('check: the driver is loaded to judge a --uri given, and not otherwise', () => {
  const { packageLoaded } = require('./support/package-loaded');
  const loaded = (...args) => {
    const r = packageLoaded(path.join(__dirname, '..', 'bin', 'lab-loader.js'), 'mongodb', ['check', ...args]);
    assert.equal(r.status, 0, r.stderr);
    return r.loaded;
  };
  for (const name of ['experiment2', 'journal', 'gridfs']) {
    assert.equal(loaded(name), false, `check ${name}`);
  }
  assert.equal(loaded('experiment2', '--uri', 'mongodb://mongos:27017/'), true);
});
