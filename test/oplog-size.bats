#!/usr/bin/env bats
# --oplog-size MB (seeds/004's MMAPv1 default oplog, some 3.5-4 GB, which its du -sh and its
# stale secondaries depended on): each shard member's --oplogSize through LAB_OPLOG_MB in place of
# the engines table's, passed to the loader for summary.json storage.oplog_mb, refused in one line
# for a value mongod does not take, for inMemory beyond its store, over a fault's kept --oplogSize
# and with --uri. Stub docker.

load test_helper

setup() {
  setup_lab_with_loader
}

@test "up --oplog-size: LAB_OPLOG_MB is the given size; without it the engines table's" {
  lab up --engine mmapv1 --profile seed2013 --oplog-size 3800 --dry-run
  assert_success
  assert_output --regexp " LAB_OPLOG_MB=3800 .*docker compose "
  lab up --engine mmapv1 --profile seed2013 --oplog-size=3800 --dry-run
  assert_success
  assert_output --partial " LAB_OPLOG_MB=3800 "
  lab up --engine mmapv1 --profile seed2013 --dry-run
  assert_success
  assert_output --partial " LAB_OPLOG_MB=1024 "
  # inMemory: a size inside its store is taken
  lab up --engine inmemory --profile seed2013 --oplog-size 300 --dry-run
  assert_success
  assert_output --partial " LAB_OPLOG_MB=300 "
}

@test "an experiment and compare with --oplog-size: the stack's and the loader's (after --profile)" {
  lab experiment1 --engine mmapv1 --profile seed2013 --oplog-size 3800 --docs 10 --dry-run
  assert_success
  assert_output --partial " LAB_OPLOG_MB=3800 "
  assert_output --regexp "loader experiment1 .* --profile seed2013 --oplog-size 3800"
  lab compare experiment1 --engines mmapv1,rocksdb --profile seed2013 --oplog-size 3800 --docs 10 --repeat 1 --dry-run
  assert_success
  [[ $(grep -c -- "--profile seed2013 --oplog-size 3800" <<<"$output") -ge 2 ]] || fail "each side's loader: $output"
}

@test "--oplog-size refused in one line: not a whole number above 0, inMemory beyond its store, --uri" {
  local bad
  for bad in 0 -5 1.5 abc 012 10000000 ""; do
    lab up --engine mmapv1 --oplog-size="$bad" --dry-run
    assert_failure 2
    [[ ${lines[0]} == "error: --oplog-size must be a whole number of MB, 1-9999999 (got '$bad')" && ${#lines[@]} -le 2 ]] ||
      fail "--oplog-size=$bad: $output"
  done
  lab up --engine inmemory --profile laptop --oplog-size 512 --dry-run
  assert_failure 2
  assert_line --index 0 "error: --oplog-size 512: the inmemory engine keeps its oplog inside its 512 MB store (profile laptop), which it would fill: give less than 512 (the lab's own is 128)"
  lab compare experiment1 --engines mmapv1,inmemory --oplog-size 3800 --dry-run
  assert_failure 2
  assert_line --index 0 --partial "error: --oplog-size 3800: the inmemory engine keeps its oplog inside"
  lab experiment1 --uri mongodb://127.0.0.1:1/ --oplog-size 3800
  assert_failure 2
  assert_line --index 0 "error: --oplog-size does not apply to --uri: it sizes the oplog of the cluster this lab starts (the loader records the one at --uri from the server)"
  nothing_started
}

@test "--oplog-size over a fault's kept --oplogSize: refused, naming destroy; the same size is taken" {
  mkdir -p "$LAB/.state/mmapv1"
  echo "--oplogSize 16" >"$LAB/.state/mmapv1/shard-extra-args"
  lab up --engine mmapv1 --oplog-size 3800 --dry-run
  assert_failure 2
  assert_line --index 0 "error: --oplog-size 3800: the mmapv1 cluster was created by a fault with '--oplogSize 16', which its members keep: './run.sh destroy --engine mmapv1' first"
  lab up --engine mmapv1 --oplog-size 16 --dry-run
  assert_success
}

@test "--oplog-size with Kubernetes: refused in one line, not dropped" {
  lab experiment1 --on k8s --oplog-size 3800 --dry-run
  assert_failure 2
  assert_line --index 0 "error: --oplog-size sizes the oplog of the Compose stack this lab starts, not of a Kubernetes cluster's"
  lab k8s up --oplog-size 3800 --dry-run
  assert_failure 2
  assert_line --index 0 "error: --oplog-size sizes the oplog of the Compose stack this lab starts, not of a Kubernetes cluster's"
  nothing_started
}
