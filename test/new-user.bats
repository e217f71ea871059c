#!/usr/bin/env bats
# What a new user types that the lab took wrongly: a ~ in --flag=~/x, a flag given twice or before
# the verb, a flag compare does not know given without a value, a newline in a value, a TMPDIR that
# is not there, flags that only ./run.sh may set, a results folder that cannot be written, a long
# results path in compare's state line. Each: one clear line, the right exit, nothing lost.

load test_helper

setup() { setup_lab_with_loader; }
teardown() { stop_test_server; }

@test "--results-dir=~/x is the home's x, not a folder named ~" {
  export HOME=$BATS_TEST_TMPDIR/home
  mkdir -p "$HOME"
  cd "$BATS_TEST_TMPDIR"
  lab experiment1 --uri mongodb://127.0.0.1:1/ --docs 100 --results-dir=~/x --dry-run
  assert_success
  assert_output --partial "--results-dir $HOME/x"
  [[ ! -e "$BATS_TEST_TMPDIR/~" && ! -e "$LAB/~" ]] || fail "a folder named ~ was made"
}

@test "a flag given twice that would replace the first (--uri, --engines) is refused in one line" {
  lab experiment1 --uri mongodb://127.0.0.1:1/ --uri mongodb://127.0.0.1:2/ --docs 100
  assert_failure 2
  assert_output --partial "error: --uri is given twice: an experiment runs against one cluster"
  lab compare experiment2 --engines wiredtiger,inmemory --engines wiredtiger,rocksdb
  assert_failure 2
  assert_output --partial "error: --engines is given twice"
}

@test "a flag before the verb, an unknown flag without a value to compare, a newline in a value: each said as what it is" {
  lab --engine inmemory up
  assert_failure 2
  assert_output --partial "error: the verb comes first: ./run.sh VERB [flags] (got '--engine' before any verb"
  lab compare experiment2 --uri a=mongodb://127.0.0.1:1/ --uri b=mongodb://127.0.0.1:1/ --verbose
  assert_failure 2
  refute_output --partial "needs a value"
  assert_output --partial "--verbose"
  lab experiment2 --uri mongodb://127.0.0.1:1/ --duration $'3\nx'
  assert_failure 2
  assert_line "error: --duration '3\\nx' is not a duration (use a number and a unit: 500ms, 30s, 2m, 1h; decimals allowed)"
  lab experiment2 --via $'pri\nmary'
  assert_failure 2
  assert_line "error: --via needs primary or mongos (got 'pri\\nmary')"
}

@test "a TMPDIR that is not there: one line, exit 1, before anything runs" {
  TMPDIR=$BATS_TEST_TMPDIR/gone run "$LAB/run.sh" experiment1 --uri mongodb://127.0.0.1:1/ --docs 100 </dev/null
  assert_failure 1
  assert_output "error: TMPDIR='$BATS_TEST_TMPDIR/gone' is not a writable folder (the runs keep their temporary files there): create it, or unset TMPDIR"
}

@test "--comparison and --image are ./run.sh's own: typed by hand they are refused (they forged a run's provenance)" {
  local f
  for f in "--comparison cmp-1:a:1" "--image mongod=mongo:1"; do
    # shellcheck disable=SC2086  # flag and value as two words
    lab experiment1 --uri mongodb://127.0.0.1:1/ --docs 100 $f
    assert_failure 2
    assert_output --partial "is set by ./run.sh itself"
  done
  lab help
  assert_output --partial "[--by engine|server|profile|LABEL] [--wide] [--results-dir DIR]"
}

@test "compare into a results folder it cannot write: one line, exit 1, no resume line for state it could not create" {
  local ro=$BATS_TEST_TMPDIR/ro
  mkdir -p "$ro"
  mount -t tmpfs -o ro,size=64k tmpfs "$ro" || fail "cannot mount a read-only tmpfs (the tests run as root)"
  lab compare experiment1 --uri a=mongodb://127.0.0.1:1/ --uri b=mongodb://127.0.0.1:1/ --docs 100 --results-dir "$ro/r"
  umount "$ro"
  assert_failure 1
  assert_output --partial "cannot create the comparison's state in $ro/r/ (not writable?)"
  refute_output --partial "resume"
  refute_output --regexp "mkdir: |Read-only file system"
}

@test "compare's state line fits 120 columns with a long absolute --results-dir" {
  local dir=$BATS_TEST_TMPDIR/a-results-folder-with-a-rather-long-name/and-another-level-below-it/runs
  start_test_server
  LAB_WRAP=120 run "$LAB/run.sh" compare experiment1 --uri "a=$SERVER_URI" --uri "b=$SERVER_URI" --repeat 1 --docs 100 --metrics-port 0 --results-dir "$dir" </dev/null
  assert_success
  local line words w longest
  while IFS= read -r line; do
    # a line holding a word that alone nearly fills a line (a path) cannot be wrapped at a space
    read -r -a words <<<"$line"
    longest=0
    for w in "${words[@]}"; do ((${#w} <= longest)) || longest=${#w}; done
    ((${#line} <= 120 || longest > 100)) || fail "${#line} columns: $line"
  done <<<"$output"
  assert_output --partial "resume with:"
}

@test "compare without node on PATH: the one line that says so, before anything runs (a cut-off docker warning before)" {
  # PATH: the tools run.sh uses, node and docker left out
  local bin=$BATS_TEST_TMPDIR/bin c p
  mkdir -p "$bin"
  for c in bash sed awk grep cat mktemp tee date dirname basename tr cut paste sort head tail find ps wc cksum ls rm mkdir chmod mv env nproc sleep kill stat; do
    p=$(command -v "$c") && ln -sf "$p" "$bin/$c"
  done
  PATH=$bin run "$LAB/run.sh" compare experiment2 --uri a=mongodb://127.0.0.1:1/ --uri b=mongodb://127.0.0.1:1/ --repeat 1 </dev/null
  assert_failure 1
  assert_output --partial "error: node is not installed: --uri runs the loader on this host"
  [[ ${#lines[@]} -le 2 ]] || fail "more than the error: $output"
}

@test "a plan of four engines fits 120 columns" {
  LAB_WRAP=120 run "$LAB/run.sh" compare experiment2 --engines wiredtiger,percona-wt,inmemory,mmapv1 --repeat 2 --dry-run </dev/null
  assert_success
  local line
  while IFS= read -r line; do
    ((${#line} <= 120)) || fail "${#line} columns: $line"
  done <<<"$output"
  assert_output --regexp "comparison cmp-[0-9T]+Z-[0-9a-f]{4}: experiment2 on engines"
}
