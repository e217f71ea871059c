'use strict';
// A run's server.ndjson that lost lines (about half of it in the case that showed this: 34 of the
// 69 lines summary.json counts) went unmentioned: the report drew the record's gaps as if the
// server had been recorded throughout. Now it reads the file against summary.json's count and
// says "server record: N of M seconds missing" in the terminal, report.json and above that run's
// server charts. Real loader runs against the wire shim; the file is then cut as a full disk cuts it.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tmpDir } = require('./support/fixtures');
const { main } = require('../src/cli');
const { recordGap } = require('../src/record-gap');
const { openPage } = require('./support/browser');

const LOADER_TEST = path.join(__dirname, '..', '..', 'loader', 'test', 'support');

test('a server.ndjson missing lines: the report says how many of the seconds summary.json counts are missing', { timeout: 300000 }, async () => {
  const { startServer } = require(path.join(LOADER_TEST, 'server.js'));
  const { runLoader } = require(path.join(LOADER_TEST, 'loader.js'));
  const results = tmpDir();
  const server = await startServer();
  try {
    const r = await runLoader(['experiment2', '--uri', server.uri, '--engine', 'gap', '--results-dir', results, '--metrics-port', '0',
      '--preload-docs', '300', '--clients', '1', '--duration', '3s', '--warmup', '0', '--progress-interval', '1s', '--repeat', '2']);
    assert.equal(r.code, 0, r.stderr);
  } finally {
    await server.stop();
  }
  const base = path.join(results, 'experiment2', 'gap');
  const [cut, whole] = fs.readdirSync(base).filter((d) => d !== 'latest').sort().map((d) => path.join(base, d));
  const counted = JSON.parse(fs.readFileSync(path.join(cut, 'summary.json'), 'utf8')).server_record.lines;
  const lines = fs.readFileSync(path.join(cut, 'server.ndjson'), 'utf8').trimEnd().split('\n');
  assert.equal(lines.length, counted, 'the loader counts what it wrote');
  assert.ok(counted >= 3, `a record of several seconds (${counted})`);
  // keep the first half and a torn line, as a disk that filled mid-write leaves it
  const kept = Math.floor(counted / 2);
  fs.writeFileSync(path.join(cut, 'server.ndjson'), lines.slice(0, kept).join('\n') + '\n' + lines[kept].slice(0, 20));
  let out = '';
  assert.equal(main(['--results-dir', results], { stdout: { write: (s) => { out += s; } }, stderr: process.stderr }), 0);
  const said = `${cut}: server record: ${counted - kept} of ${counted} seconds missing from server.ndjson, counted in summary.json; `
    + 'this run\'s server charts in the appendix have gaps there';
  assert.ok(out.replace(/\n {4}(?=\S)/g, ' ').includes(`note: ${said}`), out);
  assert.ok(!out.includes(`${whole}: server record`), 'the whole record is not mentioned');
  const rep = JSON.parse(fs.readFileSync(path.join(results, 'report', 'latest', 'report.json'), 'utf8'));
  assert.ok(rep.notes.includes(said));
  const series = Object.fromEntries(rep.server_series.map((s) => [s.run, s]));
  assert.match(series[cut].gap, new RegExp(`^server record: ${counted - kept} of ${counted} seconds missing`));
  assert.equal(series[whole].gap, null);
  // the page: said above the cut run's server charts in the appendix, and only there
  const { page, errors, close } = await openPage(fs.realpathSync(path.join(results, 'report', 'latest', 'index.html')), results);
  try {
    const marks = await page.$$eval('#server-series p.record-gap', (ps) => ps.map((p) => [p.previousElementSibling.textContent, p.textContent]));
    assert.equal(marks.length, 1, JSON.stringify(marks));
    assert.ok(marks[0][0].endsWith(cut), marks[0][0]);
    assert.equal(marks[0][1], series[cut].gap);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('several members: each member\'s missing seconds; an absent file is all of them missing', () => {
  const rec = { members: [{ host: 'a:1', lines: 10 }, { host: 'b:1', lines: 10 }, { host: 'c:1', lines: 0 }] };
  const lines = [...Array(10)].map(() => ({ member: 'a:1' })).concat([...Array(4)].map(() => ({ member: 'b:1' })));
  assert.equal(recordGap(rec, lines).sentence, 'server record: 6 of 10 seconds missing for b:1 from server.ndjson, counted in summary.json');
  assert.equal(recordGap({ members: [{ host: 'a:1', lines: 7 }] }, []).sentence, 'server record: 7 of 7 seconds missing from server.ndjson (absent or empty), counted in summary.json');
  assert.equal(recordGap(rec, lines.concat([...Array(6)].map(() => ({ member: 'b:1' })))), null, 'whole');
  assert.equal(recordGap(null, []), null, 'no record made (--server-record off)');
});
