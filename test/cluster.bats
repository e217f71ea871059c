#!/usr/bin/env bats
# run.sh cluster verbs with the stub docker: the exact `docker compose` command lines each verb
# runs, and what it tells the user. (Bad input: test/bad-input.bats.)

# Each bats test runs in a subshell; the helpers below read the $output of the test that calls them.
# shellcheck disable=SC2030,SC2031

load test_helper

setup() { setup_lab; }

port_27017_free() {
  if (exec 3<>/dev/tcp/127.0.0.1/27017) 2>/dev/null; then
    fail "port 27017 is in use on this machine; the up tests need it free (they run the real port check)"
  fi
}

@test "up: checks docker, compose v2, the daemon and other stacks, then starts the engine's project" {
  port_27017_free
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  lab up
  assert_success
  assert_called "compose version --short"
  assert_called "info --format *"
  assert_called "ps --filter label=com.docker.compose.project *"
  assert_called "$(compose_prefix wiredtiger)* up -d"
  assert_called "$(compose_prefix wiredtiger)* exec -T mongos mongosh --nodb --quiet --norc /lab/init/status.js"
  assert_output --partial "The wiredtiger cluster is up (project lab-wiredtiger, profile laptop, 1 mongos)"
  assert_output --partial "mongodb://root@127.0.0.1:27017/?authSource=admin"
}

@test "up: generates the engine's secrets once (folder 700, files 0644, keyfile of 1008 key characters)" {
  port_27017_free
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  lab up --engine inmemory
  assert_success
  local dir=$LAB/.secrets/inmemory f
  [[ $(stat -c %a "$dir") == 700 ]]
  for f in keyfile root-password exporter-password grafana-admin-password; do
    [[ -s $dir/$f ]] || fail "$f missing"
    [[ $(stat -c %a "$dir/$f") == 644 ]] || fail "$f mode $(stat -c %a "$dir/$f")"
  done
  [[ $(tr -d '[:space:]' <"$dir/keyfile" | wc -c) == 1008 ]]
  if tr -d '[:space:]' <"$dir/keyfile" | grep -q '[^A-Za-z0-9+/]'; then fail "keyfile has characters outside base64"; fi
  [[ $(wc -c <"$dir/keyfile") -le 1024 ]]
  [[ $(tr -d '\n' <"$dir/root-password" | wc -c) == 32 ]]
  local before
  before=$(cat "$dir"/*)
  lab up --engine inmemory
  assert_success
  [[ $(cat "$dir"/*) == "$before" ]] || fail "a second up changed the secrets"
  # No secret value on any docker command line.
  for f in "$dir"/*; do
    if grep -qF "$(head -1 "$f")" "$STUB_DOCKER_LOG"; then fail "$f leaked into a docker call"; fi
  done
}

@test "up: --mongos 3 enables the mongos2 and mongos3 profiles" {
  port_27017_free
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  lab up --mongos 3
  assert_success
  assert_called "$(compose_prefix wiredtiger)* --profile mongos2 --profile mongos3 up -d"
}

@test "up twice is a no-op: nothing is started when every service is up" {
  all_up_rules
  lab up
  assert_success
  assert_output --partial "already up; nothing to do"
  refute_called "* up -d*"
  assert_called "$(compose_prefix wiredtiger)* exec -T mongos mongosh --nodb --quiet --norc /lab/init/status.js"
}

@test "up on a partly running stack (one member stopped) starts it again and re-runs init" {
  local ps='keyfile|exited||0\ncfg1|running|healthy|0\ncfg2|running|healthy|0\ncfg3|running|healthy|0'
  ps+='\nshard01-a|running|healthy|0\nshard01-b|exited||137\nshard01-c|running|healthy|0\nmongos|running|healthy|0'
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}}" 0 "$ps"
  lab up
  assert_success
  refute_output --partial "already up"
  # recreates nothing that exists (a fault's changed members would all be recreated at once)
  assert_called "$(compose_prefix wiredtiger)* up -d --no-recreate"
  assert_output --partial "The wiredtiger stack is partly up: starting the services that are not, without recreating the running ones"
}

@test "service_up: a running member whose health is not judged yet (starting) is up, an unhealthy one is not" {
  # Engine 20.10 takes no start_interval: mongos is first checked 10 s after it starts, and init
  # can finish before that; `up` and an experiment must not call the stack partly up then.
  up() { (LAB_ROOT=$LAB; source "$LAB/lib/common.sh"; source "$LAB/lib/cluster.sh"; service_up "$1" "$2"); }
  local ps=$'keyfile|exited||0\nshard01-b|exited||137\ncfg1|running|healthy|0\nmongos|running|starting|0\ncfg2|running|unhealthy|0\ninit|running||0'
  up "$ps" mongos || fail "running, health starting: not up"
  up "$ps" cfg1 || fail "running and healthy: not up"
  up "$ps" keyfile || fail "a one-shot that exited 0: not up"
  up "$ps" init || fail "running with no healthcheck: not up"
  ! up "$ps" cfg2 || fail "unhealthy: up"
  ! up "$ps" shard01-b || fail "exited 137: up"
  ! up "$ps" shard01-a || fail "absent: up"
}

@test "service_up: a long-running service that exited 0 is not up; only the one-shots count exited 0 as done" {
  # mongod exits 0 on the SIGTERM of `docker stop`, a Docker restart or a host reboot
  up() { (LAB_ROOT=$LAB; source "$LAB/lib/common.sh"; source "$LAB/lib/cluster.sh"; service_up "$1" "$2"); }
  local ps=$'keyfile|exited||0\ninit|exited||0\njournal-dirs|exited||0\ncfg1|exited||0\nmongos|exited||0\nprometheus|exited||0'
  ! up "$ps" cfg1 || fail "a member that exited 0 (stopped): up"
  ! up "$ps" mongos || fail "a router that exited 0 (stopped): up"
  ! up "$ps" prometheus || fail "another part's service that exited 0 (stopped): up"
  up "$ps" keyfile || fail "keyfile, a one-shot that exited 0: not up"
  up "$ps" init || fail "init, a one-shot that exited 0: not up"
  up "$ps" journal-dirs || fail "journal-dirs, a one-shot that exited 0: not up"
}

@test "up after a Docker restart (every container exited 0): starts the stack, never 'already up'" {
  port_27017_free
  local ps='keyfile|exited||0\ncfg1|exited||0\ncfg2|exited||0\ncfg3|exited||0'
  ps+='\nshard01-a|exited||0\nshard01-b|exited||0\nshard01-c|exited||0\nmongos|exited||0\ninit|exited||0'
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}}" 0 "$ps"
  rule "compose * config --services" 0 'keyfile\ncfg1\ncfg2\ncfg3\nshard01-a\nshard01-b\nshard01-c\nmongos\ninit'
  lab up --no-monitoring
  assert_success
  refute_output --partial "already up"
  assert_called "$(compose_prefix wiredtiger)* up -d"
}

@test "up after 'docker stop' of one member (exited 0): starts it without recreating the others" {
  local ps='keyfile|exited||0\ncfg1|running|healthy|0\ncfg2|running|healthy|0\ncfg3|running|healthy|0'
  ps+='\nshard01-a|running|healthy|0\nshard01-b|exited||0\nshard01-c|running|healthy|0\nmongos|running|healthy|0\ninit|exited||0'
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}}" 0 "$ps"
  rule "compose * config --services" 0 'keyfile\ncfg1\ncfg2\ncfg3\nshard01-a\nshard01-b\nshard01-c\nmongos\ninit'
  lab up
  assert_success
  refute_output --partial "already up"
  assert_called "$(compose_prefix wiredtiger)* up -d --no-recreate"
}

@test "kept shard arguments (.state/ENGINE/shard-extra-args, a fault's): every compose line carries them; destroy and down of a no-data engine forget them, down of a data engine keeps them" {
  local e
  for e in wiredtiger inmemory; do mkdir -p "$LAB/.state/$e" && echo "--oplogSize 16" >"$LAB/.state/$e/shard-extra-args"; done
  lab up --dry-run
  assert_success
  assert_output --partial " LAB_SHARD_EXTRA_ARGS=--oplogSize\\ 16 docker compose "
  lab down
  assert_success
  [ -f "$LAB/.state/wiredtiger/shard-extra-args" ]
  lab destroy --yes
  assert_success
  [ ! -e "$LAB/.state/wiredtiger/shard-extra-args" ]
  rule "compose * config --volumes" 0 'shard01-a-data'
  lab down --engine inmemory
  assert_success
  [ ! -e "$LAB/.state/inmemory/shard-extra-args" ]
}

@test "up: a member that never became healthy is named with its last healthcheck, and an exited one with its last log line" {
  port_27017_free
  rule "compose * up -d" 1 "dependency failed to start: container lab-wiredtiger-shard01-b-1 is unhealthy"
  rule "ps -aq --filter label=com.docker.compose.project=lab-wiredtiger" 0 'a1\nb2\nc3\nd4'
  local sep=$'\x1e'
  rule "inspect --format * a1 b2 c3 d4" 0 "cfg1|running|0|healthy|0 \"\"$sep\nshard01-b|running|0|unhealthy|0 \"\"${sep}-1 \"Health check exceeded timeout (10s)\"$sep\nshard01-c|exited|14|\nkeyfile|exited|0|"
  rule "compose * logs --no-color --no-log-prefix --tail 1 shard01-c" 0 "mongod: the image is broken"
  lab up --no-monitoring
  assert_failure 1
  assert_output --partial "error: docker compose up failed (see above)"
  assert_output --partial "The members and routers that are not healthy, and why:"
  assert_output --partial "  shard01-b: unhealthy; its last healthcheck (exit -1): \"Health check exceeded timeout (10s)\""
  assert_output --partial "  shard01-c: exited (exit code 14); its last log line: mongod: the image is broken"
  refute_output --partial "  cfg1:"
  refute_output --partial "  keyfile:"
}

@test "up: an init failure says what is running and how to clean up, exit 1" {
  port_27017_free
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||1"
  lab up
  assert_failure 1
  assert_output --partial "error: the init service did not complete"
  assert_output --partial "What is running now (project lab-wiredtiger)"
  assert_output --partial "./run.sh down --engine wiredtiger (keeps data)"
  assert_called "$(compose_prefix wiredtiger)* logs --no-color --tail 40 init"
}

@test "up interrupted with Ctrl-C while waiting for init: says what is running, exit 130" {
  port_27017_free
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|running||0"
  # job control, so that the background run.sh does not start with SIGINT ignored; env
  # --default-signal for a bats that itself started so (a shell cannot undo an ignored SIGINT)
  set -m
  env --default-signal=INT "$LAB/run.sh" up </dev/null >"$BATS_TEST_TMPDIR/out" 2>&1 &
  local pid=$! i rc=0
  for ((i = 0; i < 100; i++)); do grep -q ' up -d$' "$STUB_DOCKER_LOG" && break; sleep 0.1; done
  kill -INT "$pid"
  wait "$pid" || rc=$?
  set +m
  run cat "$BATS_TEST_TMPDIR/out"
  [[ $rc == 130 ]] || fail "exit $rc, want 130"
  assert_output --partial "error: interrupted"
  assert_output --partial "What is running now (project lab-wiredtiger)"
  assert_output --partial "Clean up: ./run.sh down --engine wiredtiger"
}

@test "up: a failed docker compose up says what is running and how to clean up, exit 1" {
  port_27017_free
  rule "compose * up -d" 1
  lab up --engine inmemory
  assert_failure 1
  assert_output --partial "error: docker compose up failed"
  assert_output --partial "Clean up: ./run.sh down --engine inmemory"
}

@test "up --dry-run prints the exact command with the profile's values and runs nothing" {
  lab up --dry-run --profile seed2013 --mongos 2 --engine inmemory
  assert_success
  assert_output --partial "+ env LAB_ENGINE=inmemory LAB_ENGINE_IMAGE=percona/percona-server-mongodb:8.0 LAB_MONGOD_UID=1001 LAB_PROFILE=seed2013 LAB_DATA_MEM=2g LAB_DATA_CPUS=4 LAB_DATA_CACHE_GB=1 "
  assert_output --partial " docker compose --project-directory $LAB -p lab-inmemory -f compose/cluster.yml -f compose/engines/inmemory.yml "
  assert_output --partial " --profile mongos2 up -d"
  assert_output --partial "would generate in .secrets/inmemory/"
  [[ ! -s $STUB_DOCKER_LOG ]] || fail "dry run called docker: $(calls)"
  [[ ! -e $LAB/.secrets ]] || fail "dry run wrote secrets"
}

@test "down keeps the volumes of an engine that keeps data" {
  lab down
  assert_success
  assert_called "$(compose_prefix wiredtiger)* --profile \* down --remove-orphans"
  refute_called "* --volumes*"
  assert_output --partial "data kept in the lab-wiredtiger_* volumes"
}

# The cluster's volume keys as the real Compose renders them without compose/monitoring.yml, and
# the project's volumes as `docker volume ls` lists them with their com.docker.compose.volume label.
inmemory_volume_rules() {
  rule "compose * config --volumes" 0 'shard01-b-data\nkeyfile\ncfg3-data\nshard01-c-data\ncfg1-data\ncfg2-data\nshard01-a-data'
  rule "volume ls --filter label=com.docker.compose.project=lab-inmemory *" 0 \
    'prometheus-data|lab-inmemory_prometheus-data\ngrafana-data|lab-inmemory_grafana-data\nkeyfile|lab-inmemory_keyfile\ncfg1-data|lab-inmemory_cfg1-data\ncfg2-data|lab-inmemory_cfg2-data\ncfg3-data|lab-inmemory_cfg3-data\nshard01-a-data|lab-inmemory_shard01-a-data\nshard01-b-data|lab-inmemory_shard01-b-data\nshard01-c-data|lab-inmemory_shard01-c-data'
}

@test "down of the inmemory engine removes the cluster's volumes, not Prometheus's or Grafana's, and says why" {
  inmemory_volume_rules
  lab down --engine inmemory
  assert_success
  assert_called "$(compose_prefix inmemory)* --profile \* down --remove-orphans"
  refute_called "* --volumes --remove-orphans"
  # the keys come from the project rendered without compose/monitoring.yml
  assert_called "$(compose_prefix inmemory) --profile \* config --volumes"
  refute_called "*compose/monitoring.yml* config --volumes"
  assert_called "volume rm lab-inmemory_keyfile lab-inmemory_cfg1-data lab-inmemory_cfg2-data lab-inmemory_cfg3-data lab-inmemory_shard01-a-data lab-inmemory_shard01-b-data lab-inmemory_shard01-c-data"
  refute_called "volume rm *prometheus*"
  refute_called "volume rm *grafana*"
  [[ $(grep -n ' down --remove-orphans' "$STUB_DOCKER_LOG" | cut -d: -f1) -lt $(grep -n '^volume rm' "$STUB_DOCKER_LOG" | cut -d: -f1) ]] ||
    fail "volumes removed before the containers were"
  assert_output --partial "keeps no data across a restart"
  assert_output --partial "Prometheus and Grafana keep their history"
}

@test "down of the inmemory engine: no volumes yet is fine; unreadable config is exit 1 naming the fix" {
  rule "compose * config --volumes" 0 'keyfile\ncfg1-data'
  lab down --engine inmemory
  assert_success
  refute_called "volume rm*"
  : >"$STUB_DOCKER_RULES"
  rule "compose * config --volumes" 1 ''
  lab down --engine inmemory
  assert_failure 1
  assert_output --partial "error: cannot list the cluster's volumes"
}

@test "down --dry-run of the inmemory engine prints the volume removal and removes nothing" {
  inmemory_volume_rules
  lab down --dry-run --engine inmemory
  assert_success
  assert_output --partial " down --remove-orphans"
  # the volumes the stack files declare, read from the files: a dry run runs no docker at all
  assert_output --regexp "\+ docker volume rm .*lab-inmemory_keyfile .*lab-inmemory_shard01-b-data "
  refute_output --partial "prometheus-data"
  [[ ! -s $STUB_DOCKER_LOG ]] || fail "docker was called: $(calls)"
}

@test "down --dry-run runs nothing" {
  lab down --dry-run
  assert_success
  assert_output --partial "+ env LAB_ENGINE=wiredtiger"
  assert_output --partial " down --remove-orphans"
  [[ ! -s $STUB_DOCKER_LOG ]]
}

@test "destroy --yes removes only this engine's project and volumes" {
  lab destroy --yes --engine inmemory
  assert_success
  assert_called "$(compose_prefix inmemory)* --profile \* down --volumes --remove-orphans"
  refute_called "*lab-wiredtiger*"
  assert_output --partial "Secrets stay in .secrets/inmemory/"
}

@test "destroy without --yes and without a terminal refuses (exit 2) and removes nothing" {
  lab destroy
  assert_failure 2
  assert_output --partial "needs confirmation: re-run with --yes"
  refute_called "* down *"
}

@test "destroy on a terminal asks y/N: no keeps everything, yes removes the volumes" {
  command -v script >/dev/null || fail "util-linux 'script' is needed to give run.sh a terminal"
  run script -qec "$LAB/run.sh destroy" /dev/null <<<"n"
  assert_success
  assert_output --partial "Remove the wiredtiger cluster and all its data (volumes lab-wiredtiger_*)? [y/N]"
  assert_output --partial "Nothing removed."
  refute_called "* down *"
  run script -qec "$LAB/run.sh destroy" /dev/null <<<"y"
  assert_success
  assert_called "$(compose_prefix wiredtiger)* --profile \* down --volumes --remove-orphans"
}

@test "destroy --dry-run prints the command without asking and runs nothing" {
  lab destroy --dry-run
  assert_success
  assert_output --partial " down --volumes --remove-orphans"
  [[ ! -s $STUB_DOCKER_LOG ]]
}

@test "status runs the status script in mongos, with the password read inside the container" {
  all_up_rules
  rule "compose * exec -T mongos mongosh *status.js" 0 'shard01\n  shard01-a:27017   PRIMARY\nsummary engine=wiredTiger shards=shard01 cfgrs=cfg1:27017 shard01=shard01-a:27017'
  lab status
  assert_success
  assert_called "$(compose_prefix wiredtiger)* --profile \* ps --format *"
  assert_called "$(compose_prefix wiredtiger)* exec -T mongos mongosh --nodb --quiet --norc /lab/init/status.js"
  assert_output --partial "summary engine=wiredTiger shards=shard01"
}

@test "status of a stack that is not running: exit 1 naming the fix" {
  lab status --engine inmemory
  assert_failure 1
  assert_output --partial "the inmemory stack (lab-inmemory) is not running: start it with './run.sh up --engine inmemory'"
  refute_called "* exec *"
}

@test "status --dry-run prints the exec and runs nothing" {
  lab status --dry-run
  assert_success
  assert_output --partial " exec -T mongos mongosh --nodb --quiet --norc /lab/init/status.js"
  [[ ! -s $STUB_DOCKER_LOG ]]
}

@test "logs follows the whole stack, or one validated service" {
  all_up_rules
  lab logs
  assert_success
  assert_called "$(compose_prefix wiredtiger)* --profile \* logs --follow --tail 200"
  lab logs shard01-b
  assert_success
  assert_called "$(compose_prefix wiredtiger)* --profile \* logs --follow --tail 200 shard01-b"
}

@test "shell opens mongosh in mongos by default, or in a named member" {
  lab shell
  assert_success
  assert_called "$(compose_prefix wiredtiger)* exec -T mongos mongosh --nodb --quiet --shell /lab/init/shell.js"
  lab shell cfg2 --engine inmemory
  assert_success
  assert_called "$(compose_prefix inmemory)* exec -T cfg2 mongosh --nodb --quiet --shell /lab/init/shell.js"
}

@test "status and shell on an old server line use the image's legacy mongo shell (engines table, shell)" {
  local e
  for e in mmapv1 rocksdb; do
    lab status --engine "$e" --dry-run
    assert_success
    assert_output --partial "-p lab-$e -f compose/cluster.yml -f compose/engines/$e.yml"
    assert_output --partial " exec -T mongos mongo --nodb --quiet --norc /lab/init/status.js"
    refute_output --partial "mongosh"
    lab shell shard01-b --engine "$e"
    assert_success
    assert_called "$(compose_prefix "$e")* exec -T shard01-b mongo --nodb --quiet --shell /lab/init/shell.js"
  done
  lab shell --engine percona-wt
  assert_success
  assert_called "$(compose_prefix percona-wt)* exec -T mongos mongosh --nodb --quiet --shell /lab/init/shell.js"
  lab shell prometheus --engine mmapv1
  assert_failure 2
  assert_output --partial "shell opens mongo in a mongod or mongos service, not 'prometheus'"
}

@test "up --dry-run per new engine: its image, uid, shell and (rocksdb) whole-GB cache reach Compose" {
  lab up --engine mmapv1 --dry-run
  assert_success
  assert_output --partial "LAB_ENGINE=mmapv1 LAB_ENGINE_IMAGE=mongo:4.0 LAB_MONGOD_UID=999 "
  assert_output --partial " LAB_SHELL=mongo "
  # rocksdb does not fit the laptop profile (its 0.5 GB cache rounds up to a whole 1 GB: the
  # refusal's "cache 1024 MB", test below), so its values are checked on seed2013
  lab up --engine rocksdb --profile seed2013 --dry-run
  assert_success
  assert_output --partial "LAB_ENGINE=rocksdb LAB_ENGINE_IMAGE=percona/percona-server-mongodb:3.6 LAB_MONGOD_UID=1001 "
  assert_output --partial " LAB_DATA_CACHE_GB=1 "
  assert_output --partial " LAB_SHELL=mongo LAB_DATA_CACHE_GB_WHOLE=1 "
  lab up --engine percona-wt --profile seed2013 --dry-run
  assert_success
  assert_output --partial "LAB_ENGINE=percona-wt LAB_ENGINE_IMAGE=percona/percona-server-mongodb:8.0 LAB_MONGOD_UID=1001 "
  assert_output --partial " LAB_SHELL=mongosh LAB_DATA_CACHE_GB_WHOLE=1 "
  assert_output --partial "-f compose/engines/percona-wt.yml"
}

@test "up of an engine whose shard member does not fit the profile's memory: one line naming the profile that fits, exit 2, nothing started" {
  lab up --dry-run --engine rocksdb
  assert_failure 2
  assert_line "error: profile 'laptop' gives each shard member 1536m and rocksdb needs 1792 MB there (cache 1024 MB, beyond the cache 256 MB, mongod 512 MB): use --profile seed2013"
  nothing_started
  lab up --dry-run --engine rocksdb --profile seed2013
  assert_success
  assert_output --partial "-p lab-rocksdb -f compose/cluster.yml -f compose/engines/rocksdb.yml"
  # every other engine fits the laptop profile
  local e
  for e in wiredtiger inmemory percona-wt mmapv1; do
    lab up --dry-run --engine "$e"
    assert_success
  done
}

@test "up of an amd64-only engine on an arm64 Docker host says its numbers run under emulation; native and multi-arch engines say nothing" {
  port_27017_free
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  rule "info --format {{.Architecture}}" 0 "aarch64"
  lab up --engine rocksdb --profile seed2013
  assert_success
  assert_line "warning: the rocksdb image (percona/percona-server-mongodb:3.6) is built for linux/amd64 only and this Docker host is linux/arm64: its members run under emulation, so its numbers are not the engine's on this host's CPU (the results record it: summary.json storage.emulated)"
  assert_called "$(compose_prefix rocksdb)* up -d"
  lab up --engine mmapv1
  assert_success
  refute_output --partial "emulation"
  : >"$STUB_DOCKER_RULES"
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  rule "info --format {{.Architecture}}" 0 "x86_64"
  lab up --engine rocksdb --profile seed2013
  assert_success
  refute_output --partial "emulation"
}

@test "smoke --dry-run walks every engine: up, status, write/read, destroy" {
  lab smoke --dry-run
  assert_success
  local e engines
  engines=$(awk -F'\t' '!/^#/ && n++ { print $1 }' "$LAB/compose/engines.tsv")
  [[ $(wc -l <<<"$engines") -ge 5 ]]
  # rocksdb's shard member (1 GB cache, 256 MB memtables, mongod) does not fit the laptop profile:
  # skipped, naming the profile that fits (lib/stack.sh stack_memory_check), never started
  assert_line --partial " - rocksdb: up # SKIP error: profile 'laptop' gives each shard member 1536m and rocksdb needs 1792 MB there (cache 1024 MB, beyond the cache 256 MB, mongod 512 MB): use --profile seed2013"
  refute_output --partial "-p lab-rocksdb "
  local shell
  while IFS=$'\t' read -r e shell; do
    [[ $e != rocksdb ]] || continue
    # the write/read check runs in the engine's own shell (engines.tsv shell)
    assert_line --regexp "-p lab-$e .* exec -T mongos $shell --nodb --quiet --norc /lab/init/smoke\.js$"
    assert_output --partial "# engine $e"
    assert_output --partial "-p lab-$e -f compose/cluster.yml -f compose/engines/$e.yml"
    assert_line --regexp "^ok [0-9]+ - $e: up$"
    assert_line --regexp "^ok [0-9]+ - $e: status \(dry run\)$"
    assert_line --regexp "^ok [0-9]+ - $e: destroy$"
  done < <(engine_columns "$LAB/compose/engines.tsv" engine shell)
  assert_output --partial "/lab/init/smoke.js"
  assert_output --partial "smoke: all"
  assert_tap_numbering
  [[ ! -s $STUB_DOCKER_LOG ]]
}

@test "smoke --faults --dry-run: each step's commands once, every line within 120 columns, at most 450 commands and lines, no sleep" {
  # the real fault plans: the loader beside run.sh (lab-fault.js check and run --dry-run)
  ln -s "$REPO/loader" "$LAB/loader"
  # a dry run never sleeps or polls: a sleep on PATH that records its calls
  mkdir -p "$BATS_TEST_TMPDIR/bin"
  printf '#!/bin/sh\necho "sleep $*" >>"%s"\n' "$BATS_TEST_TMPDIR/slept" >"$BATS_TEST_TMPDIR/bin/sleep"
  chmod +x "$BATS_TEST_TMPDIR/bin/sleep"
  PATH="$BATS_TEST_TMPDIR/bin:$PATH" LAB_WRAP='' run "$LAB/run.sh" smoke --faults --dry-run </dev/null
  assert_success
  assert_tap_numbering
  [[ ! -e $BATS_TEST_TMPDIR/slept ]] || fail "the dry run slept: $(cat "$BATS_TEST_TMPDIR/slept")"
  local wide n plans faults e first
  wide=$(awk 'length($0) > 120' <<<"$output")
  [[ -z $wide ]] || fail "over 120 columns:"$'\n'"$wide"
  # Budget: what a user reads to know what smoke --faults does: the first engine's steps with every
  # docker command exactly, then one line per check of each other engine. It printed 1,376 lines
  # (every step of every engine, the stack's up again inside each step) in 76 s. Counted in
  # commands and lines, a wrapped command once: its wrapped lines grow with the checkout's path,
  # which every command names (766 lines from a 33-character path, 803 from one of 50; 404 either
  # way counted so).
  n=$(awk '!/\\$/ { n++ } END { print n }' <<<"$output")
  ((n <= 450)) || fail "$n commands and lines (budget 450)"
  # each fault scenario's plan once: as many plans as distinct fault checks, all the first engine's
  first=$(awk -F'\t' '!/^#/ && n++ { print $1; exit }' "$LAB/compose/engines.tsv")
  faults=$(grep -E "^ok [0-9]+ - [a-z0-9-]+: (fault|resync) " <<<"$output" | sed -E 's/^ok [0-9]+ - [a-z0-9-]+: //' | sort -u | wc -l)
  plans=$(grep -c '^#   plan:$' <<<"$output")
  ((faults >= 5 && plans == faults)) || fail "$plans plans for $faults distinct fault checks"
  [[ $(grep -c '^#   plan:$' <<<"$(sed -n "/^# engine $first /,/^# engine /p" <<<"$output")") -eq $faults ]] ||
    fail "the plans are not all under the first engine, $first"
  # the failpoint's member restarts: the two commands once, the others named
  assert_output --regexp "#   dry run: the same two commands for each of: shard01-b shard01-c \(one member at a time, x 3 members\)"
  [[ $(grep -c "up -d --no-deps --wait" <<<"$output") -eq 1 ]] || fail "a member's restart printed more than once"
  # every other engine still lists its checks, and says whose commands it runs
  local others
  mapfile -t others < <(awk -F'\t' '!/^#/ && n++ { print $1 }' "$LAB/compose/engines.tsv" | grep -vx "$first" | grep -vx rocksdb)
  ((${#others[@]} >= 3)) || fail "fewer engines than the table has: ${others[*]}"
  for e in "${others[@]}"; do
    assert_line --regexp "^ok [0-9]+ - $e: fault heal$"
    assert_output --partial "#   dry run: each step runs the commands printed for $first above, on the $e stack (lab-$e);"
  done
}

# ---- the smoke framework (lib/smoke.sh) with the other parts' hooks replaced ----------------------
# smoke_wrapper HOOKS: $LAB/smoke.sh is run.sh with the functions in HOOKS (bash source text)
# defined after lib/, so these tests pin lib/smoke.sh alone; the stub answers the cluster's probes.
smoke_wrapper() {
  printf '%s\n' "$1" >"$LAB/hooks.bash"
  cat >"$LAB/smoke.sh" <<'WRAP'
#!/usr/bin/env bash
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/run.sh"
source "$(dirname "${BASH_SOURCE[0]}")/hooks.bash"
main "$@"
WRAP
  chmod +x "$LAB/smoke.sh"
  all_up_rules
  # every engine of the table answers in its own shell with the engine its server reports
  local engine shell reported
  while IFS=$'\t' read -r engine reported shell; do
    rule "compose * -p lab-$engine * exec -T mongos $shell *status.js" 0 "summary engine=$reported shards=shard01 cfgrs=cfg1:27017 shard01=shard01-a:27017"
    rule "compose * -p lab-$engine * exec -T mongos $shell *smoke.js" 0 'smoke write-read ok smoke-1'
  done < <(engine_columns "$LAB/compose/engines.tsv" engine server_engine shell)
}

# assert_tap_numbering: the TAP lines of $output are numbered 1, 2, 3... in the order printed, and
# the plan "1..N" (printed last) matches their count.
assert_tap_numbering() {
  local line n=0 plan=""
  while IFS= read -r line; do
    if [[ $line =~ ^(not )?ok\ ([0-9]+)\  ]]; then
      n=$((n + 1))
      [[ ${BASH_REMATCH[2]} == "$n" ]] || fail "TAP line $n is numbered ${BASH_REMATCH[2]}: $line"$'\n'"$output"
    elif [[ $line =~ ^1\.\.([0-9]+)$ ]]; then
      plan=${BASH_REMATCH[1]}
    fi
  done <<<"$output"
  ((n > 0)) || fail "no TAP lines"
  [[ $plan == "$n" ]] || fail "plan 1..$plan, but $n TAP lines"$'\n'"$output"
}

@test "smoke: hooks' own checks and the hook's line are numbered in order, the plan matches, a failed sub-check fails the hook" {
  # shellcheck disable=SC2016  # bash source for the wrapper, expanded there
  smoke_wrapper '
smoke_experiments() {
  cat >/dev/null # reads stdin, as docker compose exec -T does: the engine loop must not lose its input
  smoke_check "$1: exp one" true
  smoke_check "$1: exp two" false
  smoke_check "$1: exp three" true
}
smoke_monitoring() { smoke_check "$1: panels" true; }'
  run "$LAB/smoke.sh" smoke </dev/null
  assert_failure 1
  assert_tap_numbering
  local e
  for e in wiredtiger inmemory; do
    assert_output --regexp "ok [0-9]+ - $e: up"
    assert_output --regexp "not ok [0-9]+ - $e: exp two"
    assert_output --regexp "not ok [0-9]+ - $e: smoke_experiments"
    assert_line --regexp "^ok [0-9]+ - $e: smoke_monitoring"
    assert_output --regexp "ok [0-9]+ - $e: destroy"
  done
  # the hook's own line comes after its checks
  [[ $output == *"ok 6 - wiredtiger: exp one"*"not ok 7 - wiredtiger: exp two"*"ok 8 - wiredtiger: exp three"*"not ok 9 - wiredtiger: smoke_experiments"* ]] ||
    fail "unexpected order or numbers:"$'\n'"$output"
  assert_output --partial "error: smoke: some checks failed"
  refute_output --partial "smoke: all"
  # every line that is not TAP is a diagnostic
  local line
  while IFS= read -r line; do
    [[ $line =~ ^((not )?ok\ [0-9]+\ -\ |1\.\.[0-9]+$|#|error:\ ) ]] || fail "not TAP: $line"
  done <<<"$output"
}

@test "smoke: all checks passing ends with the plan and exit 0" {
  # shellcheck disable=SC2016  # bash source for the wrapper, expanded there
  smoke_wrapper '
smoke_experiments() { smoke_check "$1: exp" true; }
smoke_monitoring() { smoke_check "$1: panels" true; }'
  # seed2013: the profile every engine fits (on laptop rocksdb is a SKIP: its memory does not fit)
  run "$LAB/smoke.sh" smoke --profile seed2013 </dev/null
  assert_success
  assert_tap_numbering
  refute_output --partial "not ok"
  assert_output --regexp "ok [0-9]+ - wiredtiger: shard members report storage engine wiredTiger"
  assert_output --regexp "ok [0-9]+ - inmemory: shard members report storage engine inMemory"
  assert_output --regexp "ok [0-9]+ - mmapv1: shard members report storage engine mmapv1"
  assert_output --regexp "ok [0-9]+ - rocksdb: shard members report storage engine rocksdb"
  assert_output --regexp "ok [0-9]+ - percona-wt: shard members report storage engine wiredTiger"
  assert_output --partial "# smoke: all"
}

@test "smoke: a hook that runs no check of its own (examined nothing) fails; --no-monitoring is a SKIP, not a pass" {
  # shellcheck disable=SC2016  # bash source for the wrapper, expanded there
  smoke_wrapper '
smoke_experiments() { smoke_check "$1: exp" true; }
smoke_monitoring() { echo "# nothing to look at"; return 0; }'
  run "$LAB/smoke.sh" smoke </dev/null
  assert_failure 1
  assert_output --regexp "not ok [0-9]+ - wiredtiger: smoke_monitoring"
  assert_output --partial "# smoke_monitoring ran no check: it examined nothing"
  assert_tap_numbering
  run "$LAB/smoke.sh" smoke --no-monitoring </dev/null
  assert_success
  assert_output --regexp "ok [0-9]+ - wiredtiger: smoke_monitoring # SKIP --no-monitoring"
  assert_tap_numbering
}

@test "smoke checks the engine the server reports against the engines table" {
  # the inmemory stack answers as if it ran WiredTiger (a rule before smoke_wrapper's wins)
  rule "compose * -p lab-inmemory * exec -T mongos mongosh *status.js" 0 'summary engine=wiredTiger shards=shard01 cfgrs=cfg1:27017 shard01=shard01-a:27017'
  # shellcheck disable=SC2016  # bash source for the wrapper, expanded there
  smoke_wrapper '
smoke_experiments() { smoke_check "$1: exp" true; }
smoke_monitoring() { smoke_check "$1: panels" true; }'
  run "$LAB/smoke.sh" smoke </dev/null
  assert_failure 1
  assert_line --regexp "^ok [0-9]+ - wiredtiger: shard members report storage engine wiredTiger"
  assert_output --regexp "not ok [0-9]+ - inmemory: shard members report storage engine inMemory"
  assert_line --regexp "^ok [0-9]+ - inmemory: shard shard01 registered"
  assert_called "$(compose_prefix wiredtiger)* --profile \* down --volumes --remove-orphans"
  assert_called "$(compose_prefix inmemory)* --profile \* down --volumes --remove-orphans"
}

@test "smoke: an engine whose up fails runs none of its other checks, keeps its diagnostics, is destroyed" {
  # the inmemory init fails (rules before smoke_wrapper's win)
  rule "compose * -p lab-inmemory * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||1"
  rule "compose * -p lab-inmemory * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}}" 0 "init|exited||1"
  # shellcheck disable=SC2016  # bash source for the wrapper, expanded there
  smoke_wrapper '
smoke_experiments() { echo "EXPERIMENTS RAN"; smoke_check "$1: exp" true; }
smoke_monitoring() { smoke_check "$1: panels" true; }'
  run "$LAB/smoke.sh" smoke --profile seed2013 </dev/null # every engine fits seed2013
  assert_failure 1
  assert_tap_numbering
  assert_output --regexp "not ok [0-9]+ - inmemory: up"
  assert_output --partial "# inmemory: up failed; the engine's other checks are not run"
  local engines
  engines=$(awk -F'\t' '!/^#/ && n++' "$LAB/compose/engines.tsv" | wc -l)
  [[ $(grep -c "EXPERIMENTS RAN" <<<"$output") == $((engines - 1)) ]] || fail "experiments ran for the failed engine (or not for each other engine)"
  assert_output --regexp "ok [0-9]+ - inmemory: destroy"
  # diagnostics before destroy: ps, logs, Prometheus's data, into results/smoke/inmemory/<UTC>/
  local dir
  dir=$(find "$LAB/results/smoke/inmemory" -mindepth 1 -maxdepth 1 -type d)
  [[ $dir =~ /[0-9]{8}T[0-9]{6}Z$ ]] || fail "no results/smoke/inmemory/<UTC>/ folder: $dir"
  [[ -f $dir/ps.txt && -f $dir/compose.log ]] || fail "ps.txt or compose.log missing in $dir"
  assert_called "$(compose_prefix inmemory)* --profile \* logs --no-color --timestamps"
  assert_called "$(compose_prefix inmemory)* cp prometheus:/prometheus $dir/prometheus"
  [[ $(grep -n 'cp prometheus:/prometheus' "$STUB_DOCKER_LOG" | cut -d: -f1) -lt $(grep -n -- '-p lab-inmemory .* down --volumes' "$STUB_DOCKER_LOG" | cut -d: -f1) ]] ||
    fail "Prometheus's data copied after destroy"
  # the engine that passed kept nothing
  [[ ! -e $LAB/results/smoke/wiredtiger ]]
}

# (These source run.sh, whose run() shadows bats' run: they call the functions directly.)
@test "smoke_check returns the status of the check it ran" {
  # shellcheck source=/dev/null
  source "$LAB/run.sh"
  local rc=0 out
  out=$(smoke_check "passes" true) || fail "a passing check returned non-zero"
  [[ $out == "ok 1 - passes" ]] || fail "got: $out"
  smoke_check "fails with 3" bash -c 'exit 3' >"$BATS_TEST_TMPDIR/out" || rc=$?
  [[ $rc == 3 ]] || fail "smoke_check returned $rc, want 3"
  [[ $(cat "$BATS_TEST_TMPDIR/out") == "not ok 1 - fails with 3" ]] || fail "got: $(cat "$BATS_TEST_TMPDIR/out")"
  [[ $SMOKE_FAILED == 1 ]]
}

@test "smoke on the stand-in: a 1 s check that failed while scrapes reached the timeout is a SKIP naming them; elsewhere a failure" {
  # a curl that answers Prometheus's query API as it would for a stack whose mongos scrapes hit
  # the 1 s timeout (SLOW=1) or never did
  mkdir -p "$BATS_TEST_TMPDIR/bin"
  cat >"$BATS_TEST_TMPDIR/bin/curl" <<'SH'
#!/usr/bin/env bash
q=$*
# the mean of each target whose longest scrape reached the timeout: mongos's when SLOW=1
if [[ $q == *'avg_over_time(scrape_duration_seconds'*'>= 0.99'* ]]; then
  if [[ ${SLOW:-0} == 1 ]]; then echo '{"data":{"result":[{"metric":{"instance":"mongos"},"value":[1,"0.4234"]}]}}'
  elif [[ ${SLOW:-0} == 2 ]]; then echo '{"data":{"result":[{"metric":{"instance":"mongos"},"value":[1,"0.4234"]},{"metric":{"instance":"shard01-b"},"value":[1,"0.99"]}]}}'
  else echo '{"data":{"result":[]}}'; fi
else exit 22; fi
SH
  chmod +x "$BATS_TEST_TMPDIR/bin/curl"
  PATH=$BATS_TEST_TMPDIR/bin:$PATH
  # shellcheck source=/dev/null
  source "$LAB/run.sh"
  # (run.sh defines a run of its own: the checks' lines are read from a subshell instead)
  # shellcheck disable=SC2034  # read by smoke_check_timed
  ENGINE=wiredtiger MONITORING_PROMETHEUS_PORT=9090 SMOKE_STANDIN=1
  local out rc
  export SLOW=1
  out=$(smoke_check_timed "spacing" false) || fail "a SKIP returned non-zero"
  [[ $out == "ok 1 - spacing # SKIP on the stand-in, scrapes of mongos (mean 423 ms) reached the 1 s timeout: it answers the exporter more slowly than mongod" ]] ||
    fail "got: $out"
  export SLOW=2 # two targets, said on one line
  out=$(smoke_check_timed "spacing" false) || fail "a SKIP returned non-zero"
  [[ $out == *"scrapes of mongos (mean 423 ms), shard01-b (mean 990 ms) reached the 1 s timeout"* ]] || fail "got: $out"
  export SLOW=0 # no scrape reached the timeout: the failure stands
  rc=0 && out=$(smoke_check_timed "spacing" false) || rc=$?
  [[ $rc != 0 && $out == "not ok 1 - spacing" ]] || fail "rc $rc, got: $out"
  export SLOW=1
  SMOKE_STANDIN=0 # a real server: the failure stands
  rc=0 && out=$(smoke_check_timed "spacing" false) || rc=$?
  [[ $rc != 0 && $out == "not ok 1 - spacing" ]] || fail "rc $rc, got: $out"
  export SMOKE_STANDIN=1
  out=$(smoke_check_timed "spacing" true) || fail "a passing check returned non-zero"
  [[ $out == "ok 1 - spacing" ]] || fail "got: $out"
}

@test "smoke --faults on the stand-in: stale-secondary and its resync are SKIPs with the reason, the rest runs; elsewhere they run" {
  # shellcheck source=/dev/null
  source "$LAB/run.sh"
  # the steps recorded instead of run (run.sh's own functions replaced for this test)
  smoke_lab() { echo "# ran: $*"; }
  smoke_result_grep() { return 0; }
  smoke_new_result() { echo /nonexistent; }
  fault_netem_probe() { return 0; }
  compose() { return 0; }
  # shellcheck disable=SC2034  # read by smoke_faults
  ENGINE=wiredtiger DRY_RUN=0
  local out
  export SMOKE_STANDIN=1
  out=$(smoke_faults wiredtiger) || fail "smoke_faults failed: $out"
  grep -qE '^ok [0-9]+ - wiredtiger: fault stale-secondary --yes # SKIP on the stand-in, .*numeric _ids.*numeric-id-scan' <<<"$out" ||
    fail "no stale-secondary SKIP: $out"
  grep -qE '^ok [0-9]+ - wiredtiger: resync the member stale-secondary makes stale # SKIP on the stand-in' <<<"$out" ||
    fail "no resync SKIP: $out"
  if grep -qE '# ran: (fault stale-secondary|resync)' <<<"$out"; then fail "ran on the stand-in: $out"; fi
  grep -q '# ran: fault heal' <<<"$out" || fail "heal not run: $out"
  grep -q '# ran: fault replica-lag --method fsync' <<<"$out" || fail "replica-lag not run: $out"
  export SMOKE_STANDIN=0
  out=$(smoke_faults wiredtiger) || fail "smoke_faults failed: $out"
  grep -q '# ran: fault stale-secondary --yes' <<<"$out" || fail "stale-secondary not run on a real server: $out"
  grep -qE '# ran: resync shard01-' <<<"$out" || fail "resync not run on a real server: $out"
  if grep -q 'SKIP on the stand-in' <<<"$out"; then fail "a stand-in SKIP on a real server: $out"; fi
}

@test "smoke_new_result names only the folder the last smoke_lab step wrote, never an older run's" {
  # shellcheck source=/dev/null
  source "$LAB/run.sh"
  # shellcheck disable=SC2034  # read by smoke_lab
  ENGINE=wiredtiger
  local old=$LAB/results/experiment1/wiredtiger/20260101T000000Z out rc
  mkdir -p "$old"
  echo '{"complete": true}' >"$old/summary.json"
  ln -s 20260101T000000Z "$LAB/results/experiment1/wiredtiger/latest"
  # the CLI as a fake that writes what FAKE_WRITES names (nothing by default)
  cat >"$LAB/run.sh" <<'FAKE'
#!/usr/bin/env bash
[[ -z ${FAKE_WRITES:-} ]] || { mkdir -p "$FAKE_WRITES" && echo '{"complete": false}' >"$FAKE_WRITES/summary.json"; }
FAKE
  FAKE_WRITES="" smoke_lab experiment1
  rc=0 && out=$(smoke_new_result experiment1 wiredtiger 2>&1) || rc=$?
  [[ $rc != 0 ]] || fail "an older run's folder was named: $out"
  [[ $out == *"no results/experiment1/wiredtiger/ folder written by this smoke run's last step"* ]] || fail "got: $out"
  if smoke_result_grep experiment1 wiredtiger summary.json '"complete": true' 2>/dev/null; then
    fail "the stale summary passed the check"
  fi
  # now a run that writes a folder: it is the one named, and its content is what is checked
  local new=$LAB/results/experiment1/wiredtiger/20260101T000005Z
  FAKE_WRITES=$new smoke_lab experiment1
  out=$(smoke_new_result experiment1 wiredtiger) || fail "the new folder was not found"
  [[ $out == "$new" ]] || fail "got: $out"
  if smoke_result_grep experiment1 wiredtiger summary.json '"complete": true' 2>/dev/null; then
    fail "matched the old summary, not the new one"
  fi
  smoke_result_grep experiment1 wiredtiger summary.json '"complete": false' || fail "the new summary was not read"
  # another engine's folder is not this engine's
  if smoke_new_result experiment1 inmemory 2>/dev/null; then fail "found an inmemory folder"; fi
}

# --- compose/topology.tsv and the engines' capability columns, read through lib/tables.sh -------

# tables SCRIPT: run SCRIPT in bash with lib/tables.sh of the private copy sourced.
tables() { run env LAB_ROOT="$LAB" bash -c "source \"\$LAB_ROOT/lib/common.sh\"; source \"\$LAB_ROOT/lib/tables.sh\"; $1"; }

@test "tables: topology readers (services by role, sets, set members, routers for --mongos N)" {
  tables 'topology_services config | paste -sd" " -; topology_services shard | paste -sd" " -
          topology_sets shard; topology_set_members cfgrs | paste -sd" " -
          topology_routers 2; topology_field shard01-b replica_set'
  assert_success
  assert_output "cfg1 cfg2 cfg3
shard01-a shard01-b shard01-c
shard01
cfg1 cfg2 cfg3
mongos	27017	-
mongos2	27018	mongos2
shard01"
}

@test "tables: engine capabilities (engine_is, engine_has_fault_method) come from the row" {
  local row
  row=$(engine_row_like "$LAB/compose/engines.tsv" wiredtiger fake journal=no fault_methods=netem)
  printf '%s\n' "$row" >>"$LAB/compose/engines.tsv"
  tables 'engine_is wiredtiger journal && echo wt-journal; engine_is inmemory journal || echo im-no-journal
          engine_is fake keeps_data && echo fake-keeps; engine_is fake journal || echo fake-no-journal
          engine_has_fault_method fake netem && echo fake-netem
          engine_has_fault_method fake fsync || echo fake-no-fsync
          engine_has_fault_method fake net || echo fake-no-net-prefix'
  assert_success
  assert_output "wt-journal
im-no-journal
fake-keeps
fake-no-journal
fake-netem
fake-no-fsync
fake-no-net-prefix"
}

@test "the cluster verbs take members, routers, ports and profiles from compose/topology.tsv" {
  # A member added and a router's host port and profile changed in the table only: no code edit.
  sed -i 's/^mongos2\t-\trouter\t27017\t27018\tmongos2$/mongos2\t-\trouter\t27017\t28018\trouter-two/' "$LAB/compose/topology.tsv"
  printf 'shard01-d\tshard01\tshard\t27017\t-\t-\n' >>"$LAB/compose/topology.tsv"
  lab up --dry-run --mongos 2
  assert_success
  assert_line --regexp " ports 27017,28018$"
  assert_output --partial " --profile router-two up -d"
  lab shell --dry-run shard01-d
  assert_success
  assert_output --partial " exec -T shard01-d mongosh "
  lab shell --dry-run nope
  assert_failure 2
  assert_output --partial "(choose one of: cfg1 cfg2 cfg3 shard01-a shard01-b shard01-c mongos mongos2 mongos3 shard01-d)"
}

# smoke_step_signal SIGNAL: a smoke step (smoke_lab) whose child stands for run.sh: it stops on
# INT or TERM (saying so, exit 130) and otherwise runs 60 s; the SIGNAL goes to smoke's PID alone,
# with no terminal (INT and TERM at their defaults, as a service manager starts it).
smoke_step_signal() {
  cat >"$BATS_TEST_TMPDIR/smoke-step.sh" <<'SH'
#!/usr/bin/env bash
source "$LAB/run.sh"
ENGINE=wiredtiger DRY_RUN=0
trap 'exit 130' INT
smoke_lab_raw() {
  # the sleeper may have had the signal too (its group's) and be gone: under run.sh's set -e a
  # failed kill ended the trap before it said so (a fresh-clone run, 04:20)
  trap 'kill "$sleeper" 2>/dev/null || true; echo "step stopped"; exit 130' INT TERM
  sleep 60 >/dev/null 2>&1 &
  sleeper=$!
  touch "$BATS_TEST_TMPDIR/step-started"
  wait
  echo "step finished"
}
smoke_check "wiredtiger: a long step" smoke_lab experiment2
echo "the next check ran"
SH
  chmod +x "$BATS_TEST_TMPDIR/smoke-step.sh"
  setsid env --default-signal=INT,TERM BATS_TEST_TMPDIR="$BATS_TEST_TMPDIR" "$BATS_TEST_TMPDIR/smoke-step.sh" >"$BATS_TEST_TMPDIR/out" 2>&1 &
  local pid=$!
  # up to 60 s for the step to start (its trap set): sourcing run.sh on a host busy with the other
  # lane took more than the 5 s this waited once (a fresh-clone run, 16:45), and the signal then
  # came before the step's trap
  for _ in $(seq 600); do [[ -e $BATS_TEST_TMPDIR/step-started ]] && break; sleep 0.1; done
  [[ -e $BATS_TEST_TMPDIR/step-started ]] || fail "the smoke step never started in 60 s: $(cat "$BATS_TEST_TMPDIR/out")"
  kill "-$1" "$pid"
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL -- "-$pid" 2>/dev/null; pkill -KILL -f "$BATS_TEST_TMPDIR/smoke-step.sh" || true
    fail "smoke still ran 10 s after $1; it printed: $(cat "$BATS_TEST_TMPDIR/out")"
  fi
  STEP_RC=0
  wait "$pid" || STEP_RC=$?
}

@test "smoke: SIGINT to smoke alone stops the step that runs (passed on once), and smoke ends 130 without the next check" {
  smoke_step_signal INT
  [ "$STEP_RC" -eq 130 ]
  grep -q "#   step stopped" "$BATS_TEST_TMPDIR/out" || fail "$(cat "$BATS_TEST_TMPDIR/out")"
  if grep -q "the next check ran" "$BATS_TEST_TMPDIR/out"; then fail "the next check ran"; fi
  grep -q "smoke: interrupted (SIGINT) during 'experiment2'; it stopped, and no other check runs" "$BATS_TEST_TMPDIR/out"
}

@test "smoke: SIGTERM to smoke alone stops the step that runs, and smoke ends 143" {
  smoke_step_signal TERM
  [ "$STEP_RC" -eq 143 ] || fail "exit $STEP_RC; it printed: $(cat "$BATS_TEST_TMPDIR/out")"
  grep -q "#   step stopped" "$BATS_TEST_TMPDIR/out" || fail "no 'step stopped'; it printed: $(cat "$BATS_TEST_TMPDIR/out")"
  if grep -q "the next check ran" "$BATS_TEST_TMPDIR/out"; then fail "the next check ran"; fi
}

@test "smoke's sample-spacing check asks the mongod and mongos targets only for the exporters' series" {
  # a sample-spacing.sh that records each call; --targets asks every target of the jobs named for
  # a series of EACH selector, and a mongod's exporter target has no cAdvisor or node_exporter one
  mkdir -p "$LAB/dashboards/test"
  cat >"$LAB/dashboards/test/sample-spacing.sh" <<'SH'
#!/usr/bin/env bash
printf '%s\n' "$*" >>"$SPACING_CALLS"
SH
  chmod +x "$LAB/dashboards/test/sample-spacing.sh"
  export SPACING_CALLS=$BATS_TEST_TMPDIR/spacing-calls
  run bash -c 'source "$1/run.sh"; ENGINE=wiredtiger MONITORING_PROMETHEUS_PORT=9090; monitoring_spacing wiredtiger' _ "$LAB"
  assert_success
  local with_targets
  with_targets=$(grep -- '--targets' "$SPACING_CALLS")
  [[ $with_targets == *'mongodb_ss_uptime{engine="wiredtiger"}'* ]] || fail "the exporters' series are not checked per target: $(cat "$SPACING_CALLS")"
  if grep -E 'container_cpu_usage_seconds_total|node_cpu_seconds_total|up\{' <<<"$with_targets"; then
    fail "a mongod or mongos target is asked for another exporter's series: $with_targets"
  fi
  grep -q 'container_cpu_usage_seconds_total{engine="wiredtiger"' "$SPACING_CALLS"
  grep -q 'node_cpu_seconds_total{engine="wiredtiger"' "$SPACING_CALLS"
  grep -q 'up{engine="wiredtiger", job!~"loader"}' "$SPACING_CALLS"
  # cAdvisor left out: neither its series nor its target's up is asked for, and the output says so
  : >"$SPACING_CALLS"
  run bash -c 'source "$1/run.sh"; ENGINE=wiredtiger MONITORING_PROMETHEUS_PORT=9090 LAB_LEAVE_OUT="cadvisor grafana"; monitoring_spacing wiredtiger' _ "$LAB"
  assert_success
  assert_output --partial "skip (cAdvisor left out, LAB_LEAVE_OUT)"
  if grep -q 'container_' "$SPACING_CALLS"; then fail "a left-out cAdvisor's series is asked for: $(cat "$SPACING_CALLS")"; fi
  grep -q 'up{engine="wiredtiger", job!~"loader|cadvisor"}' "$SPACING_CALLS"
  grep -q 'node_cpu_seconds_total{engine="wiredtiger"' "$SPACING_CALLS"
}

@test "cluster_router reads the routers to the end: a writer still writing after the first line fails nothing under pipefail" {
  # `| head -n1` exited after the first router, and the second one's write ended its writer by
  # SIGPIPE: run.sh's set -e and pipefail then ended the verb, exit 141 (lib/common.sh first_line)
  run bash -c 'source "$1/run.sh"; topology_services() { echo mongos; sleep 0.3; echo mongos2; }; r=$(cluster_router); echo "router=$r"' _ "$LAB"
  assert_success
  assert_output "router=mongos"
}

@test "compose's environment: the engine's and profile's lines worked out once, and again when the engine, profile or --oplog-size changes" {
  # each of a stack run's ~30 compose calls worked them out anew, in ~30 forks (lib/stack.sh
  # stack_env_resolve); smoke walks the engines in one shell, so the key must follow them
  run bash -c 'source "$1/run.sh"; calls=$2 MONITORING=1 PROFILE=laptop DRY_RUN=1
    eval "real_$(declare -f stack_env_fixed)"
    stack_env_fixed() { echo called >>"$calls"; real_stack_env_fixed; }
    for ENGINE in wiredtiger wiredtiger inmemory inmemory; do
      stack_env_resolve
      compose_argv ps | grep -E "^LAB_(ENGINE|OPLOG_MB)=" | paste -sd" " -
    done
    OPLOG_SIZE_MB=64 && stack_env_resolve && compose_argv ps | grep -E "^LAB_OPLOG_MB="
    PROFILE=seed2013 && stack_env_resolve && compose_argv ps | grep -E "^LAB_PROFILE="' _ "$LAB" "$BATS_TEST_TMPDIR/calls"
  assert_success
  local wt_oplog
  wt_oplog=$(engine_columns "$LAB/compose/engines.tsv" engine oplog_mb | awk -F"\t" '$1 == "wiredtiger" { print $2 }')
  assert_equal "${lines[0]}" "LAB_ENGINE=wiredtiger LAB_OPLOG_MB=$wt_oplog"
  assert_equal "${lines[1]}" "${lines[0]}"
  [[ ${lines[2]} == "LAB_ENGINE=inmemory LAB_OPLOG_MB="* && ${lines[2]} != *"=$wt_oplog" ]] || fail "inmemory: ${lines[2]}"
  assert_equal "${lines[3]}" "${lines[2]}"
  assert_equal "${lines[4]}" "LAB_OPLOG_MB=64"
  assert_equal "${lines[5]}" "LAB_PROFILE=seed2013"
  assert_equal "$(wc -l <"$BATS_TEST_TMPDIR/calls")" 4
}
