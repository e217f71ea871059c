'use strict';
// "Adding an engine is one file plus one row" (DEVELOPERS.md, Adding an engine), followed to the
// letter in a temporary copy of the repository: a row appended to compose/engines.tsv and
// compose/engines/<engine>.yml copied from wiredtiger.yml with other storage flags. No other file
// of the copy is edited. The real Compose v2 renders the new engine's project, and
// `./run.sh up --engine <engine> --dry-run` (stub docker on PATH, as in test/*.bats) accepts it.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const tables = require('../../common/tables');

const ROOT = path.resolve(__dirname, '..', '..');
const ENGINE = 'fake';
const IMAGE = 'registry.example/fake-mongod:8.0';
const UID = '4242';
// The overlay's one change from wiredtiger.yml: a block compressor on the data-bearing members.
const DATA_FLAGS = '--storageEngine wiredTiger --wiredTigerCacheSizeGB ${LAB_DATA_CACHE_GB:?start the lab with ./run.sh} --wiredTigerCollectionBlockCompressor zstd';

let copy;
before(() => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-new-engine-'));
  for (const p of ['run.sh', 'lib', 'compose', 'experiments', 'test/lib'].filter((f) => fs.existsSync(path.join(ROOT, f)))) fs.cpSync(path.join(ROOT, p), path.join(copy, p), { recursive: true });
  // The recipe: one row ...
  // Every column of the header: the ones that make this engine its own, the rest as wiredtiger's
  // (a row without them leaves e.g. LAB_OPLOG_MB unset and Compose refuses to render).
  const wtRow = tables.readTable('engines').find((r) => r.engine === 'wiredtiger');
  const own = { engine: ENGINE, image: IMAGE, mongod_uid: UID, description: 'a made-up engine (recipe test)' };
  const row = Object.keys(wtRow).map((col) => own[col] ?? wtRow[col]);
  fs.appendFileSync(path.join(copy, 'compose/engines.tsv'), `${row.join('\t')}\n`);
  // ... and one file, copied from an existing engine with its storage flags changed.
  const wt = fs.readFileSync(path.join(ROOT, 'compose/engines/wiredtiger.yml'), 'utf8');
  const overlay = wt.replace(/^( {2}LAB_STORAGE_ARGS: )--storageEngine wiredTiger --wiredTigerCacheSizeGB \$\{LAB_DATA_CACHE_GB[^}]*\}$/m, `$1${DATA_FLAGS}`);
  assert.notEqual(overlay, wt, 'wiredtiger.yml no longer has the data storage line this recipe changes');
  fs.writeFileSync(path.join(copy, `compose/engines/${ENGINE}.yml`), overlay);
});
after(() => fs.rmSync(copy, { recursive: true, force: true }));

function bashIn(script, env = {}) {
  const r = spawnSync('bash', ['-c', script], { cwd: copy, encoding: 'utf8', env: { ...process.env, LAB_ROOT: copy, ...env } });
  if (r.error) throw r.error;
  return r;
}

test('the new row reads through the tables like the others', () => {
  const e = tables.engine(ENGINE, copy);
  assert.ok(e, 'engine row read by common/tables.js');
  assert.equal(e.image, IMAGE);
  assert.ok(e.keeps_data && e.journal);
  const r = bashIn('source lib/common.sh; source lib/tables.sh; engine_field fake image; engine_has_fault_method fake netem && echo netem');
  assert.equal(r.stdout, `${IMAGE}\nnetem\n`, r.stderr);
});

test('the real Compose renders the new engine: its image, its overlay\'s storage flags, its own volumes', () => {
  const compose = bashIn('source test/lib/tools.sh && compose_bin', { LAB_ROOT: ROOT }).stdout.trim();
  assert.ok(compose, "Compose v2 not found: run 'bash test/install-tools.sh'");
  const script = `set -euo pipefail
    source lib/common.sh; source lib/tables.sh; source lib/stack.sh; source lib/preflight.sh
    source lib/secrets.sh; source lib/cluster.sh
    ENGINE=${ENGINE} PROFILE=laptop MONGOS_COUNT=3 MONITORING=0
    secrets_ensure 2>/dev/null
    mapfile -t profiles < <(cluster_profile_args)
    mapfile -t argv < <(compose_argv "\${profiles[@]}" config --format json)
    i=0; for w in "\${argv[@]}"; do [[ $w == docker ]] && break; i=$((i + 1)); done
    env "\${argv[@]:1:i-1}" ${JSON.stringify(compose)} "\${argv[@]:i+2}"`;
  const r = bashIn(script);
  assert.equal(r.status, 0, r.stderr);
  const model = JSON.parse(r.stdout);
  assert.equal(model.name, `lab-${ENGINE}`);
  const topo = tables.topology(copy);
  const profile = tables.readTable('profiles', copy).find((p) => p.profile === 'laptop');
  for (const m of topo) {
    const s = model.services[m.service];
    assert.ok(s, `${m.service} rendered`);
    assert.equal(s.image, IMAGE, `${m.service}: image from the new row`);
    assert.equal(String(s.user), UID, `${m.service}: the row's mongod uid`);
  }
  for (const m of topo.filter((t) => t.role === 'shard')) {
    assert.equal(model.services[m.service].environment.LAB_STORAGE_ARGS,
      DATA_FLAGS.replace(/\$\{LAB_DATA_CACHE_GB[^}]*\}/, profile.data_cache_gb), `${m.service}: the overlay's data flags`);
  }
  for (const m of topo.filter((t) => t.role === 'config')) {
    assert.match(model.services[m.service].environment.LAB_STORAGE_ARGS, /^--storageEngine wiredTiger /);
  }
  assert.match(model.services.keyfile.command.join(' '), new RegExp(`install -m 400 -o ${UID} `));
  const keys = Object.keys(model.volumes);
  assert.ok(keys.length >= topo.filter((t) => t.role !== 'router').length, `volumes: ${keys}`);
  for (const k of keys) assert.equal(model.volumes[k].name, `lab-${ENGINE}_${k}`, `volume ${k} belongs to lab-${ENGINE}`);
});

test('./run.sh up --engine fake --dry-run works with no code edit, and help lists the engine', () => {
  const log = path.join(copy, 'docker.log');
  const env = { PATH: `${path.join(ROOT, 'test/stub')}:${process.env.PATH}`, STUB_DOCKER_LOG: log, STUB_DOCKER_RULES: '/dev/null' };
  fs.writeFileSync(log, '');
  const up = bashIn(`./run.sh up --engine ${ENGINE} --dry-run --host-view host </dev/null 2>&1`, env);
  assert.equal(up.status, 0, up.stdout);
  // A command line wrapped at 120 columns (lib/common.sh print_cmd) read back as one line.
  up.stdout = up.stdout.replace(/ \\\n {4}/g, ' ');
  assert.match(up.stdout, new RegExp(`LAB_ENGINE=${ENGINE} LAB_ENGINE_IMAGE=${IMAGE} LAB_MONGOD_UID=${UID} `));
  assert.match(up.stdout, new RegExp(` -p lab-${ENGINE} -f compose/cluster.yml -f compose/engines/${ENGINE}\\.yml .* up -d$`, 'm'));
  assert.equal(fs.readFileSync(log, 'utf8'), '', 'a dry run calls no docker');
  const help = bashIn('./run.sh help 2>&1', env);
  assert.match(help.stdout, new RegExp(`^ +${ENGINE} +${IMAGE.replace(/\./g, '\\.')} +a made-up engine`, 'm'));
});
