'use strict';
// node test/redesign/outputs.js ROOT OUT FOLDERS_FILE [RENAMES_FILE]: what the checkout at ROOT prints and writes
// for a fixed corpus, one file per output under OUT, for test/redesign/same-output.sh to compare
// with another checkout's byte for byte:
//   - cli/: the loader's and ./run.sh's text for every experiment, engine and fault scenario
//     (help, flags, check, estimate, --dry-run) and for bad input, with its exit code;
//   - report/: the report over each folder of FOLDERS_FILE (a test's temporary folder, the runs
//     it made under it), default, --wide and --by server: its terminal text, report.json and
//     index.html, written at one fixed time.
// The checkout's own path and its temporary folders are written <ROOT> and <TMP>; in the
// command-line text (which reads the clock) a UTC time <TIME> and a comparison id's random part
// <RANDOM>: only what the code decides can differ. The report runs at one fixed time.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { readTable } = require('../../common/tables');

const [root, out, foldersFile, renamesFile] = process.argv.slice(2).map((p) => path.resolve(p));
// RENAMES_FILE (the older commit's side): "OLD<TAB>NEW" per file the redesign moved. The text
// names where a rule lives (loader/src/products.js, src/too-short.js), so the older side's
// outputs are read with each moved file's old path written as its new one, the longest first,
// in both forms (from the repository's root, and from loader/ as src/...).
const renames = (renamesFile ? fs.readFileSync(renamesFile, 'utf8').split('\n').filter(Boolean) : [])
  .map((l) => l.split('\t')).flatMap(([from, to]) => [[from, to],
    ...(from.startsWith('loader/src/') && to.startsWith('loader/src/') ? [[from.slice(7), to.slice(7)]] : [])])
  .sort((a, b) => b[0].length - a[0].length);
const moved = (text) => renames.reduce((t, [from, to]) => t.split(from).join(to), text);
const NOW = new Date('2026-01-02T03:04:05.000Z');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'same-output-'));
const paths = (text) => moved(text.split(root).join('<ROOT>').split(tmp).join('<TMP>'));
const clock = (text) => text.replace(/\d{8}T\d{6}(\.\d+)?Z|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<TIME>')
  .replace(/(cmp-<TIME>-)[0-9a-f]+/g, '$1<RANDOM>');
const write = (file, text) => { fs.mkdirSync(path.dirname(file), { recursive: true }); fs.writeFileSync(file, text); };

// ---- the command-line corpus
const list = (dir, ext) => fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith(ext))
  .map((f) => f.slice(0, -ext.length)).sort();
const experiments = list('experiments', '.yaml');
// the checkout's engines table, read by this checkout's reader (common/tables.js)
const engines = readTable('engines', root).map((r) => r.engine);
const scenarios = list('loader/src/faults/scenarios', '.js');
const loader = (...a) => ['node', 'loader/bin/lab-loader.js', ...a];
const run = (...a) => ['./run.sh', ...a];
const commands = [
  loader('--help'), loader('list'), loader('flags'),
  loader('check', 'nope'), loader('check', 'experiment2', '--clients', '0'), loader('check', 'experiment2', '--duration', 'soon'),
  loader('check', 'experiment2', '--bogus'), loader('estimate', 'ycsb-a', '--clients', '1,2', '--duration', '10s'),
  ...experiments.flatMap((x) => [loader('flags', x), loader('check', x), loader('estimate', x)]),
  run('help'), run('bogus'), run('experiment2', '--engine', 'nope', '--dry-run'),
  ...experiments.flatMap((x) => engines.map((e) => run(x, '--engine', e, '--dry-run'))),
  ...engines.map((e) => run('up', '--engine', e, '--dry-run')),
  ...scenarios.map((s) => run('fault', s, '--engine', 'wiredtiger', '--yes', '--dry-run')),
  run('compare', 'experiment2', '--engines', 'wiredtiger,inmemory', '--dry-run'),
];
const env = { PATH: process.env.PATH, HOME: tmp, TMPDIR: tmp, LANG: 'C.UTF-8', TERM: 'dumb', COLUMNS: '120' };
commands.forEach((argv, i) => {
  const r = spawnSync(argv[0], argv.slice(1), { cwd: root, env, encoding: 'utf8', timeout: 120000 });
  const name = `${String(i).padStart(3, '0')}-${argv.slice(argv[0] === 'node' ? 2 : 1).join(' ').replace(/[^\w.,=-]+/g, '_')}`;
  write(path.join(out, 'cli', name), clock(paths(`$ ${argv.join(' ')}\n--- exit ${r.status}${r.signal ? ` (${r.signal})` : ''}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`)));
});

// ---- the report over the results folders
const { main } = require(path.join(root, 'report/src/cli'));
const folders = foldersFile ? fs.readFileSync(foldersFile, 'utf8').split('\n').filter(Boolean) : [];
const sets = folders.map((f, i) => [`${String(i).padStart(4, '0')}`, [f]]);
for (const [id, dirs] of sets) {
  for (const mode of [[], ['--wide'], ['--by', 'server']]) {
    const resultsDir = path.join(tmp, 'reports', id, mode.join('') || 'default');
    const text = [];
    const io = { stdout: { write: (s) => text.push(s) }, stderr: { write: (s) => text.push(`[stderr] ${s}`) } };
    let code;
    try { code = main([...mode, '--results-dir', resultsDir, ...dirs], io, NOW); } catch (e) { code = `threw ${e.stack}`; }
    const base = path.join(out, 'report', id, mode.join('') || 'default');
    write(path.join(base, 'text'), paths(`exit ${code}\n${text.join('')}`));
    const made = path.join(resultsDir, 'report');
    for (const f of fs.existsSync(made) ? fs.readdirSync(made).filter((d) => d !== 'latest') : []) {
      for (const file of ['report.json', 'index.html']) {
        const p = path.join(made, f, file);
        if (fs.existsSync(p)) write(path.join(base, file), paths(fs.readFileSync(p, 'utf8')));
      }
    }
  }
}
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`${commands.length} commands, ${sets.length} report inputs x 3 modes: ${out}`);
