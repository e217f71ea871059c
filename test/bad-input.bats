#!/usr/bin/env bats
# Every bad input a new user met: a one-line reason naming the fix, usage where it helps, exit 2
# for usage errors and 1 for environment errors, and nothing started.

load test_helper

setup() { setup_lab; }

# no_stack_started: no docker call that changes anything was made.
no_stack_started() {
  refute_called "* up *"
  refute_called "* up -d"
  refute_called "* down *"
  refute_called "* exec *"
  [[ ! -e $LAB/.secrets ]] || fail "secrets were generated"
}

@test "no verb: usage on stderr, exit 2" {
  run "$LAB/run.sh" </dev/null
  assert_failure 2
  assert_output --partial "Usage: ./run.sh VERB [flags]"
  [[ ! -s $STUB_DOCKER_LOG ]]
}

@test "help lists verbs, engines and profiles from the tables, exit 0" {
  lab help
  assert_success
  assert_output --partial "up                      start the cluster"
  assert_output --regexp "wiredtiger +mongo:8.0"
  assert_output --regexp "inmemory +percona/percona-server-mongodb:8.0"
  assert_output --regexp "seed2013 +seeds/004 servers"
  # every engine with its image and description, read from the table by column name (what a
  # description must say: loader/test/tables.test.js)
  local e image desc
  while IFS=$'\t' read -r e image desc; do
    assert_output --partial "$(printf '  %-12s %-38s %s' "$e" "$image" "${desc:0:30}")"
  done < <(engine_columns "$LAB/compose/engines.tsv" engine image description)
}

@test "unknown verb: exit 2, names the verb, nothing started" {
  lab frobnicate --engine wiredtiger
  assert_failure 2
  assert_output --partial "error: unknown verb 'frobnicate'"
  assert_output --partial "Run './run.sh help' for usage."
  [[ ! -s $STUB_DOCKER_LOG ]]
}

@test "unknown engine: exit 2, lists the engines, nothing started" {
  # perconaft: the seed's fractal tree, which no image the lab can run carries (README, Engines)
  lab up --engine perconaft
  assert_failure 2
  assert_output --partial "error: unknown engine 'perconaft' (choose one of: $(table_engines))"
  [[ ! -s $STUB_DOCKER_LOG ]]
  no_stack_started
}

@test "engine names are exact: MMAPv1, RocksDB and the image name are refused, nothing started" {
  local e
  for e in MMAPv1 RocksDB mongo:4.0 'mmapv1,' ' mmapv1' percona; do
    lab up --engine "$e"
    assert_failure 2
    assert_output --partial "error: unknown engine '$e' (choose one of: $(table_engines))"
  done
  lab experiment2 --engine mmap --dry-run
  assert_failure 2
  assert_output --partial "error: unknown engine 'mmap'"
  [[ ! -s $STUB_DOCKER_LOG ]]
  no_stack_started
}

@test "unknown profile: exit 2, lists the profiles" {
  lab up --profile huge
  assert_failure 2
  assert_output --partial "error: unknown profile 'huge' (choose one of: $(table_profiles))"
  [[ ! -s $STUB_DOCKER_LOG ]]
}

@test "unknown flag: exit 2 for every cluster verb" {
  local verb
  for verb in up down destroy status; do
    lab "$verb" --bogus
    assert_failure 2
    assert_output --partial "error: $verb does not take '--bogus'"
  done
  lab smoke --bogus
  assert_failure 2
  assert_output --partial "smoke does not take '--bogus' (only --faults)"
  [[ ! -s $STUB_DOCKER_LOG ]]
}

@test "missing value: --engine, --profile, --mongos with nothing or another flag after them" {
  lab up --engine
  assert_failure 2
  assert_output --partial "error: --engine needs a value"
  lab up --profile --dry-run
  assert_failure 2
  assert_output --partial "error: --profile needs a value"
  lab up --mongos
  assert_failure 2
  assert_output --partial "error: --mongos needs a value"
  lab up --engine=
  assert_failure 2
  assert_output --partial "error: --engine needs a value"
  [[ ! -s $STUB_DOCKER_LOG ]]
}

@test "malformed value: --mongos outside 1-3" {
  local v
  for v in 0 4 two -1 1.5; do
    lab up --mongos="$v"
    assert_failure 2
    assert_output --partial "error: --mongos must be 1, 2 or 3 (got '$v')"
  done
  [[ ! -s $STUB_DOCKER_LOG ]]
}

@test "malformed value: --host-view other than auto, host, host-private or desktop-vm" {
  local v
  for v in mac Host desktop private; do
    lab up --host-view "$v"
    assert_failure 2
    assert_output --partial "error: --host-view must be auto, host, host-private or desktop-vm (got '$v')"
  done
  lab up --host-view
  assert_failure 2
  assert_output --partial "error: --host-view needs a value"
  [[ ! -s $STUB_DOCKER_LOG ]]
}

@test "extra arguments: logs and shell take at most one service; unknown services are refused" {
  all_up_rules
  lab logs cfg1 cfg2
  assert_failure 2
  assert_output --partial "logs takes at most one service"
  lab logs nosuch
  assert_failure 2
  assert_output --partial "error: unknown service 'nosuch' (choose one of: keyfile cfg1 cfg2"
  lab shell prometheus
  assert_failure 2
  assert_output --partial "shell opens mongosh in a mongod or mongos service, not 'prometheus'"
  lab up extra
  assert_failure 2
  assert_output --partial "up does not take 'extra'"
  no_stack_started
}

@test "docker missing: exit 1 naming the install" {
  PATH=$(path_without_docker) run "$LAB/run.sh" up </dev/null
  assert_failure 1
  assert_output --partial "error: docker not found on PATH: install Docker Engine with the Compose v2 plugin"
  no_stack_started
}

@test "Compose v2 missing: exit 1 naming the plugin" {
  rule "compose version*" 1 "docker: 'compose' is not a docker command."
  lab up
  assert_failure 1
  assert_output --partial "error: Docker Compose v2 is missing ('docker compose version' failed): install the docker-compose-plugin package"
  no_stack_started
}

@test "Compose v2 too old for the stack files: exit 1" {
  rule "compose version --short" 0 "2.12.2"
  lab status
  assert_failure 1
  assert_output --partial "error: Docker Compose 2.12.2 is too old: the lab needs 2.21 or newer"
  no_stack_started
}

# Compose 2.20.x rejects `ps --format` Go templates ("format value ... could not be parsed",
# v2.20.3 cmd/formatter/formatter.go); 2.21.0 is the first to take them (cmd/compose/ps.go).
@test "Compose 2.20.3 (no ps --format templates) is refused before anything starts; 2.21.0 is accepted" {
  if (exec 3<>/dev/tcp/127.0.0.1/27017) 2>/dev/null; then fail "port 27017 in use here"; fi
  rule "compose version --short" 0 "v2.20.3"
  # were the version let through, up would find init done at once (no 600 s wait in the test)
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  lab up
  assert_failure 1
  [[ ${#lines[@]} == 1 ]] || fail "want one line, got: $output"
  assert_output "error: Docker Compose 2.20.3 is too old: the lab needs 2.21 or newer (upgrade the docker-compose-plugin package)"
  no_stack_started
  : >"$STUB_DOCKER_RULES"
  rule "compose version --short" 0 "2.21.0"
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  lab up
  assert_success
  refute_output --partial "too old"
  assert_called "compose * up -d"
  : >"$STUB_DOCKER_RULES"
  rule "compose version --short" 0 "2.21.0-desktop.1"
  lab status
  refute_output --partial "too old"
}

# The oldest engine the lab runs on is 20.10 (API 1.41; why: lib/preflight.sh). 20.10 to 24.x run
# without healthcheck start_interval: test/docker-host.bats.
@test "Docker Engine older than 20.10: one line naming the oldest the lab runs on, exit 1, for every verb that needs the daemon" {
  rule "info --format {{.ServerVersion}}" 0 "19.03.15"
  local verb
  for verb in up down status logs shell; do
    lab "$verb"
    assert_failure 1
    [[ ${#lines[@]} == 1 ]] || fail "$verb: want one line, got: $output"
    assert_output "error: Docker Engine 19.03.15 is too old: the oldest the lab runs on is 20.10 (API 1.41, which Compose needs to create a container of one platform, such as the rocksdb engine's image): upgrade Docker Engine"
  done
  no_stack_started
}

@test "daemon down: exit 1 naming how to start it, for every verb that needs it" {
  rule "info *" 1 "Cannot connect to the Docker daemon"
  local verb
  for verb in up down status logs shell; do
    lab "$verb"
    assert_failure 1
    assert_output --partial "error: cannot reach the Docker daemon ('docker info' failed): start it"
  done
  lab destroy --yes
  assert_failure 1
  no_stack_started
}

# The port taken is one of this test's own: its private copy of compose/topology.tsv publishes the
# router on a port a listener here holds, so other test files run beside this one (bats --jobs,
# test/suites/20-bats.sh) find 27017 as free as they expect it.
@test "port taken: exit 1 naming the port and how to find its owner, nothing started" {
  # The file exists before the listener starts: the background job opens it when it is scheduled,
  # and a head on a file not yet there failed the test under load. Up to 20 s for node to start.
  : >"$BATS_TEST_TMPDIR/listener.out"
  node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => console.log(s.address().port))' >"$BATS_TEST_TMPDIR/listener.out" &
  local pid=$! port="" i
  for ((i = 0; i < 200; i++)); do port=$(head -1 "$BATS_TEST_TMPDIR/listener.out"); [[ -n $port ]] && break; sleep 0.1; done
  [[ -n $port ]] || { kill "$pid"; fail "the listener did not start"; }
  awk -v p="$port" 'BEGIN { FS = OFS = "\t" } $1 == "mongos" { $5 = p } { print }' "$REPO/compose/topology.tsv" >"$LAB/compose/topology.tsv"
  grep -qP "^mongos\t.*\t$port\t" "$LAB/compose/topology.tsv" || { kill "$pid"; fail "mongos not moved to port $port"; }
  lab up
  kill "$pid"
  assert_failure 1
  assert_output --partial "error: port $port on 127.0.0.1 is already in use, and the lab publishes it: stop what listens there (find it with: ss -ltnp 'sport = :$port')"
  no_stack_started
}

@test "another engine's stack up: exit 1 naming it and how to stop it" {
  rule "ps --filter label=com.docker.compose.project *" 0 'lab-inmemory\nlab-inmemory\nsomething-else'
  lab up --engine wiredtiger
  assert_failure 1
  assert_output --partial "error: the 'inmemory' engine's stack (lab-inmemory) is running and holds the lab's ports; one engine runs at a time: stop it with './run.sh down --engine inmemory'"
  no_stack_started
}

@test "the same engine's own running stack is not 'another engine'" {
  rule "ps --filter label=com.docker.compose.project *" 0 'lab-wiredtiger'
  all_up_rules
  lab up --engine wiredtiger
  assert_success
  assert_output --partial "already up"
}

@test "up with another profile than the running stack's: exit 1, says how to switch" {
  all_up_rules
  rule "compose * ps --format {{.Label \"lab.profile\"}}" 0 'laptop\nlaptop'
  lab up --profile seed2013
  assert_failure 1
  assert_output --partial "error: the wiredtiger stack is running with profile 'laptop', not 'seed2013': stop it first ('./run.sh down --engine wiredtiger')"
  no_stack_started
  lab up --profile laptop
  assert_success
  assert_output --partial "already up"
}

# The daemon refuses a container whose CPU limit is above its CPU count ("Range of CPUs is from
# 0.01 to N.00": moby daemon/daemon_unix.go); preflight says so before Compose half-starts a stack.
@test "seed2013 (4 CPUs per shard member) on a 2-CPU daemon: one line, exit 1, nothing started" {
  rule "info --format {{.NCPU}} {{.MemTotal}}" 0 "2 8254734336"
  # were the profile let through, up would find init done at once (no 600 s wait in the test)
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  lab up --profile seed2013
  assert_failure 1
  [[ ${#lines[@]} == 1 ]] || fail "want one line, got: $output"
  assert_output --partial "error: profile 'seed2013' gives a container 4 CPUs but the Docker daemon has 2 (Docker would refuse: 'range of CPUs is from 0.01 to 2.00'): use --profile laptop"
  no_stack_started
  # the experiments stand the stack up through the same up
  lab experiment1 --profile seed2013
  assert_failure 1
  assert_output --partial "gives a container 4 CPUs but the Docker daemon has 2"
  no_stack_started
}

@test "seed2013 on a 4-CPU daemon passes the CPU check; too little memory is only a warning; laptop on 2 CPUs says the loader shares them" {
  if (exec 3<>/dev/tcp/127.0.0.1/27017) 2>/dev/null; then fail "port 27017 in use here"; fi
  rule "info --format {{.NCPU}} {{.MemTotal}}" 0 "4 4127367168"
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  lab up --profile seed2013
  assert_success
  refute_output --partial "gives a container"
  assert_output --partial "warning: profile 'seed2013' lets the shard and config members use 9216 MiB but the Docker daemon has 3936 MiB"
  assert_called "compose * up -d"
  # laptop (2 CPUs per shard member) fits a 2-CPU daemon exactly
  : >"$STUB_DOCKER_RULES"
  rule "info --format {{.NCPU}} {{.MemTotal}}" 0 "2 8254734336"
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  lab up --profile laptop
  assert_success
  refute_output --partial "gives a container"
  refute_output --partial "lets the shard and config members use"
  # Enough CPUs for the members, not for keeping the loader apart too: said, not refused.
  assert_output --partial "warning: the Docker host has 2 CPU(s), fewer than profile laptop's data_cpus (2) + loader_cores (1)"
}

@test "smoke starts with up's preflight: no docker is one line and exit 1 at once, no check run" {
  SECONDS=0
  PATH=$(path_without_docker) run "$LAB/run.sh" smoke </dev/null
  assert_failure 1
  [[ ${#lines[@]} == 1 ]] || fail "want one line, got: $output"
  assert_output --partial "error: docker not found on PATH"
  refute_output --partial "ok "
  ((SECONDS < 10)) || fail "took ${SECONDS}s"
}

@test "smoke refuses while a lab stack runs (it destroys every engine's stack), and checks the daemon's CPUs" {
  rule "ps --filter label=com.docker.compose.project *" 0 'lab-wiredtiger'
  lab smoke
  assert_failure 1
  assert_output --partial "error: the wiredtiger stack (lab-wiredtiger) is running, and smoke ends by destroying every engine's stack and volumes"
  no_stack_started
  : >"$STUB_DOCKER_RULES"
  rule "info --format {{.NCPU}} {{.MemTotal}}" 0 "2 8254734336"
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  lab smoke --profile seed2013
  assert_failure 1
  assert_output --partial "gives a container 4 CPUs but the Docker daemon has 2"
  refute_output --partial "ok "
  no_stack_started
}

# ---- bash 3.2 (macOS /bin/bash) ------------------------------------------------------------------
# No bash 3.2 here, so the tests start run.sh with POSIX sh, which the version check treats like
# an old bash (not 4.4+, must find another), and offer stub "bash" programs that report a version.

# fake_bash NAME VERSION: a program that answers the version probe as a bash VERSION would, and
# otherwise fails loudly (it must never be used to run the lab).
fake_bash() {
  mkdir -p "$BATS_TEST_TMPDIR/bin"
  # shellcheck disable=SC2016  # $1 and $* belong to the fake's own sh
  printf '#!/bin/sh\n[ "$1" = -c ] && { printf %%s "%s"; exit 0; }\necho "fake bash %s was asked to run: $*" >&2\nexit 99\n' \
    "$2" "$2" >"$BATS_TEST_TMPDIR/bin/$1"
  chmod +x "$BATS_TEST_TMPDIR/bin/$1"
}

@test "run.sh under a shell older than bash 4.4 with only old bashes around: one line naming 'brew install bash', exit 1" {
  fake_bash bash "3.2.57(1)-release"
  fake_bash bash-4.3 "4.3.48(1)-release"
  # the candidates: a missing one, a 4.3 by path, and an old bash found by name on PATH
  PATH="$BATS_TEST_TMPDIR/bin:$PATH" LAB_BASH_CANDIDATES="/nonexistent/bash $BATS_TEST_TMPDIR/bin/bash-4.3 bash" \
    run sh "$LAB/run.sh" help </dev/null
  assert_failure 1
  [[ ${#lines[@]} == 1 ]] || fail "want one line, got: $output"
  assert_output --partial "error: ./run.sh needs bash 4.4 or newer"
  assert_output --partial "install one with 'brew install bash'"
  refute_output --partial "fake bash"
}

@test "run.sh under an old shell re-executes itself with the first bash 4.4+ it finds" {
  fake_bash bash "3.2.57(1)-release"
  local real
  real=$(command -v bash)
  LAB_BASH_CANDIDATES="$BATS_TEST_TMPDIR/bin/bash $real" run sh "$LAB/run.sh" help </dev/null
  assert_success
  assert_output --partial "Usage: ./run.sh VERB [flags]"
  assert_output --regexp "inmemory +percona/percona-server-mongodb:8.0"
  # the arguments survive the re-exec: a usage error is still that usage error
  LAB_BASH_CANDIDATES="$real" run sh "$LAB/run.sh" up --engine perconaft </dev/null
  assert_failure 2
  assert_output --partial "error: unknown engine 'perconaft'"
}

@test "port check works without 'timeout' (absent on macOS): a listener is seen, a free port is not" {
  mkdir -p "$BATS_TEST_TMPDIR/bin"
  printf '#!/bin/sh\necho "timeout: command not found" >&2\nexit 127\n' >"$BATS_TEST_TMPDIR/bin/timeout"
  chmod +x "$BATS_TEST_TMPDIR/bin/timeout"
  node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => console.log(s.address().port))' \
    >"$BATS_TEST_TMPDIR/port" &
  local pid=$! i port
  # up to 60 s: node's start on a host busy with the other lane can take seconds
  for ((i = 0; i < 600; i++)); do [[ -s $BATS_TEST_TMPDIR/port ]] && break; sleep 0.1; done
  port=$(cat "$BATS_TEST_TMPDIR/port")
  # shellcheck disable=SC2016  # expanded by the inner bash
  PATH="$BATS_TEST_TMPDIR/bin:$PATH" run bash -c 'source "$1/run.sh"; port_in_use "$2" && echo "in use"; port_in_use "$3" || echo "free"' _ "$LAB" "$port" 1
  kill "$pid"
  assert_success
  assert_output $'in use\nfree'
}
