'use strict';
// The CLI as ./run.sh report calls it: output folder, latest link, never overwriting, RESULT_DIR
// arguments, exit codes and one-line messages for bad input (exit 2, nothing written), each run's
// description in the table, and a missing node_modules (one line: run npm ci).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { tmpDir, makeRun } = require('./support/fixtures');
const { main } = require('../src/cli');

const BIN = path.join(__dirname, '..', 'bin', 'lab-report.js');
const run = (args) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

function fixture() {
  const root = tmpDir();
  [100, 110].forEach((r, i) => makeRun(root, { engine: 'a', stamp: `a${i}`, steps: [{ name: 'clients-1', ops: { find: { rate: r } } }] }));
  [200, 220].forEach((r, i) => makeRun(root, { engine: 'b', stamp: `b${i}`, steps: [{ name: 'clients-1', ops: { find: { rate: r } } }] }));
  return root;
}

test('writes results/report/<UTC>/index.html + report.json, points latest at it, prints the table', () => {
  const root = fixture();
  const r = run(['--results-dir', root]);
  assert.equal(r.status, 0, r.stderr);
  const latest = path.join(root, 'report', 'latest');
  const name = fs.readlinkSync(latest);
  assert.match(name, /^\d{8}T\d{6}Z$/);
  assert.ok(fs.statSync(path.join(latest, 'index.html')).size > 100000, 'the chart library is inlined');
  const rep = JSON.parse(fs.readFileSync(path.join(latest, 'report.json'), 'utf8'));
  assert.deepEqual(rep.experiments[0].sets[0].sides, ['a', 'b']);
  // the summary opens the output: the answer, its interval and the runs per side, within 120 columns
  const lines = r.stdout.trimEnd().split('\n');
  assert.match(lines[0], /^== summary: who is faster/);
  assert.match(r.stdout, /^ {2}clients-1 +b 2\.00x a +[\d.]+-[\d.]+ +\[[ |+o-]{21}\] +2\/2 v 2\/2$/m);
  for (const l of lines) assert.ok(l.length <= 120, `${l.length} columns: ${l}`);
  assert.ok(r.stdout.includes(`every number: --wide, or ${path.join(root, 'report', name)}/index.html`));
  // --wide: every number below the same summary
  const w = run(['--results-dir', root, '--wide']);
  assert.equal(w.status, 0, w.stderr);
  assert.ok(w.stdout.startsWith(lines[0]));
  assert.match(w.stdout, /== expX: a vs b/);
  assert.match(w.stdout, /clients-1: b is 2\.00x a \(95% CI [\d.]+-[\d.]+, 2 runs each\)/);
  // prose below the grids is wrapped within 120 columns: read it joined
  assert.match(w.stdout.replace(/\n {4}(?=\S)/g, ' '), /^runs: a \(2 runs\): server 7\.0\.0, storage engine a, images none recorded \(--uri run\), profile not recorded, topology standalone, lab-loader 1\.0\.0, v20, mongodb 7, host hostA \(2 CPUs, CPU model not recorded\)$/m);
  assert.ok(w.stdout.includes('report: '));
  // --wide's grid rows are a table (a column per op); every other line fits 120 columns
  assert.deepEqual(w.stdout.split('\n').filter((l) => l.length > 120 && !/^(point|clients-\d) /.test(l)), []);
  // the report folder is not read back as results
  assert.equal(run(['--results-dir', root]).status, 0);
});

test('never overwrites an earlier report made in the same second', () => {
  const root = fixture();
  const now = new Date('2026-11-22T10:00:00Z');
  const io = { stdout: { write() {} }, stderr: { write() {} } };
  assert.equal(main(['--results-dir', root], io, now), 0);
  const first = fs.readFileSync(path.join(root, 'report', '20261122T100000Z', 'report.json'), 'utf8');
  assert.equal(main(['--results-dir', root], io, now), 0);
  assert.equal(fs.readFileSync(path.join(root, 'report', '20261122T100000Z', 'report.json'), 'utf8'), first);
  assert.equal(fs.readlinkSync(path.join(root, 'report', 'latest')), '20261122T100000Z-2');
});

test('RESULT_DIR arguments: a run folder or a folder above runs', () => {
  const root = fixture();
  const out = tmpDir();
  const r = run(['--results-dir', out, path.join(root, 'expX', 'a'), path.join(root, 'expX', 'b', 'b0')]);
  assert.equal(r.status, 0, r.stderr);
  const rep = JSON.parse(fs.readFileSync(path.join(out, 'report', 'latest', 'report.json'), 'utf8'));
  assert.deepEqual(rep.experiments[0].sets[0].runs.map((x) => path.basename(x.id)).sort(), ['a0', 'a1', 'b0']);
});

test('bad input: one line on stderr, exit 2', () => {
  const root = fixture();
  const cases = [
    // One line naming the flag, not util.parseArgs' advice about '--'.
    [['--bogus'], /^lab-report: unknown flag '--bogus' \(\.\/run\.sh help lists the report's flags\)$/],
    [['--since'], /^lab-report: --since needs a value$/],
    [['--since', 'yesterday', '--results-dir', root], /^lab-report: --since 'yesterday' is not a date/],
    [['--results-dir', root, '/nonexistent/folder'], /^lab-report: results folder not found: \/nonexistent\/folder$/],
    [['--results-dir', root, '--engine', 'nosuch'], /^lab-report: no results found in .* matching the filters$/],
    [['--results-dir', tmpDir()], /^lab-report: no results found in /],
    [['--results-dir', root, '--by', 'Platform'], /^lab-report: --by 'Platform' is not a dimension/],
    [['--results-dir', root, '--by', 'platform'], /^lab-report: --by platform: no run has labels \(--label KEY=VALUE sets them; built in: engine, server, profile\)$/],
  ];
  for (const [args, re] of cases) {
    const r = run(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, `one line: ${r.stderr}`);
    assert.ok(r.stderr.trimEnd().length <= 120, `within 120 columns: ${r.stderr}`);
    assert.match(r.stderr.trimEnd(), re);
    assert.equal(r.stdout, '');
  }
  assert.ok(!fs.existsSync(path.join(root, 'report')), 'bad input writes no report');
});

// --by a label no run carries: the labels found were all listed, 200 columns and more with runs
// labelled by many keys (and a long name typed twice): one line within 120 columns, those that
// fit named, the rest counted.
test('--by a label no run carries: one line within 120 columns, the labels that fit named, the rest counted', () => {
  const root = tmpDir();
  const labels = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key_${i}`, 'x']));
  makeRun(root, { engine: 'a', stamp: 'a0', steps: [{ name: 'clients-1', ops: { find: { rate: 100 } } }], extra: { labels } });
  for (const by of ['nosuchlabel', 'n'.repeat(200)]) {
    const r = run(['--results-dir', root, '--by', by]);
    assert.equal(r.status, 2, r.stderr);
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.ok(lines[0].length <= 120, `${lines[0].length} columns: ${lines[0]}`);
    assert.match(lines[0], /: no run has that label \(labels: key_0, (key_\d+, )*\d+ more; built in: engine, server, profile\)$/);
  }
});

test('without report/node_modules: one line saying to run npm ci, exit 1', () => {
  const copy = tmpDir();
  fs.cpSync(path.join(__dirname, '..', 'bin'), path.join(copy, 'bin'), { recursive: true });
  fs.cpSync(path.join(__dirname, '..', 'src'), path.join(copy, 'src'), { recursive: true });
  const r = spawnSync(process.execPath, [path.join(copy, 'bin', 'lab-report.js')], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^lab-report: report\/node_modules is missing \(Cannot find module '[^']+'\): run 'cd report && npm ci' once\n$/);
});

// a read-only results folder gave a 10-line stack trace naming ENOENT, and no
// summary. Read-only for real: a read-only bind mount in a user and mount namespace of its own.
test('a read-only results folder: the summary is printed, then one line naming the folder and EROFS, exit 1', (t) => {
  const root = fixture();
  const probe = spawnSync('unshare', ['-rm', 'sh', '-c', `mount --bind "${root}" "${root}" && mount -o remount,ro,bind "${root}" && ! touch "${root}/x"`], { encoding: 'utf8' });
  if (probe.status !== 0) return t.skip(`no read-only bind mount here (unshare -rm: ${probe.stderr.trim() || probe.status})`);
  const r = spawnSync('unshare', ['-rm', 'sh', '-c', `mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" && exec "$2" "$3" --results-dir "$1"`, 'sh', root, process.execPath, BIN], { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /^== summary: who is faster/, 'the summary, as on a writable folder');
  assert.match(r.stdout, /^ {2}clients-1 +b 2\.00x a /m);
  assert.equal(r.stderr, `lab-report: cannot write the report into ${root}/report (EROFS: mkdir ${root}/report): the summary above was not saved; make the folder writable, or write it elsewhere with --results-dir DIR ${root} (the same runs read)\n`);
  assert.ok(!fs.existsSync(path.join(root, 'report')), 'nothing written');
});

// A full disk was told "make the folder writable or pass --results-dir DIR": neither helps, and
// --results-dir alone moves where the runs are read too. Full for real: a tmpfs of two pages,
// filled, mounted on the report folder in a user and mount namespace of its own.
test('a full disk: the summary is printed, then one line: free space, or --results-dir DIR with the same runs named', (t) => {
  const root = fixture();
  const report = path.join(root, 'report');
  fs.mkdirSync(report);
  const full = `mount -t tmpfs -o size=8k tmpfs "$1" && { head -c 65536 /dev/zero >"$1/fill" 2>/dev/null; true; }`;
  const probe = spawnSync('unshare', ['-rm', 'sh', '-c', `${full} && ! echo x >"$1/x"`, 'sh', report], { encoding: 'utf8' });
  if (probe.status !== 0) return t.skip(`no small tmpfs here (unshare -rm: ${probe.stderr.trim() || probe.status})`);
  const r = spawnSync('unshare', ['-rm', 'sh', '-c', `${full} && exec "$2" "$3" --results-dir "$4"`, 'sh', report, process.execPath, BIN, root], { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /^== summary: who is faster/, 'the summary, as on a disk with room');
  const line = `the summary above was not saved; its disk is full: free space there, or write it elsewhere with --results-dir DIR ${root} (the same runs read)\n`;
  assert.match(r.stderr, /^lab-report: cannot write the report into .* \(ENOSPC: /);
  assert.ok(r.stderr.endsWith(line), r.stderr);
  assert.doesNotMatch(r.stderr, /writable/);
});

// The usage line was 127 columns: --help, like every line the report prints, fits 120.
test('--help: every line within 120 columns', () => {
  const r = run(['--help']);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^Usage: lab-report \[--by DIM\]/);
  assert.deepEqual(r.stdout.split('\n').filter((l) => l.length > 120), []);
});
