'use strict';
// CPU placement (lib/placement.sh): the loader is kept off the members' CPUs when the Docker host
// has enough of them (the profile's data_cpus + loader_cores), and where it has not, both share
// every CPU and the lab says so. Checked on the function and on the model the real Compose v2
// renders from ./run.sh's own command line (lib/stack.sh compose_argv), for every profile.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const tables = require('../../common/tables');

const ROOT = path.resolve(__dirname, '..', '..');
const PROFILES = tables.readTable('profiles');

function bash(script, env = {}) {
  const r = spawnSync('bash', ['-c', `set -euo pipefail; source lib/common.sh; source lib/tables.sh; source lib/stack.sh; ${script}`],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LAB_ROOT: ROOT, ...env } });
  if (r.error) throw r.error;
  return r;
}

// cpus("0-2,5") -> [0, 1, 2, 5]
function cpus(list) {
  return String(list).split(',').flatMap((part) => {
    const [a, b = a] = part.split('-').map(Number);
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
}

const ceil = (x) => Math.ceil(Number(x));

test('every profile reserves loader CPUs (loader_cores >= 1)', () => {
  for (const p of PROFILES) assert.ok(Number.isInteger(Number(p.loader_cores)) && Number(p.loader_cores) >= 1, `${p.profile}: loader_cores '${p.loader_cores}'`);
});

test('cpusets are disjoint and cover the host when it has enough CPUs; shared, and said, when not', () => {
  for (const p of PROFILES) {
    const need = ceil(p.data_cpus) + Number(p.loader_cores);
    for (const host of [need, need + 3, 64]) {
      const r = bash(`PROFILE=${p.profile}; placement_resolve; echo "$PLACEMENT"; placement_env`, { LAB_HOST_CPUS: String(host) });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr, '', `${p.profile} on ${host} CPUs: nothing to warn about`);
      const env = Object.fromEntries(r.stdout.split('\n').filter((l) => l.includes('=')).map((l) => l.split('=')));
      const member = cpus(env.LAB_MEMBER_CPUSET);
      const loader = cpus(env.LAB_LOADER_CPUSET);
      assert.equal(env.LAB_CPUS_SHARED, 'no');
      assert.equal(loader.length, Number(p.loader_cores), `${p.profile} on ${host}: the loader gets loader_cores CPUs`);
      assert.ok(member.length >= ceil(p.data_cpus), `${p.profile} on ${host}: members keep at least data_cpus`);
      assert.deepEqual(member.filter((c) => loader.includes(c)), [], `${p.profile} on ${host}: disjoint`);
      assert.deepEqual([...member, ...loader].sort((a, b) => a - b), Array.from({ length: host }, (_, i) => i), 'every CPU is used');
    }
    for (const host of [1, need - 1]) {
      const r = bash(`PROFILE=${p.profile}; placement_resolve; placement_env`, { LAB_HOST_CPUS: String(host) });
      assert.equal(r.status, 0, r.stderr);
      // one warning, wrapped at 120 columns (lib/common.sh say): its lines read as one
      assert.match(r.stderr.replace(/\n {2}/g, ' '), new RegExp(`warning: the Docker host has ${host} CPU\\(s\\).*share every CPU`), `${p.profile} on ${host} CPUs is said`);
      const env = Object.fromEntries(r.stdout.split('\n').filter((l) => l.includes('=')).map((l) => l.split('=')));
      assert.equal(env.LAB_CPUS_SHARED, 'yes');
      assert.deepEqual(cpus(env.LAB_MEMBER_CPUSET), Array.from({ length: host }, (_, i) => i));
      assert.deepEqual(cpus(env.LAB_LOADER_CPUSET), cpus(env.LAB_MEMBER_CPUSET));
    }
  }
});

// The real Compose renders the members and the loader with those cpusets.
const COMPOSE = (() => {
  const r = spawnSync('bash', ['-c', 'source test/lib/tools.sh && compose_bin'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LAB_ROOT: ROOT } });
  return r.status === 0 ? r.stdout.trim() : '';
})();
let secretsRoot;
before(() => { secretsRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-secrets-')); });
after(() => { if (secretsRoot) fs.rmSync(secretsRoot, { recursive: true, force: true }); });

function render(profile, hostCpus) {
  assert.ok(COMPOSE, "Compose v2 binary not found (.tools/bin/docker-compose): run 'bash test/install-tools.sh'");
  const r = bash(`source lib/preflight.sh; source lib/secrets.sh; source lib/cluster.sh; source lib/monitoring.sh
    ENGINE=wiredtiger PROFILE=${profile} MONGOS_COUNT=1 MONITORING=0 HOST_VIEW=host SECRETS_ROOT=${JSON.stringify(secretsRoot)}
    secrets_ensure 2>/dev/null
    stack_files() { local f; for f in compose/cluster.yml compose/engines/wiredtiger.yml compose/loader.yml; do printf -- '-f\\n%s\\n' "$f"; done; }
    compose_argv --profile loader config --format json`, { LAB_HOST_CPUS: String(hostCpus) });
  assert.equal(r.status, 0, r.stderr);
  const a = r.stdout.split('\n').slice(0, -1);
  const i = a.findIndex((w, k) => w === 'docker' && a[k + 1] === 'compose');
  a.splice(i, 2, COMPOSE);
  const c = spawnSync('env', a.slice(1), { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  assert.equal(c.status, 0, c.stderr);
  return JSON.parse(c.stdout).services;
}

test('Compose: every mongod and mongos on the members\' cpuset, the loader on its own (or shared)', () => {
  for (const p of PROFILES) {
    const need = ceil(p.data_cpus) + Number(p.loader_cores);
    for (const [host, shared] of [[need + 2, 'no'], [need - 1, 'yes']]) {
      const services = render(p.profile, host);
      const mongo = Object.entries(services).filter(([, s]) => /^exec mongo[ds] /.test((s.command || []).join(' ')));
      assert.ok(mongo.length >= 7, `${p.profile}: found ${mongo.length} mongod/mongos services`);
      const memberSet = mongo[0][1].cpuset;
      for (const [name, s] of mongo) assert.equal(s.cpuset, memberSet, `${name} on the members' cpuset`);
      const loader = services.loader;
      assert.ok(loader, 'the loader service is rendered');
      assert.equal(loader.environment.LAB_CPUS_SHARED, shared);
      assert.equal(loader.environment.LAB_LOADER_CPUSET, loader.cpuset);
      assert.equal(loader.environment.LAB_MEMBER_CPUSET, memberSet);
      const overlap = cpus(loader.cpuset).filter((c) => cpus(memberSet).includes(c));
      if (shared === 'no') assert.deepEqual(overlap, [], `${p.profile} on ${host} CPUs: loader ${loader.cpuset} apart from members ${memberSet}`);
      else assert.equal(loader.cpuset, memberSet, `${p.profile} on ${host} CPUs: shared`);
    }
  }
});

// The CPUs the members share with the loader are the Docker host's: on macOS that is Docker
// Desktop's VM (`docker info`), not the Mac (bash sets OSTYPE, darwin* there, only when the
// environment has none, so the Mac's branch runs here under OSTYPE=darwin23). A docker that does
// not answer, or a dry run (which asks Docker nothing), falls back to this machine's count.
test('the host\'s CPUs: on macOS the Docker Desktop VM\'s (docker info), never asked on Linux or in a dry run', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-placement-'));
  try {
    const asked = path.join(dir, 'asked');
    // a docker CLI that records what it is asked and answers the VM's CPU count (DOCKER_NCPU)
    fs.writeFileSync(path.join(dir, 'docker'), `#!/bin/sh\necho "$*" >>'${asked}'\n[ "$*" = "info --format {{.NCPU}}" ] || exit 1\n[ -n "$DOCKER_NCPU" ] || exit 1\necho "$DOCKER_NCPU"\n`, { mode: 0o755 });
    const here = Number(spawnSync('getconf', ['_NPROCESSORS_ONLN'], { encoding: 'utf8' }).stdout.trim());
    const hostCpus = (env) => {
      fs.rmSync(asked, { force: true });
      const r = bash('source lib/placement.sh; placement_host_cpus', { PATH: `${dir}:${process.env.PATH}`, LAB_HOST_CPUS: '', DRY_RUN: '0', ...env });
      assert.equal(r.status, 0, r.stderr);
      return { cpus: Number(r.stdout.trim()), asked: fs.existsSync(asked) ? fs.readFileSync(asked, 'utf8').trim().split('\n') : [] };
    };
    assert.deepEqual(hostCpus({ OSTYPE: 'darwin23', DOCKER_NCPU: String(here + 5) }), { cpus: here + 5, asked: ['info --format {{.NCPU}}'] });
    assert.deepEqual(hostCpus({ OSTYPE: 'darwin23', DOCKER_NCPU: '' }), { cpus: here, asked: ['info --format {{.NCPU}}'] }, 'Docker not answering: this machine\'s count');
    assert.deepEqual(hostCpus({ OSTYPE: 'darwin23', DOCKER_NCPU: '7', DRY_RUN: '1' }), { cpus: here, asked: [] }, 'a dry run asks Docker nothing');
    assert.deepEqual(hostCpus({ OSTYPE: 'linux-gnu', DOCKER_NCPU: '7' }), { cpus: here, asked: [] }, 'Linux: the host is this machine');
    assert.deepEqual(hostCpus({ OSTYPE: 'darwin23', DOCKER_NCPU: '7', LAB_HOST_CPUS: '3' }), { cpus: 3, asked: [] }, 'LAB_HOST_CPUS wins');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
