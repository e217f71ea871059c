#!/usr/bin/env bats
# --journal-path PATH (seeds/000: the journal on its own disk): each shard
# member's journal on PATH/<member> through compose/journal-path.yml, passed to the loader for
# summary.json storage.journal_path, refused in one line where the engine has no journal directory
# of its own (engines table journal_dir: -), for a relative, missing, non-directory or ':' path and
# with --uri. Stub docker.

load test_helper

setup() {
  setup_lab_with_loader
  # a directory that exists: run.sh refuses a missing one (Docker would create it on the root disk)
  DISK2=$BATS_TEST_TMPDIR/disk2
  mkdir -p "$DISK2"
}

@test "up --journal-path: the overlay after the engine's, LAB_JOURNAL_PATH and the row's journal_dir" {
  lab up --engine wiredtiger --journal-path "$DISK2" --dry-run
  assert_success
  assert_output --regexp "LAB_JOURNAL_PATH=$DISK2 LAB_JOURNAL_DIR=journal docker compose .* -f compose/cluster.yml -f compose/engines/wiredtiger.yml -f compose/journal-path.yml "
  lab up --engine rocksdb --profile seed2013 --journal-path "$DISK2" --dry-run
  assert_success
  assert_output --partial "LAB_JOURNAL_DIR=db/journal"
  # without the flag: neither the overlay nor its variables
  lab up --engine wiredtiger --dry-run
  assert_success
  refute_output --partial "journal-path.yml"
  refute_output --partial "LAB_JOURNAL_PATH"
}

@test "an experiment with --journal-path: the loader records it (--journal-path after --profile)" {
  lab writeconcern --engine wiredtiger --journal-path "$DISK2" --ops 10 --dry-run
  assert_success
  assert_output --regexp "loader writeconcern .* --profile laptop --journal-path $DISK2"
}

@test "--journal-path refused: an engine without a journal directory, a relative path, --uri" {
  lab up --engine inmemory --journal-path "$DISK2" --dry-run
  assert_failure 2
  assert_line --index 0 "error: --journal-path: the inmemory engine has no journal directory of its own to move (engines table journal_dir: -)"
  lab up --engine wiredtiger --journal-path disk2 --dry-run
  assert_failure 2
  assert_line --index 0 "error: --journal-path must be an absolute host path (got 'disk2')"
  lab writeconcern --uri mongodb://127.0.0.1:1/ --journal-path "$DISK2"
  assert_failure 2
  assert_line --index 0 "error: --journal-path does not apply to --uri: it places the journals of the cluster this lab starts"
  nothing_started
}

@test "--journal-path refused: a missing directory, a regular file, a ':' that Compose would split, one line each" {
  touch "$BATS_TEST_TMPDIR/file"
  mkdir -p "$BATS_TEST_TMPDIR/x:y"
  local p
  for p in "$BATS_TEST_TMPDIR/missing" "$BATS_TEST_TMPDIR/file" "$BATS_TEST_TMPDIR/x:y"; do
    lab up --engine wiredtiger --journal-path "$p" --dry-run
    assert_failure 2
    [[ ${lines[0]} == "error: --journal-path: '$p' "* && ${#lines[@]} == 2 ]] || fail "--journal-path $p: $output"
    lab compare experiment2 --engines wiredtiger,percona-wt --journal-path "$p" --dry-run
    assert_failure 2
    [[ ${lines[0]} == "error: --journal-path: '$p' "* ]] || fail "compare --journal-path $p: $output"
  done
  nothing_started
  lab up --engine wiredtiger --journal-path "$BATS_TEST_TMPDIR/missing" --dry-run
  assert_line --index 0 --partial "does not exist: mount the journals' disk there first"
  lab up --engine wiredtiger --journal-path "$BATS_TEST_TMPDIR/file" --dry-run
  assert_line --index 0 --partial "is not a directory"
  lab up --engine wiredtiger --journal-path "$BATS_TEST_TMPDIR/x:y" --dry-run
  assert_line --index 0 --partial "holds a ':'"
}
