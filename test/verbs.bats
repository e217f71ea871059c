#!/usr/bin/env bats
# Mistyped verbs and flags of another path: the nearest verb is named; --loaders
# without --on k8s points at --on k8s instead of "unknown flag".

load test_helper

setup() {
  setup_lab_with_loader
}

@test "a mistyped verb or experiment: exit 2 with the nearest one; a word near none: no guess" {
  lab experimnet2
  assert_failure 2
  assert_line --index 0 "error: unknown verb 'experimnet2'; did you mean 'experiment2'?"
  lab stauts
  assert_failure 2
  assert_line --index 0 "error: unknown verb 'stauts'; did you mean 'status'?"
  lab frobnicate
  assert_failure 2
  assert_line --index 0 "error: unknown verb 'frobnicate'"
  nothing_started
}

@test "edit_distance and nearest_word" {
  # shellcheck source=lib/common.sh
  source "$REPO/lib/common.sh"
  [[ $(edit_distance kitten sitting) == 3 ]]
  [[ $(edit_distance experimnet2 experiment2) == 2 ]]
  [[ $(edit_distance "" abc) == 3 ]]
  [[ $(nearest_word jurnal journal experiment1) == journal ]]
  if nearest_word up down status; then fail "a guess for 'up'"; fi
}

@test "--loaders without --on k8s: points at --on k8s (was: unknown flag '--loaders')" {
  lab experiment2 --loaders 3
  assert_failure 2
  assert_line --index 0 "error: --loaders runs that many loader pods on Kubernetes: it goes with --on k8s (./run.sh experiment2 --on k8s --loaders 3)"
  nothing_started
}

@test "fault stale-secondary: --dry-run without --yes says a real run needs it; an oplog size mongod cannot take is refused before anything" {
  lab fault stale-secondary --dry-run
  assert_success
  assert_output --partial "(dry run: a real run stops here without --yes, since this DESTROYS the wiredtiger cluster's data)"
  : >"$STUB_DOCKER_LOG" # the dry run's read-only probes (docker compose ps)
  lab fault stale-secondary --oplog-size-mb 99999999999 --yes --dry-run
  assert_failure 2
  assert_line --index 0 "error: --oplog-size-mb: 99999999999 is out of range 1..2147483647 (mongod takes --oplogSize as a 32-bit int)"
  nothing_started
}
