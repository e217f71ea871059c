#!/usr/bin/env bats
# ./run.sh gridfs (experiments/gridfs.yaml, the loader's gridfs kind) with the stub docker: help
# lists it, it runs in the stack over --via primary|mongos like the other experiments, bad sizes
# are refused in one line before anything starts, and it runs over --uri against mongo-java-server
# (upload, download, checksum, one folder per repetition). Loader-side details: loader/test/gridfs*.

# bats runs each test in a subshell; one_reason reads the output and lines that `run` set there.
# shellcheck disable=SC2030,SC2031
load test_helper

setup() {
  setup_lab_with_loader
}

# start_test_server / stop_test_server: test/test_helper.bash.
teardown() {
  stop_test_server
}

@test "gridfs: listed by help; in the stack to the shard's primary by default or through mongos (--via), its flags passed on" {
  lab help
  assert_success
  assert_output --regexp "gridfs +GridFS throughput: upload then download of one large file, MB/s per repetition\."
  lab gridfs --file-size 8MB --chunk-size 1MiB --bucket media --dry-run
  assert_success
  assert_output --regexp "\+ .* -p lab-wiredtiger .* run --rm --no-deps --build --use-aliases loader gridfs --uri mongodb://shard01-a:27017\\\\,shard01-b:27017\\\\,shard01-c:27017/\\\\\?replicaSet=shard01 --password-file /run/lab-secrets/root-password --metrics-host 0.0.0.0 --engine wiredtiger --file-size 8MB --chunk-size 1MiB --bucket media --grafana-url http://grafana:3000"
  lab gridfs --via mongos --file-size 8MB --repeat 2 --dry-run
  assert_success
  assert_output --regexp "loader gridfs --uri mongodb://mongos:27017/ .* --file-size 8MB --repeat 2 "
}

# one_reason TEXT: the output is "error: TEXT" and, at most, run.sh's pointer to its help.
one_reason() {
  assert_line --index 0 "error: $1"
  ((${#lines[@]} == 1)) || { ((${#lines[@]} == 2)) && [[ ${lines[1]} == "Run './run.sh help' for usage." ]]; } ||
    fail "more than the reason: $output"
}

@test "gridfs bad input: exit 2 with one line, nothing started (stack or --uri)" {
  local args want
  while IFS='|' read -r args want; do
    # shellcheck disable=SC2086  # the flags are words on purpose
    lab gridfs $args
    assert_failure 2
    one_reason "$want"
    nothing_started
    # shellcheck disable=SC2086
    lab gridfs --uri mongodb://db.example:27017/ $args
    assert_failure 2
    one_reason "$want"
    nothing_started
  done <<'CASES'
--file-size 0|--file-size: '0' is zero bytes (at least 1 B, e.g. 64MB)
--file-size 5gb|--file-size: unknown unit 'gb' in '5gb' (units B; KB, MB, GB, TB = 10^3..; K/KiB, M/MiB, G/GiB, T/TiB = 2^10..)
--file-size 5|--file-size: '5' has no unit (e.g. 5MB; units B; KB, MB, GB, TB = 10^3..; K/KiB, M/MiB, G/GiB, T/TiB = 2^10..)
--chunk-size 16MiB|--chunk-size: '16MiB' (16777216 bytes) is out of range 1 B..16383 KiB
--from-file /nonexistent.bin|--from-file: cannot read /nonexistent.bin: ENOENT
--clients 2|--clients does not apply to gridfs (one upload stream, then one download stream, as mongofiles does)
--checksum md5|--checksum: 'md5' is not a checksum (choose from: sha256, none)
CASES
  # the flags it takes, as the kind declares them
  # shellcheck disable=SC2016  # the script is node's
  want="--duration does not apply to gridfs (its gridfs workload takes $(cd "$REPO/loader" && node -p 'const k = require("./src/kinds"); k.flagsOf(k.kind("gridfs")).join(", ")'))"
  lab gridfs --duration 10s
  assert_failure 2
  one_reason "$want"
  nothing_started
  lab experiment2 --file-size 1MB
  assert_failure 2
  one_reason "--file-size does not apply to experiment2 (its read_update workload takes --duration, --preload-docs)"
  nothing_started
}

@test "gridfs --uri against mongo-java-server: two repetitions, each a folder with upload and download cases whose checksums match" {
  start_test_server
  lab gridfs --uri "$SERVER_URI" --engine bats-gridfs --metrics-port 0 --file-size 2MB --repeat 2
  kill "$SERVER_PID" 2>/dev/null || true
  assert_success
  [[ $(grep -c '^results: results/gridfs/bats-gridfs/' <<<"$output") == 2 ]] || fail "expected 2 results lines: $output"
  assert_line --regexp "^1 upload +1 +upload +8 "
  assert_line --regexp "^2 download +1 +download +8 "
  local dir
  while IFS= read -r dir; do
    [[ $dir == /* ]] || dir=$LAB/$dir
    grep -q '"checksum": "match"' "$dir/summary.json" || fail "$dir: no matching checksum"
    grep -q '"complete": true' "$dir/summary.json" || fail "$dir: not complete"
  done < <(sed -n 's/^results: //p' <<<"$output")
}
