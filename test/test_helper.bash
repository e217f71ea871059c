# shellcheck shell=bash
# Shared setup for the run.sh bats tests (test/*.bats).
# Each test runs run.sh from a private copy of the repository's run.sh, lib/ and compose/ in
# BATS_TEST_TMPDIR, so that the secrets `up` generates land there and never in the working tree;
# test/stub/docker stands in for the docker CLI (no Docker engine runs on the test machines) and
# records each call's arguments in $STUB_DOCKER_LOG, answering from $STUB_DOCKER_RULES.

REPO=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
# shellcheck source=test/lib/engines.sh
source "$REPO/test/lib/engines.sh" # engine_columns, engine_row_like
load lib/bats-tracing # trace_test_lines_only

setup_lab() {
  trace_test_lines_only
  LAB=$BATS_TEST_TMPDIR/lab
  mkdir -p "$LAB"
  cp -R "$REPO/run.sh" "$REPO/lib" "$REPO/compose" "$LAB/"
  [[ -d $REPO/experiments ]] && cp -R "$REPO/experiments" "$LAB/"
  [[ -d $REPO/test ]] && mkdir -p "$LAB/test" && cp -R "$REPO/test/lib" "$REPO/test/run-all.sh" "$LAB/test/"
  export STUB_DOCKER_LOG=$BATS_TEST_TMPDIR/docker.log
  export STUB_DOCKER_RULES=$BATS_TEST_TMPDIR/docker.rules
  : >"$STUB_DOCKER_LOG"
  : >"$STUB_DOCKER_RULES"
  PATH="$REPO/test/stub:$PATH"
  # run.sh reads the propagation of / for node_exporter's host view when the daemon is local
  # (lib/monitoring.sh monitoring_root_propagation): here that is / as systemd mounts it, shared,
  # whatever this machine's own / is, and the daemon is the stub's, local
  LAB_MOUNTINFO=$BATS_TEST_TMPDIR/mountinfo
  echo '27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw' >"$LAB_MOUNTINFO"
  unset DOCKER_HOST
  # no wrapping at 120 columns (lib/common.sh LAB_WRAP): these tests match a whole dry-run command
  # or message on one line; test/messages.bats measures and pastes back the wrapped default
  LAB_WRAP=0
  export PATH LAB LAB_WRAP LAB_MOUNTINFO
}

# setup_lab_with_loader: setup_lab, and the loader beside run.sh: run.sh asks the loader to check
# an experiment's flags before anything starts (lab-loader check), and --uri runs it.
setup_lab_with_loader() {
  setup_lab
  ln -s "$REPO/loader" "$LAB/loader"
}

# nothing_started [--with-results]: docker was never called, no secrets were generated, and no
# results folder was made (--with-results: results exist by design, made by the test itself or by
# a --uri run, which starts no stack; the test checks them on its own).
nothing_started() {
  [[ ! -s $STUB_DOCKER_LOG ]] || fail "docker was called:"$'\n'"$(calls)"
  [[ ! -e $LAB/.secrets ]] || fail "secrets were generated"
  [[ ${1:-} == --with-results || ! -e $LAB/results ]] || fail "a results folder was made: $(find "$LAB/results" | head -5)"
}

# rule GLOB EXIT [STDOUT]: the stub answers calls whose arguments match GLOB (first match wins).
rule() { printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >>"$STUB_DOCKER_RULES"; }

# lab ARGS...: ./run.sh ARGS with no terminal on stdin; status/output/lines via bats' run.
lab() { run "$LAB/run.sh" "$@" </dev/null; }

# calls: the docker command lines recorded so far, one per line.
calls() { cat "$STUB_DOCKER_LOG"; }

# assert_called GLOB / refute_called GLOB: some / no recorded call matches GLOB.
assert_called() {
  local line
  while IFS= read -r line; do
    # shellcheck disable=SC2053  # GLOB is a pattern on purpose
    [[ $line == $1 ]] && return 0
  done <"$STUB_DOCKER_LOG"
  fail "no docker call matches: $1"$'\n'"calls:"$'\n'"$(calls)"
}
refute_called() {
  local line
  while IFS= read -r line; do
    # shellcheck disable=SC2053
    [[ $line == $1 ]] && fail "unexpected docker call: $line"
  done <"$STUB_DOCKER_LOG"
  return 0
}

# compose_prefix ENGINE: how every recorded `docker compose` call of ENGINE's project starts (on
# Docker Engine 25+, which is what the stub's empty `docker info` counts as).
compose_prefix() {
  local extra=""
  [[ -f $LAB/compose/loader.yml ]] && extra+=" -f compose/loader.yml"
  [[ -f $LAB/compose/faults.yml ]] && extra+=" -f compose/faults.yml"
  [[ -f $LAB/compose/ycsb.yml ]] && extra+=" -f compose/ycsb.yml"
  extra+=" -f compose/healthcheck-start-interval.yml"
  echo "compose --project-directory $LAB -p lab-$1 -f compose/cluster.yml -f compose/engines/$1.yml$extra"
}

# all_up_rules: the stub reports every cluster service running and healthy, one-shots exited 0.
all_up_rules() {
  local ps='keyfile|exited||0\ncfg1|running|healthy|0\ncfg2|running|healthy|0\ncfg3|running|healthy|0'
  ps+='\nshard01-a|running|healthy|0\nshard01-b|running|healthy|0\nshard01-c|running|healthy|0'
  ps+='\nmongos|running|healthy|0\ninit|exited||0\nprometheus|running||0'
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}}" 0 "$ps"
  rule "compose * config --services" 0 'keyfile\ncfg1\ncfg2\ncfg3\nshard01-a\nshard01-b\nshard01-c\nmongos\ninit\nprometheus'
}

# path_without_docker: PATH on which `command -v docker` fails and every other program stays:
# each directory holding a docker executable is replaced by a directory (made once per test under
# BATS_TEST_TMPDIR) of links to all its entries but docker. Dropping the directory itself took
# bash and env with it where docker is /usr/bin/docker (Debian's and Ubuntu's docker.io), and
# run.sh's `#!/usr/bin/env bash` then failed with exit 127 before any check ran.
path_without_docker() {
  local d out=() IFS=: n=0 shadow
  for d in $PATH; do
    if [[ ! -x $d/docker ]]; then
      out+=("$d")
      continue
    fi
    n=$((n + 1))
    shadow=$BATS_TEST_TMPDIR/path-without-docker/$n
    if [[ ! -d $shadow ]]; then
      mkdir -p "$shadow"
      ln -s "$d"/* "$shadow"/ 2>/dev/null || true
      rm -f "$shadow/docker"
    fi
    out+=("$shadow")
  done
  echo "${out[*]}"
}

# start_test_server: mongo-java-server (loader/test/support/server.js) for the rest of the test;
# SERVER_URI, and SERVER_PID for stop_test_server (the server exits when its node parent goes).
start_test_server() {
  # A file of its own per call: a second server in one test must not be read from the first's.
  local server_out
  server_out=$(mktemp "$BATS_TEST_TMPDIR/server.XXXXXX")
  node -e "require('$REPO/loader/test/support/server.js').startServer().then((s) => console.log(s.uri))" >"$server_out" 2>&1 &
  SERVER_PID=$!
  local i
  for ((i = 0; i < 300; i++)); do
    SERVER_URI=$(grep -m1 '^mongodb://' "$server_out" || true)
    [[ -n $SERVER_URI ]] && return 0
    sleep 0.1
  done
  fail "mongo-java-server did not start: $(cat "$server_out")"
}

stop_test_server() {
  [[ -z ${SERVER_PID:-} ]] || kill "$SERVER_PID" 2>/dev/null || true
}

# table_engines: the engines of compose/engines.tsv, space-separated, in the table's order (what
# run.sh's "choose one of" lists): tests read the registry they check, so adding an engine (one
# file plus one row, DEVELOPERS.md) needs no test edit.
table_engines() { grep -v '^#' "$REPO/compose/engines.tsv" | tail -n +2 | cut -f1 | paste -sd' ' -; }
# table_profiles: the profiles of compose/profiles.tsv, as table_engines.
table_profiles() { grep -v '^#' "$REPO/compose/profiles.tsv" | tail -n +2 | cut -f1 | paste -sd' ' -; }
