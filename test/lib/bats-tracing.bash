# shellcheck shell=bash
# trace_test_lines_only: bats runs each test under `set -T`, so its DEBUG trap (bats_debug_trap,
# a stack capture per command, for the failing line's report) runs inside every function the test
# calls: the lab's own bash sourced into a test ran about 8 times slower (fault.bats' docker-ops
# test: 40 CPU s, 5 without; bats 1.8.2). Called first in every file's setup (test/run-all.bats
# checks): the test's own lines are still traced, so a failure names its line; the functions it
# calls are not. One report is lost: a test line whose command substitution's own command fails
# is reported at the file's first line; LAB_BATS_TRACE=1 keeps bats' tracing whole for that.
trace_test_lines_only() { [[ ${LAB_BATS_TRACE:-} == 1 ]] || set +T; }
