'use strict';
// ./run.sh in a real terminal (a pseudo-terminal whose session leader is an interactive bash, as
// in a terminal window or a tmux pane: support/pty-shell.py), not a signal sent to a process whose
// output is a file. Closing the terminal left summary.json as its placeholder ("running", steps
// []): the loader died of EIO writing its progress to the hung-up terminal before it saved, and a
// comparison recorded its position without the run's folder. A loader killed outright (SIGKILL,
// as the OOM killer does) left the cursor hidden and line wrap off, bash's raw "Killed" and no
// results: line.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { startServer } = require('./support/server');
const { tmpResults } = require('./support/loader');

const RUN_SH = path.resolve(__dirname, '..', '..', 'run.sh');
const PTY_SHELL = path.join(__dirname, 'support', 'pty-shell.py');
const STEP_STARTED = 'step 1/1 \\(1 client[^)]*\\) \\[';
const RUN_FLAGS = '--preload-docs 300 --clients 1 --duration 60s --metrics-port 0';

const q = (s) => `'${String(s).replace(/'/g, "'\\''")}'`;

// ptyShell(mode, until, command, results) -> { code, output, matched }: the helper's run (see its
// header); onMatched() is called when it says the output matched (mode wait).
function ptyShell(mode, until, command, outFile, onMatched = () => {}) {
  return new Promise((resolve) => {
    const p = execFile('python3', [PTY_SHELL, mode, until, '60', outFile, command], { timeout: 90000 }, (err) => {
      resolve({ code: err ? err.code : 0, output: fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : '' });
    });
    p.stdout.on('data', (d) => { if (/matched/.test(d)) onMatched(); });
  });
}

// settled(file): summary.json once it is no longer the placeholder of a running loader.
async function settled(file, ms = 40000) {
  const until = Date.now() + ms;
  for (;;) {
    const summary = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
    if (summary && summary.exit_code !== null) return summary;
    if (Date.now() > until) return summary;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const runDirs = (root, experiment, side) => fs.readdirSync(path.join(root, experiment, side)).filter((d) => d !== 'latest');

test('the terminal closed during a step of ./run.sh experiment2 --uri: summary.json keeps the step, marked interrupted', async () => {
  const server = await startServer();
  const results = tmpResults();
  try {
    const out = path.join(results, 'tty.out');
    const { code, output } = await ptyShell('close', STEP_STARTED,
      `${q(RUN_SH)} experiment2 --uri ${q(server.uri)} ${RUN_FLAGS} --results-dir ${q(results)} --engine tty`, out);
    assert.equal(code, 0, `the step started in the terminal\n${output}`);
    const dirs = runDirs(results, 'experiment2', 'tty');
    assert.equal(dirs.length, 1, 'one run folder');
    const summary = await settled(path.join(results, 'experiment2', 'tty', dirs[0], 'summary.json'));
    assert.notEqual(summary.exit_code, null, `the loader saved its summary, not the placeholder: ${summary.reason}`);
    assert.equal(summary.complete, false);
    assert.match(summary.reason, /^interrupted \(/, summary.reason);
    assert.equal(summary.steps.length, 1, 'the measured step is kept');
  } finally {
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});

test('the terminal closed during position 1 of ./run.sh compare --uri: the position is recorded interrupted with its folder, and the folder keeps the step', async () => {
  const server = await startServer();
  const results = tmpResults();
  try {
    const out = path.join(results, 'tty.out');
    const { code, output } = await ptyShell('close', STEP_STARTED,
      `${q(RUN_SH)} compare experiment2 --uri a=${q(server.uri)} --uri b=${q(server.uri)} --repeat 1 ${RUN_FLAGS} --results-dir ${q(results)}`, out);
    assert.equal(code, 0, `the step started in the terminal\n${output}`);
    const [id] = fs.readdirSync(path.join(results, '.comparisons')).filter((d) => d.startsWith('cmp-'));
    const runs = path.join(results, '.comparisons', id, 'runs.tsv');
    const until = Date.now() + 40000;
    while (!fs.existsSync(runs) && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
    const [pos, side, status, exit, dir] = fs.readFileSync(runs, 'utf8').trim().split('\t');
    assert.deepEqual([pos, side, status, exit], ['1', 'a', 'interrupted', '129'], 'runs.tsv: position 1 interrupted by the hang-up');
    assert.ok(dir, 'the position names its run folder');
    const summary = await settled(path.join(dir.startsWith('/') ? '' : path.resolve(RUN_SH, '..'), dir, 'summary.json'));
    assert.match(summary.reason, /^interrupted \(/, summary.reason);
    assert.equal(summary.steps.length, 1, 'the measured step is kept');
  } finally {
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});

// loaderPid(results): the loader's node process, found by the results folder only this test uses.
function loaderPid(results) {
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let cmd = '';
    try { cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; }
    if (cmd.includes('lab-loader.js') && cmd.includes(results)) return Number(pid);
  }
  return null;
}

test('the loader killed by SIGKILL during its progress bar: the terminal is put back, a results: line names the folder and its state, exit 137', async () => {
  const server = await startServer();
  const results = tmpResults();
  try {
    const out = path.join(results, 'tty.out');
    let killedAt = -1;
    const { code, output } = await ptyShell('wait', STEP_STARTED,
      `${q(RUN_SH)} experiment2 --uri ${q(server.uri)} ${RUN_FLAGS} --results-dir ${q(results)} --engine killed; echo "rc=$?"; exit`, out,
      () => {
        killedAt = fs.readFileSync(out, 'utf8').length;
        process.kill(loaderPid(results), 'SIGKILL');
      });
    assert.equal(code, 0, `the step started\n${output}`);
    assert.ok(killedAt > 0, 'the loader was found and killed');
    const after = output.slice(killedAt);
    assert.match(output, /\x1b\[\?25l/, 'the bar hid the cursor (the premise)');
    assert.match(after, /\x1b\[\?25h/, `the cursor shown again\n${JSON.stringify(after)}`);
    assert.match(after, /\x1b\[\?7h/, 'line wrap turned back on');
    assert.doesNotMatch(after, /Killed/, "no raw 'Killed' line of bash's");
    const [dir] = runDirs(results, 'experiment2', 'killed');
    assert.match(after, new RegExp(`results: \\S*${dir} \\(incomplete: the loader was killed, exit 137`), after);
    assert.match(after, /rc=137/, 'exit code 137');
    const summary = JSON.parse(fs.readFileSync(path.join(results, 'experiment2', 'killed', dir, 'summary.json'), 'utf8'));
    assert.equal(summary.exit_code, 137);
    assert.match(summary.reason, /killed by SIGKILL/);
  } finally {
    await server.stop();
    fs.rmSync(results, { recursive: true, force: true });
  }
});
