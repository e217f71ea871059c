'use strict';
// --journal-path PATH rendered by the real Compose v2: with the flag, every shard
// member of compose/topology.tsv mounts PATH/<member> at /data/db/<the engine row's journal_dir>
// and waits for the one-shot journal-dirs, which makes those folders (and MongoRocks' db/ in the
// data volume) the mongod uid's; config servers keep their journal; without the flag, nothing of
// it. The command line is lib/stack.sh's compose_argv, exactly what ./run.sh runs.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const tables = require('../../common/tables');

const ROOT = path.resolve(__dirname, '..', '..');
const SHARD = tables.topology().filter((m) => m.role === 'shard').map((m) => m.service);
const CFG = tables.topology().filter((m) => m.role === 'config').map((m) => m.service);
const JOURNALED = tables.readTable('engines').filter((e) => e.journal_dir !== '-');
let secretsRoot;
before(() => { secretsRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-journal-path-')); });
after(() => fs.rmSync(secretsRoot, { recursive: true, force: true }));

// render(engine, journalPath) -> the model `docker compose config` prints for ./run.sh's files.
function render(engine, journalPath) {
  const script = `
    set -euo pipefail
    source lib/common.sh; source lib/tables.sh; source lib/stack.sh; source lib/preflight.sh
    source lib/secrets.sh; source lib/cluster.sh; source lib/monitoring.sh; source test/lib/tools.sh
    ENGINE=${engine} PROFILE=seed2013 MONGOS_COUNT=1 MONITORING=0 HOST_VIEW=host JOURNAL_PATH=${journalPath}
    SECRETS_ROOT=${JSON.stringify(secretsRoot)}
    secrets_ensure 2>/dev/null
    compose_bin
    compose_argv config --format json`;
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, LAB_ROOT: ROOT };
  const r = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  const [bin, ...a] = r.stdout.split('\n').slice(0, -1);
  assert.ok(bin, 'no Compose v2 binary (.tools/bin/docker-compose): run bash test/install-tools.sh');
  const i = a.findIndex((w, k) => w === 'docker' && a[k + 1] === 'compose');
  a.splice(i, 2, bin);
  assert.equal(a[0], 'env');
  const c = spawnSync('env', a.slice(1), { cwd: ROOT, encoding: 'utf8', env });
  assert.equal(c.status, 0, c.stderr);
  return JSON.parse(c.stdout);
}

const journalMounts = (svc) => (svc.volumes || []).filter((v) => /journal/.test(v.target));

for (const e of JOURNALED) {
  test(`${e.engine}: each shard member's journal (${e.journal_dir}) on its own host path, after journal-dirs`, () => {
    const { services } = render(e.engine, '/mnt/disk2');
    for (const m of SHARD) {
      assert.deepEqual(journalMounts(services[m]).map((v) => [v.type, v.source, v.target]), [['bind', `/mnt/disk2/${m}`, `/data/db/${e.journal_dir}`]], m);
      assert.equal(services[m].depends_on['journal-dirs'].condition, 'service_completed_successfully', m);
      // the data volume stays where it was
      assert.ok(services[m].volumes.some((v) => v.type === 'volume' && v.target === '/data/db'), m);
    }
    for (const m of CFG) assert.deepEqual(journalMounts(services[m]), [], m);
    const j = services['journal-dirs'];
    assert.equal(j.user, '0:0');
    assert.match(j.command.join(' '), new RegExp(`chown ${e.mongod_uid} `));
    assert.match(j.command.join(' '), new RegExp(`for m in ${SHARD.join(' ')};`));
    assert.deepEqual(j.volumes.map((v) => v.target).sort(), ['/lab-journal', ...SHARD.map((m) => `/lab-data/${m}`)].sort());
    assert.equal(j.volumes.find((v) => v.target === '/lab-journal').source, '/mnt/disk2');
  });
}

test('without --journal-path: no journal-dirs, no journal mount', () => {
  const { services } = render('wiredtiger', '');
  assert.equal(services['journal-dirs'], undefined);
  for (const m of SHARD) {
    assert.deepEqual(journalMounts(services[m]), [], m);
    assert.equal(services[m].depends_on['journal-dirs'], undefined, m);
  }
});
