#!/usr/bin/env bats
# One name grammar: lib/common.sh is_name gives exactly test/vectors/names.tsv, as common/names.js
# does (report/test/names.test.js).

load test_helper

setup() { trace_test_lines_only; }

@test "is_name gives exactly test/vectors/names.tsv, as common/names.js does" {
  # shellcheck source=lib/common.sh
  source "$REPO/lib/common.sh"
  local input expected got n=0
  while IFS=$'\t' read -r input expected; do
    [[ -z $input || $input == '#'* ]] && continue
    n=$((n + 1))
    if is_name "$input"; then got=yes; else got=no; fi
    [[ $got == "$expected" ]] || fail "is_name '$input': got $got, expected $expected"
  done <"$REPO/test/vectors/names.tsv"
  ((n >= 20)) || fail "only $n vectors read"
  # an empty name (a side typed as =URI) is none
  if is_name ""; then fail "is_name '': an empty name passed"; fi
}
