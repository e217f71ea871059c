#!/usr/bin/env bats
# One whole-number grammar: lib/common.sh parse_count gives exactly
# test/vectors/counts.tsv, as the loader's src/text/numbers.js does (loader/test/numbers.test.js); and
# through ./run.sh a negative or huge number reaches that grammar instead of "needs a value" or a
# number the user did not type.

load test_helper

setup() { trace_test_lines_only; }

@test "parse_count gives exactly test/vectors/counts.tsv" {
  # shellcheck source=lib/common.sh
  source "$REPO/lib/common.sh"
  local input min max expected got n=0
  while IFS=$'\t' read -r input min max expected; do
    [[ -z $input || $input == '#'* ]] && continue
    n=$((n + 1))
    if parse_count FLAG "$input" "$min" "$max"; then got=$COUNT; else got="error: $COUNT_ERROR"; fi
    [[ $got == "$expected" ]] || fail "parse_count FLAG '$input' $min $max: got '$got', expected '$expected'"
  done <"$REPO/test/vectors/counts.tsv"
  ((n >= 20)) || fail "only $n vectors read"
}

@test "mem_bytes gives exactly test/vectors/mem-sizes.tsv, as common/mem-size.js does" {
  # shellcheck source=lib/common.sh
  source "$REPO/lib/common.sh"
  local input expected got n=0
  while IFS=$'\t' read -r input expected; do
    [[ -z $input || $input == '#'* ]] && continue
    n=$((n + 1))
    got=$(mem_bytes "$input")
    [[ $got == "${expected/#-/0}" ]] || fail "mem_bytes '$input': got '$got', expected '$expected'"
  done <"$REPO/test/vectors/mem-sizes.tsv"
  ((n >= 15)) || fail "only $n vectors read"
}

@test "./run.sh EXPERIMENT: negative and huge numbers named as typed with the bounds, exit 2" {
  setup_lab_with_loader
  lab experiment1 --docs -5
  assert_failure 2
  assert_line --index 0 "error: --docs: -5 is out of range 1..9007199254740991"
  lab experiment1 --docs=-5
  assert_failure 2
  assert_line --index 0 "error: --docs: -5 is out of range 1..9007199254740991"
  lab experiment2 --rate -10
  assert_failure 2
  assert_line --index 0 "error: --rate: -10 is out of range 1..10000000"
  lab experiment2 --seed=-1
  assert_failure 2
  assert_line --index 0 "error: --seed: -1 is out of range 0..4294967295"
  lab experiment1 --docs 99999999999999999999999
  assert_failure 2
  assert_line --index 0 "error: --docs: 99999999999999999999999 is out of range 1..9007199254740991"
  nothing_started
}
