#!/usr/bin/env bats
# ./run.sh experiment1|2|3 (lib/experiment.sh) with the stub docker: every flag checked before
# anything starts, the stack brought up when it is not, the loader run in the stack with the
# secrets as files, --uri on the host without Docker, exit codes passed through.

load test_helper

setup() {
  setup_lab
  cp -R "$REPO/experiments" "$LAB/"
}

nothing_started() {
  [[ ! -s $STUB_DOCKER_LOG ]] || fail "docker was called:"$'\n'"$(calls)"
  [[ ! -e $LAB/.secrets ]] || fail "secrets were generated"
}

@test "help lists the experiment flags" {
  lab help
  assert_success
  assert_output --partial "experiment1|experiment2|experiment3"
  assert_output --regexp "--docs N +experiment1: documents to insert"
  assert_output --regexp "--clients LIST +client steps"
  assert_output --regexp "--duration DUR"
  assert_output --regexp "--rate N"
  assert_output --regexp "--uri URI"
}

@test "unknown flag or stray argument: exit 2, nothing started" {
  lab experiment2 --bogus 1
  assert_failure 2
  assert_output --partial "error: experiment2 does not take '--bogus'"
  nothing_started
  lab experiment1 extra
  assert_failure 2
  assert_output --partial "experiment1 does not take 'extra'"
  nothing_started
}

@test "bad values: exit 2 naming the flag, nothing started" {
  local args
  for args in "--docs abc" "--docs 0" "--clients 1,,2" "--clients 0" "--clients x" "--duration 30" "--duration 2x" \
    "--rate -1" "--seed x" "--uri http://h" "--docs" "--clients --duration"; do
    # shellcheck disable=SC2086
    lab experiment2 $args
    assert_failure 2
    assert_output --partial "error: --"
    nothing_started
  done
  lab experiment2 --docs 100
  assert_failure 2
  assert_output --partial "experiment2 takes --preload-docs, not --docs"
  lab experiment1 --duration 30s
  assert_failure 2
  assert_output --partial "experiment1 inserts --docs documents"
  lab experiment3 --password-file /etc/hostname
  assert_failure 2
  assert_output --partial "--password-file and --username go with --uri"
  lab experiment3 --engine rocksdb
  assert_failure 2
  assert_output --partial "unknown engine 'rocksdb'"
  nothing_started
}

@test "--dry-run: prints up, then the loader's compose run with the stack's secrets as files" {
  lab experiment2 --engine inmemory --clients 1,2 --duration=30s --rate 5000 --dry-run
  assert_success
  assert_output --partial "up -d"
  assert_output --regexp "\+ .*docker compose --project-directory [^ ]+ -p lab-inmemory .*-f compose/loader.yml .* --profile loader run --rm --build --use-aliases loader experiment2 --uri mongodb://shard01-a:27017\\\\,shard01-b:27017\\\\,shard01-c:27017/\\\\\\?replicaSet=shard01 --password-file /run/lab-secrets/root-password --metrics-host 0.0.0.0 --engine inmemory --clients 1,2 --duration 30s --rate 5000 --grafana-url http://grafana:3000 --grafana-password-file /run/lab-secrets/grafana-admin-password --image mongodb=percona/percona-server-mongodb:8.0"
  refute_output --regexp "password-file [^/]"
  refute_called "* run *"
  refute_called "* up *"
}

@test "--no-monitoring: no Grafana annotations asked for" {
  lab experiment3 --no-monitoring --dry-run
  assert_success
  assert_output --partial "loader experiment3 --uri mongodb://shard01-a:27017\\,shard01-b:27017\\,shard01-c:27017/\\?replicaSet=shard01"
  refute_output --partial "--grafana-url"
}

@test "stack already up: no up -d, the loader runs, the results path is printed" {
  all_up_rules
  mkdir -p "$LAB/results/experiment1/wiredtiger/20260101T000000Z"
  ln -s 20260101T000000Z "$LAB/results/experiment1/wiredtiger/latest"
  lab experiment1 --docs 1000
  assert_success
  refute_called "* up -d"
  assert_called "$(compose_prefix wiredtiger) -f compose/monitoring.yml --profile loader run --rm --build --use-aliases loader experiment1 --uri mongodb://shard01-a:27017,shard01-b:27017,shard01-c:27017/?replicaSet=shard01 --password-file /run/lab-secrets/root-password --metrics-host 0.0.0.0 --engine wiredtiger --docs 1000 *"
  assert_output --partial "results: results/experiment1/wiredtiger/20260101T000000Z"
}

@test "the engine image's digest goes into the run's summary (--image), the tag alone when Docker has none" {
  all_up_rules
  rule "image inspect * mongo:8.0" 0 "mongo@sha256:5eb1"
  lab experiment3 --clients 1
  assert_success
  assert_called "* loader experiment3 * --image mongodb=mongo:8.0@sha256:5eb1"
  : >"$STUB_DOCKER_RULES"
  all_up_rules
  lab experiment3 --clients 1
  assert_success
  assert_called "* loader experiment3 * --image mongodb=mongo:8.0"
}

@test "--via: the shard's primary by default (as seeds/004), mongos on request; bad or misplaced values are exit 2" {
  lab experiment3 --dry-run
  assert_success
  assert_output --partial "loader experiment3 --uri mongodb://shard01-a:27017\\,shard01-b:27017\\,shard01-c:27017/\\?replicaSet=shard01 "
  lab experiment3 --via mongos --dry-run
  assert_success
  assert_output --partial "loader experiment3 --uri mongodb://mongos:27017/ "
  lab experiment3 --via config
  assert_failure 2
  assert_output --partial "--via needs primary or mongos (got 'config')"
  lab experiment3 --via mongos --uri mongodb://db.example:27017/
  assert_failure 2
  assert_output --partial "with --uri the URI says it"
  nothing_started
}

@test "stack down: up -d first, then the loader" {
  # lib/cluster.sh's ps format; init has exited 0 once `up -d` returns.
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  # bounded: should the cluster's ps format change, fail in 60 s instead of up's 600 s wait
  run timeout 60 "$LAB/run.sh" experiment3 --clients 1 --duration 5s --no-monitoring </dev/null
  assert_success
  run grep -n -e " up -d" -e " run --rm" "$STUB_DOCKER_LOG"
  [[ ${lines[0]} == *" up -d"* ]] || fail "up -d must come first: $output"
  [[ ${lines[1]} == *" run --rm --build --use-aliases loader experiment3 "* ]] || fail "then the loader: $output"
}

@test "the loader's exit code is passed through (1 incomplete run, 130 Ctrl-C)" {
  all_up_rules
  rule "compose * run --rm *" 1
  lab experiment2 --no-monitoring
  assert_failure 1
  : >"$STUB_DOCKER_RULES"
  all_up_rules
  rule "compose * run --rm *" 130
  lab experiment2 --no-monitoring
  assert_failure 130
}

@test "--uri: the loader on the host, no Docker at all" {
  lab experiment3 --uri mongodb://db.example:27017/ --engine inmemory --clients 2 --dry-run
  assert_success
  assert_output --regexp "\+ node [^ ]+/loader/bin/lab-loader.js experiment3 --uri mongodb://db.example:27017/ --engine inmemory --results-dir [^ ]+/results --clients 2"
  nothing_started
}

@test "--uri runs the real loader: an unreachable server is exit 1 with the loader's message" {
  ln -s "$REPO/loader" "$LAB/loader"
  lab experiment3 --uri mongodb://127.0.0.1:1/ --server-selection-timeout 1s --engine wiredtiger
  assert_failure 1
  assert_output --partial "cannot reach the server at mongodb://127.0.0.1:1/ within 1s"
  assert_output --partial "results: results/experiment3/wiredtiger/"
  [[ -f $LAB/results/experiment3/wiredtiger/latest/summary.json ]]
  nothing_started
}

@test "--uri without node on PATH: exit 1 naming the fix" {
  local bin=$BATS_TEST_TMPDIR/bin f
  mkdir -p "$bin"
  # The tools run.sh and lib/ use, and not node.
  for f in bash env dirname basename cat grep tail head cut awk paste id readlink mkdir sed sort uniq tr wc rm ls chmod mktemp; do
    ln -s "$(command -v "$f")" "$bin/$f"
  done
  PATH="$REPO/test/stub:$bin" run "$LAB/run.sh" experiment3 --uri mongodb://127.0.0.1:1/ </dev/null
  assert_failure 1
  assert_output --partial "node is not installed"
  nothing_started
}
